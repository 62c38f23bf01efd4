"""Admin: a document's chain of legal relations (with links) and a filter by legal status.

Registered from ``retrieval/admin.py`` with two hooks: ``RELATION_INLINES`` on the
document page and ``LegalStatusFilter`` in its list filters. An administrator sees every
indexed regulation, so no access predicate applies here.
"""
from __future__ import annotations

from django.contrib import admin
from django.db.models import Exists, OuterRef, Q
from django.urls import reverse
from django.utils.html import format_html

from retrieval.models import Document

from .models import LegalRelation
from .selectors import document_citation

_STATUS_RELATIONS = {
    "revoked": ["revokes"],
    "superseded": ["supersedes"],
    "revoked_in_part": ["revokes_in_part"],
    "amended": ["amends"],
}


def _document_link(document: Document | None, fallback: str) -> str:
    if document is None:
        return format_html("{} <em>(not indexed)</em>", fallback)
    url = reverse("admin:retrieval_document_change", args=[document.pk])
    return format_html('<a href="{}">{}</a>', url, document_citation(document))


class _RelationInline(admin.TabularInline):
    model = LegalRelation
    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description="article")
    def clause_reference(self, relation: LegalRelation) -> str:
        ayat = f" ayat ({relation.ayat})" if relation.ayat else ""
        articles = f" — Pasal {', '.join(relation.articles)}" if relation.articles else ""
        return f"{relation.pasal or '(title)'}{ayat}{articles}"

    @admin.display(description="clause")
    def clause(self, relation: LegalRelation) -> str:
        return " ".join(relation.source_document.text[relation.char_start:relation.char_end].split())[:400]


class OutgoingRelationInline(_RelationInline):
    """What this regulation revokes, replaces or amends."""

    fk_name = "source_document"
    verbose_name = "regulation this document revokes or amends"
    verbose_name_plural = "This document revokes / amends"
    fields = readonly_fields = ["relation", "target", "clause_reference", "effective_date", "clause"]

    @admin.display(description="regulation")
    def target(self, relation: LegalRelation) -> str:
        return _document_link(relation.target_document, relation.target_citation)


class IncomingRelationInline(_RelationInline):
    """Which indexed regulations revoke, replace or amend this one."""

    fk_name = "target_document"
    verbose_name = "regulation that revokes or amends this document"
    verbose_name_plural = "Revoked / amended by"
    fields = readonly_fields = ["relation", "source", "clause_reference", "effective_date", "clause"]

    def get_queryset(self, request):
        return super().get_queryset(request).filter(source_document__status=Document.Status.INDEXED)

    @admin.display(description="by")
    def source(self, relation: LegalRelation) -> str:
        return _document_link(relation.source_document, "")


RELATION_INLINES = [OutgoingRelationInline, IncomingRelationInline]


class LegalStatusFilter(admin.SimpleListFilter):
    """Documents by the status indexed regulations give them (precedence as in the API)."""

    title = "legal status"
    parameter_name = "legal_status"

    def lookups(self, request, model_admin):
        return [("revoked", "revoked"), ("superseded", "superseded"), ("revoked_in_part", "revoked in part"),
                ("amended", "amended"), ("unknown", "unknown")]

    def queryset(self, request, queryset):
        value = self.value()
        if not value:
            return queryset
        speaks = LegalRelation.objects.filter(target_document=OuterRef("pk"),
                                              source_document__status=Document.Status.INDEXED)
        if value == "unknown":
            return queryset.filter(~Exists(speaks))
        order = ["revoked", "superseded", "revoked_in_part", "amended"]
        condition = Q(Exists(speaks.filter(relation__in=_STATUS_RELATIONS[value])))
        for higher in order[:order.index(value)]:
            condition &= ~Q(Exists(speaks.filter(relation__in=_STATUS_RELATIONS[higher])))
        return queryset.filter(condition)


@admin.register(LegalRelation)
class LegalRelationAdmin(admin.ModelAdmin):
    list_display = ["source_document", "relation", "target_citation_text", "pasal", "target_document", "effective_date"]
    list_filter = ["relation", ("target_document", admin.EmptyFieldListFilter)]
    search_fields = ["target_type", "target_number", "target_title", "source_document__title"]
    list_select_related = ["source_document", "target_document"]
    readonly_fields = [f.name for f in LegalRelation._meta.fields]

    @admin.display(description="target (as written)")
    def target_citation_text(self, relation: LegalRelation) -> str:
        return relation.target_citation

    def has_add_permission(self, request) -> bool:
        return False
