"""Reads over documents and chunks; every one applies access and scope."""
from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime

from django.contrib.postgres.search import SearchQuery
from django.db.models import Case, Count, IntegerField, Q, QuerySet, Sum, Value, When, Window

from kernel.principal import Principal
from retrieval.access import Scope, chunk_enabled_q, visible_documents_q
from retrieval.models import Chunk, Collection, Document, Ingestion
from retrieval.roster import signatory_roster


def collection_ids() -> list[str]:
    """Every collection id, sorted (staff commands name them when one is mistyped)."""
    return list(Collection.objects.order_by("id").values_list("id", flat=True))


def indexed_embedding_models() -> list[str]:
    """Distinct embedding models behind the visible index."""
    return list(
        Chunk.objects.filter(document__status=Document.Status.INDEXED)
        .values_list("embedding_model", flat=True)
        .distinct()
        .order_by("embedding_model")
    )


def document_list_visible(*, principal: Principal, scope: Scope | None = None) -> QuerySet[Document]:
    return Document.objects.filter(visible_documents_q(principal, scope)).defer("text").order_by("title", "id")


def document_ids_visible_subquery(*, principal: Principal, scope: Scope | None = None) -> QuerySet:
    """The ids of the documents ``principal`` may see, as a subquery another app filters its rows by."""
    return Document.objects.filter(visible_documents_q(principal, scope)).values("id")


def document_get_visible(*, principal: Principal, document_id: uuid.UUID) -> Document | None:
    return document_list_visible(principal=principal).filter(id=document_id).first()


def ingestion_get(*, ingestion_id: uuid.UUID) -> Ingestion | None:
    return Ingestion.objects.filter(id=ingestion_id).first()


FACT_GROUPS = {"instrument_type": "instrument_type", "year": "year"}


def document_facts(*, principal: Principal, scope: Scope | None = None, instrument_type: str | None = None,
                   year: int | None = None, title_contains: str | None = None,
                   group_by: str | None = None, operation: str = "count") -> dict:
    """Exact counts of visible indexed documents, optionally filtered and grouped.

    The title filter is a case-insensitive literal substring, applied before
    counting; grouping is by instrument type or year (most frequent first), or
    by signatory (role-preserving groups with the roster's coverage,
    ``retrieval.roster``). The document count needs no extracted fact card.
    """
    documents = Document.objects.filter(visible_documents_q(principal, scope), status=Document.Status.INDEXED)
    if instrument_type:
        documents = documents.filter(instrument_type__iexact=instrument_type.strip())
    if year is not None:
        documents = documents.filter(year=year)
    if title_contains:
        documents = documents.filter(title__icontains=title_contains.strip())
    facts: dict = {"documents": documents.count()}
    if group_by == "signatory":
        roster = signatory_roster(documents, operation=operation)
        facts["groups"] = roster.pop("groups")
        facts["roster"] = roster
    elif group_by in FACT_GROUPS:
        field = FACT_GROUPS[group_by]
        rows = documents.values(field).annotate(count=Count("id")).order_by("-count", field)
        facts["groups"] = [{group_by: row[field], "count": row["count"]} for row in rows[:50]]
    return facts


def chunk_count_with_all_terms(*, document_id: uuid.UUID, query: str) -> int:
    """How many of a document's passages contain every term of ``query`` (indonesian configuration)."""
    terms = SearchQuery(query, config="indonesian", search_type="plain")
    return Chunk.objects.filter(chunk_enabled_q(), document_id=document_id, search_vector=terms).count()


def document_ids_in_sources(*, principal: Principal, collection_ids: tuple[str, ...], document_ids: tuple[uuid.UUID, ...],
                            limit: int = 1000) -> tuple[uuid.UUID, ...]:
    """Visible documents of a saved source set: those in its collections or named by id (a union)."""
    if not collection_ids and not document_ids:
        return ()
    named = Q(collection_id__in=collection_ids) | Q(id__in=document_ids)
    return tuple(Document.objects.filter(visible_documents_q(principal), named)
                 .order_by("id").values_list("id", flat=True)[:limit])


def workspace_documents_visible(*, principal: Principal, workspace_id: uuid.UUID) -> list[Document]:
    """A workspace's indexed uploads the caller may see (the access predicate includes membership)."""
    return list(Document.objects.filter(visible_documents_q(principal), workspace_id=workspace_id)
                .defer("text").order_by("title", "id"))


def workspace_ingestions_pending(*, workspace_id: uuid.UUID, requested_by: str) -> list[Ingestion]:
    """The caller's own uploads into a workspace that are not indexed yet (queued, running or failed)."""
    return list(Ingestion.objects.filter(workspace_id=workspace_id, requested_by=requested_by)
                .exclude(status=Ingestion.Status.SUCCEEDED).order_by("-created_at"))


def workspace_upload_page(*, principal: Principal, workspace_id: uuid.UUID, selected: Q | None,
                          page: int = 200) -> tuple[int, int, list[tuple[str, bool]]]:
    """(uploaded, selected, up to ``page`` (title, is_selected)) of a workspace's visible indexed uploads.

    One statement, so the counts and the titles come from one snapshot; ``selected=None``
    means every upload is selected (a whole-corpus set). Ingesting and failed files are not indexed.
    """
    chosen = Case(When(selected, then=1), default=0, output_field=IntegerField()) if selected is not None else Value(1)
    rows = list(Document.objects.filter(visible_documents_q(principal), workspace_id=workspace_id)
                .annotate(is_selected=chosen).annotate(total=Window(Count("id")), chosen=Window(Sum("is_selected")))
                .order_by("title", "id").values_list("title", "is_selected", "total", "chosen")[:page])
    if not rows:
        return 0, 0, []
    return rows[0][2], rows[0][3] or 0, [(title, bool(flag)) for title, flag, _, _ in rows]


def document_count_in_scope(*, principal: Principal, scope: Scope) -> int:
    return Document.objects.filter(visible_documents_q(principal, scope)).count()


def document_list_staff(*, collection_id: str | None = None) -> QuerySet[Document]:
    """Every stored document (staff tools: management commands), newest version first per title."""
    documents = Document.objects.defer("text").order_by("collection_id", "title", "-version")
    return documents.filter(collection_id=collection_id) if collection_id else documents


def document_get_staff(*, document_id: uuid.UUID) -> Document | None:
    return Document.objects.defer("text").filter(id=document_id).first()


def document_section_counts(*, document_id: uuid.UUID) -> list[tuple[str, int]]:
    """(top-level section, chunk count) in document order; unsectioned chunks as "(no section)"."""
    counts: dict[str, int] = {}
    for path in Chunk.objects.filter(document_id=document_id).order_by("ordinal").values_list("section_path", flat=True):
        top = path[0] if path else "(no section)"
        counts[top] = counts.get(top, 0) + 1
    return list(counts.items())


def document_titles_staff(*, document_ids) -> dict[uuid.UUID, str]:
    """The title of each stored document among ``document_ids`` (staff pages); unknown ids are left out."""
    return dict(Document.objects.filter(id__in=list(document_ids)).values_list("id", "title"))


@dataclass(frozen=True)
class IngestionFailure:
    id: uuid.UUID
    source_name: str
    error: str
    created_at: datetime


def ingestion_failures_staff(*, start: datetime, end: datetime, limit: int) -> tuple[list[IngestionFailure], int]:
    """The newest failed ingestions queued in [start, end) (at most ``limit``) and how many failed in all."""
    failures = Ingestion.objects.filter(status=Ingestion.Status.FAILED, created_at__gte=start, created_at__lt=end)
    rows = failures.values_list("id", "source_name", "error", "created_at")[:limit]
    return [IngestionFailure(*row) for row in rows], failures.count()
