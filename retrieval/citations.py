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
    citation.update(restriction_fields(document))
    return citation


def restriction_fields(document: Any) -> dict[str, Any]:
    """The access restrictions a source carries; empty for an unrestricted one."""
    fields: dict[str, Any] = {}
    if document.confidential:
        fields["confidential"] = True
    if document.owning_org_unit:
        fields["owning_org_unit"] = document.owning_org_unit
    if document.min_position_level is not None:
        fields["min_position_level"] = document.min_position_level
    return fields


def tool_citation(*, tool: str, call: str, document_title: str, source_title: str | None = None,
                  source_name: str | None = None, source_id: str | None = None, period: str | None = None,
                  source_url: str | None = None) -> dict[str, Any]:
    """Citation object of a tool read (MCP, workbook, portal, SQL): ``tool`` + ``call``, no document/chunk ids.

    Callers add what their read carries beyond the seed's fields (``read_at``, ``sql``, access restrictions).
    """
    return {
        "kind": "tool", "tool": tool, "call": call, "document_id": None, "chunk_id": None,
        "document_title": document_title, "source_title": source_title, "source_name": source_name,
        "source_id": source_id, "period": period, "source_url": source_url,
    }
