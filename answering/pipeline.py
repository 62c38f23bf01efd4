"""The answer pipeline used by every answer route (DESIGN.md "Answering").

principal → conversation (ownership) → history window → named-regulation
anchors → retrieval arms (identical arms run once per answer) → synthesis →
faithfulness gate → policy guard → persistence → result. ``prepare`` does the
checks that must fail as plain HTTP errors before a stream starts; ``run``
does the rest and reports each real step through ``on_event``.
"""
from __future__ import annotations

import logging
import re
import time
import uuid
from dataclasses import dataclass, field, replace
from itertools import zip_longest
from typing import Callable

from django.conf import settings
from django.db import transaction

from kernel.principal import Principal
from answering.anchors import (
    ArticleLocator,
    article_chunks,
    asks_for_signatory,
    closing_chunks,
    definition_chunks,
    enactment_chunks,
    find_article,
    find_named_regulation,
    resolve_regulation,
)
from answering.faithfulness import content_stems, faithfulness_gate
from answering.focus import definition_term, question_focus
from answering.followup import FollowupDecision, followup_model, followup_rule
from answering.guard import REFUSAL, guard_answer, guard_question
from answering.legal_status import legal_evidence
from answering.live import LiveReads, claim_citation
from answering.mcp_tools import McpReader, McpSourcesFailed, inventory_passage
from answering.llm.agent import Agent, AgentInput, AgentStopped, QuestionTooLarge
from answering.llm.answers import parse_prose_answer
from answering.llm.budget import ModelBudget
from answering.llm.client import ChatClient, ModelError, client_for
from answering.llm.evidence import PassageLedger, memory_block
from answering.llm.judge import ModelJudge, model_guard
from answering.llm.prompts import prompt
from answering.llm.tools import CorpusTools
from answering.notices import QUESTION_TOO_LARGE, refusal_notice
from answering.publication import model_gate
from answering.selectors import words_absent_from_corpus
from answering.models import AnswerTrace
from answering.telemetry import answer_finished, answer_span, step_span, tool_finished, tool_span
from kernel.telemetry.tracing import current_trace_id
from retrieval.search.glossary import glossary_expansions
from answering.synthesis import detect_language, no_answer_text, synthesise
from answering.types import AnswerDraft, Claim, GateResult, GuardDecision, Passage, ToolCall
from conversations.selectors import HistoryWindow, conversation_get_owned, history_window
from memory.extraction import memory_claim_text, preferred_language
from memory.services import RecalledMemory, memory_extract_from_turn, memory_recall
from conversations.services import (
    ConversationNotFound, ConversationRouteConflict, ExchangeRecord, conversation_mcp_selection_save, exchange_persist,
)
from retrieval.access import Scope, chunks_visible, visible_documents_q
from retrieval.citations import citation_for
from retrieval.embedders import EmbeddingError
from retrieval.models import Chunk, Document
from retrieval.selectors import document_facts
from retrieval.search import SearchOutcome, SearchTimeout, chunk_search
from workspaces.mcp_client import McpUnavailable
from workspaces.inventory import asks_for_inventory
from workspaces.sources import AnswerSources, SourcesRefused, answer_sources_resolve

logger = logging.getLogger(__name__)

MAX_PASSAGES = 8
SEARCH_TOP_K = 8
MAX_QUESTION_CHARS = 8000


class AnswerError(Exception):
    """A failure answered with an HTTP status (before a stream) or an error frame."""

    def __init__(self, status: int, detail: str):
        super().__init__(detail)
        self.status = status
        self.detail = detail


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


@dataclass
class Prepared:
    request: AnswerRequest
    history: HistoryWindow
    conversation_id: uuid.UUID
    message_id: uuid.UUID
    is_new_conversation: bool
    sources: AnswerSources | None = None

    @property
    def conversation_owner(self) -> str:
        """Who owns the chat: a workspace chat's creator when another member asks."""
        return (self.sources and self.sources.conversation_owner) or self.request.owner


@dataclass
class AnswerResult:
    answer: str
    conversation_id: uuid.UUID
    message_id: uuid.UUID
    trace_id: str | None          # the OTel trace id; None when tracing is off
    history: HistoryWindow
    citations: list[dict]
    claim_map: list[dict]
    provenance_complete: bool
    fallback_used: bool
    fallback_reason: str | None
    dropped_claims_count: int
    claims_supported: int
    claims_total: int
    grounding_rate: float | None
    passages: list[Passage]
    cited_passages: list[Passage]
    guard: GuardDecision
    tool_calls: list[ToolCall]
    lexical_tiers: list[dict] = field(default_factory=list)
    dropped_claims: list[dict] = field(default_factory=list)
    faithfulness_checked: bool | None = None      # False only when nothing could be checked
    synthesis_mode: str = "deterministic-extractive"
    judge_mechanism: str = "deterministic lexical+numeric support judge"
    model_calls: list[dict] = field(default_factory=list)

    @property
    def blocked(self) -> bool:
        return self.guard.blocked


EventSink = Callable[[str, dict], None]


class ArmCache:
    """Identical retrieval arms run once per answer and are reused."""

    def __init__(self) -> None:
        self._results: dict[tuple, SearchOutcome] = {}

    def get(self, key: tuple) -> SearchOutcome | None:
        return self._results.get(key)

    def put(self, key: tuple, outcome: SearchOutcome) -> None:
        self._results[key] = outcome


FIRST_PERSON = re.compile(r"\b(saya|aku|kami|my|me|i)\b", re.I)


def with_memory_claims(draft: AnswerDraft, recalled: list[RecalledMemory], question: str) -> AnswerDraft:
    """Restate relevant remembered facts as memory claims (never as citations)."""
    if draft.no_answer or not recalled:
        return draft
    question_stems = content_stems(question)
    personal = bool(FIRST_PERSON.search(question))
    claims = []
    for memory in recalled:
        if memory.memory_type == "preference":
            continue
        if not (personal or question_stems & content_stems(memory.text)):
            continue
        text = memory_claim_text(memory.slot, memory.text, draft.language)
        if text:
            claims.append(Claim(text=text, citation_keys=("memory",), memory_id=memory.id))
    return replace(draft, claims=draft.claims + tuple(claims)) if claims else draft


@dataclass
class ModelDraft:
    """The agent's outcome: a draft, or the fallback reason it stopped with."""

    draft: AnswerDraft | None
    passages: list[Passage]
    fallback_reason: str | None = None


@dataclass
class Models:
    """The answer's model clients and their shared budget (model path only)."""

    agent: ChatClient
    judge: ChatClient
    guard: ChatClient
    budget: ModelBudget

    @classmethod
    def from_settings(cls) -> "Models":
        llm = settings.ACEH_RAG.llm
        # Roles on the same server and model share one client (one connection pool).
        clients: dict = {}
        for endpoint in (llm.agent_endpoint(), llm.judge_endpoint(), llm.guard_endpoint()):
            if endpoint not in clients:
                clients[endpoint] = client_for(endpoint, llm)
        return cls(agent=clients[llm.agent_endpoint()], judge=clients[llm.judge_endpoint()],
                   guard=clients[llm.guard_endpoint()],
                   budget=ModelBudget(seconds=llm.answer_budget_seconds, calls=llm.max_model_calls))

    def close(self) -> None:
        for client in {id(c): c for c in (self.agent, self.judge, self.guard)}.values():
            client.close()  # a shared client once


def agent_system_prompt(language: str, answer_format: str, editorial: str | None = None) -> str:
    """Editorial voice (replaceable in the playground), how to work, and the answer format."""
    return "\n\n".join((editorial or prompt("editorial", language), prompt("agent", language), prompt(answer_format, language)))


def memory_labels(recalled: list[RecalledMemory]) -> dict[str, int]:
    """M1, M2, … for the memories shown to the agent."""
    return {f"M{number}": memory.id for number, memory in enumerate(recalled, start=1)}


def history_messages(history: HistoryWindow) -> list[dict]:
    """Earlier exchanges as chat messages for the agent."""
    messages = []
    for turn in history.turns:
        messages.append({"role": "user", "content": turn.question})
        messages.append({"role": "assistant", "content": turn.answer})
    return messages


@dataclass
class GatedOutcome:
    """v1's answer before persistence: the gate's result and the evidence behind it."""

    gate: GateResult
    passages: list[Passage]
    checked: bool | None = None          # False only when nothing could be checked

    @property
    def answer(self) -> str:
        return self.gate.answer

    @property
    def fallback_used(self) -> bool:
        return self.gate.fallback_used

    def blocked(self, refusal: str) -> "GatedOutcome":
        gate = self.gate
        return GatedOutcome(GateResult(gate.kept, gate.verdicts, refusal, True, "policy_blocked", gate.dropped,
                                       gate.claims_supported, gate.claims_total), self.passages, self.checked)


def refusal_gate(reason: str, language: str) -> GateResult:
    return GateResult((), (), refusal_notice(reason, language), True, reason, 0, 0, 0)


class AnswerPipeline:
    def __init__(self, *, on_event: EventSink | None = None, cancelled: Callable[[], bool] = lambda: False):
        self._emit = on_event or (lambda name, data: None)
        self._cancelled = cancelled
        self._calls: list[ToolCall] = []
        self._arms = ArmCache()
        self._steps: list[dict] = []
        self._lexical_tiers: list[dict] = []
        self._models: Models | None = None
        self._followup_record: dict | None = None
        self._mcp = McpReader(self._tool)

    # -- setup: failures here are plain HTTP errors ---------------------------------

    def prepare(self, request: AnswerRequest) -> Prepared:
        if len(request.question) > MAX_QUESTION_CHARS:
            raise AnswerError(413, f"The question is too long for the answer context ({len(request.question)} > {MAX_QUESTION_CHARS} characters)")
        try:
            sources = answer_sources_resolve(
                principal=request.principal, owner=request.owner, conversation_id=request.conversation_id,
                scope=request.scope, mcp_source_ids=request.mcp_source_ids, mcp_given=request.mcp_given)
        except SourcesRefused as exc:
            raise AnswerError(exc.status, exc.detail) from exc
        request = replace(request, scope=sources.scope)
        conversation = None
        if request.conversation_id is not None:
            owner = sources.conversation_owner or request.owner
            conversation = conversation_get_owned(owner=owner, conversation_id=request.conversation_id)
            if conversation is None:
                raise AnswerError(404, f"Conversation {request.conversation_id} not found")
            if conversation.route_family and conversation.route_family != request.route_family:
                raise AnswerError(409, f"Conversation {request.conversation_id} belongs to another answer route")
        history = history_window(conversation=conversation)
        if not sources.mcp_only:
            self._require_content(request)
        return Prepared(
            request=request,
            history=history,
            conversation_id=conversation.id if conversation else uuid.uuid4(),
            message_id=uuid.uuid4(),
            is_new_conversation=conversation is None,
            sources=sources,
        )

    @staticmethod
    def _has_content(request: AnswerRequest) -> bool:
        return chunks_visible(request.principal, request.scope).exists()

    def _require_content(self, request: AnswerRequest) -> None:
        if not self._has_content(request):
            raise AnswerError(404, "No visible indexed content is available to answer this question")

    # -- the answer -------------------------------------------------------------------

    def run(self, prepared: Prepared) -> AnswerResult:
        llm = settings.ACEH_RAG.llm
        self._models = Models.from_settings() if llm.enabled else None
        try:
            with answer_span(prepared.request.route, prepared.request.question) as root:
                result = self._run(prepared)
                answer_finished(root, route=prepared.request.route, fallback_reason=result.fallback_reason,
                                grounding_rate=result.grounding_rate, citations=len(result.citations),
                                blocked=result.blocked)
                return result
        finally:
            if self._models:
                self._models.close()

    def _run(self, prepared: Prepared) -> AnswerResult:
        started = time.perf_counter()
        self._prepared = prepared
        request = prepared.request
        question = request.question
        guard = self._step("guard_question", lambda: guard_question(question))
        if guard.blocked:
            outcome = self._refused_question()
        else:
            recalled: list[RecalledMemory] = []
            if settings.ACEH_RAG.memory.enabled:
                recalled = self._step("memory_recall", lambda: memory_recall(
                    owner=request.owner, question=question, principal=request.principal))
            language = preferred_language([m.text for m in recalled]) or detect_language(question)
            try:
                outcome = self._compose(prepared, language, recalled)
            except McpSourcesFailed:
                outcome = self._refusal("mcp_source_unavailable", language)
            guard = self._step("guard_answer", lambda: self._guard_answer(outcome.answer, outcome.fallback_used))
            if guard.blocked:
                outcome = outcome.blocked(REFUSAL)
        if self._cancelled():
            raise AnswerCancelled()
        result = self._result(prepared, outcome, guard)
        if self._models:
            result.synthesis_mode, result.judge_mechanism = "model-agent", ModelJudge.mechanism
            result.model_calls = list(self._models.budget.log)
        self._publish(prepared, result, total_ms=(time.perf_counter() - started) * 1000)
        return result

    def _publish(self, prepared: Prepared, result: AnswerResult, *, total_ms: float) -> None:
        """Store the exchange and its trace, then learn memories from it (the playground overrides this)."""
        with step_span("persist"):
            self._persist(prepared, result, total_ms=total_ms)
        request = prepared.request
        if prepared.sources and prepared.sources.save_mcp_selection is not None:
            conversation_mcp_selection_save(conversation_id=prepared.conversation_id,
                                            mcp_source_ids=prepared.sources.save_mcp_selection)
        if settings.ACEH_RAG.memory.enabled and not result.blocked:
            try:
                memory_extract_from_turn(
                    owner=request.owner, question=request.question, source_message_id=prepared.message_id,
                    used_confidential_sources=any(p.citation.get("confidential") for p in result.cited_passages),
                )
            except EmbeddingError as exc:
                # The answer is stored and correct; only the memory is lost. Say so in the log.
                logger.warning("memory extraction skipped for message %s: %s", prepared.message_id, exc)

    # -- v1 hooks (the v2 pipeline overrides these) ---------------------------------------

    def _refused_question(self) -> "GatedOutcome":
        return GatedOutcome(GateResult((), (), REFUSAL, True, "policy_blocked", 0, 0, 0), [])

    def _refusal(self, reason: str, language: str) -> "GatedOutcome":
        return GatedOutcome(refusal_gate(reason, language), [])

    def _compose(self, prepared: Prepared, language: str, recalled: list[RecalledMemory]) -> "GatedOutcome":
        """Gather evidence, write the draft (deterministic or agent), gate it."""
        question = prepared.request.question
        passages = self._gather_passages(prepared)
        if self._models:
            drafted = self._step("agent", lambda: self._model_draft(prepared, language, recalled, passages))
            if drafted.fallback_reason:
                checked = False if drafted.fallback_reason == "context_budget_exhausted" else None
                return GatedOutcome(refusal_gate(drafted.fallback_reason, language), drafted.passages, checked)
            passages, draft = drafted.passages, drafted.draft
        else:
            draft = self._step("synthesis", lambda: with_memory_claims(
                synthesise(question, passages, language=language, absent_words=self._absent_words,
                           expansions=glossary_expansions), recalled, question))
        return GatedOutcome(self._step("faithfulness", lambda: self._gate(draft, passages)), passages)

    def _model_draft(self, prepared: Prepared, language: str, recalled: list[RecalledMemory],
                     initial: list[Passage]) -> ModelDraft:
        """The agent searches and writes labelled prose; passages come back keyed P1, P2, …"""
        ledger = PassageLedger()
        memory_ids = memory_labels(recalled)
        try:
            draft = self._agent_answer(
                prepared, language, recalled, initial, ledger=ledger, answer_format="answer_prose",
                parse=lambda content: parse_prose_answer(content, memory_ids=memory_ids, language=language))
        except AgentStopped as stop:
            return ModelDraft(None, ledger.passages(), stop.reason)
        return ModelDraft(draft, ledger.passages())

    def _agent_tools(self, prepared: Prepared, ledger: PassageLedger) -> CorpusTools:
        request = prepared.request
        sources = prepared.sources
        mcp_only = bool(sources and sources.mcp_only)
        tools = CorpusTools(
            documents=not mcp_only,
            external=self._mcp.agent_tools(sources.mcp) if sources else (),
            search=lambda query: self._search(query, request.scope, "agent"),
            facts=lambda **filters: self._tool(
                "corpus_facts", filters,
                lambda: document_facts(principal=request.principal, scope=request.scope, **filters),
                summarise=lambda facts: {"documents": facts["documents"]}),
        )
        # An MCP-only chat offers no document, sheet or portal tool.
        return tools if mcp_only else LiveReads.of(self).tools(tools)

    def _agent_answer(self, prepared: Prepared, language: str, recalled: list[RecalledMemory],
                      initial: list[Passage], *, ledger: PassageLedger, answer_format: str, parse: Callable,
                      progress: Callable[[], object] | None = None, editorial: str | None = None):
        """Run the agent to a parsed answer; raises ``AgentStopped`` with a fallback reason."""
        request = prepared.request
        agent = Agent(
            client=self._models.agent, budget=self._models.budget, llm=settings.ACEH_RAG.llm, ledger=ledger,
            tools=self._agent_tools(prepared, ledger), cancelled=self._cancelled, on_cancel=AnswerCancelled,
            progress=progress,
        )
        given = AgentInput(
            system=agent_system_prompt(language, answer_format, editorial),
            history=history_messages(prepared.history), question=request.question, language=language,
            initial=initial,
            memories="\n".join(memory_block(key, m.text) for key, m in zip(memory_labels(recalled), recalled)),
        )
        try:
            return agent.answer(given, parse)
        except QuestionTooLarge as exc:
            raise AnswerError(413, QUESTION_TOO_LARGE) from exc
        except ModelError as exc:
            raise AnswerError(502, f"Model dependency failed: {exc}") from exc

    def _guard_answer(self, answer: str, refusal: bool) -> GuardDecision:
        """Deterministic rules first; then, when enabled, the model's classification."""
        guard = guard_answer(answer)
        if guard.blocked or refusal or not self._models or not settings.ACEH_RAG.llm.guard_model_enabled:
            return guard
        decision = model_guard(answer, self._models.guard, self._models.budget)
        if decision is None:
            return replace(guard, mechanism="deterministic-rules-v1 (model guard unavailable)")
        return decision

    def _gate(self, draft: AnswerDraft, passages: list[Passage]) -> GateResult:
        if draft.no_answer:
            return GateResult((), (), no_answer_text(draft.language, draft.pointer), True, "no_answer", 0, 0, 0)
        if self._models:
            # The model judge sees each passage with the document identity the agent saw.
            return model_gate(self._prepared.request.question, draft, passages, {p.label: p.evidence for p in passages},
                              models=self._models, partial_answers=settings.ACEH_RAG.synthesis.partial_answers_enabled,
                              batch_size=settings.ACEH_RAG.llm.judge_batch_size)
        return faithfulness_gate(draft, {p.label: p.text for p in passages},
                                 partial_answers=settings.ACEH_RAG.synthesis.partial_answers_enabled)

    def _gather_passages(self, prepared: Prepared) -> list[Passage]:
        sources = prepared.sources
        if sources and sources.mcp_only:
            return self._mcp.passages(prepared.request.question, sources.mcp, required=True)
        request = prepared.request
        if asks_for_inventory(request.question):
            # Upload-state questions read the live inventory, not the documents' text.
            return [inventory_passage(self._tool, principal=request.principal, scope=request.scope,
                                      workspace_id=sources.workspace_id if sources else None,
                                      language=detect_language(request.question))]
        passages = self._document_passages(prepared)
        if sources and sources.mcp:
            passages += self._mcp.passages(prepared.request.question, sources.mcp, required=False)
        return passages

    def _document_passages(self, prepared: Prepared) -> list[Passage]:
        request = prepared.request
        live = LiveReads.of(self).passages()  # figure questions read a configured live source first
        question = request.question
        anchor_document = None
        anchor: list[Passage] = []
        named = find_named_regulation(question)
        if named:
            anchor_document = self._tool(
                "resolve_regulation", {"name": named.text},
                lambda: resolve_regulation(named, principal=request.principal, scope=request.scope),
                summarise=lambda doc: {"document_id": str(doc.id), "title": doc.title} if doc else {"resolved": False},
            )
        elif len(request.scope.document_ids) == 1:
            anchor_document = Document.objects.filter(
                visible_documents_q(request.principal, request.scope)).only("id", "title").first()
        followup = self._followup(prepared)
        locator = find_article(question)
        if followup.next_article and not (named or locator):
            # "pasal berikutnya apa?": read the article after the one the previous answer cited.
            anchor_document = Document.objects.filter(
                visible_documents_q(request.principal, request.scope), id=followup.document_ids[0]).only("id", "title").first()
            locator = ArticleLocator(followup.next_article, None) if anchor_document else None
        if anchor_document and locator:
            chunks = self._tool(
                "read_article", {"document_id": str(anchor_document.id), "pasal": locator.pasal, "ayat": locator.ayat},
                lambda: article_chunks(anchor_document.id, locator),
                summarise=lambda found: {"chunks": len(found)},
            )
            anchor += [self._passage(chunk, 1.0, "anchor") for chunk in chunks]

        followup_scope = None
        if followup.carry:
            # Hints, not filters: one more arm over the carried documents, access and scope rechecked.
            allowed = set(request.scope.document_ids) if request.scope.document_ids else None
            carried = [d for d in map(uuid.UUID, followup.document_ids) if allowed is None or d in allowed]
            followup_scope = Scope(collection_ids=request.scope.collection_ids, document_ids=tuple(carried)) if carried else None

        search_scope = request.scope
        if anchor_document and not locator:
            search_scope = Scope(collection_ids=request.scope.collection_ids, document_ids=(anchor_document.id,))
        followup_hits = self._search(question, followup_scope, "followup")[0] if followup_scope else []
        main_hits = self._search(question, search_scope, "search")[0]
        if anchor_document and search_scope is not request.scope and not main_hits:
            main_hits = self._search(question, request.scope, "search")[0]

        own, hints = (followup_hits, main_hits) if followup.hints_first else (main_hits, followup_hits)
        ranked = [p for pair in zip_longest(own, hints) for p in pair if p is not None]
        ranked = self._focus_hits(question, anchor_document, ranked) + ranked
        closing: list[Passage] = []
        if asks_for_signatory(question):
            target = anchor_document.id if anchor_document else (ranked[0].document_id if ranked else None)
            if target:
                chunks = self._tool("read_closing", {"document_id": str(target)}, lambda: closing_chunks(target),
                                    summarise=lambda found: {"chunks": len(found)})
                closing = [self._passage(chunk, 1.0, "closing") for chunk in chunks]

        merged: list[Passage] = []
        seen: set[uuid.UUID] = set()
        for passage in [*live, *anchor, *closing, *ranked]:
            if passage.chunk_id not in seen:
                seen.add(passage.chunk_id)
                merged.append(passage)
        return self._legal_evidence(prepared, merged[:MAX_PASSAGES])

    def _legal_evidence(self, prepared: Prepared, passages: list[Passage]) -> list[Passage]:
        """A legal-status question reads the revoking or amending clauses first (answering/legal_status.py)."""
        request = prepared.request
        return legal_evidence(passages, question=request.question, principal=request.principal, scope=request.scope,
                              surface=False, make_passage=self._passage).passages

    def _absent_words(self, words: list[str]) -> list[str]:
        request = self._prepared.request
        return self._step("corpus_terms", lambda: words_absent_from_corpus(
            words, principal=request.principal, scope=request.scope))

    def _focus_hits(self, question: str, anchor_document, ranked: list[Passage]) -> list[Passage]:
        """The passage the question's focus needs when ranking missed it: a definition, an enactment block."""
        focus = question_focus(question)
        documents = [anchor_document.id] if anchor_document else list(dict.fromkeys(p.document_id for p in ranked))
        if focus.kind == "definition" and (term := definition_term(question)):
            chunks = self._tool("read_definition", {"term": term}, lambda: definition_chunks(documents, term),
                                summarise=lambda found: {"chunks": len(found)})
        elif focus.kind in ("enactment", "signatory") and documents:
            chunks = self._tool("read_enactment", {"document_id": str(documents[0])},
                                lambda: enactment_chunks(documents[0]), summarise=lambda found: {"chunks": len(found)})
        else:
            return []
        return [self._passage(chunk, 1.0, "anchor") for chunk in chunks]

    def _followup(self, prepared: Prepared) -> FollowupDecision:
        """Carry earlier documents only for a genuine follow-up; the decision goes to metadata and the trace."""
        question, history = prepared.request.question, prepared.history
        if self._models and history.turns:
            decision = followup_model(question, history, self._models.judge, self._models.budget)
        else:
            decision = followup_rule(question, history)
        self._followup_record = decision.record()
        self._steps.append({"step": "followup", "ok": True, "ms": 0.0, **self._followup_record})
        return decision

    def _search(self, question: str, scope: Scope, origin: str) -> tuple[list[Passage], str | None]:
        """Passages of one hybrid arm (run once per answer) and its lexical tier decision."""
        key = (question, "hybrid", SEARCH_TOP_K, self._principal, scope)
        cached = self._arms.get(key)
        if cached is None:
            arguments = {"query": question, "mode": "hybrid", "top_k": SEARCH_TOP_K}
            if scope.document_ids:
                arguments["document_ids"] = [str(d) for d in scope.document_ids]
            if scope.collection_ids:
                arguments["collection_ids"] = list(scope.collection_ids)
            cached = self._tool(
                "search_documents", arguments,
                lambda: chunk_search(question, mode="hybrid", top_k=SEARCH_TOP_K, principal=self._principal, scope=scope),
                summarise=lambda outcome: {"passages": len(outcome.hits), "lexical_tier": outcome.lexical_tier},
            )
            self._arms.put(key, cached)
            self._lexical_tiers.append({"origin": origin, "tier": cached.lexical_tier, "query": question})
        return [self._passage(hit.chunk, hit.score, origin) for hit in cached.hits], cached.lexical_tier

    @staticmethod
    def _passage(chunk: Chunk, score: float, origin: str) -> Passage:
        return Passage(
            chunk_id=chunk.id, document_id=chunk.document_id, document_title=chunk.document.title,
            legal_reference=chunk.legal_reference, section_path=tuple(chunk.section_path or ()), kind=chunk.kind,
            text=chunk.text, score=float(score), citation=citation_for(chunk, chunk.document), origin=origin,
        )

    def _tool(self, tool: str, arguments: dict, work: Callable, summarise: Callable[[object], dict],
              with_call: bool = False):
        """Run one real step, reporting tool.started / tool.finished around it.

        Returns the step's value, or with ``with_call`` its call id (the value is the caller's to keep).
        """
        call = ToolCall(call=f"call_{len(self._calls) + 1}", tool=tool, arguments=arguments)
        self._calls.append(call)
        self._emit("tool.started", call.started_frame())
        started = time.perf_counter()
        with tool_span(tool, call.call, arguments) as span:
            try:
                value = work()
            except McpUnavailable:
                self._finish(call, started, False, {"error": "mcp_source_unavailable"}, span)
                raise
            except EmbeddingError as exc:
                self._finish(call, started, False, {"error": "dependency_failed"}, span)
                raise AnswerError(502, f"Retrieval dependency failed: {exc}") from exc
            except SearchTimeout as exc:
                self._finish(call, started, False, {"error": "timeout"}, span)
                raise AnswerError(503, "Retrieval timed out") from exc
            self._finish(call, started, True, summarise(value), span)
        return call.call if with_call else value

    def _finish(self, call: ToolCall, started: float, ok: bool, summary: dict, span) -> None:
        call.ok, call.ms, call.summary = ok, (time.perf_counter() - started) * 1000, summary
        tool_finished(span, ok, summary)
        self._steps.append({"step": call.tool, "call": call.call, "ok": ok, "ms": round(call.ms, 2), **summary})
        self._emit("tool.finished", call.finished_frame())

    def _step(self, name: str, work: Callable):
        started = time.perf_counter()
        with step_span(name):
            value = work()
        self._steps.append({"step": name, "ok": True, "ms": round((time.perf_counter() - started) * 1000, 2)})
        return value

    @property
    def _principal(self) -> Principal:
        return self._prepared.request.principal

    def _result(self, prepared: Prepared, outcome: "GatedOutcome", guard: GuardDecision) -> AnswerResult:
        gate, passages = outcome.gate, outcome.passages
        by_label = {p.label: p for p in passages}
        cited: list[Passage] = []
        for claim in gate.kept:
            for key in claim.citation_keys:
                passage = by_label.get(key)
                if passage and passage not in cited:
                    cited.append(passage)
        claim_map = [
            {
                "claim": claim.text,
                "citations": [
                    {"kind": "memory", "memory_id": claim.memory_id, "citation_key": "memory"} if key == "memory" else
                    claim_citation(key, by_label[key])
                    for key in claim.citation_keys if key == "memory" or key in by_label
                ],
            }
            for claim in gate.kept
        ]
        published = not gate.fallback_used and not guard.blocked
        note = prepared.sources.note if prepared.sources and published else None
        return AnswerResult(
            answer=f"{note.get(detect_language(prepared.request.question), note['id'])}\n\n{gate.answer}" if note else gate.answer,
            conversation_id=prepared.conversation_id,
            message_id=prepared.message_id,
            trace_id=current_trace_id(),
            history=prepared.history,
            citations=[] if guard.blocked else [p.citation for p in cited],
            claim_map=[] if guard.blocked else claim_map,
            provenance_complete=published and gate.dropped == 0 and all(v.supported for v in gate.verdicts),
            fallback_used=gate.fallback_used,
            fallback_reason=gate.fallback_reason,
            dropped_claims_count=gate.dropped,
            claims_supported=gate.claims_supported,
            claims_total=gate.claims_total,
            grounding_rate=gate.grounding_rate,
            passages=passages,
            cited_passages=[] if guard.blocked else cited,
            guard=guard,
            tool_calls=list(self._calls),
            lexical_tiers=list(self._lexical_tiers),
            dropped_claims=[{"claim": v.claim.text, "reason": v.reason} for v in gate.verdicts if not v.supported],
            faithfulness_checked=outcome.checked,
        )

    def _synthesis_metadata(self, result: AnswerResult) -> dict:
        return {
            "mode": result.synthesis_mode,
            "no_answer": result.fallback_reason == "no_answer",
            "claims": result.claim_map,
            "source_passages": [
                {"document_id": str(p.document_id), "chunk_id": str(p.chunk_id), "visible_chars": len(p.text)}
                for p in result.cited_passages
            ],
            "faithfulness": {
                "mechanism": result.judge_mechanism,
                "action_on_failure": "drop unsupported claim; withhold the answer when most claims fail",
                "dropped_claims": result.dropped_claims,
                "fallback_used": result.fallback_used,
                "fallback_reason": result.fallback_reason,
                "claims_supported": result.claims_supported,
                "claims_total": result.claims_total,
                "grounding_rate": result.grounding_rate,
                **({"checked": False} if result.faithfulness_checked is False else {}),
            },
        }

    def _extra_metadata(self, result: AnswerResult) -> dict:
        return {}

    def _persist(self, prepared: Prepared, result: AnswerResult, *, total_ms: float) -> None:
        request = prepared.request
        config = settings.ACEH_RAG.retrieval
        metadata = {
            "conversation": {
                "resumed": not prepared.is_new_conversation,
                "history_turns_threaded": result.history.exchanges_in_view,
                "history_truncated": result.history.truncated,
            },
            "retrieval": {
                "semantic_candidate_limit": config.semantic_candidate_limit,
                "lexical_candidate_limit": config.lexical_candidate_limit,
                "rrf_k": config.rrf_k,
                "rerank_candidate_limit": config.rerank_candidate_limit,
                "final_top_k": SEARCH_TOP_K,
                "reranker_enabled": bool(config.rerank_base_url),
                "lexical_arms": result.lexical_tiers,
                "collection_ids": list(request.scope.collection_ids),
                "document_ids": [str(d) for d in request.scope.document_ids],
                "followup": self._followup_record,
            },
            "synthesis": self._synthesis_metadata(result),
            "model_call_log": result.model_calls,
            **self._extra_metadata(result),
            "policy_guard": {
                "mechanism": result.guard.mechanism,
                "action": result.guard.action,
                "categories": list(result.guard.categories),
                "stage": result.guard.stage,
            },
            "trace": {"id": result.trace_id, "route": request.route, "latency_ms": round(total_ms, 2)},
        }
        record = ExchangeRecord(
            question=request.question, answer=result.answer, source_citations=result.citations,
            assistant_metadata=metadata,
        )
        try:
            with transaction.atomic():
                exchange_persist(
                    owner=prepared.conversation_owner,
                    conversation_id=None if prepared.is_new_conversation else prepared.conversation_id,
                    new_conversation_id=prepared.conversation_id,
                    new_title=request.question,
                    route_family=request.route_family,
                    record=record,
                    assistant_message_id=prepared.message_id,
                )
                if result.trace_id:  # the local, readable copy of the exported trace
                    AnswerTrace.objects.create(
                        id=result.trace_id, route=request.route, conversation_id=prepared.conversation_id,
                        message_id=prepared.message_id, total_ms=round(total_ms, 2), steps=self._steps,
                    )
        except ConversationNotFound as exc:
            raise AnswerError(404, exc.detail) from exc
        except ConversationRouteConflict as exc:
            raise AnswerError(409, f"Conversation {exc} belongs to another answer route") from exc
