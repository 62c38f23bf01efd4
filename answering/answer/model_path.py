"""The model path of an answer: its clients and budget, the agent and its tools, the model guard.

Used only when ``ACEH_RAG_LLM__ENABLED``; the deterministic path never
imports a client. Dependency failures become domain errors here.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Callable

from django.conf import settings

from answering.answer.contracts import AnswerCancelled, Prepared
from answering.answer.evidence import EvidenceGatherer
from answering.answer.memory import memory_labels
from answering.answer.parallel import tool_calls_runner
from answering.guard import guard_answer
from answering.llm.agent import Agent, AgentInput, QuestionTooLarge
from answering.llm.budget import ModelBudget
from answering.llm.client import ChatClient, ModelError, client_for
from answering.llm.evidence import PassageLedger, memory_block
from answering.llm.judge import model_guard
from answering.llm.prompts import prompt
from answering.llm.tools import CorpusTools
from answering.notices import QUESTION_TOO_LARGE
from answering.types import GuardDecision, Passage
from conversations.facade import HistoryWindow
from kernel.errors import PayloadTooLarge, UpstreamFailed
from memory.facade import RecalledMemory


class QuestionTooLargeForModel(PayloadTooLarge):
    """The question with its pinned history cannot fit the model's window before any evidence (DESIGN.md)."""

    code = "question_too_large"


class ModelFailed(UpstreamFailed):
    code = "model_failed"


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


def history_labels(history: HistoryWindow) -> dict[str, int]:
    """H1, H2, … (the window's exchanges, oldest first) → each one's original zero-based exchange index."""
    return {f"H{number}": turn.exchange_index for number, turn in enumerate(history.turns, start=1)}


def history_messages(history: HistoryWindow, *, labelled: bool = False) -> list[dict]:
    """Earlier exchanges as chat messages for the agent; ``labelled``: each question carries its [H…] label."""
    messages = []
    for label, turn in zip(history_labels(history), history.turns):
        messages.append({"role": "user", "content": f"[{label}] {turn.question}" if labelled else turn.question})
        messages.append({"role": "assistant", "content": turn.answer})
    return messages


def agent_tools(evidence: EvidenceGatherer, *, search_in_document=None, extra: tuple = ()):
    """The corpus tools over the gatherer (its arm cache and vectors), the MCP and live tools, and ``extra``
    tools of the run (create_artifact)."""
    prepared = evidence.prepared
    sources = prepared.sources
    tools = CorpusTools(
        documents=not prepared.mcp_only,
        external=(*(evidence.mcp.agent_tools(sources.mcp) if sources else ()), *extra),
        search=lambda query: evidence.agent_search(query, prepared.request.scope),
        facts=evidence.facts,
        search_in_document=search_in_document,
    )
    # An MCP-only chat offers no document, sheet or portal tool.
    return tools if prepared.mcp_only else evidence.live.tools(tools)


@dataclass(frozen=True)
class AgentRun:
    """How the agent is asked: its answer format, parser, progress rule and editorial voice."""

    answer_format: str
    parse: Callable
    progress: Callable[[], object] | None = None
    editorial: str | None = None
    search_in_document: Callable | None = None
    history_labelled: bool = False       # /query's prose may cite an earlier exchange as [H1]
    rewrite_zero_match: bool = False     # /query/v2: a zero-match search is rewritten before answering
    # /query/v2: a follow-up without fresh anchors opens with a forced tool round (earlier answers are not
    # evidence), and only that round, re-asked, ends on agent_output_limit.
    forced_followup_search: bool = False
    extra_tools: tuple = ()              # llm.tools.ExternalTool: /query's create_artifact when offered


FRESH_ANCHORS = ("anchor", "closing")


def forced_tool_round(run: AgentRun, prepared: Prepared, initial: list[Passage]) -> bool:
    """Seed: fresh scoped anchors satisfy the current turn's evidence without a model-selected search;
    retained conversation passages alone do not."""
    return (run.forced_followup_search and bool(prepared.history.turns)
            and not any(p.origin in FRESH_ANCHORS for p in initial))


def agent_answer(models: Models, evidence: EvidenceGatherer, run: AgentRun, *, language: str,
                 recalled: list[RecalledMemory], initial: list[Passage], ledger: PassageLedger,
                 cancelled: Callable[[], bool]):
    """Run the agent to a parsed answer; raises ``AgentStopped`` with a fallback reason."""
    prepared: Prepared = evidence.prepared
    agent = Agent(
        client=models.agent, budget=models.budget, llm=settings.ACEH_RAG.llm, ledger=ledger,
        tools=agent_tools(evidence, search_in_document=run.search_in_document, extra=run.extra_tools),
        cancelled=cancelled,
        on_cancel=AnswerCancelled, progress=run.progress,
        zero_match=evidence.zero_matched if run.rewrite_zero_match else None,
        run_calls=tool_calls_runner(settings.ACEH_RAG.llm.parallel_tool_calls),
        forced_tool_round=forced_tool_round(run, prepared, initial),
        output_limit_everywhere=not run.forced_followup_search,
    )
    given = AgentInput(
        system=agent_system_prompt(language, run.answer_format, run.editorial),
        history=history_messages(prepared.history, labelled=run.history_labelled), question=prepared.request.question, language=language,
        initial=initial,
        memories="\n".join(memory_block(key, m.text) for key, m in zip(memory_labels(recalled), recalled)),
    )
    try:
        return agent.answer(given, run.parse)
    except QuestionTooLarge as exc:
        raise QuestionTooLargeForModel(QUESTION_TOO_LARGE) from exc
    except ModelError as exc:
        raise ModelFailed(f"Model dependency failed: {exc}") from exc


def answer_guard(answer: str, refusal: bool, models: Models | None) -> GuardDecision:
    """Deterministic rules first; then, when enabled, the model's classification."""
    guard = guard_answer(answer)
    if guard.blocked or refusal or not models or not settings.ACEH_RAG.llm.guard_model_enabled:
        return guard
    decision = model_guard(answer, models.guard, models.budget)
    if decision is None:
        return replace(guard, mechanism="deterministic-rules-v1 (model guard unavailable)")
    return decision
