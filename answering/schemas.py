"""Request schemas of the answer routes (seed: query-search-api)."""
from __future__ import annotations

import uuid

from typing import Literal

from pydantic import Field

from retrieval.schemas import COLLECTION_IDS, DOCUMENT_IDS, Citation
from kernel.schemas import StrictSchema
from ninja import Schema
from pydantic import ConfigDict

NIL_UUID = uuid.UUID(int=0)


ACCEPTED_IGNORED = "Accepted for compatibility with existing clients; changes nothing on this server."


class QueryRequest(StrictSchema):
    query: str = Field(min_length=1, description='User question. "" is 422; a whitespace-only string is 400.')
    user_id: uuid.UUID = Field(NIL_UUID, description=(
        "Development fallback owner only, used when no trusted subject is sent and principal enforcement is off; "
        "the all-zero default means anonymous. Integrated clients send X-User-Subject or a partner JWT instead."))
    conversation_id: uuid.UUID | None = Field(None, description=(
        "Existing conversation to continue (the conversation_id of an earlier answer or of POST /conversations). "
        "Omit or null to start a new one. Unknown or another subject's: 404; one answered on the other route "
        "family (/query vs /query/v2): 409."))
    collection_ids: list[str] | None = Field(None, description=COLLECTION_IDS)
    document_ids: list[uuid.UUID] | None = Field(None, description=DOCUMENT_IDS)
    # Accepted for compatibility with the seeds' clients; they change nothing here.
    include_grounding: bool | None = Field(None, description=ACCEPTED_IGNORED)
    include_provenance: bool | None = Field(None, description=ACCEPTED_IGNORED)
    offer_artifacts: bool | None = Field(None, description=ACCEPTED_IGNORED + " No files are generated.")
    mcp_source_ids: list[str] | None = Field(None, description=(
        "MCP sources for this chat (GET /mcp-sources); in an existing chat the selection is saved for every "
        "member's later turns ([] clears it). See README \"Workspaces, notebooks and MCP sources\"."))


class ToolCitation(Schema):
    """A tool read (workbook, SQL Query, OpenData, BPS): ``tool`` + ``call``, null document/chunk ids."""

    model_config = ConfigDict(extra="allow")

    kind: Literal["tool"]
    tool: str
    call: str
    document_id: None = None
    chunk_id: None = None
    document_title: str
    source_title: str | None = None
    source_name: str | None = None
    source_id: str | None = None
    period: str | None = None
    source_url: str | None = None
    read_at: str | None = None


class AnswerFields(Schema):
    """The fields /query and /query/v2 share with the same meaning."""

    answer: str = Field(description="Final guarded answer, or the refusal/notice text.")
    conversation_id: str = Field(description="Conversation ID (UUID): send it as conversation_id to continue.")
    message_id: str = Field(description="Stored assistant message ID (UUID).")
    trace_id: str | None = Field(description="Opaque trace ID stored with the message (the admin's trace view); "
                                             "null when no trace was kept. The answer is valid either way.")
    history_truncated: bool = Field(description="true when earlier exchanges are missing from the history window used: "
                                                "show a notice asking the user to restate earlier points.")
    history_exchanges_in_view: int = Field(description="Prior question/answer pairs in that window (0 for a new chat).")
    citations: list[Citation | ToolCitation] = Field(description="Sources of the answer (shared citation object), in label order.")
    fallback_used: bool = Field(description="true when a refusal or fallback notice was published instead of an answer.")
    fallback_reason: str | None = Field(description="Why (e.g. no_answer, coverage_incomplete, policy_blocked, "
                                                    "model_timeout, context_budget_exhausted); null for a full answer.")
    claims_supported: int = Field(description="Claims verified against a cited source.")
    claims_total: int = Field(description="Every claim checked against a source (supported + failed).")
    grounding_rate: float | None = Field(description='claims_supported / claims_total (0-1, four decimals). Render as '
                                                     '"78% · 7/9 klaim"; null means nothing was checked: render "—", '
                                                     'never 0%.')


class QueryResponse(AnswerFields):
    claim_map: list[dict] = Field(description="Surviving claims with their labelled citation references "
                                              "(kind chunk, history or memory).")
    provenance_complete: bool = Field(description="Verification verdict for the published factual text.")
    dropped_claims_count: int = Field(description="Unsupported claims removed before the answer was returned.")
    faithfulness_checked: bool | None = Field(None, description="Present (false) only when nothing could be checked "
                                                                "(context_budget_exhausted); absence claims nothing.")


class QueryV2Request(QueryRequest):
    # /query/v2 generates no files; accept_annotations was an opt-in (21–23 Oct 2026), now ignored.
    offer_artifacts: Literal[False] | None = Field(None, description="Only false (or omitted): /query/v2 generates no files.")
    accept_annotations: bool | None = Field(None, description="Accepted and ignored: every caller gets the annotations "
                                                              "(it was an opt-in from 21 to 23 Oct 2026).")


class QueryV2Response(AnswerFields):
    schema_: str = Field(alias="schema", description='Always "annotate-v2"; treat anything else as unverified.')
    claims: list[dict] = Field(description="Fact segments: text, citation_keys, citations, verdict (supported, "
                                           "unsupported, unverified, uncited, invalid_citation, from_conversation), "
                                           "unverified_reason, invalid_citation_keys, kind, layout, and offsets "
                                           "start/end (code points) and start_utf16/end_utf16 (JavaScript indices).")
    framing: list[dict] = Field(description="Segments that assert nothing (lead-ins, greetings, table headers): text, "
                                            "layout and the same four offsets; no verdict.")
    faithfulness: dict = Field(description="Answer-level report: counts per verdict, judge_status, framing_check, "
                                           "unverified_reasons, framing_total, unlocated_total, verification "
                                           "(full/partial/none: show a banner unless full) and grounding.")
