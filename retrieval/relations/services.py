"""Writes: record a document's relations at ingestion, link targets as they arrive, rebuild.

Consistency rules (each tested):
- a document's outgoing relations are replaced whole whenever it is (re-)ingested; the
  superseded version keeps its rows, which stop counting because only indexed sources do;
- a relation's target is the indexed document with the written identity (type, number,
  year compared through :func:`identity_key`, which reads OCR letters in numbers as
  digits); several indexed documents with one identity are copies of one regulation (the
  corpus holds some as both text and PDF): the link goes to the first by source key, and
  every copy carries the status (selectors match the identity too); none -> unresolved;
- ingesting a document re-resolves every relation that names its identity or pointed at
  an earlier version of its source, so a target ingested after its revoker is linked and
  a re-ingested target moves its incoming relations to the new version.
"""
from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from typing import Callable, Iterable

from django.db import transaction
from django.db.models import Q

from retrieval.models import Document

from .citations import identity_key
from .extract import extract_relations
from .models import LegalRelation

logger = logging.getLogger(__name__)


def document_identity_key(document: Document) -> str | None:
    return identity_key(document.instrument_type, document.number, document.year)


def _key_year(key: str) -> int | None:
    year = key.rsplit("|", 1)[-1]
    return int(year) if year.isdigit() else None


def _resolver(keys: Iterable[str]) -> Callable[[str], Document | None]:
    """Look up the indexed documents of every key at once (copies: the first by source key)."""
    keys = set(keys)
    years = {_key_year(key) for key in keys}
    condition = Q(status=Document.Status.INDEXED, instrument_type__isnull=False, number__isnull=False)
    if None not in years:
        condition &= Q(year__in=years)
    found: dict[str, list[Document]] = defaultdict(list)
    for document in Document.objects.filter(condition).only("id", "instrument_type", "number", "year", "source_key"):
        key = document_identity_key(document)
        if key in keys:
            found[key].append(document)
    return lambda key: min(found[key], key=lambda d: (d.source_key, str(d.pk))) if found.get(key) else None


def relations_record(*, document: Document) -> int:
    """Extract ``document``'s relations from its stored text and link both directions.

    Call inside the transaction that makes ``document`` visible (ingestion does)."""
    own_key = document_identity_key(document)
    drafts = extract_relations(document.text, own_key=own_key)
    resolve = _resolver(d.target.key for d in drafts)
    LegalRelation.objects.filter(source_document=document).delete()
    rows = []
    for draft in drafts:
        target = resolve(draft.target.key)
        rows.append(LegalRelation(
            source_document=document, relation=draft.relation, articles=list(draft.articles),
            pasal=draft.pasal or "", ayat=draft.ayat or "", char_start=draft.char_start, char_end=draft.char_end,
            target_type=draft.target.display().split(" Nomor ")[0][:200], target_number=draft.target.number[:100],
            target_year=draft.target.year, target_title=draft.target_title or "", target_key=draft.target.key,
            target_document=target if target is not None and target.pk != document.pk else None,
            effective_date=draft.effective_date or "",
        ))
    LegalRelation.objects.bulk_create(rows)
    relations_relink(document=document, own_key=own_key)
    return len(rows)


def relations_relink(*, document: Document, own_key: str | None = None) -> int:
    """Re-resolve the relations that name ``document``'s identity or point at a version of its source."""
    own_key = own_key if own_key is not None else document_identity_key(document)
    condition = Q(target_document__source_key=document.source_key)
    if own_key:
        condition |= Q(target_key=own_key)
    pending = list(LegalRelation.objects.filter(condition).only("id", "target_key", "target_document_id",
                                                                "source_document_id"))
    resolve = _resolver(r.target_key for r in pending)
    changed = 0
    for relation in pending:
        target = resolve(relation.target_key)
        target_id = target.pk if target is not None and target.pk != relation.source_document_id else None
        if relation.target_document_id != target_id:
            LegalRelation.objects.filter(pk=relation.pk).update(target_document_id=target_id)
            changed += 1
    return changed


@dataclass(frozen=True)
class RebuildOutcome:
    documents: int
    relations: int
    resolved: int


def relations_rebuild(*, document_ids: Iterable | None = None,
                      on_progress: Callable[[int, int, int], None] | None = None) -> RebuildOutcome:
    """Re-extract every indexed document's relations from its stored text (no re-embedding),
    then resolve all targets against the indexed corpus."""
    documents = Document.objects.filter(status=Document.Status.INDEXED).order_by("id")
    if document_ids:
        documents = documents.filter(id__in=list(document_ids))
    ids = list(documents.values_list("id", flat=True))
    total = 0
    for done, document_id in enumerate(ids, start=1):
        with transaction.atomic():
            document = Document.objects.select_for_update().filter(pk=document_id).first()
            if document is not None:
                total += relations_record(document=document)
        if on_progress:
            on_progress(done, len(ids), total)
    resolved = LegalRelation.objects.filter(source_document__status=Document.Status.INDEXED,
                                            target_document__isnull=False).count()
    return RebuildOutcome(documents=len(ids), relations=total, resolved=resolved)
