"""Reads the answer pipeline makes of the corpus beyond retrieval."""
from __future__ import annotations

from django.contrib.postgres.search import SearchQuery

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.models import Chunk, Document


def words_absent_from_corpus(words: list[str], *, principal: Principal, scope: Scope) -> list[str]:
    """The words no passage the caller may read contains (indonesian stemming; one indexed EXISTS each)."""
    visible = Document.objects.filter(visible_documents_q(principal, scope))
    return [word for word in words
            if not Chunk.objects.filter(document__in=visible,
                                        search_vector=SearchQuery(word, config="indonesian", search_type="plain")).exists()]
