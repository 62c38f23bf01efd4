"""Request and response schemas of the retrieval routes (seed field names)."""
from __future__ import annotations

import uuid
from datetime import datetime
from typing import Literal

from ninja import Schema

from acehrag.hygiene import PlainTextModel
from pydantic import ConfigDict, Field


class StrictSchema(PlainTextModel, Schema):
    """Unknown request fields are a 422, as the seeds (FastAPI) require; so are control characters."""

    model_config = ConfigDict(extra="forbid")


class Citation(Schema):
    """Shared citation object; ``confidential``, ``owning_org_unit`` and
    ``min_position_level`` are added only when the source carries that restriction."""

    model_config = ConfigDict(extra="allow")

    kind: Literal["chunk"] = "chunk"
    document_id: str
    document_title: str
    chunk_id: str
    chunk_ordinal: int
    page_number: int | None
    section_path: list[str]
    legal_reference: str | None
    char_start: int | None
    char_end: int | None


class SearchRequest(StrictSchema):
    query: str = Field(min_length=1)
    mode: Literal["hybrid", "semantic", "lexical"] = "hybrid"
    top_k: int = Field(5, gt=0, le=50)
    collection_ids: list[str] | None = None
    document_ids: list[uuid.UUID] | None = None


class SearchResult(Schema):
    chunk_id: str
    document_id: str
    ordinal: int
    text: str
    score: float
    citation: Citation


class SearchResponse(Schema):
    mode: Literal["hybrid", "semantic", "lexical"]
    results: list[SearchResult]


class ErrorOut(Schema):
    detail: str


class IngestionAccepted(Schema):
    ingestion_id: str
    status: str
    source_name: str


class IngestionOut(Schema):
    ingestion_id: str
    status: Literal["queued", "running", "succeeded", "failed"]
    outcome: str | None
    source_name: str
    collection_id: str
    stored_document_id: str | None
    chunk_count: int
    error: str | None
    created_at: datetime
    updated_at: datetime


class IdentityCard(Schema):
    instrument_type: str | None
    number: str | None
    year: int | None
    subject: str | None
    issuer: str | None
    place_enacted: str | None
    date_enacted: str | None
    signatory: str | None


class DocumentOut(Schema):
    model_config = ConfigDict(extra="allow")

    id: str
    title: str
    collection_id: str
    status: str
    source_name: str
    source_format: str
    version: int
    chunk_count: int
    identity: IdentityCard
    indexed_at: datetime | None


class DocumentPage(Schema):
    count: int
    items: list[DocumentOut]
