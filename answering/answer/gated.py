"""/query's composer: a draft (extractive or the agent's prose), then the faithfulness gate drops
unsupported claims and withholds an answer most of whose claims fail."""
from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings

from kernel.telemetry.tracing import current_trace_id
from answering.answer.compose import AnswerContext, faithfulness_checked_field
from answering.answer.contracts import GatedAnswer
from answering.answer.artifact_tool import artifact_tool
from answering.answer.drafts import deterministic_draft
from answering.artifacts.drafts import deterministic_artifact
from answering.answer.memory import memory_labels, memory_only_answer
from answering.answer.model_path import AgentRun, agent_answer, history_labels
from answering.answer.provenance import dropped_claim_reasons
from answering.faithfulness import faithfulness_gate
from answering.guard import REFUSAL
from answering.live import claim_citation, stable_label
from answering.llm.agent import AgentStopped
from answering.llm.answers import parse_prose_answer
from answering.llm.evidence import PassageLedger
from answering.notices import refusal_notice
from answering.publication import model_gate
from answering.extractive.synthesis import detect_language, no_answer_text
from answering.types import AnswerDraft, GateResult, GuardDecision, Passage
from memory.facade import RecalledMemory


@dataclass(frozen=True)
class GatedOutcome:
    """v1's answer before persistence: the gate's result and the evidence behind it."""

    gate: GateResult
    passages: list[Passage]
    checked: bool | None = None          # False only when nothing could be checked
    answerability: dict | None = None    # the embedded answerer's decision (extractive.decision)

    @property
    def answer(self) -> str:
        return self.gate.answer

    @property
    def fallback_used(self) -> bool:
        return self.gate.fallback_used


def conversation_citation(claim) -> dict:
    """A claim_map record of a claim restating the user's memory or an earlier exchange: no document, no chunk.

    History carries the original zero-based exchange index, not an offset in the window (seed).
    """
    if claim.is_memory:
        return {"kind": "memory", "memory_id": claim.memory_id, "citation_key": "memory",
                "document_id": None, "chunk_id": None}
    return {"kind": "history", "turn_index": claim.turn_index, "citation_key": "history",
            "document_id": None, "chunk_id": None}


def gate_dropped_reasons(result: GatedAnswer) -> dict[str, int]:
    """/query's dropped_claim_reasons: dropped claims per reason; {} when nothing was dropped."""
    return dropped_claim_reasons(result.dropped_claims) if result.dropped_claims_count else {}


def answerability_record(draft: AnswerDraft) -> dict | None:
    """What the embedded answerer decided and why: stored with the answer's synthesis metadata."""
    if draft.signals is None:
        return None
    return {"publish": not draft.no_answer, "probability": draft.confidence, "signals": draft.signals,
            "unmet": list(draft.unmet)}


REQUEST_LABEL = re.compile(r"\[(P\d+)\]")


def published_labels(answer: str, by_label: dict[str, Passage]) -> str:
    """The agent's request-local labels ([P1]) as the stable ones every path publishes; claim_map keeps
    the request-local key it records."""
    def stable(match: re.Match) -> str:
        passage = by_label.get(match.group(1))
        return f"[{stable_label(passage)}]" if passage else match.group(0)
    return REQUEST_LABEL.sub(stable, answer)


def refusal_gate(reason: str, language: str) -> GateResult:
    return GateResult((), (), refusal_notice(reason, language), True, reason, 0, 0, 0)


class GateComposer:
    route_family = "query"
    empty_selection_refused = False
    surfaces_legal_status = False

    def refused_question(self) -> GatedOutcome:
        return GatedOutcome(GateResult((), (), REFUSAL, True, "policy_blocked", 0, 0, 0), [])

    def refusal(self, reason: str, language: str) -> GatedOutcome:
        return GatedOutcome(refusal_gate(reason, language), [])

    def blocked(self, outcome: GatedOutcome, refusal: str) -> GatedOutcome:
        gate = outcome.gate
        return GatedOutcome(GateResult(gate.kept, gate.verdicts, refusal, True, "policy_blocked", gate.dropped,
                                       gate.claims_supported, gate.claims_total), outcome.passages, outcome.checked)

    def compose(self, context: AnswerContext, language: str, recalled: list[RecalledMemory]) -> GatedOutcome:
        """Gather evidence, write the draft (deterministic or agent), gate it."""
        question, steps = context.question, context.steps
        passages = context.evidence.gather()
        if context.models:
            ledger = PassageLedger()
            memory_ids = memory_labels(recalled)
            history_ids = history_labels(context.prepared.history)
            run = AgentRun("answer_prose", lambda content: parse_prose_answer(
                content, memory_ids=memory_ids, language=language, history_ids=history_ids), history_labelled=True,
                extra_tools=(artifact_tool(context.artifacts, steps),) if context.artifacts else ())
            try:
                draft = steps.step("agent", lambda: agent_answer(
                    context.models, context.evidence, run, language=language, recalled=recalled, initial=passages,
                    ledger=ledger, cancelled=context.cancelled))
            except AgentStopped as stop:
                checked = False if stop.reason == "context_budget_exhausted" else None
                return GatedOutcome(refusal_gate(stop.reason, language), ledger.passages(), checked)
            passages = ledger.passages()       # keyed P1, P2, …
            restated = memory_only_answer(draft, recalled, question, language)
            if restated:
                # The text is the stored memory's own: gated as the deterministic path gates it.
                return GatedOutcome(steps.step("faithfulness", lambda: faithfulness_gate(
                    restated, {}, partial_answers=False)), passages)
        else:
            draft = steps.step("synthesis", lambda: deterministic_draft(context, passages, recalled, language))
        return GatedOutcome(steps.step("faithfulness", lambda: self._gate(context, draft, passages)), passages,
                            answerability=answerability_record(draft))

    @staticmethod
    def _gate(context: AnswerContext, draft: AnswerDraft, passages: list[Passage]) -> GateResult:
        if draft.no_answer:
            return GateResult((), (), no_answer_text(draft.language, draft.pointer), True, "no_answer", 0, 0, 0)
        partial = settings.ACEH_RAG.synthesis.partial_answers_enabled
        if context.models:
            # The model judge sees each passage with the document identity the agent saw.
            return model_gate(context.question, draft, passages, {p.label: p.evidence for p in passages},
                              models=context.models, partial_answers=partial,
                              batch_size=settings.ACEH_RAG.llm.judge_batch_size)
        return faithfulness_gate(draft, {p.label: p.text for p in passages}, partial_answers=partial)

    def result(self, context: AnswerContext, outcome: GatedOutcome, guard: GuardDecision) -> GatedAnswer:
        prepared = context.prepared
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
                    conversation_citation(claim) if key in ("memory", "history") else claim_citation(key, by_label[key])
                    for key in claim.citation_keys if key in ("memory", "history") or key in by_label
                ],
            }
            for claim in gate.kept
        ]
        published = not gate.fallback_used and not guard.blocked
        note = prepared.sources.note if prepared.sources and published else None
        answer = published_labels(gate.answer, by_label) if context.models and published else gate.answer
        artifacts = ()
        if context.artifacts is not None and published:
            # Attached only to a published answer: a refusal (a format refusal included) attaches nothing.
            artifacts = context.artifacts.drafts if context.models else (deterministic_artifact(
                question=context.question, answer=answer, claims=gate.kept, citations=[p.citation for p in cited]),)
        return GatedAnswer(
            answer=f"{note.get(detect_language(context.question), note['id'])}\n\n{answer}" if note else answer,
            conversation_id=prepared.conversation_id, message_id=prepared.message_id, trace_id=current_trace_id(),
            history=prepared.history,
            citations=[] if guard.blocked else [p.citation for p in cited],
            claim_map=[] if guard.blocked else claim_map,
            provenance_complete=published and gate.dropped == 0 and all(v.supported for v in gate.verdicts),
            fallback_used=gate.fallback_used, fallback_reason=gate.fallback_reason,
            dropped_claims_count=gate.dropped, claims_supported=gate.claims_supported,
            claims_total=gate.claims_total, grounding_rate=gate.grounding_rate,
            passages=passages, cited_passages=[] if guard.blocked else cited, guard=guard,
            dropped_claims=[{"claim": v.claim.text, "reason": v.reason} for v in gate.verdicts if not v.supported],
            faithfulness_checked=outcome.checked, answerability=outcome.answerability, artifacts=artifacts,
            **context.run_fields(), **context.model_fields(),
        )

    def synthesis_metadata(self, result: GatedAnswer) -> dict:
        return {
            "mode": result.synthesis_mode,
            "no_answer": result.fallback_reason == "no_answer",
            **({"answerability": result.answerability} if result.answerability else {}),
            "claims": result.claim_map,
            "source_passages": [
                {"document_id": str(p.document_id), "chunk_id": str(p.chunk_id), "visible_chars": len(p.text)}
                for p in result.cited_passages
            ],
            "faithfulness": {
                "mechanism": result.judge_mechanism,
                "action_on_failure": "drop unsupported claim; withhold the answer when most claims fail",
                "dropped_claims": result.dropped_claims,
                "dropped_claim_reasons": gate_dropped_reasons(result),
                "fallback_used": result.fallback_used,
                "fallback_reason": result.fallback_reason,
                "claims_supported": result.claims_supported,
                "claims_total": result.claims_total,
                "grounding_rate": result.grounding_rate,
                **faithfulness_checked_field(result.faithfulness_checked),
            },
        }

    def extra_metadata(self, result: GatedAnswer) -> dict:
        return {}
