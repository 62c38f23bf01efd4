"""Server-Sent Events framing and the frame sequence of a finished answer."""
from __future__ import annotations

import json
import re
from typing import Iterable, Iterator

from answering.guard import REFUSAL
from kernel.error_table import stream_error_frame_data
from kernel.errors import DomainError
from answering.answer.contracts import AnswerCore, GatedAnswer
from answering.answer.provenance import grounding_object

SSE_HEADERS = {
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",
    "Connection": "keep-alive",
}


# A finished answer's frames leave in writes of up to this many bytes (a larger frame goes alone).
COALESCE_BYTES = 64 * 1024


def coalesced(frames: Iterable[bytes], limit: int = COALESCE_BYTES) -> Iterator[bytes]:
    """The same bytes in fewer, larger writes.

    Each write is a ``send`` on the event loop, a system call that hands the
    GIL to the answer threads and waits to get it back; an answer's dozen
    frames sent one by one under load made every other exchange, ``/healthz``
    included, queue behind those hand-offs. Batches stay bounded so flow
    control (and the send timeout) still applies to a large answer.
    """
    batch: list[bytes] = []
    size = 0
    for frame in frames:
        if batch and size + len(frame) > limit:
            yield b"".join(batch)
            batch, size = [], 0
        batch.append(frame)
        size += len(frame)
    if batch:
        yield b"".join(batch)


def sse_frame(event: str, data: dict) -> bytes:
    """One event; the JSON stays on a single ``data:`` line."""
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False, separators=(',', ':'))}\n\n".encode("utf-8")


def answer_deltas(answer: str, pieces: int = 4) -> list[str]:
    """Split the approved answer at word boundaries into a few deltas that concatenate exactly."""
    if not answer:
        return []
    cuts = [m.start() for m in re.finditer(r"\s+", answer)]
    if len(cuts) < 2:
        return [answer]
    step = max(1, len(cuts) // pieces)
    chosen = cuts[step::step][: pieces - 1]
    bounds = [0, *chosen, len(answer)]
    return [answer[a:b] for a, b in zip(bounds, bounds[1:]) if answer[a:b]]


def done_payload(result: AnswerCore) -> dict:
    return {
        "finish_reason": "guard_blocked" if result.blocked else "stop",
        "history_truncated": result.history.truncated,
        "history_exchanges_in_view": result.history.exchanges_in_view,
    }


def trace_frame(result: AnswerCore) -> bytes:
    tools = [call.trace_frame() for call in result.tool_calls]
    # trace_id: the OTel trace id the JSON body carries too (null with tracing off).
    return sse_frame("trace", {"tools": tools, "completed": True, "trace_id": result.trace_id})


def passage_frame(passage) -> bytes:
    return sse_frame("passage", grounding_object(passage))


def answer_frames(result: AnswerCore, *, start: dict, citations: list[dict],
                  before_text: tuple[tuple[str, dict], ...] = (), after_text: tuple[tuple[str, dict], ...] = ()
                  ) -> Iterator[bytes]:
    """The frames after live progress, in the seeds' order (buffer-then-reveal).

    message.start, trace, citation*, then guard.blocked + done, or passage*,
    ``before_text``, answer.delta*, ``after_text``, done.
    """
    yield sse_frame("message.start", {"conversation_id": str(result.conversation_id),
                                      "message_id": str(result.message_id), **start})
    if result.tool_calls:
        yield trace_frame(result)
    for citation in citations:
        yield sse_frame("citation", citation)
    if result.blocked:
        yield sse_frame("guard.blocked", {"reason": REFUSAL})
        yield sse_frame("done", done_payload(result))
        return
    for passage in result.cited_passages:
        yield passage_frame(passage)
    for event, data in before_text:
        yield sse_frame(event, data)
    for text in answer_deltas(result.answer):
        yield sse_frame("answer.delta", {"text": text})
    for event, data in after_text:
        yield sse_frame(event, data)
    yield sse_frame("done", done_payload(result))


def result_frames(result: GatedAnswer) -> Iterator[bytes]:
    """/query/stream: the faithfulness frame (counts of dropped claims) follows the text."""
    faithfulness = {
        "dropped": result.dropped_claims_count,
        "claims_supported": result.claims_supported,
        "claims_total": result.claims_total,
        "grounding_rate": result.grounding_rate,
        "fallback_used": result.fallback_used,
        "fallback_reason": result.fallback_reason,
        **({"checked": False} if result.faithfulness_checked is False else {}),
    }
    # Then one ``artifact`` frame per file the answer created (offer_artifacts), before done.
    artifacts = tuple(("artifact", draft.summary()) for draft in result.artifacts)
    return answer_frames(result, start={}, citations=result.citations,
                         after_text=(("faithfulness", faithfulness), *artifacts))


def error_frame(error: DomainError) -> bytes:
    """The terminal ``error`` frame; its code (``http_<status>``, ``query_failed``, …) comes from the one table."""
    return sse_frame("error", stream_error_frame_data(error))
