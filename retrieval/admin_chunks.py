"""The chunk screen: paginated passages of a document, read-only, enable/disable."""
from django.contrib import admin, messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from kernel.admin_audit import admin_change_logged
from retrieval.models import Chunk, Document
from retrieval.services import chunk_set_enabled

PREVIEW_CHARS = 220


def chunk_label(chunk: Chunk) -> str:
    """Where a passage sits: its section path (or legal reference) and its position."""
    where = " › ".join(chunk.section_path) or chunk.legal_reference or "passage"
    return f"{where} (#{chunk.ordinal})"


@admin.register(Chunk)
class ChunkAdmin(admin.ModelAdmin):
    """Chunks are derived data: never added, edited or deleted one by one (re-index the document instead)."""

    list_display = ["ordinal", "preview", "section", "legal_reference", "page_number", "kind", "enabled"]
    list_display_links = ["ordinal"]
    list_filter = ["enabled", "kind", "document__collection"]
    search_fields = ["text", "legal_reference"]
    list_per_page = 50
    show_full_result_count = False
    fields = ["document_link", "ordinal", "kind", "legal_reference", "section", "page_number", "char_start", "char_end",
              "text_block", "table_header", "enabled", "disabled_by", "disabled_at", "embedding_model"]
    readonly_fields = fields
    actions = ["disable_chunks", "enable_chunks"]
    change_form_template = "admin/retrieval/chunk/change_form.html"
    change_list_template = "admin/retrieval/chunk/change_list.html"

    def get_queryset(self, request):
        return (super().get_queryset(request).select_related("document")
                .defer("embedding", "search_vector", "document__text", "document__identity", "document__page_starts"))

    def lookup_allowed(self, lookup, value, request=None):
        return lookup in ("document__id__exact", "document__id") or super().lookup_allowed(lookup, value, request)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        """Titled by its document and section, with the document's previous and next passages."""
        chunk = Chunk.objects.filter(pk=object_id).select_related("document").only(
            "id", "ordinal", "legal_reference", "section_path", "document__id", "document__title").first()
        context = dict(extra_context or {})
        if chunk is not None:
            siblings = Chunk.objects.filter(document_id=chunk.document_id).only("id", "ordinal")
            context.update(
                subtitle=f"{chunk.document.title} — {chunk_label(chunk)}",
                previous_chunk=siblings.filter(ordinal__lt=chunk.ordinal).order_by("-ordinal").first(),
                next_chunk=siblings.filter(ordinal__gt=chunk.ordinal).order_by("ordinal").first(),
            )
        return super().change_view(request, object_id, form_url, context)

    def changelist_view(self, request, extra_context=None):
        document_id = request.GET.get("document__id__exact")
        document = Document.objects.filter(pk=document_id).only("id", "title").first() if document_id else None
        return super().changelist_view(request, {**(extra_context or {}), "document": document})

    @admin.display(description="text")
    def preview(self, obj):
        text = " ".join(obj.text.split())
        return text if len(text) <= PREVIEW_CHARS else text[:PREVIEW_CHARS].rsplit(" ", 1)[0] + " …"

    @admin.display(description="section path")
    def section(self, obj):
        return " › ".join(obj.section_path) or "—"

    @admin.display(description="document")
    def document_link(self, obj):
        return format_html('<a href="{}">{}</a>', reverse("admin:retrieval_document_change", args=[obj.document_id]),
                           obj.document.title)

    @admin.display(description="text")
    def text_block(self, obj):
        return format_html('<div class="chunk-text" style="white-space:pre-wrap;max-width:60em">{}</div>', obj.text)

    @admin.action(description="Disable selected chunks (never retrieved or cited)")
    def disable_chunks(self, request, queryset):
        count = chunk_set_enabled(chunk_ids=list(queryset.values_list("id", flat=True)), enabled=False,
                                  by=request.user.get_username())
        admin_change_logged(request, queryset, "Disabled (never retrieved or cited)")
        self.message_user(request, f"Disabled {count} chunk(s).")

    @admin.action(description="Enable selected chunks")
    def enable_chunks(self, request, queryset):
        count = chunk_set_enabled(chunk_ids=list(queryset.values_list("id", flat=True)), enabled=True,
                                  by=request.user.get_username())
        admin_change_logged(request, queryset, "Enabled")
        self.message_user(request, f"Enabled {count} chunk(s).")

    def get_urls(self):
        return [path("<uuid:chunk_id>/toggle/", self.admin_site.admin_view(require_POST(self.toggle_view)),
                     name="retrieval_chunk_toggle")] + super().get_urls()

    def toggle_view(self, request, chunk_id):
        chunk = get_object_or_404(Chunk.objects.only("id", "enabled"), pk=chunk_id)
        chunk_set_enabled(chunk_ids=[chunk.pk], enabled=not chunk.enabled, by=request.user.get_username())
        admin_change_logged(request, Chunk.objects.filter(pk=chunk.pk),
                            "Disabled (never retrieved or cited)" if chunk.enabled else "Enabled")
        messages.success(request, "Chunk disabled: it is no longer retrieved or cited." if chunk.enabled else "Chunk enabled.")
        return redirect("admin:retrieval_chunk_change", chunk.pk)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
