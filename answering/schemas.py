"""Request schemas of the answer routes (seed: query-search-api)."""
from __future__ import annotations

import uuid

from typing import Literal

from pydantic import Field

from retrieval.facade.schemas import COLLECTION_IDS, DOCUMENT_IDS, Citation
from kernel.schemas import StrictSchema
from ninja import Schema
from pydantic import ConfigDict

NIL_UUID = uuid.UUID(int=0)




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
    include_grounding: bool | None = Field(None, description=(
        "JSON only: true adds grounding (the passages the answer cites, as the stream's passage frames) and "
        "used_docs (the cited document ids) to the body. Ignored by the streams."))
    include_provenance: bool | None = Field(None, description=(
        "JSON only: true adds tool_call_audit (every tool call with proposed_arguments, executed_arguments and, "
        "for a carried follow-up's searches, followup_document_ids) and model_call_log (every model call) to the "
        "body. Ignored by the streams."))
    offer_artifacts: bool | None = Field(None, description=(
        "/query and /query/stream: true lets the answer create files, returned as artifacts (JSON) or artifact "
        "frames (stream) and downloaded from GET /artifacts/{id}: on the model path the agent's create_artifact "
        "tool (CSV, XLSX or a DOCX note), on the deterministic path a table answer as CSV, any other answer as a "
        "DOCX note with its sources. At most 3 files of 256 KB per answer; a refusal (a format refusal included) "
        "attaches none. create_artifact's tool frames show only call, tool, ok and ms."))
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
    tool: str | None = Field(description='The tool whose reads ground the answer: "vector_search" for the indexed '
                                         'documents, a live-data or MCP tool\'s name when its read is the source; '
                                         'null when no tool was selected (a refusal before retrieval).')
    tool_executed: bool = Field(description="true when that tool ran to completion at least once for this answer.")
    fallback_used: bool = Field(description="true when a refusal or fallback notice was published instead of an answer.")
    fallback_reason: str | None = Field(description="Why (e.g. no_answer, coverage_incomplete, policy_blocked, "
                                                    "model_timeout, context_budget_exhausted, source_out_of_scope, "
                                                    "source_scope_unavailable); null for a full answer. Every reason "
                                                    "and when it applies: the reason table in the API description.")
    claims_supported: int = Field(description="Claims verified against a cited source.")
    claims_total: int = Field(description="Every claim checked against a source (supported + failed).")
    grounding_rate: float | None = Field(description='claims_supported / claims_total (0-1, four decimals). Render as '
                                                     '"78% · 7/9 klaim"; null means nothing was checked: render "—", '
                                                     'never 0%.')


class Grounding(Schema):
    """A passage the answer cites, as the stream's passage frame carries it."""

    model_config = ConfigDict(extra="allow")

    kind: Literal["chunk", "tool"]
    text: str
    citation_key: str
    chunk_id: str | None = Field(None, description="kind chunk: the chunk's UUID.")
    source_type: str | None = Field(None, description='kind chunk: "document".')
    score: float | None = Field(None, description="kind chunk: its retrieval score.")
    tool: str | None = Field(None, description="kind tool: the tool that read it.")
    source_url: str | None = Field(None, description="kind tool: the source's URL when it has one.")
    citation: dict | None = Field(None, description="kind tool: the full citation object (with call identity).")


class OptInFields(Schema):
    grounding: list[Grounding] | None = Field(None, description="Only with include_grounding: true.")
    used_docs: list[str] | None = Field(None, description="Only with include_grounding: true: the document ids "
                                                          "(UUIDs) the answer cites, first-cited first.")
    tool_call_audit: list[dict] | None = Field(None, description=(
        "Only with include_provenance: true: call, tool, proposed_arguments, executed_arguments (identical: no "
        "query is rewritten), ok, ms, result, and followup_document_ids on searches of a carried follow-up."))
    model_call_log: list[dict] | None = Field(None, description="Only with include_provenance: true: every model "
                                                                "call (purpose, timing, tokens); [] without a model.")


class ArtifactOut(Schema):
    id: str = Field(description="Artifact ID (UUID).")
    title: str
    media_type: str = Field(description="text/csv, the XLSX or the DOCX media type.")
    size: int = Field(description="Bytes.")
    url: str = Field(description="GET it with the API key (and the same subject): /artifacts/{id}; another "
                                 "subject gets 404.")


class QueryResponse(AnswerFields, OptInFields):
    artifacts: list[ArtifactOut] | None = Field(None, description=(
        "Only with offer_artifacts: true: the files this answer created (also stored with the message, "
        "metadata.artifacts); [] when none."))
    claim_map: list[dict] = Field(description="Surviving claims with their labelled citation references "
                                              "(kind chunk, history or memory).")
    provenance_complete: bool = Field(description="Verification verdict for the published factual text.")
    dropped_claims_count: int = Field(description="Unsupported claims removed before the answer was returned.")
    dropped_claim_reasons: dict[str, int] = Field(description=(
        "How many dropped claims each reason removed (no_support, number_mismatch, no_citation, surplus_excerpt, "
        "unparseable, deadline, budget, …); {} when nothing was dropped. Claim text is withheld."))
    faithfulness_checked: bool | None = Field(None, description="Present (false) only when nothing could be checked "
                                                                "(context_budget_exhausted); absence claims nothing.")


class QueryV2Request(QueryRequest):
    # /query/v2 generates no files; accept_annotations was an opt-in (21–23 Oct 2026), now ignored.
    offer_artifacts: Literal[False] | None = Field(None, description="Only false (or omitted): /query/v2 generates no files.")
    accept_annotations: bool | None = Field(None, description="Accepted and ignored: every caller gets the annotations "
                                                              "(it was an opt-in from 21 to 23 Oct 2026).")


class QueryV2Response(AnswerFields, OptInFields):
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
