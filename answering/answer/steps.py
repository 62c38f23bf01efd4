"""One recorder for an answer's real steps: tool frames, timings, spans and error codes.

Every read an answer makes runs inside ``steps.tool(name, arguments)``: the
``tool.started`` frame goes out, the block runs, its summary and timing are
recorded and ``tool.finished`` follows. A dependency failure inside the
block is recorded with its error code and raised as a domain error.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator

from answering.answer.contracts import EventSink
from answering.telemetry import step_span, tool_finished, tool_span
from answering.types import ToolCall
from kernel.errors import RetrievalDependencyFailed, RetrievalTimedOut
from retrieval.facade.search import EmbeddingError
from retrieval.facade.search import SearchTimeout
from workspaces.facade import McpUnavailable

READ_FAILURES = frozenset({"dependency_failed", "timeout"})   # the error codes a failed read records


class ToolRefused(Exception):
    """Raised inside ``StepRecorder.tool``: the step finished with ok false; nothing propagates."""


class StepRecorder:
    def __init__(self, on_event: EventSink | None = None):
        self._emit = on_event or (lambda name, data: None)
        self.calls: list[ToolCall] = []
        self.steps: list[dict] = []
        self.lexical_tiers: list[dict] = []
        self._lock = threading.Lock()

    @contextmanager
    def tool(self, tool: str, arguments: dict, *, private: bool = False) -> Iterator[ToolCall]:
        """Run one reported step; the block sets ``call.summary`` from what it read. A ``private`` step
        records and shows neither its arguments nor its result (``ToolCall.private``)."""
        shown = {} if private else arguments
        with self._lock:  # concurrent tool calls of one round record through one recorder
            call = ToolCall(call=f"call_{len(self.calls) + 1}", tool=tool, arguments=shown, private=private)
            self.calls.append(call)
        self._emit("tool.started", call.started_frame())
        started = time.perf_counter()
        with tool_span(tool, call.call, shown) as span:
            try:
                yield call
            except ToolRefused:
                self._finish(call, started, False, call.summary, span)
                return
            except McpUnavailable:
                self._finish(call, started, False, {"error": "mcp_source_unavailable"}, span)
                raise
            except EmbeddingError as exc:
                self._finish(call, started, False, {"error": "dependency_failed"}, span)
                raise RetrievalDependencyFailed(f"Retrieval dependency failed: {exc}") from exc
            except SearchTimeout as exc:
                self._finish(call, started, False, {"error": "timeout"}, span)
                raise RetrievalTimedOut("Retrieval timed out; try a more specific question") from exc
            self._finish(call, started, True, call.summary, span)

    def run(self, tool: str, arguments: dict, work: Callable, summarise: Callable[[object], dict]) -> tuple[object, str]:
        """``work()`` as one reported step; returns its value and the call id (for tool citations)."""
        with self.tool(tool, arguments) as call:
            value = work()
            call.summary = summarise(value)
        return value, call.call

    def _finish(self, call: ToolCall, started: float, ok: bool, summary: dict, span) -> None:
        call.ok, call.ms, call.summary = ok, (time.perf_counter() - started) * 1000, summary
        tool_finished(span, ok, summary)
        self.steps.append({"step": call.tool, "call": call.call, "ok": ok, "ms": round(call.ms, 2), **summary})
        self._emit("tool.finished", call.finished_frame())

    def read_failed(self) -> bool:
        """A document read of this answer failed (its embedder or database failed, or it hit its time bound)."""
        return any(call.ok is False and call.summary.get("error") in READ_FAILURES for call in self.calls)

    def step(self, name: str, work: Callable):
        """An internal step (guard, synthesis, faithfulness): timed and traced, no frames."""
        started = time.perf_counter()
        with step_span(name):
            value = work()
        self.steps.append({"step": name, "ok": True, "ms": round((time.perf_counter() - started) * 1000, 2)})
        return value

    def note(self, name: str, record: dict) -> None:
        """A decision taken without work of its own (the follow-up rule)."""
        self.steps.append({"step": name, "ok": True, "ms": 0.0, **record})
