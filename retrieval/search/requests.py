"""A search as a client asks for it: the backend failures become domain errors."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from retrieval.embedders import EmbeddingError
from retrieval.errors import EmbeddingFailed, SearchTimedOut
from retrieval.search.timeouts import SearchTimeout


@contextmanager
def search_failures() -> Iterator[None]:
    """Around a search for ``POST /search``: raises ``EmbeddingFailed`` or ``SearchTimedOut``."""
    try:
        yield
    except EmbeddingError as exc:
        raise EmbeddingFailed(f"Embedding dependency failed: {exc}") from exc
    except SearchTimeout as exc:
        raise SearchTimedOut("Search timed out; try a more specific query") from exc
