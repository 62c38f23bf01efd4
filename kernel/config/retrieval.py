"""Retrieval settings: the fused ranking's parameters come from the last fit.

``manage.py fit_retrieval --write`` chooses the fusion values on the training
part of the quality questions and freezes them, with the fit's date and its
training (fit) and validation figures, in ``retrieval_fit.json`` beside this
module. Those values are the defaults here; ``ACEH_RAG_RETRIEVAL__<FIELD>``
still overrides each one.
"""
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from kernel.config.types import AtLeast0, AtLeast1

RETRIEVAL_FIT_PATH = Path(__file__).with_name("retrieval_fit.json")
FITTED = json.loads(RETRIEVAL_FIT_PATH.read_text())["values"]


@dataclass(frozen=True)
class RetrievalSettings:
    semantic_candidate_limit: AtLeast1 = FITTED["semantic_candidate_limit"]
    lexical_candidate_limit: AtLeast1 = FITTED["lexical_candidate_limit"]
    rrf_k: AtLeast1 = FITTED["rrf_k"]
    semantic_weight: float = FITTED["semantic_weight"]
    lexical_weight: float = 1.0
    # An English question's lexical leg matches only through the glossary and the names it holds, so its weight is
    # fitted on its own (hybrid.py).
    english_lexical_weight: float = FITTED.get("english_lexical_weight", 1.0)
    # The document leg: documents ranked by their title and identity card; a passage of the
    # document ranked r adds document_weight / (rrf_k + r) to its fused score.
    document_weight: float = FITTED["document_weight"]
    document_candidate_limit: AtLeast0 = FITTED["document_candidate_limit"]
    semantic_centering: bool = FITTED.get("semantic_centering", False)   # search/semantic.py
    semantic_rewrite: bool = FITTED.get("semantic_rewrite", False)       # embed the glossary rewrite too (hybrid.py)
    # Embed an Indonesian question in the law's register: its colloquial words in their formal forms (hybrid.py).
    semantic_formal: bool = FITTED.get("semantic_formal", False)
    feedback_weight: float = FITTED["feedback_weight"]        # Rocchio on the semantic leg (search/feedback.py)
    common_term_share: float = 0.05
    statement_timeout_ms: AtLeast1 = 5000
    hnsw_ef_search: AtLeast1 = 200      # recall@10 0.92 at 100, 0.99 at 200 on the real corpus (ef_construction 200)
    # How long one process trusts what it read about the whole corpus before reading it again: the full-text term
    # shares (search/lexical.py) and the mean passage vector (search/centering.py). Another process's ingestion
    # or purge is seen after at most this long.
    lexeme_statistics_ttl_seconds: AtLeast0 = 60
    mean_vector_ttl_seconds: AtLeast0 = 600
    # With collection_indexes, a collection of at least this many passages, and at most this share of all, gets a
    # vector index of its own (retrieval/collection_indexes.py): below it a scoped search is exact, above it the
    # corpus's index serves. Off by default: the graphs together are as large as the corpus's, and at 1M chunks
    # on a 24 GB machine they pushed the working set out of the buffer cache (unscoped hybrid p95 47.7 -> 67.9 ms,
    # one collection 95.6 -> 46.3 ms; docs/benchmarks.md). Turn it on where memory holds both.
    collection_indexes: bool = False
    collection_index_min_chunks: AtLeast1 = 20_000
    collection_index_max_share: float = 0.5
    rerank_base_url: Optional[str] = None
    rerank_model: Optional[str] = None
    rerank_candidate_limit: AtLeast1 = 20
    query_understanding: bool = True
    # Inside a regulation the question names, its passages also ranked by the question without that regulation's
    # own words (search/inner.py; one more query embedding for such a question). Off: it raises retrieval on the
    # fit sets (twins MRR@10 0.653 -> 0.686, fresh 0.784 -> 0.813) but cost answers there (docs/retrieval.md,
    # session 48).
    named_inner_question: bool = False
    within_document_rerank: bool = FITTED["within_document_rerank"]
