"""The passage a question about one named regulation is about, when it is not in that regulation's body.

* **Who signed it, when or where was it enacted**: its signature block
  (``retrieval.signature``), not its Penjelasan or its first article.
* **Is it still in force, was it revoked or amended**: the clauses of other
  regulations that revoke, replace or amend it, from the stored legal
  relations (each relation knows the span of its clause in the regulation
  that states it), then its own text.
* **A named article that a later regulation amended**: the amending
  regulation's item that rewrites that article (filed under the relation's
  "Pasal I" and the article's heading) follows the article itself, so the
  current wording is found with the old one.

Every read keeps the caller's access predicate and scope: relations come from
``incoming_relations`` (visible sources only) and the clause chunks are read under
the search's document condition.
"""
from __future__ import annotations

import re
import uuid

from django.db.models import Q

from kernel.principal import Principal
from retrieval.access import Scope
from retrieval.models import Chunk
from retrieval.relations.citations import identity_key
from retrieval.relations.models import LegalRelation
from retrieval.relations.selectors import incoming_relations
from retrieval.search.naming import ArticleLocator, NamedRegulation
from retrieval.selectors import chunk_enabled_q
from retrieval.signature import asks_closing, closing_block

STATUS = re.compile(
    r"\b((?:masih|msh)\s+(?:\w+\s+)?(?:berlaku|dipakai|dipake|digunakan|sah|valid|aktif|relevan)|"
    r"(?:sudah|tidak|udah|gak|nggak)\s+(?:\w+\s+)?berlaku|berlaku\s+lagi|status(?:nya)?|"
    r"dicabut|mencabut|pencabutan|dibatalkan|diganti(?:kan)?|menggantikan|digantiin|diubah|mengubah|perubahan|"
    r"in\s+force|still\s+(?:an?\s+)?(?:valid|apply|applies|applicable|in\s+effect)|revoked|repealed|replaced|amended|superseded)\b",
    re.IGNORECASE,
)
REPLACING = ("revokes", "supersedes", "revokes_in_part", "amends")
CLAUSES_PER_DOCUMENT = 4


def asks_status(question: str) -> bool:
    return STATUS.search(question) is not None


def closing_chunks(documents: list[uuid.UUID], condition) -> list[uuid.UUID]:
    found: list[uuid.UUID] = []
    for document_id in documents:
        chunks = Chunk.objects.filter(chunk_enabled_q(), document_id=document_id, document__in=_visible(condition))
        found += [chunk.id for chunk in closing_block(chunks)]
    return found


def _visible(condition):
    from retrieval.models import Document

    return Document.objects.filter(condition).values("id")


def _clause_chunk(document_id: uuid.UUID, char_start: int, condition) -> uuid.UUID | None:
    chunk = (Chunk.objects.filter(chunk_enabled_q(), document_id=document_id, document__in=_visible(condition),
                                  char_start__lte=char_start, char_end__gt=char_start)
             .exclude(kind="penjelasan").order_by("ordinal").values_list("id", flat=True).first())
    return chunk


def _new_wording(view, articles: set[str], condition) -> list[uuid.UUID]:
    """The amending regulation's items that rewrite ``articles``: chunks filed under the relation's own
    "Pasal I" and the rewritten article (the chunker files "3. Ketentuan Pasal 4 diubah ..." as
    ["Pasal I", "Pasal 4"])."""
    if not view.pasal:
        return []
    headings = Q()
    for article in articles:
        headings |= Q(section_path__contains=[view.pasal, f"Pasal {article}"])
    return list(Chunk.objects.filter(chunk_enabled_q(), headings, document_id=view.source_document_id,
                                     document__in=_visible(condition))
                .exclude(kind="penjelasan").order_by("ordinal").values_list("id", flat=True)[:CLAUSES_PER_DOCUMENT])


def relation_clauses(documents: list[uuid.UUID], *, locator: ArticleLocator | None, status: bool,
                     principal: Principal, scope: Scope | None, condition) -> list[uuid.UUID]:
    """Clauses of visible regulations that revoke or amend ``documents``: the revoking or amending clause
    for a status question, the new wording of the named article otherwise (newest regulation first)."""
    if not documents or not (status or locator):
        return []
    wanted = set(locator.articles()) if locator else set()
    found: list[uuid.UUID] = []
    # A named article (no status asked) needs only the items that rewrote it.
    kinds = REPLACING if status else ("amends",)
    for document_id, relations in incoming_relations(principal=principal, document_ids=documents, scope=scope,
                                                     relations=kinds).items():
        views = [view for view in relations if view.source_document_id is not None]
        views.sort(key=lambda view: (view.date or "", view.char_start or 0), reverse=True)
        clauses: list[uuid.UUID] = []
        for view in views:
            if wanted and view.relation == "amends":
                clauses += _new_wording(view, wanted, condition)
            if status and view.char_start is not None:
                clause = _clause_chunk(view.source_document_id, view.char_start, condition)
                clauses += [clause] if clause is not None else []
        found += list(dict.fromkeys(clauses))[:CLAUSES_PER_DOCUMENT]
    return found


def clauses_replacing_unindexed(named: list[NamedRegulation], *, condition) -> list[uuid.UUID]:
    """For a status question about a regulation that is not indexed here (or not visible): the clauses of
    visible regulations that revoke or amend it, found by its identity key in the stored relations."""
    keys = {key for regulation in named for prefix in regulation.type_prefixes
            if (key := identity_key(prefix, regulation.number, regulation.year))}
    if not keys:
        return []
    relations = (LegalRelation.objects.filter(target_key__in=keys, relation__in=REPLACING,
                                              source_document__in=_visible(condition))
                 .order_by("-source_document__year", "char_start").values_list("source_document_id", "char_start"))
    found: list[uuid.UUID] = []
    for document_id, char_start in relations[:CLAUSES_PER_DOCUMENT]:
        clause = _clause_chunk(document_id, char_start, condition)
        if clause is not None and clause not in found:
            found.append(clause)
    return found


__all__ = ["asks_closing", "asks_status", "closing_chunks", "clauses_replacing_unindexed", "relation_clauses"]
