"""/query/v2 routes: POST /query/v2 (JSON) and POST /query/v2/stream (SSE)."""
from __future__ import annotations

from typing import Literal

from pydantic import Field

from django.http import HttpRequest, JsonResponse
from ninja import Router, Schema, Status

from answering.api import ERRORS, answer_request, stream_answer
from answering.pipeline import AnswerError
from answering.schemas import QueryRequest
from answering.v2.pipeline import ROUTE_FAMILY, AnswerPipelineV2, AnswerResultV2
from answering.v2.sse import result_frames_v2
from retrieval.schemas import Citation

router = Router(tags=["answering v2"])


class QueryV2Request(QueryRequest):
    # /query/v2 generates no files; accept_annotations was an opt-in (21–23 Oct 2026), now ignored.
    offer_artifacts: Literal[False] | None = None
    accept_annotations: bool | None = None


class QueryV2Response(Schema):
    schema_: str = Field(alias="schema")
    answer: str
    conversation_id: str
    message_id: str
    trace_id: str | None
    history_truncated: bool
    history_exchanges_in_view: int
    citations: list[Citation]
    fallback_used: bool
    fallback_reason: str | None
    claims: list[dict]
    framing: list[dict]
    faithfulness: dict
    claims_supported: int
    claims_total: int
    grounding_rate: float | None


def v2_body(result: AnswerResultV2) -> dict:
    """The v1 fields that keep their meaning, without the gate's, plus the annotations."""
    return {
        "schema": result.schema,
        "answer": result.answer,
        "conversation_id": str(result.conversation_id),
        "message_id": str(result.message_id),
        "trace_id": result.trace_id,
        "history_truncated": result.history.truncated,
        "history_exchanges_in_view": result.history.exchanges_in_view,
        "citations": result.citations,
        "fallback_used": result.fallback_used,
        "fallback_reason": result.fallback_reason,
        "claims": result.claims,
        "framing": result.framing,
        "faithfulness": result.faithfulness,
        "claims_supported": result.claims_supported,
        "claims_total": result.claims_total,
        "grounding_rate": result.grounding_rate,
    }


def run_v2(request: HttpRequest, payload: QueryRequest, route: str, **options) -> AnswerResultV2:
    answer = answer_request(request, payload, route, ROUTE_FAMILY)
    pipeline = AnswerPipelineV2(**options)
    return pipeline.run(pipeline.prepare(answer))


@router.post("/query/v2", response={200: QueryV2Response, **ERRORS}, by_alias=True,
             summary="Cited answer with annotated faithfulness")
def query_v2(request: HttpRequest, payload: QueryV2Request):
    try:
        result = run_v2(request, payload, "/query/v2")
    except AnswerError as exc:
        return Status(exc.status, {"detail": exc.detail})
    response = JsonResponse(v2_body(result))
    response["Cache-Control"] = "no-transform"
    return response


@router.post("/query/v2/stream", response={200: None, **ERRORS}, summary="Annotated answer as Server-Sent Events")
async def query_v2_stream(request: HttpRequest, payload: QueryV2Request):
    answer = answer_request(request, payload, "/query/v2/stream", ROUTE_FAMILY)
    return await stream_answer(answer, pipeline_class=AnswerPipelineV2, frames_of=result_frames_v2)
