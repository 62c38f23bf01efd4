"""Request schemas of the answer routes (seed: query-search-api)."""
from __future__ import annotations

import uuid

from typing import Literal

from pydantic import Field

from retrieval.schemas import Citation, StrictSchema
from ninja import Schema

NIL_UUID = uuid.UUID(int=0)


class QueryRequest(StrictSchema):
    query: str = Field(min_length=1)
    user_id: uuid.UUID = NIL_UUID
    conversation_id: uuid.UUID | None = None
    collection_ids: list[str] | None = None
    document_ids: list[uuid.UUID] | None = None
    # Accepted for compatibility with the seeds' clients; they change nothing here.
    include_grounding: bool | None = None
    include_provenance: bool | None = None
    offer_artifacts: bool | None = None
    # MCP sources for this chat (GET /mcp-sources); in an existing chat the selection is saved for later turns.
    mcp_source_ids: list[str] | None = None


class AnswerFields(Schema):
    """The fields /query and /query/v2 share with the same meaning."""

    answer: str
    conversation_id: str
    message_id: str
    trace_id: str | None
    history_truncated: bool
    history_exchanges_in_view: int
    citations: list[Citation]
    fallback_used: bool
    fallback_reason: str | None
    claims_supported: int
    claims_total: int
    grounding_rate: float | None


class QueryResponse(AnswerFields):
    claim_map: list[dict]
    provenance_complete: bool
    dropped_claims_count: int
    faithfulness_checked: bool | None = None


class QueryV2Request(QueryRequest):
    # /query/v2 generates no files; accept_annotations was an opt-in (21–23 Oct 2026), now ignored.
    offer_artifacts: Literal[False] | None = None
    accept_annotations: bool | None = None


class QueryV2Response(AnswerFields):
    schema_: str = Field(alias="schema")
    claims: list[dict]
    framing: list[dict]
    faithfulness: dict
