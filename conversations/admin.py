"""Feedback on answers. The conversation inspector is registered by ``workbench/admin.py``
(it reads the answering app's traces, which this app does not import)."""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from conversations.models import Feedback


@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ["rating", "comment_preview", "answer", "subject", "updated_at"]
    list_filter = ["rating", "updated_at"]
    search_fields = ["comment", "subject", "message__content"]
    list_select_related = ["message"]
    fields = ["rating", "comment", "subject", "answer", "created_at", "updated_at"]
    readonly_fields = fields
    date_hierarchy = "updated_at"

    @admin.display(description="comment")
    def comment_preview(self, obj):
        return obj.comment[:120] or "—"

    @admin.display(description="answer")
    def answer(self, obj):
        url = reverse("admin:conversations_conversation_change", args=[obj.message.conversation_id])
        return format_html('<a href="{}#message-{}">{}</a>', url, obj.message_id, obj.message.content[:100])

    def get_queryset(self, request):
        return super().get_queryset(request).defer("message__metadata", "message__source_citations")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
