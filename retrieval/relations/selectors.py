"""Reads: a document's legal status and relations as a given caller may see them.

Only relations stated by an *indexed* source count (a superseded version of a source
stops speaking), and a relation whose other document the caller may not see is left
out entirely, so a confidential revoker cannot show through its target's status: the
target then reads ``unknown``, which never claims the document is in force.
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Iterable

from django.db.models import Q

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.models import Document
from retrieval.parsing import LegalIdentity

from .citations import identity_key
from .models import LegalRelation
from .services import document_identity_key

__all__ = ["LegalStatus", "RelationView", "document_citation", "extending_documents", "incoming_relations",
           "legal_status_for", "legal_statuses", "named_status", "replaced_documents"]

STATUSES = ("revoked", "revoked_in_part", "amended", "superseded", "unknown")
# relation -> the status it gives its target, in order of precedence (an extension gives none)
_STATUS_OF = {"revokes": "revoked", "supersedes": "superseded", "revokes_in_part": "revoked_in_part",
              "amends": "amended"}
_PRECEDENCE = ("revoked", "superseded", "revoked_in_part", "amended")


@dataclass(frozen=True)
class RelationView:
    direction: str                 # incoming (another regulation speaks about this one) | outgoing
    relation: str
    document_id: uuid.UUID | None  # the other document, when indexed and visible
    identity: str                  # the other regulation's citation
    title: str | None
    pasal: str | None              # the clause, in the document that states the relation
    ayat: str | None
    articles: tuple[str, ...]
    date: str | None
    source_document_id: uuid.UUID  # the document holding the clause
    char_start: int
    char_end: int

    @property
    def clause_reference(self) -> str:
        return " ".join(filter(None, [self.pasal, f"ayat ({self.ayat})" if self.ayat else None]))


@dataclass(frozen=True)
class LegalStatus:
    status: str
    basis: str | None
    relations: tuple[RelationView, ...] = field(default_factory=tuple)

    @property
    def deciding(self) -> tuple[RelationView, ...]:
        """Incoming relations that give the status (the clauses an answer cites)."""
        return tuple(r for r in self.relations if r.direction == "incoming" and _STATUS_OF.get(r.relation) == self.status)


def document_citation(document: Document) -> str:
    identity = LegalIdentity(instrument_type=document.instrument_type, number=document.number, year=document.year)
    return identity.citation() or document.title


def _basis_phrase(view: RelationView) -> str:
    where = " ".join(filter(None, [view.identity, view.clause_reference]))
    since = f" (sejak {view.date})" if view.date else ""
    if view.relation == "revokes":
        return f"dicabut oleh {where}{since}"
    if view.relation == "supersedes":
        return f"digantikan oleh {where}{since}"
    if view.relation == "revokes_in_part":
        articles = f" (Pasal {', '.join(view.articles)})" if view.articles else ""
        return f"dicabut sebagian oleh {where}{articles}{since} (ketentuan lain tetap berlaku)"
    return f"diubah oleh {where}{since} (ketentuan lain tetap berlaku)"


def _status(relations: list[RelationView]) -> LegalStatus:
    incoming = [r for r in relations if r.direction == "incoming"]
    for status in _PRECEDENCE:
        deciding = [r for r in incoming if _STATUS_OF.get(r.relation) == status]
        if deciding:
            # copies of one regulation (text and PDF) state the same clause: say it once
            basis = "; ".join(dict.fromkeys(_basis_phrase(r) for r in deciding))
            return LegalStatus(status, basis, tuple(relations))
    return LegalStatus("unknown", None, tuple(relations))


def _view(relation: LegalRelation, direction: str) -> RelationView:
    if direction == "incoming":
        other = relation.source_document
        other_id, identity, title = other.id, document_citation(other), other.subject or other.title
    else:
        other = relation.target_document
        other_id = other.id if other is not None else None
        identity, title = relation.target_citation, relation.target_title or None
    return RelationView(
        direction=direction, relation=relation.relation, document_id=other_id, identity=identity, title=title,
        pasal=relation.pasal or None, ayat=relation.ayat or None, articles=tuple(relation.articles),
        date=relation.effective_date or None, source_document_id=relation.source_document_id,
        char_start=relation.char_start, char_end=relation.char_end,
    )


def _identity_keys(ids: list[uuid.UUID]) -> dict[str, list[uuid.UUID]]:
    keys: dict[str, list[uuid.UUID]] = {}
    for row in Document.objects.filter(id__in=ids).only("id", "instrument_type", "number", "year"):
        key = document_identity_key(row)
        if key:
            keys.setdefault(key, []).append(row.id)
    return keys


def incoming_relations(*, principal: Principal, document_ids: Iterable[uuid.UUID], scope: Scope | None = None,
                       relations: Iterable[str] | None = None) -> dict[uuid.UUID, list[RelationView]]:
    """What visible regulations say about each document (``relations``: only these kinds), oldest first: a
    search that needs the clauses replacing a document reads only these, not its status."""
    ids = list(dict.fromkeys(document_ids))
    if not ids:
        return {}
    visible = Document.objects.filter(visible_documents_q(principal, scope)).values("id")
    return _incoming(ids, _identity_keys(ids), visible, relations)


REPLACING = ("revokes", "supersedes")


def replaced_documents(*, principal: Principal, document_ids: Iterable[uuid.UUID],
                       scope: Scope | None = None) -> dict[uuid.UUID, int | None]:
    """The documents among ``document_ids`` that a regulation the caller may see revokes or replaces, each with
    its year. A cheap check first (does any indexed regulation speak so about them at all?), so most reads cost
    one small query."""
    ids = list(dict.fromkeys(document_ids))
    keys = _identity_keys(ids) if ids else {}
    spoken = LegalRelation.objects.filter(relation__in=REPLACING, source_document__status=Document.Status.INDEXED).filter(
        Q(target_document_id__in=ids) | Q(target_key__in=list(keys)))
    if not ids or not spoken.exists():
        return {}
    visible = Document.objects.filter(visible_documents_q(principal, scope)).values("id")
    found = [target for target, views in _incoming(ids, keys, visible, REPLACING).items() if views]
    return dict(Document.objects.filter(id__in=found).values_list("id", "year")) if found else {}


EXTENSION_DEPTH = 4          # a decree extended, its extension extended again, …: at most this many links


def extending_documents(*, principal: Principal, document_ids: Iterable[uuid.UUID],
                        scope: Scope | None = None) -> list[uuid.UUID]:
    """The visible decrees that extend any of ``document_ids`` (``extends``: "Penetapan Perpanjangan Status …"),
    and those extending them in turn, nearest first; none of ``document_ids`` themselves."""
    ids = list(dict.fromkeys(document_ids))
    if not ids or not LegalRelation.objects.filter(relation="extends").exists():
        return []
    visible = Document.objects.filter(visible_documents_q(principal, scope)).values("id")
    found: list[uuid.UUID] = []
    frontier = ids
    for _ in range(EXTENSION_DEPTH):
        views = _incoming(frontier, _identity_keys(frontier), visible, ("extends",))
        frontier = [v.source_document_id for vs in views.values() for v in vs
                    if v.source_document_id not in ids and v.source_document_id not in found]
        frontier = list(dict.fromkeys(frontier))
        if not frontier:
            break
        found += frontier
    return found


def _stated_by_visible(condition: Q, visible):
    """The relations matching ``condition`` that a visible source states, oldest source first."""
    return (LegalRelation.objects.filter(condition, source_document__in=visible).select_related("source_document")
            .order_by("source_document__year", "char_start"))


def _incoming(ids, keys, visible, relations=None) -> dict[uuid.UUID, list[RelationView]]:
    condition = Q(target_document_id__in=ids) | Q(target_key__in=list(keys))
    if relations is not None:
        condition &= Q(relation__in=list(relations))
    per_document: dict[uuid.UUID, list[RelationView]] = {i: [] for i in ids}
    for relation in _stated_by_visible(condition, visible):
        # the linked document, and every other copy of the same regulation
        targets = {relation.target_document_id, *keys.get(relation.target_key, ())} & per_document.keys()
        for target in targets - {relation.source_document_id}:
            per_document[target].append(_view(relation, "incoming"))
    return per_document


def legal_statuses(*, principal: Principal, document_ids: Iterable[uuid.UUID],
                   scope: Scope | None = None) -> dict[uuid.UUID, LegalStatus]:
    """Status and relations of each document, counting only regulations the caller may see
    (and, for an answer, that are inside its scope); three queries for any number of documents."""
    ids = list(dict.fromkeys(document_ids))
    if not ids:
        return {}
    visible = Document.objects.filter(visible_documents_q(principal, scope)).values("id")
    per_document = _incoming(ids, _identity_keys(ids), visible)
    outgoing = (LegalRelation.objects.filter(source_document_id__in=ids)
                .filter(Q(target_document__isnull=True) | Q(target_document__in=visible))
                .select_related("target_document").order_by("char_start"))
    for relation in outgoing:
        per_document[relation.source_document_id].append(_view(relation, "outgoing"))
    return {i: _status(views) for i, views in per_document.items()}


def named_status(*, principal: Principal, instrument_types: Iterable[str], number: str, year: int | None,
                 scope: Scope | None = None) -> LegalStatus:
    """What visible regulations say about an instrument named by its type, number and year, indexed or not: "Is PP
    58/2005 still in force?" is answered by the clause of PP 12/2019 that revokes it although PP 58/2005 itself
    was never ingested. ``instrument_types``: the type names the citation may stand for."""
    keys = {key for kind in instrument_types if (key := identity_key(kind, number, year))}
    if not keys:
        return LegalStatus("unknown", None)
    visible = Document.objects.filter(visible_documents_q(principal, scope)).values("id")
    return _status([_view(relation, "incoming") for relation in _stated_by_visible(Q(target_key__in=keys), visible)])


def legal_status_for(*, principal: Principal, document_id: uuid.UUID) -> LegalStatus:
    return legal_statuses(principal=principal, document_ids=[document_id])[document_id]


def relations_listing(*, document_id: uuid.UUID | None = None, unresolved: bool = False):
    """Every stored relation of indexed sources (the command's view; no access filter)."""
    rows = LegalRelation.objects.filter(source_document__status=Document.Status.INDEXED).select_related(
        "source_document", "target_document")
    if document_id:
        rows = rows.filter(Q(source_document_id=document_id) | Q(target_document_id=document_id))
    if unresolved:
        rows = rows.filter(target_document__isnull=True)
    return rows.order_by("source_document__title", "char_start")
