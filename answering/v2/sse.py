"""/query/v2/stream frames after live progress (seed: query-v2 "Streaming").

message.start (with ``schema``), trace, citation (with ``citation_key``), then
either guard.blocked or passage, annotations, answer.delta, then done. The
annotations arrive before the text, so every mark is final when text starts.
"""
from __future__ import annotations

from typing import Iterator

from answering.guard import REFUSAL
from answering.sse import answer_deltas, done_payload, passage_frame, sse_frame, trace_frame
from answering.v2.pipeline import AnswerResultV2


def result_frames_v2(result: AnswerResultV2) -> Iterator[bytes]:
    yield sse_frame("message.start", {"conversation_id": str(result.conversation_id),
                                      "message_id": str(result.message_id), "schema": result.schema})
    if result.tool_calls:
        yield trace_frame(result)
    for passage in result.cited_passages:
        yield sse_frame("citation", {**passage.citation, "citation_key": passage.key})
    if result.blocked:
        yield sse_frame("guard.blocked", {"reason": REFUSAL})
        yield sse_frame("done", done_payload(result))
        return
    for passage in result.cited_passages:
        yield passage_frame(passage)
    yield sse_frame("annotations", result.annotations)
    for text in answer_deltas(result.answer):
        yield sse_frame("answer.delta", {"text": text})
    yield sse_frame("done", done_payload(result))
