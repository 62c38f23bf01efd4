"""Hybrid retrieval: reciprocal rank fusion of the semantic and lexical legs."""
from __future__ import annotations

import contextvars
import dataclasses
import os
import threading
import time
import uuid
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
from django.conf import settings
from django.db import connection

from kernel.principal import Principal
from kernel.connections import release_connection
from retrieval.access import Scope, visible_documents_q
from retrieval.citations import citation_for
from retrieval.embedders import get_embedder
from retrieval.models import Chunk
from retrieval.rerankers import get_reranker
from retrieval.search.acronyms import acronym_phrases
from retrieval.search.colloquial import formal_wording
from retrieval.search.copies import CANDIDATES_PER_PLACE, without_copies
from retrieval.search.documents import document_leg
from retrieval.search.feedback import feedback_vector
from retrieval.search.population import apart
from retrieval.search.focus import Anchors, focus_anchors, focus_ranking
from retrieval.search.glossary import Rewrite, looks_english, rewrite_query
from retrieval.search.lexical import LexicalResult, chunk_search_lexical
from retrieval.search.lexical_tiers import SERIAL
from retrieval.search.semantic import UNSCOPED, chunk_search_semantic, scoped_scan
from retrieval.search.telemetry import traced_search
from retrieval.search.timeouts import bounded_transaction

MODES = ("hybrid", "semantic", "lexical")

# Hybrid search runs its lexical leg on a worker, on the worker's own
# connection, while the calling thread embeds the query and runs the semantic
# leg: the legs' latencies overlap instead of adding up. What the question
# names (focus.py's anchors) is read on another worker the same way. A few
# workers so that concurrent requests do not queue behind one another's legs.
LEXICAL_WORKERS = 4
_workers: ThreadPoolExecutor | None = None
_workers_pid = 0
_workers_lock = threading.Lock()


def _lexical_workers() -> ThreadPoolExecutor:
    """The worker pool, made on first use and again in a forked child (threads don't survive fork)."""
    global _workers, _workers_pid
    with _workers_lock:
        if _workers is None or _workers_pid != os.getpid():
            _workers = ThreadPoolExecutor(LEXICAL_WORKERS, thread_name_prefix="lexical-leg")
            _workers_pid = os.getpid()
        return _workers


@dataclass(frozen=True)
class SearchHit:
    chunk: Chunk          # with ``document`` loaded
    score: float

    @property
    def citation(self) -> dict:
        return citation_for(self.chunk, self.chunk.document)


@dataclass(frozen=True)
class SearchOutcome:
    mode: str
    hits: tuple[SearchHit, ...]
    lexical_tier: str | None = None
    timings_ms: dict[str, float] = field(default_factory=dict)
    stages: tuple[str, ...] = ()     # question-aware stages applied (hybrid), see focus.py
    lexical_matches: int | None = None   # passages the keyword leg matched on any term (None: no keyword leg)


def reciprocal_rank_fusion(
    ranked_lists: Sequence[tuple[Sequence[uuid.UUID], float]], k: int
) -> list[tuple[uuid.UUID, float]]:
    """Fuse ranked id lists: score = sum(weight / (k + rank)), rank from 1.

    Ties are broken by the best rank any list gave, then by id, so equal
    scores always come back in the same order.
    """
    scores: dict[uuid.UUID, float] = {}
    best_rank: dict[uuid.UUID, int] = {}
    for ids, weight in ranked_lists:
        for rank, chunk_id in enumerate(ids, start=1):
            scores[chunk_id] = scores.get(chunk_id, 0.0) + weight / (k + rank)
            best_rank[chunk_id] = min(best_rank.get(chunk_id, rank), rank)
    return sorted(scores.items(), key=lambda item: (-item[1], best_rank[item[0]], str(item[0])))


def _lexical_leg(query: str, condition, limit: int, config, scoped: bool,
                 collection: str | None) -> tuple[LexicalResult, float]:
    started = time.perf_counter()
    with bounded_transaction(config.statement_timeout_ms, **SERIAL):
        result = chunk_search_lexical(query, document_condition=condition, limit=limit,
                                      common_term_share=config.common_term_share, scoped=scoped, collection=collection)
    return result, (time.perf_counter() - started) * 1000


def _anchors(query: str, rewrite: Rewrite, principal: Principal, scope: Scope | None, condition) -> tuple[Anchors, float]:
    started = time.perf_counter()
    anchors = focus_anchors(query, rewrite, principal=principal, scope=scope, condition=condition)
    return anchors, (time.perf_counter() - started) * 1000


def _on_worker(work, *args):
    # At most LEXICAL_WORKERS pooled connections serve the workers; each goes back to the pool after its task.
    try:
        return work(*args)
    finally:
        connection.close()


def _can_overlap_legs() -> bool:
    """Another connection sees only committed rows: overlap only outside a transaction."""
    return not connection.in_atomic_block and connection.get_autocommit()


def _load_chunks(ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, Chunk]:
    chunks = Chunk.objects.select_related("document").defer("embedding", "search_vector", "document__text").filter(id__in=ids)
    return {chunk.id: chunk for chunk in chunks}


def semantic_text(query: str, *, formal: bool) -> str:
    """What the semantic leg embeds for ``query`` (``_query_vector``): read for English on its own, since a search
    without the glossary's rewrite (semantic mode, stages off) has no reading of it."""
    return formal_wording(query) if formal and not looks_english(query) else query


def _query_vector(query: str, rewrite: Rewrite, embedder, embed_query, *, blend: bool, formal: bool):
    """The question's vector; with ``blend`` the mean of it and its glossary rewrite's (the formal wording of a
    colloquial or English question: semantic R@5 of colloquial questions 0.86 -> 1.00 on the training part). With
    ``formal``, an Indonesian question is embedded as its formal wording ("tgl brp" -> "tanggal berapa",
    "nanggepin" -> "menanggapi"; colloquial.py): the model meets the law's register, not the chat's. A question with
    no such word is embedded as asked, so an answer embeds it once for its searches and its units alike. Chosen by
    the fit on the training part (docs/retrieval.md, session 30)."""
    query = semantic_text(query, formal=formal)
    texts = [query, rewrite.lexical] if blend else [query]
    vectors = [embed_query(text) for text in texts] if embed_query is not None else embedder.embed_queries(texts)
    if not blend:
        return vectors[0]
    mean = np.mean(np.asarray(vectors, dtype=np.float32), axis=0)
    return (mean / (np.linalg.norm(mean) or 1.0)).tolist()


def _hnsw_options(config, limit: int) -> dict:
    return {"hnsw.ef_search": max(config.hnsw_ef_search, limit), "hnsw.iterative_scan": "relaxed_order"}


@traced_search
def chunk_search(
    query: str,
    *,
    mode: str = "hybrid",
    top_k: int = 5,
    principal: Principal,
    scope: Scope | None = None,
    embed_query: Callable[[str], Sequence[float]] | None = None,
    keyword_leg: bool = True,
    one_copy: bool = True,
) -> SearchOutcome:
    """Search visible chunks; raises EmbeddingError or SearchTimeout.

    ``keyword_leg=False`` (hybrid only) runs the hybrid path without its lexical leg: semantic retrieval,
    the label and follow-up nominations and the rerank (an answer's original-question arm beside the
    agent's own searches, seed "Retrieval reuse within one answer").

    ``embed_query(text)`` gives ``text`` embedded by the current embedder (an
    answer embeds its question once for every arm); None embeds it here.

    ``one_copy`` lists a passage found in two copies of one regulation once (``copies.py``).
    """
    config = settings.ACEH_RAG.retrieval
    condition = visible_documents_q(principal, scope)
    timings: dict[str, float] = {}
    semantic: list[tuple[uuid.UUID, float]] = []
    lexical = None
    vector = None
    owner: dict[uuid.UUID, uuid.UUID] = {}   # chunk -> document, read beside the legs' passages, reused by the stages
    # The glossary rewrites the lexical query (both lexical and hybrid modes).
    rewrite = rewrite_query(query) if config.query_understanding and mode != "semantic" else Rewrite(query)
    if config.query_understanding and mode != "semantic" and (spelled := acronym_phrases(query, condition)):
        # "BPD", never written by the corpus, is searched as the phrase its documents spell it with (acronyms.py).
        rewrite = dataclasses.replace(rewrite, lexical=" ".join([rewrite.lexical, *spelled.values()]))

    wanted = top_k * CANDIDATES_PER_PLACE if one_copy else top_k
    lexical_limit = wanted if mode == "lexical" else max(config.lexical_candidate_limit, wanted)
    pending: Future | None = None
    lexical_leg = mode == "lexical" or (mode == "hybrid" and keyword_leg)
    scoped = scope is not None and scope.selected
    collection = scope.collection_ids[0] if scope is not None and len(scope.collection_ids) == 1 else None
    # Said to the semantic leg only where a collection may have a graph of its own; the lexical leg's index
    # always holds the collection.
    graph_collection = collection if config.collection_indexes else None
    understanding = mode == "hybrid" and config.query_understanding
    if mode == "hybrid" and _can_overlap_legs():
        # A worker runs in a copy of this context, so its span joins the search's trace.
        if lexical_leg:
            pending = _lexical_workers().submit(contextvars.copy_context().run, _on_worker, _lexical_leg,
                                                rewrite.lexical, condition, lexical_limit, config, scoped,
                                                collection)
        # What the question names is read on this thread, after the legs: read on a worker beside them, the
        # full suite met intermittent wrong answers behind real servers (session 11), not yet explained.

    if mode in ("hybrid", "semantic"):
        started = time.perf_counter()
        embedder = get_embedder()
        vector = _query_vector(query, rewrite, embedder, embed_query,
                               blend=mode == "hybrid" and config.semantic_rewrite and rewrite.lexical != query,
                               formal=config.semantic_formal)
        timings["embed"] = (time.perf_counter() - started) * 1000
        limit = wanted if mode == "semantic" else max(config.semantic_candidate_limit, wanted)
        started = time.perf_counter()
        with bounded_transaction(config.statement_timeout_ms, **_hnsw_options(config, limit)):
            scan = scoped_scan(condition) if scope is not None and scope.selected else UNSCOPED
            semantic = chunk_search_semantic(vector, model_name=embedder.model_name, document_condition=condition,
                                             limit=limit, exact=scan.exact, centered=config.semantic_centering,
                                             collection=graph_collection, pool=scan.pool(limit), owners=owner)
        timings["semantic"] = (time.perf_counter() - started) * 1000

    if pending is not None:
        # Wait without holding a connection: the worker needs one from the same bounded pool.
        release_connection()
        lexical, timings["lexical"] = pending.result()
    elif lexical_leg:
        lexical, timings["lexical"] = _lexical_leg(rewrite.lexical, condition, lexical_limit, config, scoped,
                                                   collection)
    if lexical is not None:
        owner |= lexical.owners
    anchors = None
    if understanding:
        anchors, timings["anchors"] = _anchors(query, rewrite, principal, scope, condition)

    if mode == "semantic":
        ranked = semantic
    elif mode == "lexical":
        ranked = list(zip(lexical.chunk_ids, lexical.scores))
    else:
        legs = [([chunk_id for chunk_id, _ in semantic], config.semantic_weight)]
        lexical_weight = config.english_lexical_weight if rewrite.english else config.lexical_weight
        legs += [(list(lexical.chunk_ids), lexical_weight)] if lexical else []
        ranked = reciprocal_rank_fusion(legs, config.rrf_k)
        if config.feedback_weight > 0:
            started = time.perf_counter()
            moved = feedback_vector(vector, [chunk_id for chunk_id, _ in ranked], model_name=embedder.model_name,
                                    weight=config.feedback_weight)
            if moved is not None:
                with bounded_transaction(config.statement_timeout_ms, **_hnsw_options(config, limit)):
                    again = chunk_search_semantic(moved, model_name=embedder.model_name, document_condition=condition,
                                                  limit=limit, centered=config.semantic_centering,
                                                  collection=graph_collection, owners=owner)
                ranked = reciprocal_rank_fusion(legs + [([chunk_id for chunk_id, _ in again], config.semantic_weight)],
                                                config.rrf_k)
            timings["feedback"] = (time.perf_counter() - started) * 1000
        started = time.perf_counter()
        ranked, owner = document_leg(ranked, rewrite, vector=vector, model_name=embedder.model_name, config=config,
                                     known=owner)
        timings["documents"] = (time.perf_counter() - started) * 1000

    pinned, stages = 0, ()
    if anchors is not None:
        started = time.perf_counter()
        focus = focus_ranking(query, rewrite, ranked, anchors, vector=vector, model_name=embedder.model_name,
                              condition=condition, config=config, owner=owner,
                              embed=embed_query or (lambda text: embedder.embed_queries([text])[0]))
        ranked, pinned, stages = focus.ranked, min(focus.pinned, top_k), focus.stages
        # A private employee's question is not the civil service's regulations' to answer, nor the reverse.
        ranked, moved = apart(query, ranked, owner, focus.pinned)
        stages = (*stages, "population") if moved else stages
        timings["focus"] = (time.perf_counter() - started) * 1000

    reranker = get_reranker() if mode == "hybrid" else None
    candidates = ranked[: max(config.rerank_candidate_limit, pinned)] if reranker else ranked[:wanted]
    # Without a reranker only the first top_k are read; a copy left out reads the next (copies.py).
    chunks = _load_chunks([chunk_id for chunk_id, _ in (candidates if reranker else candidates[:top_k])])
    if reranker and len(candidates) > pinned:
        # Named units and definitions keep their places; the reranker orders the rest.
        started = time.perf_counter()
        rest = candidates[pinned:]
        scores = reranker.scores(query, [chunks[chunk_id].text for chunk_id, _ in rest])
        floor = min((score for _, score in candidates[:pinned]), default=None)
        rest = sorted(zip([c for c, _ in rest], scores), key=lambda item: (-item[1], str(item[0])))
        if floor is not None:
            rest = [(chunk_id, min(score, floor)) for chunk_id, score in rest]
        candidates = candidates[:pinned] + rest
        timings["rerank"] = (time.perf_counter() - started) * 1000
    kept = without_copies(candidates, chunks, top_k, _load_chunks, merge=one_copy)
    hits = tuple(SearchHit(chunk=chunks[chunk_id], score=round(score, 6)) for chunk_id, score in kept)
    return SearchOutcome(
        mode=mode, hits=hits, lexical_tier=lexical.tier if lexical else None,
        lexical_matches=len(lexical.chunk_ids) if lexical else None,
        timings_ms={name: round(ms, 2) for name, ms in timings.items()}, stages=stages,
    )
