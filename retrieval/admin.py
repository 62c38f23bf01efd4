"""Corpus screens: collections, documents (identity, access, source), ingestions.

Chunks have their own paginated screen (``retrieval/admin_chunks.py``): a
document page never renders its passages inline (a long law has thousands).
"""
from django.contrib import admin, messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join

from kernel.admin_display import truncated
from kernel.files import files_open
from retrieval import admin_chunks  # noqa: F401 (registers the chunk screen)
from retrieval.models import Collection, Document, Ingestion
from retrieval.relations.admin import RELATION_INLINES, LegalStatusFilter
from retrieval.services import ingestion_request_reindex
from retrieval.instruments import number_and_year
from retrieval.sources import source_file_name

ACCESS_HELP = {
    "confidential": "Visible only to callers whose identity is verified (partner JWT or trusted X-User-* headers).",
    "owning_org_unit": "When set, only callers of this organisation unit see the document. Leave blank for everyone.",
    "min_position_level": "When set, only callers at this position level or higher see the document. Leave blank for everyone.",
}


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "created_at"]
    search_fields = ["id", "name"]


def access_summary(obj) -> str:
    parts = []
    if obj.confidential:
        parts.append("verified only")
    if obj.owning_org_unit:
        parts.append(f"unit {obj.owning_org_unit}")
    if obj.min_position_level is not None:
        parts.append(f"level ≥ {obj.min_position_level}")
    return ", ".join(parts) or "public"


OCR_REVIEW_BELOW = 70  # mean word confidence under which an OCR page is listed for review


class OcrReviewFilter(admin.SimpleListFilter):
    title = "OCR review"
    parameter_name = "ocr_review"

    def lookups(self, request, model_admin):
        return [("low", f"has OCR pages below {OCR_REVIEW_BELOW} confidence"), ("ocr", "read by OCR (all or some pages)")]

    def queryset(self, request, queryset):
        if self.value() == "low":
            return queryset.extra(where=[f"jsonb_path_exists(ocr_pages, 'strict $[*] ? (@[1] < {OCR_REVIEW_BELOW})')"])
        if self.value() == "ocr":
            return queryset.exclude(extraction="text")
        return queryset


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    # What an administrator scans, in a table that fits 1280–1400 px beside the filters: the title cut to
    # two lines (whole on hover), the identity card in one cell, state, size, last change (the collection
    # is a filter).
    list_display = ["title_cell", "identity_card", "status", "chunks_cell", "updated_cell"]
    list_display_links = ["title_cell"]
    ordering = ["-updated_at"]
    list_per_page = 50
    list_filter = ["collection", "status", LegalStatusFilter, OcrReviewFilter, "instrument_type", "year", "regime",
                   "confidential", "owning_org_unit", "min_position_level"]
    search_fields = ["title", "number", "subject", "source_name"]
    readonly_fields = ["id", "status", "version", "chunks", "indexed_at", "error", "instrument_type", "number", "year",
                       "subject", "issuer", "place_enacted", "date_enacted", "signatory", "source_name", "source_format",
                       "content_hash", "source_download", "ingestions", "created_at", "updated_at", "extraction",
                       "ocr_review", "regime"]
    fieldsets = [
        (None, {"fields": ["id", "title", "collection", "status", "version", "chunks", "indexed_at", "error"]}),
        ("Identity card", {"fields": ["instrument_type", "number", "year", "subject", "issuer", "place_enacted",
                                      "date_enacted", "signatory", "regime"]}),
        ("Access", {"fields": ["confidential", "owning_org_unit", "min_position_level"],
                    "description": "A document is visible to a caller when every restriction set here holds. "
                                   "A verified admin sees every indexed document."}),
        ("Source", {"fields": ["source_name", "source_format", "extraction", "ocr_review", "content_hash",
                               "source_download", "ingestions", "created_at", "updated_at"]}),
    ]
    inlines = [*RELATION_INLINES]
    actions = ["reindex"]
    change_list_template = "admin/retrieval/document/change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).select_related("collection").defer("text", "identity", "page_starts")

    def get_form(self, request, obj=None, **kwargs):
        form = super().get_form(request, obj, **kwargs)
        for name, text in ACCESS_HELP.items():
            if name in form.base_fields:
                form.base_fields[name].help_text = text
        if "title" in form.base_fields:
            form.base_fields["title"].widget.attrs["class"] = "vTextField wide-text"
        return form

    @admin.display(description="OCR pages")
    def ocr_review(self, obj):
        if not obj.ocr_pages:
            return "none (text layer)"
        low = [(page, confidence) for page, confidence in obj.ocr_pages if confidence < OCR_REVIEW_BELOW]
        summary = f"{len(obj.ocr_pages)} pages read by OCR"
        if not low:
            return f"{summary}, every page at {OCR_REVIEW_BELOW}+ mean word confidence"
        return format_html("{}; to review (confidence under {}): {}", summary, OCR_REVIEW_BELOW,
                           ", ".join(f"page {page} ({confidence:.0f})" for page, confidence in low))

    @admin.display(description="title", ordering="title")
    def title_cell(self, obj):
        return truncated(obj.title, 110)

    @admin.display(description="type · number · year", ordering="year")
    def identity_card(self, obj):
        figures = number_and_year(obj.number, obj.year)
        if not obj.instrument_type:
            return figures or "—"
        return format_html('{}<br><span class="quiet">{}</span>', obj.instrument_type, figures)

    @admin.display(description="chunks", ordering="chunk_count")
    def chunks_cell(self, obj):
        return obj.chunk_count

    @admin.display(description="updated", ordering="updated_at")
    def updated_cell(self, obj):
        moment = timezone.localtime(obj.updated_at)
        return format_html('<span title="{}">{}</span>', moment.strftime("%Y-%m-%d %H:%M"), moment.strftime("%d %b %Y"))

    @admin.display(description="access")
    def access(self, obj):
        return access_summary(obj)

    @admin.display(description="chunks")
    def chunks(self, obj):
        url = reverse("admin:retrieval_chunk_changelist") + f"?document__id__exact={obj.pk}"
        return format_html('<a href="{}">View the {} chunks (text, section, page, enable/disable)</a>', url, obj.chunk_count)

    @admin.display(description="source file")
    def source_download(self, obj):
        links = []
        if source_file_name(obj):
            links.append(format_html('<a href="{}">Download {}</a>',
                                     reverse("admin:retrieval_document_source", args=[obj.pk]), obj.source_name))
        links.append(format_html('<a href="{}">Extracted text (.txt)</a>', reverse("admin:retrieval_document_text", args=[obj.pk])))
        return format_html_join(" · ", "{}", ((link,) for link in links))

    @admin.display(description="ingestions")
    def ingestions(self, obj):
        rows = Ingestion.objects.filter(document_id=obj.pk).only("id", "kind", "status", "outcome", "requested_by",
                                                                  "created_at")[:5]
        items = format_html_join("", '<li><a href="{}">{} {} — {} {}</a> by {}</li>', (
            (reverse("admin:retrieval_ingestion_change", args=[row.pk]), row.created_at.strftime("%Y-%m-%d %H:%M"),
             row.get_kind_display(), row.status, row.outcome, row.requested_by or "unknown") for row in rows))
        return format_html("<ul>{}</ul>", items) if rows else "—"

    @admin.action(description="Re-index selected documents (re-chunk and re-embed)")
    def reindex(self, request, queryset):
        queued = [ingestion_request_reindex(document=document, requested_by=request.user.get_username())
                  for document in queryset.only("id", "title", "source_name", "source_key", "collection_id",
                                                "confidential", "owning_org_unit", "min_position_level")]
        failed = sum(1 for ingestion in Ingestion.objects.filter(pk__in=[i.pk for i in queued], status="failed"))
        url = reverse("admin:retrieval_ingestion_changelist")
        self.message_user(request, format_html('Re-index requested for {} document(s) ({} failed): see <a href="{}">Ingestions</a>.',
                                               len(queued), failed, url),
                          level=messages.ERROR if failed else messages.SUCCESS)

    def add_view(self, request, form_url="", extra_context=None):
        return redirect("admin:retrieval_document_upload")

    def get_urls(self):
        view = self.admin_site.admin_view
        return [
            path("upload/", view(self.upload_view), name="retrieval_document_upload"),
            path("<uuid:document_id>/source/", view(self.source_view), name="retrieval_document_source"),
            path("<uuid:document_id>/text/", view(self.text_view), name="retrieval_document_text"),
        ] + super().get_urls()

    def upload_view(self, request):
        from retrieval.errors import UploadRejected
        from retrieval.forms import DocumentUploadForm

        if not self.has_add_permission(request):
            raise Http404
        form = DocumentUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            try:
                ingestion = form.request_ingestion(requested_by=request.user.get_username())
            except UploadRejected as exc:  # a tuple: too large, or not an accepted type
                form.add_error("file", exc.message)
            else:
                return redirect("admin:retrieval_ingestion_change", ingestion.pk)
        context = {**self.admin_site.each_context(request), "form": form, "title": "Upload a document", "opts": self.model._meta}
        return render(request, "admin/retrieval/document/upload.html", context)

    def source_view(self, request, document_id):
        document = get_object_or_404(Document.objects.only("id", "content_hash", "source_name"), pk=document_id)
        if not self.has_view_permission(request, document) or (kept := source_file_name(document)) is None:
            raise Http404
        return FileResponse(files_open(kept), as_attachment=True, filename=document.source_name)

    def text_view(self, request, document_id):
        document = get_object_or_404(Document.objects.only("id", "text", "source_name"), pk=document_id)
        if not self.has_view_permission(request, document):
            raise Http404
        response = HttpResponse(document.text, content_type="text/plain; charset=utf-8")
        name = (document.source_name.rsplit(".", 1)[0] or "document") + ".txt"
        response["Content-Disposition"] = f'attachment; filename="{name}"'
        return response


@admin.register(Ingestion)
class IngestionAdmin(admin.ModelAdmin):
    """Progress and outcome of every ingestion; the page refreshes itself until the run ends."""

    list_display = ["source_name", "kind", "collection", "status", "outcome", "chunk_count", "attempts", "requested_by",
                    "created_at", "duration"]
    list_filter = ["status", "outcome", "kind", "collection"]
    search_fields = ["source_name", "requested_by"]
    fields = ["id", "kind", "source_name", "collection", "title", "confidential", "owning_org_unit", "min_position_level",
              "status", "outcome", "error", "document_link", "chunk_count", "attempts", "requested_by", "created_at",
              "updated_at", "duration"]
    readonly_fields = fields
    change_form_template = "admin/retrieval/ingestion/change_form.html"

    @admin.display(description="document")
    def document_link(self, obj):
        if not obj.document_id:
            return "—"
        return format_html('<a href="{}">{}</a>', reverse("admin:retrieval_document_change", args=[obj.document_id]),
                           obj.document_id)

    @admin.display(description="duration")
    def duration(self, obj):
        if obj.status in (Ingestion.Status.QUEUED, Ingestion.Status.RUNNING):
            return "in progress"
        return f"{(obj.updated_at - obj.created_at).total_seconds():.1f} s"

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
