"""The /query/v2 pipeline: the same evidence, agent, tools, scope and budget as /query;
segments instead of prose, annotations instead of a gate (seed: query-v2-annotated-faithfulness).

Only three steps differ from v1: the draft is a list of segments (the
deterministic synthesiser's claims become fact segments; the agent writes JSON
segments and may also call ``search_in_document``), every segment gets a
verdict instead of being dropped, and the result/metadata carry the
annotations. A named document selection with nothing visible is the fixed
``source_scope_empty`` refusal, answered before any tool or model runs.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace

from django.conf import settings

from kernel.telemetry.tracing import current_trace_id
from answering.guard import REFUSAL
from answering.judging import DeterministicFramingChecker, DeterministicJudge
from answering.legal_status import status_framing, surface_search
from answering.llm.agent import AgentStopped, ToolResult
from answering.llm.evidence import PassageLedger
from answering.llm.judge import ModelFramingChecker, ModelJudge
from answering.notices import refusal_notice
from answering.pipeline import (
    AnswerError, AnswerPipeline, AnswerRequest, AnswerResult, Prepared, memory_labels, with_memory_claims,
)
from retrieval.search.glossary import glossary_expansions
from answering.synthesis import no_answer_text, synthesise
from answering.types import AnswerDraft, GuardDecision, Passage
from answering.v2.annotate import (
    Annotation, annotate, annotations_frame, claims_json, faithfulness_block, framing_json, grounding,
)
from answering.v2.segments import Rendered, Segment, check_structure, parse_segments, render_segments, verified_text
from memory.services import RecalledMemory
from retrieval.access import Scope
from retrieval.selectors import chunk_count_with_all_terms

SCHEMA = "annotate-v2"
ROUTE_FAMILY = "query_v2"
SOURCE_SCOPE_EMPTY = (
    "Maaf, dokumen yang Anda pilih tidak tersedia atau belum terindeks, sehingga pertanyaan ini tidak dapat "
    "dijawab dari dokumen tersebut. Silakan pilih dokumen lain atau ajukan pertanyaan tanpa memilih dokumen."
)


@dataclass
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

    def blocked(self, refusal: str) -> "AnnotatedOutcome":
        # The guard publishes no claims; the counts of what was checked survive in `grounding`.
        return replace(self, answer=refusal, rendered=None, fallback_reason="policy_blocked")


@dataclass
class AnswerResultV2(AnswerResult):
    schema: str = SCHEMA
    claims: list[dict] = field(default_factory=list)
    framing: list[dict] = field(default_factory=list)
    faithfulness: dict = field(default_factory=dict)
    annotations: dict = field(default_factory=dict)
    history_view: dict = field(default_factory=dict)      # what later turns may read of this answer


def deterministic_segments(draft: AnswerDraft, key_of: dict[str, str]) -> tuple[Segment, ...]:
    """The extractive draft as segments: framing first, then one fact per claim.

    "Not found in the documents" is framing on v2 (seed), not a refusal.
    """
    if draft.no_answer:
        return (Segment(no_answer_text(draft.language, draft.pointer), "framing", (), "paragraph"),)
    segments = []
    if draft.framing.strip():
        segments.append(Segment(" ".join(draft.framing.split()), "framing", (), "paragraph"))
    for claim in draft.claims:
        cites = ("memory",) if claim.is_memory else tuple(key_of.get(k, k) for k in claim.citation_keys)
        # A table row kept whole ("5 | Kelas III | 225.000") reads as its own item, not mid-sentence.
        if " | " in claim.text:
            layout = "list_item"
        else:
            layout = "continue" if segments and segments[-1].layout != "list_item" else "paragraph"
        segments.append(Segment(" ".join(claim.text.split()), "fact", cites, layout))
    return tuple(segments)


def model_segments(content: str, memory_ids: dict[str, int]) -> tuple[Segment, ...]:
    """Parse and check the agent's JSON segments; memory labels become the ``memory`` key."""
    segments = parse_segments(content)   # SegmentError (a ValueError) makes the agent regenerate once
    check_structure(segments)
    return tuple(replace(s, cites=tuple(dict.fromkeys("memory" if c in memory_ids else c for c in s.cites)))
                 for s in segments)


class NothingCheckable:
    """A framing check for system copy: no segment states a fact to verify."""

    def check(self, question: str, framing: list[tuple[int, str]]) -> set[int]:
        return set()


class AnswerPipelineV2(AnswerPipeline):
    def __init__(self, *args, editorial: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self._editorial = editorial
        self._scope_empty = False
        self._legal_notes: list = []          # deciding clauses added to searches (legal_status.py)
        self._system_notice = False

    def _require_content(self, request: AnswerRequest) -> None:
        if request.scope.document_ids and not self._has_content(request):
            # A named selection with nothing visible is the fixed refusal, not a 404 (seed: Errors).
            self._scope_empty = True
            return
        super()._require_content(request)

    # -- compose: segments and annotations ----------------------------------------------

    def _refused_question(self) -> AnnotatedOutcome:
        return AnnotatedOutcome(REFUSAL, [], fallback_reason="policy_blocked")

    def _refusal(self, reason: str, language: str) -> AnnotatedOutcome:
        return AnnotatedOutcome(refusal_notice(reason, language), [], fallback_reason=reason)

    def _compose(self, prepared: Prepared, language: str, recalled: list[RecalledMemory]) -> AnnotatedOutcome:
        if self._scope_empty:
            return AnnotatedOutcome(SOURCE_SCOPE_EMPTY, [], fallback_reason="source_scope_empty")
        passages = self._gather_passages(prepared)
        ledger = PassageLedger()
        if self._models:
            memory_ids = memory_labels(recalled)
            try:
                segments = self._step("agent", lambda: self._agent_answer(
                    prepared, language, recalled, passages, ledger=ledger, answer_format="answer_segments",
                    parse=lambda content: model_segments(content, memory_ids),
                    progress=self._progress_of(prepared, ledger), editorial=self._editorial))
            except AgentStopped as stop:
                checked = False if stop.reason == "context_budget_exhausted" else None
                return AnnotatedOutcome(refusal_notice(stop.reason, language), ledger.passages(),
                                        fallback_reason=stop.reason, checked=checked)
        else:
            shown = ledger.show(passages)
            key_of = {p.label: k.key for p, k in zip(passages, shown)}
            draft = self._step("synthesis", lambda: with_memory_claims(
                synthesise(prepared.request.question, passages, language=language, absent_words=self._absent_words,
                           expansions=glossary_expansions),
                recalled, prepared.request.question))
            segments = (status_framing(self._legal_notes, key_of, language, [c.text for c in draft.claims])
                        + deterministic_segments(draft, key_of))
            self._system_notice = draft.no_answer
        rendered = render_segments(segments) if segments else None
        annotation = self._step("faithfulness", lambda: self._annotate(prepared, segments, ledger))
        answer = rendered.answer if rendered else ""
        return AnnotatedOutcome(answer, ledger.passages(), segments, rendered, annotation)

    def _annotate(self, prepared: Prepared, segments: tuple[Segment, ...], ledger: PassageLedger) -> Annotation:
        if self._models:
            judge = ModelJudge(self._models.judge, self._models.budget)
            checker = ModelFramingChecker(self._models.judge, self._models.budget)
            shown = {p.key: p.evidence for p in ledger.passages()}
        else:
            judge, checker = DeterministicJudge(), DeterministicFramingChecker()
            if self._system_notice:
                # The fixed no-answer text (and its pointer to other years or places) is system copy that
                # answers nothing: it stays framing, so the rate stays "—" (null), never 0%.
                checker = NothingCheckable()
            shown = {p.key: p.text for p in ledger.passages()}
        return annotate(segments, shown=shown, question=prepared.request.question, judge=judge,
                        framing_checker=checker, batch_size=settings.ACEH_RAG.llm.judge_batch_size)

    # -- legal status (ADR-0053, behind ACEH_RAG_LEGAL_RELATIONS__SURFACE_ENABLED) -----------

    def _search(self, question: str, scope: Scope, origin: str):
        passages, tier = super()._search(question, scope, origin)
        if not settings.ACEH_RAG.legal_relations.surface_enabled:
            return passages, tier
        # Statuses count regulations in the request's scope, not only the (narrower) search's.
        surfaced = surface_search(passages, principal=self._principal, scope=self._prepared.request.scope,
                                  make_passage=self._passage)
        self._legal_notes += [n for n in surfaced.clauses if n not in self._legal_notes]
        return surfaced.passages, tier

    def _legal_evidence(self, prepared: Prepared, passages: list[Passage]) -> list[Passage]:
        passages = super()._legal_evidence(prepared, passages)
        present = {p.chunk_id for p in passages}
        return passages + [n.passage for n in self._legal_notes if n.passage.chunk_id not in present]

    def _progress_of(self, prepared: Prepared, ledger: PassageLedger):
        """v2's progress rule: a new document (or, with selected documents, a new passage)."""
        if prepared.request.scope.document_ids:
            return lambda: len(ledger.passages())
        return lambda: frozenset(ledger.document_ids())

    def _agent_tools(self, prepared: Prepared, ledger: PassageLedger):
        tools = super()._agent_tools(prepared, ledger)
        tools.search_in_document = lambda document_id, query: self._search_in_document(prepared, ledger, document_id, query)
        return tools

    def _search_in_document(self, prepared: Prepared, ledger: PassageLedger, document_id: str, query: str) -> ToolResult:
        try:
            target = uuid.UUID(document_id)
        except ValueError:
            return ToolResult(text=f"Error: {document_id!r} is not a document id.")
        if target not in ledger.document_ids():
            return ToolResult(text="Refused: search_in_document only searches a document an earlier search for "
                                   "this question returned.")
        scope = Scope(collection_ids=prepared.request.scope.collection_ids, document_ids=(target,))
        matching = self._tool("count_all_terms", {"document_id": document_id, "query": query},
                              lambda: chunk_count_with_all_terms(document_id=target, query=query),
                              summarise=lambda count: {"passages_with_every_term": count})
        passages, tier = self._search(query, scope, "agent")
        return ToolResult(passages=passages, tier=tier,
                          lead=f"{matching} of this document's passages contain every term of \"{query}\".")

    # -- result and stored metadata -------------------------------------------------------

    def _result(self, prepared: Prepared, outcome: AnnotatedOutcome, guard: GuardDecision) -> AnswerResultV2:
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
        return AnswerResultV2(
            answer=outcome.answer, conversation_id=prepared.conversation_id, message_id=prepared.message_id,
            trace_id=current_trace_id(), history=prepared.history,
            citations=[p.citation for p in cited], claim_map=[], provenance_complete=False,
            fallback_used=outcome.fallback_used, fallback_reason=outcome.fallback_reason, dropped_claims_count=0,
            claims_supported=counts["claims_supported"], claims_total=counts["claims_total"],
            grounding_rate=counts["grounding_rate"], passages=outcome.passages, cited_passages=cited, guard=guard,
            tool_calls=list(self._calls), lexical_tiers=list(self._lexical_tiers),
            faithfulness_checked=outcome.checked,
            claims=claims_json(annotation, spans, lambda key: by_key[key].citation if key in by_key else None),
            framing=framing_json(annotation, spans),
            faithfulness=faithfulness,
            annotations={**annotations_frame(annotation, rendered, outcome.answer, fallback_used=outcome.fallback_used,
                                             fallback_reason=outcome.fallback_reason, checked=outcome.checked),
                         "grounding": counts},
            history_view={
                "text": verified_text(outcome.segments, verdicts, answer=outcome.answer) if outcome.segments and not guard.blocked
                else outcome.answer,
                "document_ids": list(dict.fromkeys(supported_documents)),
            },
        )

    def _synthesis_metadata(self, result: AnswerResultV2) -> dict:
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
                             **({"checked": False} if result.faithfulness_checked is False else {})},
        }

    def _extra_metadata(self, result: AnswerResultV2) -> dict:
        return {"v2_faithfulness": result.faithfulness, "v2_history": result.history_view}


__all__ = ["AnswerError", "AnswerPipelineV2", "AnswerResultV2", "SCHEMA", "SOURCE_SCOPE_EMPTY"]
