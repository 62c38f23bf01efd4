"""Request and response schemas of the retrieval routes (seed field names)."""
from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from ninja import Schema
from pydantic import ConfigDict, Field

from kernel.schemas import StrictSchema


def _minimum_one(schema: dict) -> None:
    schema.pop("exclusiveMinimum", None)
    schema["minimum"] = 1


class Citation(Schema):
    """Shared citation object; ``confidential``, ``owning_org_unit`` and
    ``min_position_level`` are added only when the source carries that restriction."""

    model_config = ConfigDict(extra="allow")

    kind: Literal["chunk"] = Field("chunk", description='Indexed document passage ("chunk"). Branch on kind when rendering.')
    document_id: str = Field(description="Source document ID (UUID); use it in `document_ids` to focus a later question.")
    document_title: str = Field(description="Source document title, ready to render.")
    chunk_id: str = Field(description="Source chunk ID (UUID); the `[chunk:<uuid>]` label in a /query answer names it.")
    chunk_ordinal: int = Field(description="Chunk ordinal within the document.")
    page_number: int | None = Field(description="Source page number when known.")
    section_path: list[str] = Field(description='Hierarchical section path, e.g. ["Bab III", "Pasal 8"]; empty when unknown.')
    legal_reference: str | None = Field(description="Legal citation extracted for the chunk when known, e.g. "
                                        '"Qanun Aceh No. 1 Tahun 2024 Pasal 8".')
    char_start: int | None = Field(description="Start character offset within the source text when known.")
    char_end: int | None = Field(description="End character offset within the source text when known.")


COLLECTION_IDS = ("Optional retrieval scope. Omitted, null, [] or only blank entries: every collection the caller may "
                  "access. Entries are trimmed and deduplicated; an unknown or forbidden ID matches nothing (never 403).")
DOCUMENT_IDS = ("Optional selected-document focus (documents.id UUIDs, e.g. a citation's document_id); intersects with "
                "collection_ids and access. Omitted, null or []: all accessible documents. A malformed UUID is 422; an "
                "unknown or forbidden one matches nothing (never 403).")


class SearchRequest(StrictSchema):
    query: str = Field(min_length=1, description='Search text. "" is 422; a whitespace-only string is 400.')
    mode: Literal["hybrid", "semantic", "lexical"] = Field(
        "hybrid", description="Retrieval strategy: hybrid (semantic + lexical fused, the default), semantic (vectors "
                              "only) or lexical (PostgreSQL full text only: exact terms, statute numbers).")
    # gt=0 keeps the seed's 422 body ("greater_than", ctx gt 0); for an integer that is "minimum 1", which is
    # what the schema says, so /docs and /redoc show 1..50 rather than an exclusive 0.
    top_k: int = Field(5, gt=0, le=50, description="Maximum number of chunks returned after ranking (1-50).",
                       json_schema_extra=_minimum_one)
    collection_ids: list[str] | None = Field(None, description=COLLECTION_IDS)
    document_ids: list[uuid.UUID] | None = Field(None, description=DOCUMENT_IDS)


class SearchResult(Schema):
    chunk_id: str = Field(description="Source chunk ID (UUID). Mirrors citation.chunk_id.")
    document_id: str = Field(description="Source document ID (UUID). Mirrors citation.document_id.")
    ordinal: int = Field(description="Chunk ordinal within the document.")
    text: str = Field(description="Retrieved chunk text.")
    score: float = Field(description="Retrieval score; higher ranks first. Not comparable across modes.")
    citation: Citation = Field(description="Full citation metadata (the shared citation object).")


class SearchResponse(Schema):
    mode: Literal["hybrid", "semantic", "lexical"] = Field(description="The mode used for the request.")
    results: list[SearchResult] = Field(description="Ranked chunks; [] when nothing visible matches (still 200).")


class IngestionAccepted(Schema):
    ingestion_id: str = Field(description="Ingestion ID (UUID) to poll at GET /ingestions/{ingestion_id}.")
    status: str = Field(description='Always "queued" on acceptance.')
    source_name: str = Field(description="The uploaded file's name.")


class IngestionOut(Schema):
    ingestion_id: str = Field(description="Ingestion ID (UUID).")
    status: Literal["queued", "running", "succeeded", "failed"] = Field(description="Where the ingestion is.")
    outcome: str | None = Field(description="Once finished: ingested, unchanged, replaced or updated; null before.")
    source_name: str = Field(description="The uploaded file's name.")
    collection_id: str = Field(description="Collection the document goes into.")
    stored_document_id: str | None = Field(description="The stored document's ID (UUID) once succeeded; use it in "
                                                       "document_ids.")
    chunk_count: int = Field(description="Chunks stored (0 until succeeded).")
    ocr_pages_done: int = Field(0, description="A scanned PDF's pages read by OCR so far (0 when none need it).")
    ocr_pages_total: int = Field(0, description="Pages of the PDF that need OCR (0 when it has a text layer).")
    error: str | None = Field(description="Why it failed; null otherwise.")
    created_at: datetime = Field(description="When the upload was accepted.")
    updated_at: datetime = Field(description="Last status change.")


class IdentityCard(Schema):
    instrument_type: str | None = Field(description='Parsed instrument type, e.g. "Qanun Aceh", "Peraturan Gubernur".')
    number: str | None = Field(description="Instrument number as written.")
    year: int | None = Field(description="Instrument year.")
    subject: str | None = Field(description='What it regulates ("tentang …").')
    issuer: str | None = Field(description="Issuing authority.")
    place_enacted: str | None = Field(description="Where it was enacted (ditetapkan di).")
    date_enacted: str | None = Field(description="When it was enacted, as written.")
    signatory: str | None = Field(description="Who signed it.")


class DocumentOut(Schema):
    model_config = ConfigDict(extra="allow")

    id: str = Field(description="Document ID (UUID), the value document_ids takes.")
    title: str = Field(description="Document title.")
    collection_id: str = Field(description="Collection the document belongs to.")
    status: str = Field(description="indexed once searchable.")
    source_name: str = Field(description="Source file name.")
    source_format: str = Field(description="pdf, txt, md, html or docx.")
    version: int = Field(description="Increases each time a changed file replaces the document.")
    chunk_count: int = Field(description="Chunks indexed for the document.")
    extraction: Literal["text", "ocr", "mixed"] = Field(
        "text", description="How its text was read: a text layer, OCR of a scan, or both (OCR only where the layer "
                            "fails).")
    identity: IdentityCard = Field(description="The parsed identity card of the regulation.")
    indexed_at: datetime | None = Field(description="When the current version became searchable.")


class DocumentPage(Schema):
    count: int = Field(description="Documents visible to the caller in the selection (all pages).")
    items: list[DocumentOut] = Field(description="This page, ordered by title.")
