"""What the model is shown: labelled passages and memories, delimited as untrusted data.

Passage text is data, never instructions: it goes inside ``<passage>`` blocks
with ``<`` and ``>`` escaped, so a passage cannot close its own block and speak
as the system or the user (a retrieved "ignore previous instructions" stays
inside the data it came in).
"""
from __future__ import annotations

import html
import uuid
from dataclasses import replace
from typing import Iterable, Sequence

from answering.types import Passage

SNIPPET_CHARS = 1800
TIER_NOTES = {
    "all-words fill": "all-words fill (every term found; the count is a lower bound)",
    "NONE": "NONE (no passage contains every term; these results match only some terms: rewrite the search)",
}


def untrusted(text: str) -> str:
    return html.escape(text, quote=False)


class PassageLedger:
    """Passages shown to the model in one answer, keyed P1, P2, … in the order first shown."""

    def __init__(self) -> None:
        self._by_chunk: dict[uuid.UUID, Passage] = {}
        self._by_key: dict[str, Passage] = {}

    def show(self, passages: Iterable[Passage]) -> list[Passage]:
        shown = []
        for passage in passages:
            keyed = self._by_chunk.get(passage.chunk_id)
            if keyed is None:
                keyed = replace(passage, key=f"P{len(self._by_key) + 1}")
                self._by_chunk[passage.chunk_id] = keyed
                self._by_key[keyed.key] = keyed
            shown.append(keyed)
        return shown

    def get(self, key: str) -> Passage | None:
        return self._by_key.get(key)

    def passages(self) -> list[Passage]:
        return list(self._by_key.values())

    def document_ids(self) -> set[uuid.UUID]:
        return {p.document_id for p in self._by_key.values()}


def passage_block(passage: Passage, limit: int = SNIPPET_CHARS) -> str:
    text = passage.text
    cut = len(text) > limit
    if cut:
        text = text[:limit]
    attributes = (f'key="{passage.key}" document_id="{passage.document_id}" '
                  f'source="{untrusted(passage.identity)}"')
    attributes += ' cut="true"' if cut else ""
    return f"<passage {attributes}>\n{untrusted(text)}\n</passage>"


def passages_text(passages: Sequence[Passage]) -> str:
    return "\n".join(passage_block(p) for p in passages)


def search_result_text(passages: Sequence[Passage], tier: str | None) -> str:
    """The tier decision first, then how many passages, then the passages (seed: search_documents)."""
    lines = []
    if tier and tier != "EMPTY":
        if tier.startswith("PARTIAL"):
            count = tier.split()[-1]
            lines.append(f"Keyword match: {tier} (only {count} passages contain every term; the rest match only "
                         "some terms: rewrite the search rather than treat them as confirmation)")
        else:
            lines.append(f"Keyword match: {TIER_NOTES.get(tier, tier)}")
    lines.append(f"{len(passages)} passages returned." if passages else "No passages returned.")
    if passages:
        lines.append(passages_text(passages))
    return "\n".join(lines)


def memory_block(key: str, text: str) -> str:
    return f'<memory key="{key}">{untrusted(text)}</memory>'
