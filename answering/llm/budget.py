"""One answer's model budget: a deadline and a number of model calls.

The agent, the judge and the guard draw on the same budget, and the agent
stops while ``reserved`` calls remain so the judge keeps its own share
(seed: "The agent stops early enough to leave the judge its own share").
Every call is logged for the answer trace (model_call_log).
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

from answering.llm.client import ChatClient, ChatCompletion, ModelError
from answering.llm.prompt_budget import PromptBudget
from answering.llm.telemetry import model_call_finished, model_call_span


class BudgetExhausted(Exception):
    """No model call may start: ``reason`` is model_timeout or query_budget_exhausted."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass
class ModelBudget:
    seconds: float
    calls: int
    started: float = field(default_factory=time.monotonic)
    used: int = 0
    log: list[dict] = field(default_factory=list)
    prompt: PromptBudget | None = None      # the agent's token pool and what it fitted into it

    @property
    def remaining_seconds(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    @property
    def remaining_calls(self) -> int:
        return self.calls - self.used

    def complete(self, client: ChatClient, purpose: str, messages: list[dict], *, reserve: int = 0,
                 ceiling: float | None = None, **options) -> ChatCompletion:
        """One model call within the budget (and ``ceiling`` seconds); a call cut off is model_timeout."""
        if self.remaining_seconds <= 0.05:
            raise BudgetExhausted("model_timeout")
        if self.remaining_calls - reserve <= 0:
            raise BudgetExhausted("query_budget_exhausted")
        self.used += 1
        timeout = max(0.05, min(client.timeout, self.remaining_seconds, ceiling or client.timeout))
        started = time.perf_counter()
        entry = {"purpose": purpose, "model": client.model}
        with model_call_span(purpose, client.model, messages) as span:
            try:
                completion = client.complete(messages, timeout=timeout, **options)
            except ModelError as exc:
                self.log.append({**entry, "ok": False, "ms": _ms(started), "error": str(exc)})
                model_call_finished(span, role=purpose, ok=False, seconds=time.perf_counter() - started,
                                    error="timeout" if exc.timeout else "error")
                if exc.timeout:
                    raise BudgetExhausted("model_timeout") from exc
                raise
            model_call_finished(span, role=purpose, ok=True, seconds=time.perf_counter() - started,
                                completion=completion)
        self.log.append({**entry, "ok": True, "ms": _ms(started), "finish_reason": completion.finish_reason,
                         "prompt_tokens": completion.usage.get("prompt_tokens"),
                         "completion_tokens": completion.usage.get("completion_tokens")})
        return completion


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 1)
