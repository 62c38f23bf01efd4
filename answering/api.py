"""Answer routes: POST /query (JSON) and POST /query/stream (SSE).

Errors are ``kernel.errors`` domain errors: before a response starts they are
rendered by the one handler in ``acehrag.api``; inside a stream they become
its ``error`` frame, whose code the same table (``kernel.error_table``) gives.
"""
from __future__ import annotations

import logging
from typing import Callable

from django.http import HttpRequest, JsonResponse, StreamingHttpResponse
from ninja import Router

from kernel.principal import request_principal
from kernel.connections import DATABASE_UNAVAILABLE_ERRORS, DatabaseUnavailable, log_database_unavailable
from kernel.limits import answer_slots, worker_thread_deprioritise
from answering.answer.contracts import AnswerCancelled, AnswerCore, AnswerRequest, GatedAnswer
from answering.answer.gated import gate_dropped_reasons
from answering.answer.pipeline import AnswerPipeline, query_pipeline
from answering.answer.provenance import opt_in_fields, tool_fields
from answering.runner import StreamedAnswer
from answering.schemas import QueryRequest, QueryResponse
from answering.sse import SSE_HEADERS, coalesced, error_frame, result_frames, sse_frame
from retrieval.facade import Scope
from retrieval.facade.language import require_query_text
from kernel.errors import DomainError, InternalError

from kernel.schemas import ErrorOut

logger = logging.getLogger(__name__)
router = Router(tags=["answering"])


class StreamFailed(InternalError):
    """The answer is complete but its frames could not be built (the seed's ``stream_failed``)."""

    code = "stream_failed"

ERRORS = {400: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 413: ErrorOut, 502: ErrorOut, 503: ErrorOut}


def answer_request(request: HttpRequest, payload: QueryRequest, route: str, route_family: str = "query") -> AnswerRequest:
    principal = request_principal(request)
    return AnswerRequest(
        question=require_query_text(payload.query),
        principal=principal,
        owner=principal.owner(str(payload.user_id)),
        conversation_id=payload.conversation_id,
        scope=Scope.from_request(payload.collection_ids, payload.document_ids),
        route=route,
        route_family=route_family,
        mcp_source_ids=tuple(payload.mcp_source_ids) if payload.mcp_source_ids is not None else None,
        mcp_given="mcp_source_ids" in payload.model_fields_set,
        include_grounding=bool(payload.include_grounding),
        include_provenance=bool(payload.include_provenance),
        offer_artifacts=bool(payload.offer_artifacts),
    )


def common_body(result: AnswerCore) -> dict:
    """The fields /query and /query/v2 share with the same meaning."""
    return {
        "answer": result.answer,
        "conversation_id": str(result.conversation_id),
        "message_id": str(result.message_id),
        "trace_id": result.trace_id,
        "history_truncated": result.history.truncated,
        "history_exchanges_in_view": result.history.exchanges_in_view,
        "citations": result.citations,
        **tool_fields(result),
        "fallback_used": result.fallback_used,
        "fallback_reason": result.fallback_reason,
        "claims_supported": result.claims_supported,
        "claims_total": result.claims_total,
        "grounding_rate": result.grounding_rate,
    }


def result_body(result: GatedAnswer) -> dict:
    return {
        **common_body(result),
        "claim_map": result.claim_map,
        "provenance_complete": result.provenance_complete,
        "dropped_claims_count": result.dropped_claims_count,
        "dropped_claim_reasons": gate_dropped_reasons(result),
        # Only a refusal that checked nothing says so; absence makes no verification claim.
        **({"faithfulness_checked": False} if result.faithfulness_checked is False else {}),
    }


def json_answer(pipeline: AnswerPipeline, answer: AnswerRequest, body_of: Callable[[AnswerCore], dict]):
    """Run one answer to a JSON response (a domain error goes to the one handler)."""
    worker_thread_deprioritise()
    with answer_slots().held():
        result = pipeline.run(pipeline.prepare(answer))
    body = {**body_of(result), **opt_in_fields(result, include_grounding=answer.include_grounding,
                                               include_provenance=answer.include_provenance)}
    if answer.offer_artifacts:
        body["artifacts"] = [draft.summary() for draft in result.artifacts]
    response = JsonResponse(body)
    response["Cache-Control"] = "no-transform"
    return response


@router.post("/query", response={200: QueryResponse, **ERRORS}, summary="Cited answer as JSON")
def query(request: HttpRequest, payload: QueryRequest):
    return json_answer(query_pipeline(), answer_request(request, payload, "/query"), result_body)


@router.post("/query/stream", response={200: None, **ERRORS}, summary="Cited answer as Server-Sent Events")
async def query_stream(request: HttpRequest, payload: QueryRequest):
    answer = answer_request(request, payload, "/query/stream")
    return await stream_answer(answer)


async def stream_answer(answer: AnswerRequest, *, make_pipeline: Callable[..., AnswerPipeline] = query_pipeline,
                        frames_of=result_frames):
    """Setup errors are JSON (raised to the handler); once progress starts, events stream until done or error."""
    streamed = StreamedAnswer(answer, make_pipeline)
    await streamed.prepare()

    async def frames():
        try:
            async for item in streamed.run():
                if not isinstance(item, AnswerCore):
                    yield sse_frame(*item)
                    continue
                try:
                    framed = list(frames_of(item))
                except Exception:
                    # The answer is complete but could not be framed: the seed's stream_failed, not query_failed.
                    logger.exception("answer stream framing failed")
                    yield error_frame(StreamFailed("The answer stream could not be completed"))
                    return
                for chunk in coalesced(framed):
                    yield chunk
        except DomainError as exc:
            yield error_frame(exc)
        except AnswerCancelled:
            return
        except DATABASE_UNAVAILABLE_ERRORS as exc:
            log_database_unavailable(f"{answer.route} (stream)", exc)
            yield error_frame(DatabaseUnavailable())
        except Exception:
            logger.exception("answer stream failed")
            yield error_frame(InternalError("The answer could not be completed"))

    response = StreamingHttpResponse(frames(), content_type="text/event-stream")
    for name, value in SSE_HEADERS.items():
        response[name] = value
    return response
