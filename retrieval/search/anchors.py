"""What a question names, read before the fused ranking exists (hybrid mode's question-aware stages, focus.py).

The regulations it names (type, number and year, a glossary nickname, else type and subject words), the articles
it names inside them, the clauses of other regulations that amend or revoke them (for a status question, or the
new wording of a named article), and a named regulation's signature block for who-signed/when-enacted questions.
It needs neither the query vector nor the legs. Every read keeps the caller's access predicate and scope; a name
that does not resolve changes nothing.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from kernel.principal import Principal
from retrieval.access import Scope
from retrieval.search.articles import article_chunk_ids, asks_explanation
from retrieval.search.clauses import (
    asks_closing, asks_status, clauses_replacing_unindexed, closing_chunks, relation_clauses,
)
from retrieval.search.glossary import Rewrite
from retrieval.search.naming import (
    ArticleLocator, NamedRegulation, candidate_reader, copies_among, find_article, find_articles,
    find_named_regulations, named_anchors, resolved_among,
)
from retrieval.search.titles import titled_documents


@dataclass(frozen=True)
class Anchors:
    """What the question itself names, read before the fused ranking exists (``focus_anchors``)."""
    documents: tuple[uuid.UUID, ...] = ()      # the regulations it names
    locator: ArticleLocator | None = None
    explanation: bool = False                   # it asks what the Penjelasan says
    front: tuple[uuid.UUID, ...] = ()          # named units, their relations' clauses, signature blocks
    stages: tuple[str, ...] = ()


def named_documents(query: str, rewrite: Rewrite, *, principal: Principal, scope: Scope | None) -> list[uuid.UUID]:
    """Visible documents the question names (type+number+year, nickname, else type+subject), in order of mention."""
    return _named(query, rewrite, principal=principal, scope=scope)[0]


def _named(query: str, rewrite: Rewrite, *, principal: Principal, scope: Scope | None,
           read=None) -> tuple[list[uuid.UUID], list[NamedRegulation]]:
    """Visible documents the question names (type+number+year, nickname, else type+subject), in order of
    mention, and the regulations it names that resolve to none of them. ``read(named)``: the regulation's
    candidates (``naming.candidate_reader``)."""
    read = read or candidate_reader(principal, scope)
    found: list[uuid.UUID] = []
    unresolved: list[NamedRegulation] = []
    for named in [*find_named_regulations(query), *rewrite.nicknames]:
        copies = copies_among(read(named))
        found += [document.id for document in copies if document.id not in found]
        unresolved += [] if copies else [named]
    if not found:
        found = titled_documents(query, principal=principal, scope=scope)
    return found, unresolved


def _article_owners(query: str, documents: list[uuid.UUID], *, principal: Principal,
                    scope: Scope | None, read) -> list[tuple[uuid.UUID, tuple]]:
    """Each named document with the locators that belong to its own citation; a question whose documents
    come from nicknames or titles reads its locators in every one of them."""
    pairs = []
    for anchor in named_anchors(query):
        document = resolved_among(read(anchor.named))
        if document is not None and anchor.locators:
            pairs.append((document.id, anchor.locators))
    return pairs or [(document_id, tuple(find_articles(query))) for document_id in documents]


def focus_anchors(query: str, rewrite: Rewrite, *, principal: Principal, scope: Scope | None, condition) -> Anchors:
    """The passages the question's own names put first. It needs neither the query vector nor the legs; hybrid
    search reads it on the calling thread after the legs (on a worker it met intermittent wrong answers in the
    parallel test suite, not explained: docs/retrieval.md)."""
    stages: list[str] = []
    front: list[uuid.UUID] = []
    read = candidate_reader(principal, scope)
    documents, unresolved = _named(query, rewrite, principal=principal, scope=scope, read=read)
    locator = find_article(query) if documents else None
    explanation = asks_explanation(query)
    if locator:
        for document_id, locators in _article_owners(query, documents, principal=principal, scope=scope, read=read):
            for own in locators:
                front += article_chunk_ids(document_id, own, explanation_first=explanation)
        stages.append("named-article")
    status = bool(documents or unresolved) and asks_status(query)
    clauses = relation_clauses(documents, locator=locator, status=status, principal=principal, scope=scope,
                               condition=condition)
    clauses += clauses_replacing_unindexed(unresolved, condition=condition) if status else []
    if clauses:
        # A status question is answered by the clause that revokes or amends; a named article by its text, then
        # the item that rewrote it.
        front = clauses + front if status else front + clauses
        stages.append("relations")
    closing = closing_chunks(documents, condition) if documents and not locator and asks_closing(query) else []
    if closing:
        front = closing + front
        stages.append("closing")
    return Anchors(tuple(documents), locator, explanation, tuple(front), tuple(stages))
