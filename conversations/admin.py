import json

from django.contrib import admin
from django.utils.html import format_html, format_html_join

from conversations.models import Conversation, Message


class MessageInline(admin.StackedInline):
    model = Message
    fields = ["position", "role", "content", "citations", "metadata_pretty"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ["position"]

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description="source citations")
    def citations(self, obj: Message):
        return format_html_join(
            "", "<div>[{}] {} — {} (p. {})</div>",
            ((i, c.get("document_title"), c.get("legal_reference") or "", c.get("page_number") or "–")
             for i, c in enumerate(obj.source_citations or [], start=1)),
        ) or "—"

    @admin.display(description="metadata")
    def metadata_pretty(self, obj: Message):
        return format_html("<pre style='white-space:pre-wrap'>{}</pre>", json.dumps(obj.metadata, indent=2, ensure_ascii=False))


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    """Read-only transcripts: the admin inspects conversations, it never edits them."""

    list_display = ["title", "owner", "route_family", "message_count", "created_at"]
    list_filter = ["route_family", "created_at"]
    search_fields = ["title", "owner", "id"]
    readonly_fields = ["id", "owner", "title", "metadata", "route_family", "created_at", "updated_at"]
    inlines = [MessageInline]

    def get_queryset(self, request):
        from django.db.models import Count

        return super().get_queryset(request).annotate(message_total=Count("messages"))

    @admin.display(description="messages", ordering="message_total")
    def message_count(self, obj):
        return obj.message_total

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
