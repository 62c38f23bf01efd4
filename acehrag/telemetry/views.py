"""GET /metrics: Prometheus text for every process, behind a bearer token."""
from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

from acehrag.errors import detail_response
from kernel.telemetry import metrics


@require_GET
def metrics_view(request: HttpRequest) -> HttpResponse:
    token = settings.ACEH_RAG.metrics.token
    if not token or not metrics.enabled():
        return detail_response(404, "Not Found")
    given = request.headers.get("Authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return detail_response(401, "Metrics need Authorization: Bearer <ACEH_RAG_METRICS__TOKEN>",
                               {"WWW-Authenticate": 'Bearer realm="metrics"'})
    body, content_type = metrics.exposition()
    response = HttpResponse(body, content_type=content_type)
    response["Cache-Control"] = "no-store"
    return response
