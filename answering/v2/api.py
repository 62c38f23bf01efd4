"""/query/v2 routes: POST /query/v2 (JSON) and POST /query/v2/stream (SSE)."""
from __future__ import annotations

from django.http import HttpRequest
from ninja import Router

from answering.answer.annotated import ROUTE_FAMILY
from answering.answer.contracts import AnnotatedAnswer
from answering.answer.pipeline import query_v2_pipeline
from answering.api import ERRORS, answer_request, common_body, json_answer, stream_answer
from answering.schemas import QueryV2Request, QueryV2Response
from answering.v2.sse import result_frames_v2

router = Router(tags=["answering v2"])


def v2_body(result: AnnotatedAnswer) -> dict:
    """The v1 fields that keep their meaning, without the gate's, plus the annotations."""
    return {
        "schema": result.schema,
        **common_body(result),
        "claims": result.claims,
        "framing": result.framing,
        "faithfulness": result.faithfulness,
    }


@router.post("/query/v2", response={200: QueryV2Response, **ERRORS}, by_alias=True,
             summary="Cited answer with annotated faithfulness")
def query_v2(request: HttpRequest, payload: QueryV2Request):
    answer = answer_request(request, payload, "/query/v2", ROUTE_FAMILY)
    return json_answer(query_v2_pipeline(), answer, v2_body)


@router.post("/query/v2/stream", response={200: None, **ERRORS}, summary="Annotated answer as Server-Sent Events")
async def query_v2_stream(request: HttpRequest, payload: QueryV2Request):
    answer = answer_request(request, payload, "/query/v2/stream", ROUTE_FAMILY)
    return await stream_answer(answer, make_pipeline=query_v2_pipeline, frames_of=result_frames_v2)
