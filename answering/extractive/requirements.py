"""A requirement that excludes what a yes/no question asks about.

"Pengurus partai politik boleh mendaftar?" is answered by a list of requirements one of whose items rules it out
("g. tidak sedang menjadi anggota atau pengurus partai politik …"): the answer is no, said with the list's
lead-in and that item. A requirement that merely names the subject says nothing either way.
"""
from __future__ import annotations

import re

from answering.text import content_stems

REQUIREMENT_LEAD = re.compile(r"\b(?:syarat|persyaratan|kriteria)\b", re.I)
_NEGATED_ITEM = re.compile(r"^\W*(?:(?:[a-z]|\d{1,2})[.)]\s*)?(?:tidak|bukan|belum)\b", re.I)
_REACH = 10              # words of the item after its negation that must carry the question's words
_LEAST_SHARED = 2


def excluding_item(asked: frozenset[str], lead_in: str, items: tuple[str, ...]) -> str | None:
    """The negated requirement that carries two of the question's words (``asked``: its content stems, modal
    words left out); None when the unit states no such requirement."""
    if not REQUIREMENT_LEAD.search(lead_in):
        return None
    for item in items:
        negation = _NEGATED_ITEM.match(item)
        if not negation:
            continue
        words = item[negation.end():].split()[:_REACH]
        if len(content_stems(" ".join(words)) & asked) >= _LEAST_SHARED:
            return item
    return None
