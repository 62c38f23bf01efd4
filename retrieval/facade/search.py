"""Embedding and the search legs, for the apps that search or embed on their own (memory, the workbench)."""
from retrieval.embedders import Embedder, EmbeddingError, get_embedder
from retrieval.models import EMBEDDING_DIMENSIONS
from retrieval.search import SearchTimeout, chunk_search, chunk_search_lexical, chunk_search_semantic
from retrieval.search.timeouts import bounded_transaction

__all__ = [
    "EMBEDDING_DIMENSIONS", "Embedder", "EmbeddingError", "SearchTimeout", "bounded_transaction", "chunk_search",
    "chunk_search_lexical", "chunk_search_semantic", "get_embedder",
]
