from django.contrib import admin, messages
from django.shortcuts import redirect, render
from django.urls import path

from retrieval.models import Chunk, Collection, Document, Ingestion
from retrieval.relations.admin import RELATION_INLINES, LegalStatusFilter
from retrieval.services import document_reindex


@admin.register(Collection)
class CollectionAdmin(admin.ModelAdmin):
    list_display = ["id", "name", "created_at"]
    search_fields = ["id", "name"]


class ChunkInline(admin.TabularInline):
    model = Chunk
    fields = ["ordinal", "kind", "section_path", "legal_reference", "page_number", "text"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ["ordinal"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Document)
class DocumentAdmin(admin.ModelAdmin):
    list_display = ["title", "collection", "instrument_type", "number", "year", "status", "chunk_count", "confidential",
                    "owning_org_unit", "min_position_level", "indexed_at"]
    list_filter = ["collection", "instrument_type", "year", "status", LegalStatusFilter, "confidential", "owning_org_unit",
                   "min_position_level"]
    search_fields = ["title", "number", "subject", "source_name"]
    readonly_fields = ["id", "source_key", "source_name", "source_format", "version", "status", "content_hash", "chunk_count",
                       "instrument_type", "number", "year", "subject", "issuer", "place_enacted", "date_enacted",
                       "signatory", "identity", "created_at", "updated_at", "indexed_at", "error"]
    fieldsets = [
        (None, {"fields": ["id", "title", "collection", "status", "version", "chunk_count", "indexed_at", "error"]}),
        ("Identity card", {"fields": ["instrument_type", "number", "year", "subject", "issuer", "place_enacted",
                                      "date_enacted", "signatory", "identity"]}),
        ("Access", {"fields": ["confidential", "owning_org_unit", "min_position_level"]}),
        ("Source", {"fields": ["source_key", "source_name", "source_format", "content_hash", "created_at", "updated_at"]}),
    ]
    inlines = [*RELATION_INLINES, ChunkInline]
    actions = ["reindex"]
    change_list_template = "admin/retrieval/document/change_list.html"

    def get_queryset(self, request):
        return super().get_queryset(request).defer("text")

    @admin.action(description="Re-index selected documents (re-chunk and re-embed)")
    def reindex(self, request, queryset):
        done = 0
        for document in queryset:
            outcome = document_reindex(document=document)
            if outcome.status == "failed":
                self.message_user(request, f"{document.title}: {outcome.reason}", level=messages.ERROR)
            else:
                done += 1
        self.message_user(request, f"Re-indexed {done} document(s).")

    def get_urls(self):
        return [path("upload/", self.admin_site.admin_view(self.upload_view), name="retrieval_document_upload")] + super().get_urls()

    def upload_view(self, request):
        from retrieval.forms import DocumentUploadForm

        form = DocumentUploadForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            outcome = form.ingest(requested_by=request.user.get_username())
            level = messages.ERROR if outcome.status == "failed" else messages.SUCCESS
            self.message_user(request, f"{outcome.source_name}: {outcome.status} {outcome.reason}".strip(), level=level)
            if outcome.status != "failed":
                return redirect("admin:retrieval_document_change", outcome.document_id)
        context = {**self.admin_site.each_context(request), "form": form, "title": "Upload a document", "opts": self.model._meta}
        return render(request, "admin/retrieval/document/upload.html", context)


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    list_display = ["__str__", "document", "ordinal", "kind", "legal_reference", "page_number"]
    list_filter = ["kind", "document__collection"]
    search_fields = ["text", "legal_reference"]
    readonly_fields = ["id", "document", "ordinal", "kind", "text", "page_number", "section_path", "legal_reference",
                       "char_start", "char_end", "table_header", "embedding_model"]
    exclude = ["embedding", "search_vector"]
    list_select_related = ["document"]

    def has_add_permission(self, request):
        return False


@admin.register(Ingestion)
class IngestionAdmin(admin.ModelAdmin):
    list_display = ["source_name", "collection", "status", "outcome", "chunk_count", "attempts", "requested_by", "created_at"]
    list_filter = ["status", "outcome", "collection"]
    search_fields = ["source_name", "source_key", "requested_by"]
    readonly_fields = [f.name for f in Ingestion._meta.fields]

    def has_add_permission(self, request):
        return False
