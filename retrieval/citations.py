"""The one citation serialiser (DESIGN.md "Citations")."""
from __future__ import annotations

from typing import Any


def citation_for(chunk: Any, document: Any) -> dict[str, Any]:
    """Citation object for a chunk of a document (model instances or row objects).

    Access fields appear only when the source carries that restriction.
    """
    citation: dict[str, Any] = {
        "kind": "chunk",
        "document_id": str(document.id),
        "document_title": document.title,
        "chunk_id": str(chunk.id),
        "chunk_ordinal": chunk.ordinal,
        "page_number": chunk.page_number,
        "section_path": list(chunk.section_path or []),
        "legal_reference": chunk.legal_reference,
        "char_start": chunk.char_start,
        "char_end": chunk.char_end,
    }
    if document.confidential:
        citation["confidential"] = True
    if document.owning_org_unit:
        citation["owning_org_unit"] = document.owning_org_unit
    if document.min_position_level is not None:
        citation["min_position_level"] = document.min_position_level
    return citation
