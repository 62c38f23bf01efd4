"""What a composer is: the part of an answer that differs between /query and /query/v2.

The pipeline runs the same setup, guard, evidence, agent and publication for
every route; a composer turns the evidence into an outcome (v1 gates claims,
v2 annotates segments), builds the route's result and its stored metadata.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Protocol

from answering.answer.contracts import AnswerCore, Prepared
from answering.answer.evidence import EvidenceGatherer
from answering.answer.steps import StepRecorder
from answering.artifacts.drafts import ArtifactBox
from answering.llm.judge import ModelJudge
from answering.types import GuardDecision
from memory.facade import RecalledMemory


@dataclass(frozen=True)
class AnswerContext:
    """One answer's collaborators, handed to its composer."""

    prepared: Prepared
    steps: StepRecorder
    evidence: EvidenceGatherer
    models: object | None                 # answering.answer.model_path.Models on the model path
    cancelled: Callable[[], bool]
    artifacts: ArtifactBox | None = None  # the turn's files, when the client offers artifacts

    @property
    def question(self) -> str:
        return self.prepared.request.question

    def model_fields(self) -> dict:
        """The result fields that say which path wrote and judged the answer."""
        if not self.models:
            return {}
        prompt = self.models.budget.prompt
        return {"synthesis_mode": "model-agent", "judge_mechanism": ModelJudge.mechanism,
                "model_calls": list(self.models.budget.log), "prompt_budget": prompt.record() if prompt else None}

    def run_fields(self) -> dict:
        """The result fields the recorder kept."""
        followup = self.evidence.followup_record or {}
        carried = tuple(followup.get("followup_document_ids") or ()) if followup.get("decision") == "carried" else ()
        return {"tool_calls": list(self.steps.calls), "lexical_tiers": list(self.steps.lexical_tiers),
                "followup_document_ids": carried}


class Outcome(Protocol):
    answer: str

    @property
    def fallback_used(self) -> bool: ...


class Composer(Protocol):
    route_family: str
    # A named selection (collections or documents) with nothing visible: a fixed refusal (True) or ``no_content`` (False).
    empty_selection_refused: bool
    surfaces_legal_status: bool

    def refused_question(self) -> Outcome: ...

    def refusal(self, reason: str, language: str) -> Outcome: ...

    def compose(self, context: AnswerContext, language: str, recalled: list[RecalledMemory]) -> Outcome: ...

    def blocked(self, outcome: Outcome, refusal: str) -> Outcome: ...

    def result(self, context: AnswerContext, outcome: Outcome, guard: GuardDecision) -> AnswerCore: ...

    def synthesis_metadata(self, result: AnswerCore) -> dict: ...

    def extra_metadata(self, result: AnswerCore) -> dict: ...


def faithfulness_checked_field(checked: bool | None) -> dict:
    """Only a refusal that checked nothing says so; absence makes no verification claim."""
    return {"checked": False} if checked is False else {}
