"""/query/v2's composer: segments instead of prose, annotations instead of a gate
(seed: query-v2-annotated-faithfulness).

The same evidence, agent, tools, scope and budget as /query. The draft is a
list of segments (the deterministic synthesiser's claims become fact
segments, and its "Berdasarkan … Pasal 8:" line cites the passage it names;
the agent writes JSON segments and may also call
``search_in_document``), every segment gets a verdict instead of being
dropped. A named selection (collections or documents) with nothing visible is the fixed
``source_scope_empty`` refusal, answered before any tool or model runs.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace

from django.conf import settings

from kernel.telemetry.tracing import current_trace_id
from answering.answer.compose import AnswerContext, faithfulness_checked_field
from answering.answer.contracts import AnnotatedAnswer
from answering.answer.drafts import deterministic_draft
from answering.answer.memory import memory_labels
from answering.answer.model_path import AgentRun, agent_answer
from answering.guard import REFUSAL
from conversations.facade import HISTORY_VIEW_KEY, history_view_metadata
from answering.attribution import SourceIdentity, attribution
from answering.judging import DeterministicFramingChecker, DeterministicJudge
from answering.legal_status import status_framing
from answering.llm.agent import AgentStopped, ToolResult
from answering.llm.evidence import PassageLedger
from answering.llm.judge import ModelFramingChecker, ModelJudge
from answering.notices import refusal_notice
from answering.extractive.synthesis import no_answer_text
from answering.types import AnswerDraft, GuardDecision, Passage
from answering.annotation.annotate import (
    Annotation, annotate, annotations_frame, claims_json, faithfulness_block, framing_json, grounding,
)
from answering.annotation.rendering import render_segments, verified_text
from answering.annotation.segments import Rendered, Segment, check_structure, parse_segments
from memory.facade import RecalledMemory
from kernel.errors import NotFound, RetrievalFailed
from retrieval.facade import Scope

NOTHING_READABLE = "The tools that ran returned nothing readable for this question"
READABLE_TEXT_TOOLS = frozenset({"corpus_facts"})     # a tool whose answer is text, not passages
SCHEMA = "annotate-v2"
ROUTE_FAMILY = "query_v2"
SOURCE_SCOPE_EMPTY = (
    "Maaf, dokumen yang Anda pilih tidak tersedia atau belum terindeks, sehingga pertanyaan ini tidak dapat "
    "dijawab dari dokumen tersebut. Silakan pilih dokumen lain atau ajukan pertanyaan tanpa memilih dokumen."
)


@dataclass(frozen=True)
class AnnotatedOutcome:
    """v2's answer before persistence: segments, their rendering and their verdicts."""

    answer: str
    passages: list[Passage]                  # every passage shown, keyed P1, P2, …
    segments: tuple[Segment, ...] = ()
    rendered: Rendered | None = None         # None for a refusal or notice
    annotation: Annotation = field(default_factory=Annotation.for_refusal)
    fallback_reason: str | None = None
    checked: bool | None = None

    @property
    def fallback_used(self) -> bool:
        return self.fallback_reason is not None


def deterministic_segments(draft: AnswerDraft, key_of: dict[str, str]) -> tuple[Segment, ...]:
    """The extractive draft as segments: framing first, then one fact per claim.

    "Not found in the documents" is framing on v2 (seed), not a refusal.
    """
    if draft.no_answer:
        return (Segment(no_answer_text(draft.language, draft.pointer), "framing", (), "paragraph"),)
    segments = []
    if draft.framing.strip():
        framing = " ".join(draft.framing.split())
        segments.append(Segment(framing, "framing", introduced_passage(framing, draft, key_of), "paragraph"))
    for claim in draft.claims:
        cites = ("memory",) if claim.is_memory else tuple(key_of.get(k, k) for k in claim.citation_keys)
        if claim.heading:
            # The article the quotation comes from, as the embedded answerer lays it out (layout.py).
            # It cites the passage it names, and is checked against that passage's identity (judging.py).
            segments.append(Segment(" ".join(claim.heading.split()), "framing", cites[:1], "heading"))
        # A table row kept whole ("5 | Kelas III | 225.000") reads as its own item, not mid-sentence.
        if " | " in claim.text or claim.layout == "list_item":
            layout = "list_item"
        elif claim.heading:
            layout = "paragraph"
        else:
            layout = "continue" if segments and segments[-1].layout not in ("list_item", "heading") else "paragraph"
        segments.append(Segment(" ".join(claim.text.split()), "fact", cites, layout))
    return tuple(segments)


def introduced_passage(framing: str, draft: AnswerDraft, key_of: dict[str, str]) -> tuple[str, ...]:
    """A framing line that names its source ("Berdasarkan … Pasal 8:") cites the passage it introduces: the
    first claim's first passage (the one the synthesiser named). Framing that names nothing cites nothing."""
    if attribution(framing) is None:
        return ()
    first = next((claim for claim in draft.claims if not claim.restates and claim.citation_keys), None)
    return (key_of.get(first.citation_keys[0], first.citation_keys[0]),) if first else ()


def model_segments(content: str, memory_ids: dict[str, int]) -> tuple[Segment, ...]:
    """Parse and check the agent's JSON segments; memory labels become the ``memory`` key."""
    segments = parse_segments(content)   # SegmentError (a ValueError) makes the agent regenerate once
    check_structure(segments)
    return tuple(replace(s, cites=tuple(dict.fromkeys("memory" if c in memory_ids else c for c in s.cites)))
                 for s in segments)


class NothingReadable(NotFound):
    code = "nothing_readable"


def require_readable(passages: list[Passage], steps) -> None:
    """/query/v2's ``nothing_readable``: the tools that ran returned nothing readable (a failed or timed-out
    search included)."""
    if passages or any(call.ok and call.tool in READABLE_TEXT_TOOLS for call in steps.calls):
        return
    raise NothingReadable(NOTHING_READABLE)


class NothingCheckable:
    """A framing check for system copy: no segment states a fact to verify."""

    def check(self, question: str, framing: list[tuple[int, str]]) -> set[int]:
        return set()


class SystemCopyFirst:
    """A framing check that never sees the first ``count`` segments (fixed system copy)."""

    def __init__(self, checker, count: int):
        self._checker, self._count = checker, count

    def check(self, question: str, framing: list[tuple[int, str]]) -> set[int]:
        rest = [(index, text) for index, text in framing if index >= self._count]
        return self._checker.check(question, rest) if rest else set()


class AnnotateComposer:
    route_family = ROUTE_FAMILY
    empty_selection_refused = True

    def __init__(self, *, editorial: str | None = None):
        self._editorial = editorial          # the playground's candidate prompt

    @property
    def surfaces_legal_status(self) -> bool:
        """Searches carry statuses and deciding clauses (ADR-0053, ACEH_RAG_LEGAL_RELATIONS__SURFACE_ENABLED)."""
        return settings.ACEH_RAG.legal_relations.surface_enabled

    def refused_question(self) -> AnnotatedOutcome:
        return AnnotatedOutcome(REFUSAL, [], fallback_reason="policy_blocked")

    def refusal(self, reason: str, language: str) -> AnnotatedOutcome:
        return AnnotatedOutcome(refusal_notice(reason, language), [], fallback_reason=reason)

    def blocked(self, outcome: AnnotatedOutcome, refusal: str) -> AnnotatedOutcome:
        # The guard publishes no claims; the counts of what was checked survive in `grounding`.
        return replace(outcome, answer=refusal, rendered=None, fallback_reason="policy_blocked")

    def compose(self, context: AnswerContext, language: str, recalled: list[RecalledMemory]) -> AnnotatedOutcome:
        if context.prepared.scope_empty:
            return AnnotatedOutcome(SOURCE_SCOPE_EMPTY, [], fallback_reason="source_scope_empty")
        evidence, steps = context.evidence, context.steps
        try:
            passages = evidence.gather()
        except RetrievalFailed:
            passages = []        # a failed search read nothing; the agent may search again (seed)
        ledger = PassageLedger()
        system_notice = False
        if context.models:
            memory_ids = memory_labels(recalled)
            run = AgentRun("answer_segments", lambda content: model_segments(content, memory_ids),
                           progress=self._progress_of(context, ledger), editorial=self._editorial,
                           rewrite_zero_match=True, forced_followup_search=True,
                           search_in_document=lambda document_id, query: self._search_in_document(
                               context, ledger, document_id, query))
            try:
                segments = steps.step("agent", lambda: agent_answer(
                    context.models, evidence, run, language=language, recalled=recalled, initial=passages,
                    ledger=ledger, cancelled=context.cancelled))
            except AgentStopped as stop:
                checked = False if stop.reason == "context_budget_exhausted" else None
                # v2's agent_output_limit (a follow-up's re-asked forced tool round) publishes the
                # could-not-answer-in-time notice (seed).
                notice = "could_not_answer_in_time" if stop.reason == "agent_output_limit" else stop.reason
                return AnnotatedOutcome(refusal_notice(notice, language), ledger.passages(),
                                        fallback_reason=stop.reason, checked=checked)
            require_readable(ledger.passages(), steps)
        else:
            require_readable(passages, steps)
            shown = ledger.show(passages)
            key_of = {p.label: k.key for p, k in zip(passages, shown)}
            draft = steps.step("synthesis", lambda: deterministic_draft(context, passages, recalled, language))
            segments = (status_framing(evidence.legal_notes, key_of, language, [c.text for c in draft.claims])
                        + deterministic_segments(draft, key_of))
            system_notice = draft.no_answer
        note = context.prepared.sources.note if context.prepared.sources else None
        if note and segments:
            # The saved documents are gone (MCP alone answers): the fixed note leads, as framing nobody checks.
            segments = (Segment(note.get(language, note["id"]), "framing"), *segments)
        rendered = render_segments(segments) if segments else None
        annotation = steps.step("faithfulness", lambda: self._annotate(context, segments, ledger, system_notice,
                                                                      exempt=1 if note and segments else 0))
        return AnnotatedOutcome(rendered.answer if rendered else "", ledger.passages(), segments, rendered, annotation)

    @staticmethod
    def _annotate(context: AnswerContext, segments: tuple[Segment, ...], ledger: PassageLedger,
                  system_notice: bool, exempt: int = 0) -> Annotation:
        """``exempt``: how many leading segments are system copy the framing check never sees."""
        if context.models:
            judge = ModelJudge(context.models.judge, context.models.budget)
            checker = ModelFramingChecker(context.models.judge, context.models.budget)
            shown = {p.key: p.evidence for p in ledger.passages()}
        else:
            judge = DeterministicJudge({p.key: SourceIdentity.of(p) for p in ledger.passages()})
            checker = DeterministicFramingChecker()
            if system_notice:
                # The fixed no-answer text (and its pointer to other years or places) is system copy that
                # answers nothing: it stays framing, so the rate stays "—" (null), never 0%.
                checker = NothingCheckable()
            shown = {p.key: p.text for p in ledger.passages()}
        if exempt:
            checker = SystemCopyFirst(checker, exempt)
        return annotate(segments, shown=shown, question=context.question, judge=judge,
                        framing_checker=checker, batch_size=settings.ACEH_RAG.llm.judge_batch_size)

    @staticmethod
    def _progress_of(context: AnswerContext, ledger: PassageLedger):
        """v2's progress rule: a new document (or, with selected documents, a new passage)."""
        if context.prepared.request.scope.document_ids:
            return lambda: len(ledger.passages())
        return lambda: frozenset(ledger.document_ids())

    @staticmethod
    def _search_in_document(context: AnswerContext, ledger: PassageLedger, document_id: str, query: str) -> ToolResult:
        try:
            target = uuid.UUID(document_id)
        except ValueError:
            return ToolResult(text=f"Error: {document_id!r} is not a document id.")
        if target not in ledger.document_ids():
            return ToolResult(text="Refused: search_in_document only searches a document an earlier search for "
                                   "this question returned.")
        scope = Scope(collection_ids=context.prepared.request.scope.collection_ids, document_ids=(target,))
        matching = context.evidence.count_all_terms(document_id, query)
        passages, tier = context.evidence.search(query, scope, "agent")
        return ToolResult(passages=passages, tier=tier,
                          lead=f"{matching} of this document's passages contain every term of \"{query}\".")

    def result(self, context: AnswerContext, outcome: AnnotatedOutcome, guard: GuardDecision) -> AnnotatedAnswer:
        prepared = context.prepared
        by_key = {p.key: p for p in outcome.passages}
        published = outcome.rendered is not None and not guard.blocked
        annotation = outcome.annotation if published else Annotation.for_refusal()
        rendered = outcome.rendered if published else None
        spans = rendered.spans if rendered else ()
        cited: list[Passage] = []
        for claim in annotation.claims:
            for key in claim.valid_keys:
                if by_key[key] not in cited:
                    cited.append(by_key[key])
        faithfulness = faithfulness_block(annotation, rendered, outcome.answer, checked=outcome.checked)
        # A guard block publishes no claims, but the rate counts what was checked before it.
        counts = grounding(outcome.annotation)
        faithfulness["grounding"] = counts
        verdicts = outcome.annotation.verdicts_by_index()
        supported_documents = [str(by_key[key].document_id) for claim in outcome.annotation.claims
                               if claim.verdict == "supported" for key in claim.valid_keys]
        return AnnotatedAnswer(
            answer=outcome.answer, conversation_id=prepared.conversation_id, message_id=prepared.message_id,
            trace_id=current_trace_id(), history=prepared.history, citations=[p.citation for p in cited],
            fallback_used=outcome.fallback_used, fallback_reason=outcome.fallback_reason,
            claims_supported=counts["claims_supported"], claims_total=counts["claims_total"],
            grounding_rate=counts["grounding_rate"], passages=outcome.passages, cited_passages=cited, guard=guard,
            faithfulness_checked=outcome.checked, **context.run_fields(), **context.model_fields(),
            schema=SCHEMA,
            claims=claims_json(annotation, spans, lambda key: by_key[key].citation if key in by_key else None),
            framing=framing_json(annotation, spans),
            faithfulness=faithfulness,
            annotations={**annotations_frame(annotation, rendered, outcome.answer, fallback_used=outcome.fallback_used,
                                             fallback_reason=outcome.fallback_reason, checked=outcome.checked),
                         "grounding": counts},
            history_view=history_view_metadata(
                verified_text(outcome.segments, verdicts, answer=outcome.answer)
                if outcome.segments and not guard.blocked else outcome.answer,
                list(dict.fromkeys(supported_documents))),
        )

    def synthesis_metadata(self, result: AnnotatedAnswer) -> dict:
        return {
            "mode": result.synthesis_mode,
            "schema": SCHEMA,
            "claims": result.claims,
            "framing": result.framing,
            "source_passages": [
                {"document_id": str(p.document_id), "chunk_id": str(p.chunk_id), "citation_key": p.key,
                 "visible_chars": len(p.text)}
                for p in result.cited_passages
            ],
            "faithfulness": {"mechanism": result.judge_mechanism, "fallback_used": result.fallback_used,
                             "fallback_reason": result.fallback_reason,
                             **faithfulness_checked_field(result.faithfulness_checked)},
        }

    def extra_metadata(self, result: AnnotatedAnswer) -> dict:
        return {"v2_faithfulness": result.faithfulness, HISTORY_VIEW_KEY: result.history_view}
