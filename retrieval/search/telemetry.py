"""Spans and metrics for a search and its legs, as decorators on the search entry points.

A search span records the mode, the scope's size, the result count and the
lexical tier decision; its children are the semantic leg (with the query
embedding under it) and the lexical leg (tier, terms, results). The query text
goes on the span only with content capture on.
"""
from __future__ import annotations

import functools
import time

from kernel.telemetry import metrics
from kernel.telemetry.tracing import set_attributes, set_content, span


def traced_search(search):
    @functools.wraps(search)
    def wrapper(query: str, *, mode: str = "hybrid", top_k: int = 5, principal, scope=None, embed_query=None,
                keyword_leg: bool = True, one_copy: bool = True):
        started = time.perf_counter()
        with span("search", **{
            "aceh_rag.search.mode": mode, "aceh_rag.search.top_k": top_k,
            "aceh_rag.search.scope.collections": len(scope.collection_ids) if scope else 0,
            "aceh_rag.search.scope.documents": len(scope.document_ids) if scope else 0,
        }) as current:
            set_content(current, **{"aceh_rag.search.query": query})
            outcome = search(query, mode=mode, top_k=top_k, principal=principal, scope=scope, embed_query=embed_query,
                             keyword_leg=keyword_leg, one_copy=one_copy)
            set_attributes(current, **{"aceh_rag.search.results": len(outcome.hits),
                                       "aceh_rag.search.lexical_tier": outcome.lexical_tier,
                                       **{f"aceh_rag.search.{leg}_ms": ms for leg, ms in outcome.timings_ms.items()}})
        metrics.record_search(mode, outcome.timings_ms, time.perf_counter() - started)
        return outcome
    return wrapper


def traced_semantic_leg(leg):
    @functools.wraps(leg)
    def wrapper(query_vector, *, model_name: str, document_condition, limit: int, exact: bool = False, **options):
        with span("search.semantic", **{"aceh_rag.search.leg": "semantic", "aceh_rag.search.limit": limit,
                                        "aceh_rag.embedding.model": model_name, "aceh_rag.search.exact": exact}) as current:
            found = leg(query_vector, model_name=model_name, document_condition=document_condition, limit=limit,
                        exact=exact, **options)
            set_attributes(current, **{"aceh_rag.search.results": len(found)})
            return found
    return wrapper


def traced_lexical_leg(leg):
    @functools.wraps(leg)
    def wrapper(text: str, *, document_condition, limit: int, **options):
        with span("search.lexical", **{"aceh_rag.search.leg": "lexical", "aceh_rag.search.limit": limit}) as current:
            result = leg(text, document_condition=document_condition, limit=limit, **options)
            set_attributes(current, **{"aceh_rag.search.results": len(result.chunk_ids),
                                       "aceh_rag.search.lexical_tier": result.tier,
                                       "aceh_rag.search.all_words_count": result.all_words_count})
            return result
    return wrapper
