"""Words a line break split with a hyphen, joined again ("sebagai-\nmana", "Penyelenggara-an", "mela-lui").

A hyphen between two words is usually Indonesian's own: reduplication ("undang-undang", "sebesar-besarnya",
"terus-menerus") or a compound ("antar-Daerah"). A typesetter's hyphen splits one word, and that word is written
whole elsewhere in the same document. So two parts are joined when the continuation starts in lower case (a
split never capitalises it), the parts do not repeat each other, and the document writes the joined word whole
at least ``MIN_WHOLE`` times. The document is the vocabulary: no word list, and a document that never writes
"sebagaimana" whole keeps "sebagai-mana" as printed.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable

MIN_WHOLE = 2
_SPLIT = re.compile(r"\b([^\W\d_]{2,})-[ \t]*\n?[ \t]*([^\W\d_]{2,})\b")
_WORD = re.compile(r"[^\W\d_]+")
_OVERLAP = 3          # letters one part repeats of the other ("sebesar-besarnya", "terus-menerus")


def vocabulary(texts: Iterable[str]) -> Counter:
    """How often the document writes each word whole (lower-cased)."""
    counts: Counter = Counter()
    for text in texts:
        counts.update(word.lower() for word in _WORD.findall(text))
    return counts


def _repeats(first: str, second: str) -> bool:
    """The parts repeat each other: a suffix of the first begins the second ("perundang-undangan"), or both end
    alike ("tukar-menukar", "terus-menerus")."""
    first, second = first.lower(), second.lower()
    if any(second.startswith(first[-n:]) for n in range(_OVERLAP, len(first) + 1)):
        return True
    return len(first) >= _OVERLAP and len(second) >= _OVERLAP and first[-_OVERLAP:] == second[-_OVERLAP:]


def join_split_words(text: str, words: Counter) -> str:
    """``text`` with each typesetter-split word whole again (``words``: the document's ``vocabulary``)."""
    def join(match: re.Match) -> str:
        first, second = match.group(1), match.group(2)
        if not second[0].islower() or _repeats(first, second) or words[(first + second).lower()] < MIN_WHOLE:
            return match.group(0)
        return first + second

    return _SPLIT.sub(join, text)
