"""Embedding and the search legs, for the apps that search or embed on their own (memory, the workbench)."""
from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.embedders import Embedder, EmbeddingError, get_embedder
from retrieval.models import EMBEDDING_DIMENSIONS
from retrieval.search import SearchTimeout, chunk_search, chunk_search_lexical, chunk_search_semantic
from retrieval.search.acronyms import acronym_phrases
from retrieval.search.glossary import glossary_expansions
from retrieval.search.timeouts import bounded_transaction

__all__ = [
    "EMBEDDING_DIMENSIONS", "Embedder", "EmbeddingError", "SearchTimeout", "bounded_transaction", "chunk_search",
    "chunk_search_lexical", "chunk_search_semantic", "get_embedder", "question_expansions",
]


def question_expansions(text: str, *, principal: Principal, scope: Scope) -> dict[str, str]:
    """What the question's short forms stand for: the glossary's, and for an acronym no passage writes, the phrase
    the documents the caller may read spell it with ("PPID": Pejabat Pengelola Informasi dan Dokumentasi)."""
    return {**glossary_expansions(text), **acronym_phrases(text, visible_documents_q(principal, scope))}
