"""The answer pipeline every answer route composes (DESIGN.md "Answering").

principal → sources → conversation (one access rule) → history window →
guard → memory → evidence (anchors, follow-up, arms; the question embedded
once) → the composer's draft and check (v1 gate, v2 annotate) → guard →
publication → result. ``prepare`` does the checks that must fail as plain
errors before a stream starts; ``run`` does the rest and reports each real
step through ``on_event``. Failures are ``kernel.errors`` domain errors.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import replace
from typing import Callable

from django.conf import settings

from answering.answer.annotated import AnnotateComposer, NothingReadable
from answering.answer.compose import AnswerContext, Composer
from answering.answer.contracts import (
    AnswerCancelled, AnswerCore, AnswerRequest, EventSink, Prepared,
)
from answering.answer.evidence import EvidenceGatherer
from answering.answer.gated import GateComposer
from answering.answer.model_path import Models, answer_guard
from answering.answer.named import named_outside_selection
from answering.answer.publish import ExchangePublisher, NoPublish, Publisher
from answering.answer.steps import StepRecorder
from answering.artifacts.drafts import ArtifactBox
from answering.guard import REFUSAL, guard_question
from answering.mcp_tools import McpSourcesFailed
from answering.extractive.synthesis import detect_language
from answering.telemetry import answer_finished, answer_span
from conversations.facade import history_window
from conversations.facade import conversation_access_for_route
from kernel.errors import NotFound, RetrievalFailed
from memory.facade import preferred_language
from memory.facade import RecalledMemory, memory_recall
from retrieval.facade import content_visible_exists, search_deadline
from retrieval.facade.language import require_query_length
from workspaces.facade import answer_sources_resolve

NO_CONTENT = "No visible indexed content is available to answer this question"


class NoContent(NotFound):
    code = "no_content"


def answer_prepare(request: AnswerRequest, composer: Composer) -> Prepared:
    """The setup checks: question size, sources, the conversation (owner and route family), content."""
    require_query_length(request.question)
    sources = answer_sources_resolve(
        principal=request.principal, owner=request.owner, conversation_id=request.conversation_id,
        scope=request.scope, mcp_source_ids=request.mcp_source_ids, mcp_given=request.mcp_given)
    request = replace(request, scope=sources.scope)
    conversation = None
    if request.conversation_id is not None:
        conversation = conversation_access_for_route(
            owner=sources.conversation_owner or request.owner, conversation_id=request.conversation_id,
            route_family=request.route_family)
    scope_empty = False
    if not sources.mcp_only and not content_visible_exists(principal=request.principal, scope=request.scope):
        if not (composer.empty_selection_refused and request.scope.selected):
            raise NoContent(NO_CONTENT)
        # A named selection (collections or documents) with nothing visible is v2's fixed refusal, not
        # ``no_content`` (seed).
        scope_empty = True
    out_of_scope = not (scope_empty or sources.mcp_only) and named_outside_selection(
        request.question, principal=request.principal, scope=request.scope)
    return Prepared(
        request=request, history=history_window(conversation=conversation),
        conversation_id=conversation.id if conversation else uuid.uuid4(), message_id=uuid.uuid4(),
        is_new_conversation=conversation is None, sources=sources, scope_empty=scope_empty,
        out_of_scope=out_of_scope,
    )


def selection_unreadable(prepared: Prepared, steps: StepRecorder, failure: Exception) -> bool:
    """``source_scope_unavailable``: the answer reads a selection (collections, documents, a saved source set)
    that holds visible indexed content, and reading it failed this turn. Without a selection a failed read
    stays the route's error (502 on /query, ``nothing_readable`` on /query/v2)."""
    if not prepared.request.scope.selected or prepared.mcp_only:
        return False
    return isinstance(failure, RetrievalFailed) or steps.read_failed()


class AnswerPipeline:
    """One answer: a composer (what the route returns) and a publisher (what it stores)."""

    def __init__(self, composer: Composer, publisher: Publisher | None = None, *, on_event: EventSink | None = None,
                 cancelled: Callable[[], bool] = lambda: False):
        self.composer = composer
        self.publisher = publisher or ExchangePublisher()
        self._on_event = on_event
        self._cancelled = cancelled

    def prepare(self, request: AnswerRequest) -> Prepared:
        return answer_prepare(request, self.composer)

    def run(self, prepared: Prepared) -> AnswerCore:
        models = Models.from_settings() if settings.ACEH_RAG.llm.enabled else None
        try:
            # The answer's deadline bounds every search statement by the time it has left (seed).
            deadline = models.budget.started + models.budget.seconds if models else None
            with answer_span(prepared.request.route, prepared.request.question) as root, search_deadline(deadline):
                result = self._run(prepared, models)
                answer_finished(root, route=prepared.request.route, fallback_reason=result.fallback_reason,
                                grounding_rate=result.grounding_rate, citations=len(result.citations),
                                blocked=result.blocked)
                return result
        finally:
            if models:
                models.close()

    def _run(self, prepared: Prepared, models: Models | None) -> AnswerCore:
        started = time.perf_counter()
        composer, request = self.composer, prepared.request
        steps = StepRecorder(self._on_event)
        evidence = EvidenceGatherer(prepared, steps, models=models, surface_legal=composer.surfaces_legal_status)
        context = AnswerContext(prepared=prepared, steps=steps, evidence=evidence, models=models,
                                cancelled=self._cancelled, artifacts=ArtifactBox() if request.offer_artifacts else None)
        guard = steps.step("guard_question", lambda: guard_question(request.question))
        if guard.blocked:
            outcome = composer.refused_question()
        elif prepared.out_of_scope:
            # Fixed copy decided before any read: the regulation asked about lies outside the selection.
            outcome = composer.refusal("source_out_of_scope", detect_language(request.question))
        else:
            recalled: list[RecalledMemory] = []
            if settings.ACEH_RAG.memory.enabled:
                recalled = steps.step("memory_recall", lambda: memory_recall(
                    owner=request.owner, question=request.question, principal=request.principal,
                    query_vector=evidence.question_vector))
            language = preferred_language([m.text for m in recalled]) or detect_language(request.question)
            try:
                outcome = composer.compose(context, language, recalled)
            except McpSourcesFailed:
                outcome = composer.refusal("mcp_source_unavailable", language)
            except (RetrievalFailed, NothingReadable) as failure:
                if not selection_unreadable(prepared, steps, failure):
                    raise
                outcome = composer.refusal("source_scope_unavailable", language)
            guard = steps.step("guard_answer", lambda: answer_guard(outcome.answer, outcome.fallback_used, models))
            if guard.blocked:
                outcome = composer.blocked(outcome, REFUSAL)
        if self._cancelled():
            raise AnswerCancelled()
        result = composer.result(context, outcome, guard)
        self.publisher.publish(context, composer, result, total_ms=(time.perf_counter() - started) * 1000)
        return result


def query_pipeline(**options) -> AnswerPipeline:
    """/query and the public chat: the gate, published."""
    return AnswerPipeline(GateComposer(), ExchangePublisher(), **options)


def query_v2_pipeline(**options) -> AnswerPipeline:
    """/query/v2: the annotations, published."""
    return AnswerPipeline(AnnotateComposer(), ExchangePublisher(), **options)


def playground_pipeline(*, editorial: str, **options) -> AnswerPipeline:
    """/playground: /query/v2 with a candidate editorial prompt, publishing nothing."""
    return AnswerPipeline(AnnotateComposer(editorial=editorial), NoPublish(), **options)
