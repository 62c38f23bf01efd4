"""The answer's spans and metrics, hooked into the pipeline's one step recorder.

The pipeline already reports every real step (``_step``) and tool call
(``_tool``); these helpers give each a span under the answer's root span, so
``AnswerPipeline`` calls one function per hook instead of carrying tracing
code. Attribute rule: numbers, booleans, modes and identifiers are recorded;
free text (the question, a tool's query or name argument) only with content
capture on.
"""
from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager
from typing import Iterator

from opentelemetry.trace import Span

from kernel.telemetry import metrics
from kernel.telemetry.tracing import set_attributes, set_content, span

# String arguments that are codes or identifiers, not text a user wrote.
SAFE_STRING_ARGUMENTS = frozenset({"mode", "instrument_type", "group_by", "document_id", "pasal", "ayat"})


@contextmanager
def answer_span(route: str, question: str) -> Iterator[Span]:
    with span("answer", **{"aceh_rag.route": route, "aceh_rag.question.chars": len(question)}) as root:
        set_content(root, **{"aceh_rag.question": question})
        yield root


def answer_finished(root: Span, *, route: str, fallback_reason: str | None, grounding_rate: float | None,
                    citations: int, blocked: bool) -> None:
    set_attributes(root, **{"aceh_rag.fallback_reason": fallback_reason, "aceh_rag.grounding_rate": grounding_rate,
                            "aceh_rag.citations": citations, "aceh_rag.guard.blocked": blocked})
    metrics.record_answer(route, fallback_reason, grounding_rate)


def step_span(name: str) -> AbstractContextManager[Span]:
    """``answer.<step>``: guard, memory recall, synthesis or agent, faithfulness (the judge), persist."""
    return span(f"answer.{name}")


def _argument_attributes(arguments: dict) -> tuple[dict, dict]:
    safe, content = {}, {}
    for key, value in arguments.items():
        name = f"aceh_rag.tool.argument.{key}"
        if isinstance(value, (bool, int, float)):
            safe[name] = value
        elif isinstance(value, (list, tuple)):
            safe[f"{name}.count"] = len(value)
        elif isinstance(value, str):
            (safe if key in SAFE_STRING_ARGUMENTS else content)[name] = value
    return safe, content


@contextmanager
def tool_span(tool: str, call: str, arguments: dict) -> Iterator[Span]:
    safe, content = _argument_attributes(arguments)
    with span(f"tool.{tool}", **{"aceh_rag.tool.name": tool, "aceh_rag.tool.call": call}, **safe) as current:
        set_content(current, **content)
        yield current


def tool_finished(current: Span, ok: bool, summary: dict) -> None:
    attributes = {f"aceh_rag.tool.result.{k}": v for k, v in summary.items() if isinstance(v, (bool, int, float))}
    attributes.update({f"aceh_rag.tool.result.{k}": v for k, v in summary.items() if k in ("lexical_tier", "error")})
    set_attributes(current, **{"aceh_rag.tool.ok": ok}, **attributes)


def arm_span(origin: str) -> AbstractContextManager[Span]:
    """``search_documents.arm``: one consumed search arm; a fresh one holds its ``tool.search_documents``."""
    return span("search_documents.arm", **{"aceh_rag.arm.origin": origin})


def arm_consumed(current: Span, *, reused: bool, passages: int) -> None:
    set_attributes(current, **{"aceh_rag.arm.reused": reused, "aceh_rag.arm.passages": passages})
