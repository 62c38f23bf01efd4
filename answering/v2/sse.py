"""/query/v2/stream frames after live progress (seed: query-v2 "Streaming").

message.start (with ``schema``), trace, citation (with ``citation_key``), then
either guard.blocked or passage, annotations, answer.delta, then done. The
annotations arrive before the text, so every mark is final when text starts.
"""
from __future__ import annotations

from typing import Iterator

from answering.sse import answer_frames
from answering.answer.contracts import AnnotatedAnswer


def result_frames_v2(result: AnnotatedAnswer) -> Iterator[bytes]:
    return answer_frames(
        result, start={"schema": result.schema},
        citations=[{**passage.citation, "citation_key": passage.key} for passage in result.cited_passages],
        before_text=(("annotations", result.annotations),),
    )
