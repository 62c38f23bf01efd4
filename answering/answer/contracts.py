"""The values an answer passes between its steps (DESIGN.md "Answering").

``AnswerRequest`` is what a route asks, ``Prepared`` what the setup checks
resolved, ``AnswerCore`` what every answer route returns; ``GatedAnswer``
(/query, the faithfulness gate) and ``AnnotatedAnswer`` (/query/v2, the
annotations) add only their own fields.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Callable

from kernel.principal import Principal
from answering.types import GuardDecision, Passage, ToolCall
from conversations.facade import HistoryWindow
from retrieval.facade import Scope
from workspaces.facade import AnswerSources

MAX_PASSAGES = 8
SEARCH_TOP_K = 8

EventSink = Callable[[str, dict], None]


class AnswerCancelled(Exception):
    """The client went away; nothing is persisted."""


@dataclass(frozen=True)
class AnswerRequest:
    question: str
    principal: Principal
    owner: str
    conversation_id: uuid.UUID | None
    scope: Scope
    route: str = "/query"
    route_family: str = "query"
    mcp_source_ids: tuple[str, ...] | None = None
    mcp_given: bool = False            # the request carried mcp_source_ids (even null)
    include_grounding: bool = False    # JSON only: grounding + used_docs in the body
    include_provenance: bool = False   # JSON only: tool_call_audit + model_call_log in the body
    offer_artifacts: bool = False      # /query: the answer may create files (answering.artifacts)


@dataclass(frozen=True)
class Prepared:
    request: AnswerRequest               # its scope is the resolved sources' scope
    history: HistoryWindow
    conversation_id: uuid.UUID
    message_id: uuid.UUID
    is_new_conversation: bool
    sources: AnswerSources | None = None
    scope_empty: bool = False            # a named selection with nothing visible (v2's fixed refusal)
    out_of_scope: bool = False           # the question names only regulations the selection excludes

    @property
    def conversation_owner(self) -> str:
        """Who owns the chat: a workspace chat's creator when another member asks."""
        return (self.sources and self.sources.conversation_owner) or self.request.owner

    @property
    def mcp_only(self) -> bool:
        return bool(self.sources and self.sources.mcp_only)


@dataclass(frozen=True)
class AnswerCore:
    """The fields every answer route returns with the same meaning."""

    answer: str
    conversation_id: uuid.UUID
    message_id: uuid.UUID
    trace_id: str | None          # the OTel trace id; None when tracing is off
    history: HistoryWindow
    citations: list[dict]
    fallback_used: bool
    fallback_reason: str | None
    claims_supported: int
    claims_total: int
    grounding_rate: float | None
    passages: list[Passage]
    cited_passages: list[Passage]
    guard: GuardDecision
    tool_calls: list[ToolCall]
    lexical_tiers: list[dict] = field(default_factory=list)
    faithfulness_checked: bool | None = None      # False only when nothing could be checked
    synthesis_mode: str = "deterministic-extractive"
    judge_mechanism: str = "deterministic lexical+numeric support judge"
    model_calls: list[dict] = field(default_factory=list)
    followup_document_ids: tuple[str, ...] = ()   # documents a follow-up carried into its searches
    prompt_budget: dict | None = None             # the agent's token pool and what fitted (model path)
    artifacts: tuple = ()                         # answering.artifacts.drafts.ArtifactDraft, published answers only
    # The embedded answerer's decision: its signals and P(answerable) (answering.extractive.decision); None
    # on the model path and for refusals decided before a draft.
    answerability: dict | None = None

    @property
    def blocked(self) -> bool:
        return self.guard.blocked


@dataclass(frozen=True)
class GatedAnswer(AnswerCore):
    """/query: unsupported claims dropped by the gate."""

    claim_map: list[dict] = field(default_factory=list)
    provenance_complete: bool = False
    dropped_claims_count: int = 0
    dropped_claims: list[dict] = field(default_factory=list)


@dataclass(frozen=True)
class AnnotatedAnswer(AnswerCore):
    """/query/v2: every segment kept with its verdict."""

    schema: str = "annotate-v2"
    claims: list[dict] = field(default_factory=list)
    framing: list[dict] = field(default_factory=list)
    faithfulness: dict = field(default_factory=dict)
    annotations: dict = field(default_factory=dict)
    history_view: dict = field(default_factory=dict)      # what later turns may read of this answer


@dataclass(frozen=True)
class Run:
    """What one answer's steps recorded, handed to the composer's result and the publisher."""

    tool_calls: list[ToolCall]
    lexical_tiers: list[dict]
    trace_id: str | None
    followup: dict | None
