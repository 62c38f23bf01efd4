"""Run a retrieval as a chosen identity and explain it leg by leg.

The final ranking is exactly what ``POST /search`` returns (``chunk_search``);
each leg is then run on its own with the candidate limits hybrid search uses,
so every hit shows where the semantic and the lexical leg ranked it.
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from django.conf import settings

from kernel.principal import ANONYMOUS, Principal
from retrieval.facade.documents import Scope, visible_documents_q
from retrieval.facade.search import get_embedder
from retrieval.facade.search import chunk_search, chunk_search_lexical, chunk_search_semantic
from retrieval.facade.search import bounded_transaction
from workbench.models import RetrievalTest

KEEP_PER_ADMINISTRATOR = 50
PREVIEW_CHARS = 300


@dataclass(frozen=True)
class TestRequest:
    query: str
    mode: str
    top_k: int
    identity: str
    unit: str = ""
    level: int | None = None
    collection_ids: tuple[str, ...] = ()
    document_ids: tuple = ()


def principal_for(request: TestRequest) -> Principal:
    """The caller to test as: anonymous, a verified unit member at a level, or a verified admin."""
    if request.identity == RetrievalTest.Identity.ADMIN:
        return Principal(subject="retrieval-test:admin", role="admin", verified=True)
    if request.identity == RetrievalTest.Identity.MEMBER:
        return Principal(subject="retrieval-test:member", unit=request.unit or None, level=request.level, verified=True)
    return ANONYMOUS


def _legs(request: TestRequest, principal: Principal, scope: Scope) -> tuple[dict, dict]:
    """Rank and score of every candidate in each leg: {chunk_id: (rank, score)}."""
    config = settings.ACEH_RAG.retrieval
    condition = visible_documents_q(principal, scope)
    semantic, lexical = {}, {}
    if request.mode in ("hybrid", "semantic"):
        embedder = get_embedder()
        vector = embedder.embed_queries([request.query])[0]
        limit = max(config.semantic_candidate_limit, request.top_k)
        with bounded_transaction(config.statement_timeout_ms, **{"hnsw.ef_search": max(config.hnsw_ef_search, limit),
                                                                 "hnsw.iterative_scan": "relaxed_order"}):
            rows = chunk_search_semantic(vector, model_name=embedder.model_name, document_condition=condition,
                                         limit=limit, centered=config.semantic_centering)
        semantic = {str(chunk_id): (rank, score) for rank, (chunk_id, score) in enumerate(rows, start=1)}
    if request.mode in ("hybrid", "lexical"):
        with bounded_transaction(config.statement_timeout_ms):
            result = chunk_search_lexical(request.query, document_condition=condition,
                                          limit=max(config.lexical_candidate_limit, request.top_k),
                                          common_term_share=config.common_term_share)
        lexical = {str(chunk_id): (rank, score)
                   for rank, (chunk_id, score) in enumerate(zip(result.chunk_ids, result.scores), start=1)}
    return semantic, lexical


def retrieval_test_run(*, request: TestRequest, administrator) -> RetrievalTest:
    """Search as ``request`` says, explain each hit, and keep the test for ``administrator``."""
    principal = principal_for(request)
    scope = Scope.from_request(list(request.collection_ids), list(request.document_ids))
    started = time.perf_counter()
    outcome = chunk_search(request.query, mode=request.mode, top_k=request.top_k, principal=principal, scope=scope)
    total_ms = (time.perf_counter() - started) * 1000
    semantic, lexical = _legs(request, principal, scope)
    hits = []
    for rank, hit in enumerate(outcome.hits, start=1):
        chunk, key = hit.chunk, str(hit.chunk.id)
        hits.append({
            "rank": rank, "score": hit.score, "chunk_id": key, "ordinal": chunk.ordinal,
            "document_id": str(chunk.document_id), "document_title": chunk.document.title,
            "legal_reference": chunk.legal_reference, "section_path": list(chunk.section_path or []),
            "page_number": chunk.page_number, "preview": " ".join(chunk.text.split())[:PREVIEW_CHARS],
            "semantic": semantic.get(key), "lexical": lexical.get(key),
            "fused": [rank, hit.score] if request.mode == "hybrid" else None,
        })
    test = RetrievalTest.objects.create(
        administrator=administrator, query=request.query, mode=request.mode, top_k=request.top_k,
        collection_ids=list(request.collection_ids), document_ids=[str(d) for d in request.document_ids],
        identity=request.identity, unit=request.unit, level=request.level,
        result={"hits": hits, "lexical_tier": outcome.lexical_tier, "timings_ms": outcome.timings_ms,
                "total_ms": round(total_ms, 2), "semantic_candidates": len(semantic), "lexical_candidates": len(lexical)},
    )
    stale = RetrievalTest.objects.filter(administrator=administrator).values_list("pk", flat=True)[KEEP_PER_ADMINISTRATOR:]
    RetrievalTest.objects.filter(pk__in=list(stale)).delete()
    return test


def retrieval_tests_recent(*, administrator, limit: int = 10):
    return RetrievalTest.objects.filter(administrator=administrator).defer("result")[:limit]
