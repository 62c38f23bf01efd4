"""The answer's anchors in a question: named regulations, articles and signatory questions.

Named-regulation and article recognition is a retrieval component
(``retrieval.search.naming``, used by hybrid search too); the reads of an
anchor's chunks are ``retrieval.facade`` functions that check access. This
module adds the signatory question.
"""
from __future__ import annotations

# The recognition lives in retrieval (hybrid search uses it too); re-exported here.
from retrieval.facade.language import (
    NAMED_REGULATION, PASAL, SIGNATORY, ArticleLocator, NamedRegulation, find_article, find_named_regulation,
    find_named_regulations,
)

__all__ = ["NAMED_REGULATION", "PASAL", "ArticleLocator", "NamedRegulation", "SIGNATORY", "asks_for_signatory",
           "find_article", "find_named_regulation", "find_named_regulations"]


def asks_for_signatory(question: str) -> bool:
    return SIGNATORY.search(question) is not None
