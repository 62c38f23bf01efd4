"""Liveness and readiness probes (no API key: load balancers call them)."""
from __future__ import annotations

import logging

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET

from kernel.connections import logged_once
from acehrag.edge import HEALTHY

logger = logging.getLogger(__name__)


@csrf_exempt
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Under ASGI the edge (acehrag/edge.py) answers first, with the same body."""
    return JsonResponse(HEALTHY)


def _check_database() -> str | None:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
    return None


def _check_migrations() -> str | None:
    executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return f"{len(plan)} migration(s) not applied" if plan else None


def _check_pgvector() -> str | None:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
        row = cursor.fetchone()
    return None if row else "the vector extension is not installed"


def _check_embedder() -> str | None:
    from retrieval.facade.search import get_embedder

    get_embedder()
    return None


def _check_index_model() -> str | None:
    """The stored vectors must come from the configured embedding model."""
    from retrieval.facade.search import get_embedder
    from retrieval.facade.documents import indexed_embedding_models

    configured = get_embedder().model_name
    stored = [name for name in indexed_embedding_models() if name != configured]
    if stored:
        return f"index holds vectors from {', '.join(stored)}; configured model is {configured} (re-embed required)"
    return None


CHECKS = (
    ("database", _check_database),
    ("migrations", _check_migrations),
    ("pgvector", _check_pgvector),
    ("embedder", _check_embedder),
    ("embedding_model", _check_index_model),
)
# A later check cannot pass once the database is unreachable.
DEPENDS_ON_DATABASE = {"migrations", "pgvector", "embedding_model"}


@csrf_exempt
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    checks: dict[str, str] = {}
    for name, check in CHECKS:
        if name in DEPENDS_ON_DATABASE and checks.get("database") != "ok":
            checks[name] = "skipped: database unavailable"
            continue
        try:
            problem = check()
        except Exception as exc:  # a probe reports every failure as a failing check
            logger.warning("readiness check %s failed: %s", name, exc)
            problem = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else 'failed'}"
        checks[name] = "ok" if problem is None else problem
    failing = [name for name, status in checks.items() if status != "ok"]
    body = {"status": "ready" if not failing else "unavailable", "checks": checks}
    if failing:
        body["failing"] = failing
        return logged_once(JsonResponse(body, status=503))  # each failing check was logged above
    return JsonResponse(body)
