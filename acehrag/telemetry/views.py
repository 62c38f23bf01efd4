"""GET /metrics: Prometheus text for every process, behind a bearer token."""
from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from kernel.error_table import error_response
from kernel.errors import NotFound, Unauthenticated
from kernel.telemetry import metrics


class MetricsTokenRequired(Unauthenticated):
    code = "metrics_token_required"


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.ACEH_RAG.metrics.token
    if not token or not metrics.enabled():
        return error_response(NotFound("Not Found"))
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        response = error_response(MetricsTokenRequired("Metrics need Authorization: Bearer <ACEH_RAG_METRICS__TOKEN>"))
        response["WWW-Authenticate"] = 'Bearer realm="metrics"'
        return response
    body, content_type = metrics.exposition()
    response = HttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-store"
    return response
