"""What the model path may publish (seed: "Unlabelled answers are not automatically published").

The agent's labelled prose goes through the v1 gate like the extractive
draft; around it this module applies the seed's reasons:

- ``empty_completion``: the model wrote nothing;
- label-free prose is never published unchecked: the model is asked whether it
  asserts anything needing a source. ``no_claims`` (shown, marked, nothing
  counted) only when it says no; factual prose is checked sentence by
  sentence against every shown passage and published with collective
  citations only when all of it is supported; otherwise, or when the check or
  the judge is unavailable, ``unverified_no_claims`` withholds it;
- ``unresolved_citation``: the claims cite labels, but none resolves to a
  passage the agent was shown;
- ``surplus_excerpt``: an unlabelled sentence after the claims that copies a
  shown passage verbatim is dropped without counting as a failed claim (it is
  in dropped_claims_count, not in claims_total);
- answerability: a published answer whose cited passages do not meet the
  question's constraints (the deterministic rule, then the model judge asked
  the same question) is the ``no_answer`` refusal.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Mapping, Sequence

from answering.extractive.answerability import assess
from answering.faithfulness import claim_verdicts, faithfulness_gate, render_answer
from answering.text import normalise
from answering.notices import refusal_notice
from answering.extractive.synthesis import no_answer_text
from answering.types import AnswerDraft, Claim, ClaimVerdict, GateResult, Passage

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])|\n+")
MIN_EXCERPT_CHARS = 40


def refusal(reason: str, language: str, verdicts=(), supported: int = 0, total: int = 0) -> GateResult:
    return GateResult((), tuple(verdicts), refusal_notice(reason, language), True, reason, 0, supported, total)


def _flat(text: str) -> str:
    return " ".join(normalise(text).split())


def _is_excerpt(claim: Claim, passages: Sequence[Passage]) -> bool:
    text = _flat(claim.text).rstrip(".")
    return len(text) >= MIN_EXCERPT_CHARS and any(text in _flat(p.text) for p in passages)


def model_gate(question: str, draft: AnswerDraft, passages: Sequence[Passage], texts: Mapping[str, str], *,
               models, partial_answers: bool, batch_size: int) -> GateResult:
    """The publication decision for the agent's draft (see the module docstring)."""
    from answering.llm.judge import ModelJudge, model_answers_question, model_asserts_facts

    language = draft.language
    judge = ModelJudge(models.judge, models.budget)
    if not draft.claims and not draft.framing.strip():
        return refusal("empty_completion", language)
    if not draft.claims:
        return _label_free(draft, texts, judge, model_asserts_facts(draft.framing, models.judge, models.budget),
                           batch_size)
    labelled = [c for c in draft.claims if c.citation_keys and not c.restates]
    if labelled and not any(key in texts for claim in labelled for key in claim.citation_keys):
        return refusal("unresolved_citation", language)
    surplus = tuple(c for c in draft.claims if not c.citation_keys and _is_excerpt(c, passages))
    checked = replace(draft, claims=tuple(c for c in draft.claims if c not in surplus))
    gate = faithfulness_gate(checked, texts, partial_answers=partial_answers, judge=judge, batch_size=batch_size)
    if surplus:
        gate = replace(gate, verdicts=gate.verdicts + tuple(ClaimVerdict(c, False, "surplus_excerpt") for c in surplus),
                       dropped=gate.dropped + len(surplus))
    if gate.fallback_used:
        return gate
    return _answerability(question, language, gate, passages, texts, models, model_answers_question)


def _label_free(draft: AnswerDraft, texts: Mapping[str, str], judge, asserts: bool | None,
                batch_size: int) -> GateResult:
    language = draft.language
    if asserts is False:
        return GateResult((), (), draft.framing.strip(), False, "no_claims", 0, 0, 0)
    if asserts is None or not texts:
        return refusal("unverified_no_claims", language)
    keys = tuple(texts)
    claims = tuple(Claim(s.strip(), keys) for s in _SENTENCE.split(draft.framing) if s.strip())
    verdicts = claim_verdicts(claims, texts, judge, batch_size)
    supported = sum(v.supported for v in verdicts)
    if supported < len(verdicts):
        return refusal("unverified_no_claims", language, verdicts, supported, len(verdicts))
    # Published with collective citations: every passage shown stands behind the whole text.
    answer = f"{draft.framing.strip()} " + " ".join(f"[{key}]" for key in keys)
    return GateResult(claims, verdicts, answer, False, None, 0, supported, len(verdicts))


def _answerability(question: str, language: str, gate: GateResult, passages: Sequence[Passage],
                   texts: Mapping[str, str], models, answers_question) -> GateResult:
    verdict = assess(question, gate.kept, passages, check_focus=False)
    answered = verdict.answerable
    if answered:
        cited = {k: texts[k] for c in gate.kept for k in c.citation_keys if k in texts}
        judged = answers_question(question, render_answer("", gate.kept), cited, models.judge, models.budget)
        answered = judged is not False     # an unavailable judge leaves the deterministic rule's verdict
    if answered:
        return gate
    return GateResult((), gate.verdicts, no_answer_text(language, verdict.pointer), True, "no_answer", 0, 0, 0)
