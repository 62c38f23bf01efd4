from django.contrib import admin

from answering.models import AnswerTrace, PlaygroundRun
from conversations.facade import answer_excerpt_subquery, answer_question_subquery
from kernel.admin_display import truncated


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records the API writes; the admin may read and delete them, never add or edit."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AnswerTrace)
class AnswerTraceAdmin(ReadOnlyAdmin):
    """Traces listed by what was asked and answered; ids stay on the trace's own page."""

    list_display = ["question", "answer", "route", "total_ms", "created_at"]
    list_display_links = ["question"]
    list_filter = ["route", "created_at"]
    search_fields = ["id", "conversation_id", "message_id"]
    readonly_fields = ["id", "route", "conversation_id", "message_id", "total_ms", "steps", "created_at"]
    ordering = ["-created_at"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            question_text=answer_question_subquery("message_id"), answer_text=answer_excerpt_subquery("message_id"))

    @admin.display(description="question")
    def question(self, obj):
        return truncated(obj.question_text, 80) if obj.question_text else str(obj.pk)

    @admin.display(description="answer")
    def answer(self, obj):
        return truncated(obj.answer_text, 110)


@admin.register(PlaygroundRun)
class PlaygroundRunAdmin(ReadOnlyAdmin):
    list_display = ["id", "admin_subject", "status", "fallback_reason", "claims_supported", "claims_total",
                    "latency_ms", "created_at"]
    list_filter = ["status", "fallback_reason"]
    search_fields = ["id", "admin_subject"]
    readonly_fields = ["id", "admin_subject", "created_at", "status", "fallback_reason", "error_status",
                       "claims_total", "claims_supported", "citations_count", "tool_calls_count", "latency_ms"]
