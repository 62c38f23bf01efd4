"""POST /playground: a verified administrator tries one editorial prompt without publishing it (issue #8)."""
from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, JsonResponse
from ninja import Router, Schema, Status
from ninja.errors import HttpError
from pydantic import Field, create_model

from acehrag.auth import ApiKeyAuth, api_key_name, principal_from_request, verified_identity_enabled
from kernel.principal import RequestIdentity
from kernel.limits import answer_slots
from answering.api import ERRORS, answer_request
from answering.pipeline import AnswerError
from answering.services import PlaygroundRateLimited, PlaygroundTrial, playground_run
from answering.schemas import QueryV2Request, QueryV2Response
from answering.v2.api import v2_body
from answering.v2.pipeline import ROUTE_FAMILY
from kernel.schemas import ErrorOut

router = Router(tags=["playground"])

IDENTITY_DISABLED = "The playground needs verified identity: configure a partner JWT key or trust identity headers"
ADMIN_REQUIRED = "Verified admin principal required"
PROMPT_BLANK = "editorial_prompt must not be blank"
# The /query/v2 fields naming what a trial never creates (seed: Prompt playground).
UNPUBLISHED_FIELDS = ("conversation_id", "message_id")


class VerifiedAdminAuth(ApiKeyAuth):
    """The API key (401), then whether anyone can be verified (503, fail closed), then a verified admin (403)."""

    def authenticate(self, request: HttpRequest, key: str | None) -> RequestIdentity | None:
        name = api_key_name(key)
        if name is None:
            return None
        if not verified_identity_enabled():
            raise HttpError(503, IDENTITY_DISABLED)
        principal = principal_from_request(request)
        if not principal.is_admin:
            raise HttpError(403, ADMIN_REQUIRED)
        return RequestIdentity(key_name=name, principal=principal)


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


@router.post("/playground", auth=VerifiedAdminAuth(),
             response={200: PlaygroundResponse, **ERRORS, 403: ErrorOut, 429: ErrorOut}, by_alias=True,
             summary="Try an editorial prompt on the /query/v2 pipeline without publishing anything")
def playground(request: HttpRequest, payload: PlaygroundRequest):
    editorial_prompt = payload.editorial_prompt.strip()
    if not editorial_prompt:
        return Status(400, {"detail": PROMPT_BLANK})
    answer = answer_request(request, payload, "/playground", ROUTE_FAMILY)
    try:
        with answer_slots().held():
            trial = playground_run(request=answer, editorial_prompt=editorial_prompt,
                                   config=settings.ACEH_RAG.playground)
    except PlaygroundRateLimited as exc:
        response = JsonResponse({"detail": str(exc)}, status=429)
        response["Retry-After"] = str(exc.retry_after)
        return response
    except AnswerError as exc:
        return Status(exc.status, {"detail": exc.detail})
    response = JsonResponse(playground_body(trial))
    response["Cache-Control"] = "no-store, no-transform"
    return response
