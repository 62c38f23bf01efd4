"""Model-backed judge, framing check and policy-guard classification.

Each is one JSON-mode call drawn from the answer's model budget. A failed call
never passes anything: the judge raises ``JudgeFailure`` (the claim is not
supported), an item the judge gave no usable verdict for is ``None``
(unparseable), and a failed guard classification leaves the deterministic
rules' decision standing.
"""
from __future__ import annotations

import json
import logging

from answering.judging import JudgeFailure, JudgeItem
from answering.llm.budget import BudgetExhausted, ModelBudget
from answering.llm.client import ChatClient, ModelError
from answering.llm.evidence import untrusted
from answering.llm.prompts import prompt
from answering.types import GuardDecision

logger = logging.getLogger(__name__)
VERDICTS = ("supported", "unsupported")
GUARD_CATEGORIES = ("sara_incitement", "violence_weapons", "personal_data", "partisan_campaign", "instruction_override")
JSON_MAX_TOKENS = 512


def _json_call(client: ChatClient, budget: ModelBudget, purpose: str, system: str, user: str) -> dict | None:
    """One JSON-mode call; None when the reply is not a JSON object. Failures become JudgeFailure."""
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    try:
        completion = budget.complete(client, purpose, messages, json_mode=True, max_tokens=JSON_MAX_TOKENS)
    except BudgetExhausted as exc:
        raise JudgeFailure("deadline" if exc.reason == "model_timeout" else "budget") from exc
    except ModelError as exc:
        raise JudgeFailure("judge_unavailable", str(exc)) from exc
    if completion.finish_reason == "length":
        return None
    try:
        value = json.loads(completion.content or "")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


class ModelJudge:
    mechanism = "model-judge-v1"

    def __init__(self, client: ChatClient, budget: ModelBudget) -> None:
        self.client = client
        self.budget = budget

    def judge_batch(self, items: list[JudgeItem]) -> dict[int, str | None]:
        numbered = {number: item for number, item in enumerate(items, start=1)}
        reply = _json_call(self.client, self.budget, "judge", prompt("judge"), self._items_text(numbered))
        verdicts: dict[int, str | None] = {item.index: None for item in items}
        rows = reply.get("verdicts") if reply else None
        if isinstance(rows, list):
            for row in rows:
                if not isinstance(row, dict):
                    continue
                number, verdict = row.get("item"), row.get("verdict")
                if isinstance(number, int) and number in numbered and verdict in VERDICTS:
                    verdicts[numbered[number].index] = verdict
        return verdicts

    def recheck(self, item: JudgeItem) -> str | None:
        return self.judge_batch([item])[item.index]

    @staticmethod
    def _items_text(numbered: dict[int, JudgeItem]) -> str:
        blocks = []
        for number, item in numbered.items():
            passages = "\n".join(
                f'<passage key="{key}">\n{untrusted(text)}\n</passage>' for key, text in item.passages.items())
            context = f"Context the reader sees: {untrusted(item.context)}\n" if item.context else ""
            blocks.append(f"Item {number}\nStatement: {untrusted(item.text)}\n{context}{passages}")
        return "\n\n".join(blocks)


class ModelFramingChecker:
    def __init__(self, client: ChatClient, budget: ModelBudget) -> None:
        self.client = client
        self.budget = budget

    def check(self, question: str, framing: list[tuple[int, str]]) -> set[int]:
        numbered = {number: index for number, (index, _) in enumerate(framing, start=1)}
        segments = "\n".join(f"{number}. {untrusted(text)}" for number, (_, text) in enumerate(framing, start=1))
        reply = _json_call(self.client, self.budget, "framing_check", prompt("framing_check"),
                           f"Question: {untrusted(question)}\n\nFraming segments:\n{segments}")
        checkable = reply.get("checkable") if reply else None
        if not isinstance(checkable, list) or not all(isinstance(n, int) for n in checkable):
            raise JudgeFailure("judge_unavailable", "the framing check gave no usable answer")
        return {numbered[n] for n in checkable if n in numbered}


def model_guard(answer: str, client: ChatClient, budget: ModelBudget) -> GuardDecision | None:
    """The model's classification of a final answer; None when it could not classify."""
    try:
        reply = _json_call(client, budget, "guard", prompt("guard"), f"<answer>\n{untrusted(answer)}\n</answer>")
    except JudgeFailure as exc:
        logger.warning("model guard unavailable: %s", exc)
        return None
    if not reply or not isinstance(reply.get("blocked"), bool):
        return None
    categories = tuple(c for c in reply.get("categories") or () if c in GUARD_CATEGORIES)
    blocked = reply["blocked"]
    return GuardDecision(blocked=blocked, categories=(categories or ("policy",)) if blocked else (),
                         stage="answer" if blocked else None, mechanism="deterministic-rules-v1+model")


def model_asserts_facts(text: str, client: ChatClient, budget: ModelBudget) -> bool | None:
    """Whether label-free text asserts anything needing a source; None when the model could not say."""
    try:
        reply = _json_call(client, budget, "unlabelled_check", prompt("unlabelled_check"),
                           f"<answer>\n{untrusted(text)}\n</answer>")
    except JudgeFailure as exc:
        logger.warning("unlabelled-answer check unavailable: %s", exc)
        return None
    value = reply.get("asserts_facts") if reply else None
    return value if isinstance(value, bool) else None


def model_answers_question(question: str, answer: str, passages: dict[str, str], client: ChatClient,
                           budget: ModelBudget) -> bool | None:
    """Whether the cited passages answer the question's constraints; None when the model could not say."""
    blocks = "\n".join(f'<passage key="{key}">\n{untrusted(text)}\n</passage>' for key, text in passages.items())
    try:
        reply = _json_call(client, budget, "answerability", prompt("answerability"),
                           f"Question: {untrusted(question)}\n\n<answer>\n{untrusted(answer)}\n</answer>\n\n{blocks}")
    except JudgeFailure as exc:
        logger.warning("answerability judge unavailable: %s", exc)
        return None
    value = reply.get("answers_question") if reply else None
    return value if isinstance(value, bool) else None
