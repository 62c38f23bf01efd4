"""The NinjaAPI instance: routers, auth and exception handlers."""
from __future__ import annotations

import json
import logging

from django.conf import settings
from django.http import HttpRequest
from ninja import NinjaAPI, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError, ValidationErrorContext

from django.db import InterfaceError, OperationalError

from acehrag.auth import ApiKeyAuth, InvalidApiKey, VerifiedAdminAuth
from acehrag.errors import fastapi_error_item, json_invalid_item
from kernel.connections import DatabaseUnavailable, log_database_unavailable, logged_once
from kernel.error_table import error_body, error_headers, error_status, family_code
from kernel.errors import DomainError, InternalError, RequestInvalid
from kernel.limits import Overloaded

logger = logging.getLogger("acehrag.api")


class AcehNinjaAPI(NinjaAPI):
    def validation_error_from_error_contexts(
        self, error_contexts: list[ValidationErrorContext]
    ) -> ValidationError:
        """Build FastAPI's 422 items: ``loc`` starts at body/query/path, ``input`` kept."""
        errors = []
        for context in error_contexts:
            model = context.model
            source = model.__ninja_param_source__
            # A single body schema is wrapped under its parameter name; FastAPI hides it.
            strip_first = bool(getattr(model, "__read_from_single_attr__", None))
            for error in context.pydantic_validation_error.errors(include_url=False):
                errors.append(fastapi_error_item(error, source, strip_first))
        return ValidationError(errors)

    def get_openapi_schema(self, *, path_prefix=None, path_params=None):
        from acehrag.openapi import enrich

        return enrich(super().get_openapi_schema(path_prefix=path_prefix, path_params=path_params))


def _build_api() -> AcehNinjaAPI:
    docs_enabled = settings.ACEH_RAG.api.docs_enabled
    api = AcehNinjaAPI(
        title="Aceh RAG API",
        version="1.0.0",
        description="Cited question answering over Aceh government regulations and documents.",
        docs=Swagger(settings={"persistAuthorization": True, "displayRequestDuration": True}),
        auth=ApiKeyAuth(),
        docs_url="/docs" if docs_enabled else None,
        openapi_url="/openapi.json" if docs_enabled else None,
        urls_namespace="api",
    )

    def render(request: HttpRequest, error: DomainError, detail=None):
        """The one place an error becomes the API's JSON response: ``{"detail", "code"}``, status from the table."""
        response = api.create_response(request, error_body(error, detail), status=error_status(error))
        for name, value in error_headers(error).items():
            response[name] = value
        return response

    @api.exception_handler(AuthenticationError)
    def invalid_api_key(request: HttpRequest, exc: AuthenticationError):
        return render(request, InvalidApiKey())

    @api.exception_handler(ValidationError)
    def validation_error(request: HttpRequest, exc: ValidationError):
        return render(request, RequestInvalid(), exc.errors)

    @api.exception_handler(HttpError)
    def http_error(request: HttpRequest, exc: HttpError):
        cause = exc.__cause__
        if exc.status_code == 400 and isinstance(cause, (json.JSONDecodeError, UnicodeDecodeError, ValueError, RecursionError)):
            # ninja answers an unparseable body with 400; the seeds (FastAPI) say 422.
            return render(request, RequestInvalid(), [json_invalid_item(cause)])
        return render(request, DomainError(str(exc), code=family_code(exc.status_code)))

    @api.exception_handler(DomainError)
    def domain_error(request: HttpRequest, exc: DomainError):
        response = render(request, exc)
        return logged_once(response) if isinstance(exc, Overloaded) else response

    @api.exception_handler(OperationalError)
    @api.exception_handler(InterfaceError)
    def database_unavailable(request: HttpRequest, exc: Exception):
        log_database_unavailable(f"{request.method} {request.path}", exc)
        return logged_once(render(request, DatabaseUnavailable()))

    @api.exception_handler(Exception)
    def unhandled(request: HttpRequest, exc: Exception):
        logger.exception("unhandled error on %s %s", request.method, request.path)
        return render(request, InternalError("Internal Server Error"))

    from answering.api import router as answering_router
    from answering.artifacts.api import router as artifacts_router
    from answering.v2.api import router as answering_v2_router
    from answering.playground.api import router as playground_router
    from answering.public.api import router as agent_chat_router
    from conversations.api import router as conversations_router
    from memory.api import router as memory_router
    from retrieval.api import router as retrieval_router
    from workspaces.api import router as workspaces_router

    for router in (retrieval_router, answering_router, answering_v2_router, conversations_router,
                   memory_router, workspaces_router, agent_chat_router, artifacts_router):
        api.add_router("", router)
    # The playground is for verified administrators only; its router does not know the key store.
    api.add_router("", playground_router, auth=VerifiedAdminAuth())
    return api


api = _build_api()
