"""How the staff commands describe a stored document, one line each (and its sections with -v 2)."""
from __future__ import annotations

from retrieval.instruments import number_and_year
from retrieval.models import Document
from retrieval.selectors import document_section_counts


def identity_label(document: Document) -> str:
    """``Qanun Aceh 91/2024``: the parsed instrument type, number and year, or ``(no identity)``."""
    kind = document.instrument_type or ""
    number = number_and_year(document.number, document.year)
    label = " ".join(part for part in (kind, number) if part)
    return label or "(no identity)"


def document_line(document: Document) -> str:
    return (f"[{identity_label(document)}] {document.title} → {document.collection_id} · "
            f"{document.chunk_count} chunks")


def section_lines(document: Document) -> list[str]:
    sections = document_section_counts(document_id=document.id)
    lines = [f"    {len(sections)} top-level sections:"]
    lines += [f"      {name}: {count} chunks" for name, count in sections]
    return lines
