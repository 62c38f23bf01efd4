"""Lexical, semantic and hybrid chunk search (see DESIGN.md "Retrieval")."""
from retrieval.search.hybrid import SearchHit, SearchOutcome, chunk_search, reciprocal_rank_fusion
from retrieval.search.lexical import LexicalResult, chunk_search_lexical, query_terms
from retrieval.search.semantic import chunk_search_semantic
from retrieval.search.timeouts import SearchTimeout
from retrieval.search.requests import search_failures

__all__ = [
    "LexicalResult",
    "SearchHit",
    "SearchOutcome",
    "SearchTimeout",
    "chunk_search",
    "chunk_search_lexical",
    "chunk_search_semantic",
    "query_terms",
    "reciprocal_rank_fusion",
    "search_failures",
]
