"""A search as a client asks for it: the backend failures become domain errors."""
from __future__ import annotations

from kernel.principal import Principal
from retrieval.access import Scope
from retrieval.embedders import EmbeddingError
from retrieval.errors import EmbeddingFailed, SearchTimedOut
from retrieval.search.hybrid import SearchOutcome, chunk_search
from retrieval.search.timeouts import SearchTimeout


def chunk_search_request(query: str, *, mode: str, top_k: int, principal: Principal, scope: Scope) -> SearchOutcome:
    """``chunk_search`` for ``POST /search``: raises ``EmbeddingFailed`` (502) or ``SearchTimedOut`` (503)."""
    try:
        return chunk_search(query, mode=mode, top_k=top_k, principal=principal, scope=scope)
    except EmbeddingError as exc:
        raise EmbeddingFailed(f"Embedding dependency failed: {exc}") from exc
    except SearchTimeout as exc:
        raise SearchTimedOut("Search timed out; try a more specific query") from exc
