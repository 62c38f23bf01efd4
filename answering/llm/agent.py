"""The agent loop: a model that searches the corpus with tools, then answers.

Each round sends the conversation so far with the tool definitions; tool calls
run real retrieval (reported as tool.started/tool.finished by the pipeline) and
their passages come back labelled P1, P2, … inside untrusted-data blocks. The
last round offers no tools, so the model must answer with what it found. The
loop ends with the parsed answer or an ``AgentStopped`` carrying the seed's
``fallback_reason``:

- ``agent_output_limit``: a round stopped on its output-token ceiling (on
  /query/v2 only the re-asked forced tool round of a follow-up; elsewhere there
  a cut-short round is a malformed answer, regenerated once);
- ``model_timeout`` / ``query_budget_exhausted``: the answer's time or model
  calls ran out (the judge's share is kept back);
- ``context_budget_exhausted``: required evidence, or a round's input, leaves
  too little of the context window to write in;
- ``unparseable_completion``: the answer is still malformed after one
  regeneration (malformed output is never published).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import partial
from typing import Callable, Protocol, Sequence, TypeVar

from kernel.config import LlmSettings
from answering.llm.markup import prose_text
from answering.llm.budget import BudgetExhausted, ModelBudget
from answering.llm.client import INVALID_ARGUMENTS, ChatClient, ToolCallRequest
from answering.llm.evidence import PassageLedger, passage_block, search_result_text
from answering.llm.prompt_budget import PromptBudget
from answering.types import Passage

T = TypeVar("T")
CHARS_PER_TOKEN = 3.0          # conservative for Indonesian legal text on common tokenizers
MESSAGE_OVERHEAD_TOKENS = 8
REQUIRED_ORIGINS = ("anchor", "closing")
FINAL_ROUND_NUDGE = {
    "id": "Batas pencarian tercapai. Jawab sekarang hanya dengan bukti yang sudah ada, dalam format yang diminta.",
    "en": "The search limit is reached. Answer now using only the evidence you already have, in the required format.",
}
REGENERATE = {
    "id": "Jawaban Anda tidak dapat dibaca ({error}). Tulis ulang jawaban akhir persis dalam format yang diminta.",
    "en": "Your answer could not be read ({error}). Write the final answer again exactly in the required format.",
}
REWRITE_ZERO_MATCH = {
    "id": "Pencarian {queries} tidak cocok dengan satu pun istilahnya. Tulis ulang pencarian itu dengan istilah lain "
          "sebelum menjawab.",
    "en": "The search {queries} matched none of its terms. Rewrite that search with other terms before answering.",
}
SEARCH_FIRST = {
    "id": "Jawaban sebelumnya bukan bukti. Panggil alat pencarian untuk pertanyaan ini terlebih dahulu; jangan menjawab "
          "sebelum mencari.",
    "en": "Earlier answers are not evidence. Call a search tool for this question first; do not answer before "
          "searching.",
}
CUT_SHORT = "the answer was cut short at the output ceiling"
NOTHING_FITS = "The results did not fit the remaining context. Answer with the evidence you already have."


class AgentStopped(Exception):
    """The loop ended without a publishable answer; ``reason`` is the seed's fallback_reason."""

    def __init__(self, reason: str, detail: str = ""):
        super().__init__(detail or reason)
        self.reason = reason


class QuestionTooLarge(Exception):
    """The question and history alone exceed the model's context window (``question_too_large``)."""


@dataclass
class ToolResult:
    passages: list[Passage] = field(default_factory=list)
    tier: str | None = None
    text: str | None = None             # a non-passage result: counts, a refusal, an argument error
    lead: str | None = None             # a first line before the passages (search_in_document's count)


class AgentTools(Protocol):
    def definitions(self) -> list[dict]: ...

    def call(self, name: str, arguments: dict) -> ToolResult: ...


@dataclass(frozen=True)
class AgentInput:
    system: str
    history: list[dict]                 # earlier turns as chat messages
    question: str
    language: str
    initial: Sequence[Passage] = ()     # preloaded evidence, most important first
    memories: str = ""                  # pre-rendered <memory> blocks


def estimate_tokens(text: str) -> int:
    return int(len(text) / CHARS_PER_TOKEN) + MESSAGE_OVERHEAD_TOKENS


def messages_tokens(messages: Sequence[dict], tools: Sequence[dict] | None = None) -> int:
    total = 0
    for message in messages:
        total += estimate_tokens(message.get("content") or "")
        for call in message.get("tool_calls") or ():
            total += estimate_tokens(json.dumps(call))
    if tools:
        total += estimate_tokens(json.dumps(tools))
    return total


class Agent:
    def __init__(self, *, client: ChatClient, budget: ModelBudget, llm: LlmSettings, tools: AgentTools,
                 ledger: PassageLedger, cancelled: Callable[[], bool] = lambda: False,
                 on_cancel: Callable[[], Exception] | None = None,
                 progress: Callable[[], object] | None = None, stall_rounds: int = 2,
                 zero_match: Callable[[str], bool] | None = None,
                 run_calls: Callable[[list[Callable[[], ToolResult]]], list[ToolResult]] | None = None,
                 forced_tool_round: bool = False, output_limit_everywhere: bool = True) -> None:
        self.client = client
        self.budget = budget
        self.llm = llm
        self.tools = tools
        self.ledger = ledger
        self._cancelled = cancelled
        self._on_cancel = on_cancel
        # /query/v2's progress rule: ``stall_rounds`` tool rounds in a row that leave
        # ``progress()`` unchanged end the search phase.
        self._progress = progress
        self._stall_rounds = stall_rounds
        # /query/v2: a search that matched none of its terms is rewritten before the agent answers (seed).
        self._zero_match = zero_match
        # Runs one round's tool calls (possibly at once) and returns their results in order.
        self._run_calls = run_calls or (lambda calls: [call() for call in calls])
        # /query/v2 follow-ups without fresh anchors: the first round must call a tool (re-asked once), and
        # only that re-asked round's output ceiling is agent_output_limit; elsewhere on v2 a cut-short round
        # is a malformed answer (regenerated once, then unparseable_completion).
        self._forced_tool_round = forced_tool_round
        self._output_limit_everywhere = output_limit_everywhere
        self.rounds = 0

    # -- the loop -----------------------------------------------------------------------

    def answer(self, given: AgentInput, parse: Callable[[str], T]) -> T:
        messages = self._opening(given)
        definitions = self.tools.definitions()
        stalled, seen = 0, self._progress() if self._progress else None
        unrewritten: list[str] = []            # this round's zero-match searches
        nudged: set[str] = set()
        for round_number in range(self.llm.max_tool_rounds + 1):
            last_round = round_number == self.llm.max_tool_rounds or stalled >= self._stall_rounds
            offered = None if last_round else definitions
            if last_round:
                messages.append({"role": "user", "content": FINAL_ROUND_NUDGE.get(given.language, FINAL_ROUND_NUDGE["id"])})
            if round_number == 0 and offered and self._forced_tool_round:
                completion = self._forced_round(messages, offered, given.language)
            else:
                completion = self._round(messages, offered)
            if completion.tool_calls and offered:
                messages.append({
                    "role": "assistant", "content": completion.content or "",
                    "tool_calls": [
                        {"id": call.id, "type": "function",
                         "function": {"name": call.name, "arguments": json.dumps(call.arguments, ensure_ascii=False)}}
                        for call in completion.tool_calls
                    ],
                })
                self._check_cancelled()
                # One round's calls may run at once (``run_calls``); their results are shown in call order.
                results = self._run_calls([partial(self._call_tool, call) for call in completion.tool_calls])
                for call, result in zip(completion.tool_calls, results):
                    self._check_cancelled()
                    messages.append({"role": "tool", "tool_call_id": call.id,
                                     "content": self._tool_text(call, result, messages)})
                if self._progress:
                    now = self._progress()
                    stalled, seen = (stalled + 1 if now == seen else 0), now
                searched = [str(c.arguments.get("query", "")) for c in completion.tool_calls if c.name == "search_documents"]
                if searched and self._zero_match:
                    unrewritten = [q for q in searched if self._zero_match(q)]
                continue
            pending = [q for q in unrewritten if q not in nudged]
            if pending and offered:
                # Enforced here, not only asked in the prompt: the answer waits for the rewrite.
                nudged.update(pending)
                quoted = ", ".join(f'"{q.strip()}"' for q in pending)
                messages += [{"role": "assistant", "content": completion.content or ""},
                             {"role": "user", "content": REWRITE_ZERO_MATCH.get(given.language, REWRITE_ZERO_MATCH["id"])
                              .format(queries=quoted)}]
                continue
            return self._finish(messages, completion, parse, given.language)
        raise AgentStopped("query_budget_exhausted")  # unreachable: the last round offers no tools

    def _opening(self, given: AgentInput) -> list[dict]:
        base = [{"role": "system", "content": given.system}, *given.history]
        question = {"role": "user", "content": given.question}
        room = self.llm.context_window_tokens - self.llm.round_max_tokens
        fixed = messages_tokens([*base, {"role": "user", "content": self._question_content(given, ())}],
                                self.tools.definitions())
        self.budget.prompt = pool = PromptBudget(
            self.llm.context_window_tokens, self.llm.round_max_tokens, CHARS_PER_TOKEN, fixed_tokens=fixed,
            initial_passages=len(given.initial), initial_source_chars=sum(len(p.text) for p in given.initial))
        if messages_tokens([*base, question], self.tools.definitions()) > room:
            raise QuestionTooLarge()
        evidence = list(given.initial)
        while True:  # keys are assigned only to what is finally shown
            content = self._question_content(given, evidence)
            if messages_tokens([*base, {"role": "user", "content": content}], self.tools.definitions()) <= room:
                break
            if not evidence or evidence[-1].origin in REQUIRED_ORIGINS:
                # Evidence the question needs cannot fit: stop before writing, nothing checked.
                pool.initial_passages_dropped = len(given.initial) - len(evidence)
                raise AgentStopped("context_budget_exhausted")
            evidence = evidence[:-1]
        pool.initial_passages_dropped = len(given.initial) - len(evidence)
        keyed = self.ledger.show(evidence)
        content = self._question_content(given, keyed)
        pool.grounding_chars_used = len(content) - len(self._question_content(given, ()))
        return [*base, {"role": "user", "content": content}]

    @staticmethod
    def _question_content(given: AgentInput, passages: Sequence[Passage]) -> str:
        parts = []
        if given.memories:
            parts.append("Remembered about this user (untrusted data):\n" + given.memories)
        if passages:
            parts.append("Evidence already found (untrusted data):\n" + "\n".join(passage_block(p) for p in passages))
        parts.append("Question: " + given.question)
        return "\n\n".join(parts)

    def _round(self, messages: list[dict], tools: list[dict] | None, *, tool_choice: str | None = None,
               cut_stops: bool | None = None):
        """One model round; a round cut at its output ceiling stops the answer when ``cut_stops``."""
        self._check_cancelled()
        if messages_tokens(messages, tools) + self.llm.round_max_tokens > self.llm.context_window_tokens:
            raise AgentStopped("context_budget_exhausted")
        options = {"tool_choice": tool_choice} if tool_choice else {}
        try:
            completion = self.budget.complete(
                self.client, "agent", messages, tools=tools, max_tokens=self.llm.round_max_tokens,
                reserve=self.llm.judge_reserved_calls, **options,
            )
        except BudgetExhausted as exc:
            raise AgentStopped(exc.reason) from exc
        self.rounds += 1
        if completion.finish_reason == "length" and (self._output_limit_everywhere if cut_stops is None else cut_stops):
            # A round cut short is never published, whatever it contains.
            raise AgentStopped("agent_output_limit")
        return completion

    def _forced_round(self, messages: list[dict], tools: list[dict], language: str):
        """The follow-up's first round must search: re-asked once when it did not (or was cut short)."""
        completion = self._round(messages, tools, tool_choice="required", cut_stops=False)
        if completion.tool_calls and completion.finish_reason != "length":
            return completion
        messages.append({"role": "user", "content": SEARCH_FIRST.get(language, SEARCH_FIRST["id"])})
        return self._round(messages, tools, tool_choice="required", cut_stops=True)

    def _call_tool(self, call: ToolCallRequest) -> ToolResult:
        if INVALID_ARGUMENTS in call.arguments:
            return ToolResult(text=f"Error: the arguments of {call.name} are not valid JSON. "
                                   "Call the tool again with a JSON object.")
        return self.tools.call(call.name, call.arguments)

    def _tool_text(self, call: ToolCallRequest, result: ToolResult, messages: list[dict]) -> str:
        if result.text is not None:
            return result.text
        room = self.llm.context_window_tokens - self.llm.round_max_tokens - messages_tokens(messages, self.tools.definitions())
        passages = list(result.passages)
        while passages and estimate_tokens(search_result_text(passages, result.tier)) > room:
            passages.pop()
        if result.passages and not passages:
            self.budget.prompt.tool_reply(offered=len(result.passages), kept=0, chars=0)
            if not self.ledger.passages():
                raise AgentStopped("context_budget_exhausted")
            return NOTHING_FITS
        text = search_result_text(self.ledger.show(passages), result.tier)
        self.budget.prompt.tool_reply(offered=len(result.passages), kept=len(passages), chars=len(text))
        return f"{result.lead}\n{text}" if result.lead else text

    def _finish(self, messages: list[dict], completion, parse: Callable[[str], T], language: str) -> T:
        try:
            return self._parse(completion, parse)
        except ValueError as first_error:
            messages = [*messages, {"role": "assistant", "content": completion.content or ""},
                        {"role": "user", "content": REGENERATE.get(language, REGENERATE["id"]).format(error=first_error)}]
        completion = self._round(messages, None)
        try:
            return self._parse(completion, parse)
        except ValueError as exc:
            raise AgentStopped("unparseable_completion", str(exc)) from exc

    @staticmethod
    def _parse(completion, parse: Callable[[str], T]) -> T:
        if completion.finish_reason == "length":
            raise ValueError(CUT_SHORT)          # never published, even when the cut text happens to parse
        return parse(prose_text(completion.content or ""))   # every answer route: the gate sees no markup

    def _check_cancelled(self) -> None:
        if self._cancelled() and self._on_cancel:
            raise self._on_cancel()
