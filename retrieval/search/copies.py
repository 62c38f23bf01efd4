"""A passage found in two copies of one regulation is listed once.

A partner's collection often holds one law twice, a PDF and a text file of it (the shared corpus holds nine such
pairs): their identity cards agree and their passages carry the same legal reference ("Undang-Undang Nomor 13
Tahun 2003 Pasal 79"). Both copies' passages rank side by side, so a question about annual leave would spend two of
its five places on one article. The higher-ranked copy's passage stays; the other's place goes to the next passage.
Passages of documents without a complete identity card, or without a legal reference, are never merged.

The answer step reads both copies (``one_copy=False``): its decision's weights were fitted on passages that held
them, and merging them there cost three answers of the evaluation sets (docs/retrieval.md, session 35).
"""
from __future__ import annotations

import uuid
from typing import Callable, Sequence

from retrieval.models import Chunk

# How many candidates a search may draw on for each place it returns: enough for every passage to have a copy.
CANDIDATES_PER_PLACE = 2


def copy_key(chunk: Chunk) -> tuple | None:
    """What a copy of this passage shares with it: its regulation's identity card and its legal reference."""
    document = chunk.document
    if not (document.instrument_type and document.number and document.year and chunk.legal_reference):
        return None
    return document.instrument_type.lower(), document.number.lower(), document.year, chunk.legal_reference


def without_copies(ranked: Sequence[tuple[uuid.UUID, float]], chunks: dict[uuid.UUID, Chunk], top_k: int,
                   load: Callable[[Sequence[uuid.UUID]], dict[uuid.UUID, Chunk]], *,
                   merge: bool = True) -> list[tuple[uuid.UUID, float]]:
    """The first ``top_k`` of ``ranked``, each passage of another copy of an earlier one left out (kept with
    ``merge`` false). ``chunks`` holds the passages loaded so far; ``load`` reads more only when a copy was left
    out, so a search whose first ``top_k`` hold no copies loads nothing more."""
    kept: list[tuple[uuid.UUID, float]] = []
    seen: dict[tuple, uuid.UUID] = {}
    for place, (chunk_id, score) in enumerate(ranked):
        if chunk_id not in chunks:
            chunks.update(load([c for c, _ in ranked[place:place + top_k - len(kept)] if c not in chunks]))
        chunk = chunks.get(chunk_id)
        if chunk is None:
            continue
        key = copy_key(chunk) if merge else None
        if key is not None and seen.setdefault(key, chunk.document_id) != chunk.document_id:
            continue
        kept.append((chunk_id, score))
        if len(kept) == top_k:
            break
    return kept
