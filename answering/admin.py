from django.contrib import admin

from answering.models import AnswerTrace, PlaygroundRun


class ReadOnlyAdmin(admin.ModelAdmin):
    """Records the API writes; the admin may read and delete them, never add or edit."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


@admin.register(AnswerTrace)
class AnswerTraceAdmin(ReadOnlyAdmin):
    list_display = ["id", "route", "total_ms", "conversation_id", "message_id", "created_at"]
    list_filter = ["route"]
    search_fields = ["id", "conversation_id", "message_id"]
    readonly_fields = ["id", "route", "conversation_id", "message_id", "total_ms", "steps", "created_at"]


@admin.register(PlaygroundRun)
class PlaygroundRunAdmin(ReadOnlyAdmin):
    list_display = ["id", "admin_subject", "status", "fallback_reason", "claims_supported", "claims_total",
                    "latency_ms", "created_at"]
    list_filter = ["status", "fallback_reason"]
    search_fields = ["id", "admin_subject"]
    readonly_fields = ["id", "admin_subject", "created_at", "status", "fallback_reason", "error_status",
                       "claims_total", "claims_supported", "citations_count", "tool_calls_count", "latency_ms"]
