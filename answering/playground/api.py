"""POST /playground: a verified administrator tries one editorial prompt without publishing it (issue #8)."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from ninja import Router, Schema
from pydantic import Field, create_model

from kernel.limits import answer_slots
from answering.answer.annotated import ROUTE_FAMILY
from answering.api import ERRORS, answer_request
from answering.playground.services import PlaygroundTrial, playground_run
from answering.schemas import QueryV2Request, QueryV2Response
from answering.v2.api import v2_body
from kernel.errors import BadRequest


class EditorialPromptBlank(BadRequest):
    code = "editorial_prompt_blank"
from kernel.schemas import ErrorOut

# The route is mounted with acehrag.auth.VerifiedAdminAuth (acehrag/api.py): the API key,
# then verified identity (503 when none can be verified), then a verified administrator (403).
router = Router(tags=["playground"])

PROMPT_BLANK = "editorial_prompt must not be blank"
# The /query/v2 fields naming what a trial never creates (seed: Prompt playground).
UNPUBLISHED_FIELDS = ("conversation_id", "message_id")


class PlaygroundRequest(QueryV2Request):
    editorial_prompt: str = Field(min_length=1, max_length=2000, description=(
        "The agent-editorial prompt to try, for this request only (1-2,000 characters; blank is 400)."))


# /query/v2's response, derived so the two cannot drift, without the unpublished ids.
PlaygroundResponse = create_model(
    "PlaygroundResponse",
    __base__=Schema,
    **{name: (info.annotation, info) for name, info in QueryV2Response.model_fields.items()
       if name not in UNPUBLISHED_FIELDS},
    playground_run_id=(str, Field(description="ID of the stored receipt (Playground runs in the admin).")),
    published=(bool, Field(description="Always false: nothing of a trial is published.")),
    latency_ms=(float, Field(description="Wall time of the trial in milliseconds.")),
)


def playground_body(trial: PlaygroundTrial) -> dict:
    body = {name: value for name, value in v2_body(trial.result).items() if name not in UNPUBLISHED_FIELDS}
    # No trace is stored for a trial; the receipt id is its only reference.
    body["trace_id"] = None
    return {**body, "playground_run_id": str(trial.run.id), "published": False, "latency_ms": trial.run.latency_ms}


@router.post("/playground",
             response={200: PlaygroundResponse, **ERRORS, 403: ErrorOut, 429: ErrorOut}, by_alias=True,
             summary="Try an editorial prompt on the /query/v2 pipeline without publishing anything")
def playground(request: HttpRequest, payload: PlaygroundRequest):
    editorial_prompt = payload.editorial_prompt.strip()
    if not editorial_prompt:
        raise EditorialPromptBlank(PROMPT_BLANK)
    answer = answer_request(request, payload, "/playground", ROUTE_FAMILY)
    with answer_slots().held():
        trial = playground_run(request=answer, editorial_prompt=editorial_prompt, config=settings.ACEH_RAG.playground)
    response = JsonResponse(playground_body(trial))
    response["Cache-Control"] = "no-store, no-transform"
    return response
