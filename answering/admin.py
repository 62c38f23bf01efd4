from django.contrib import admin

from answering.models import AnswerTrace


@admin.register(AnswerTrace)
class AnswerTraceAdmin(admin.ModelAdmin):
    list_display = ["id", "route", "total_ms", "conversation_id", "message_id", "created_at"]
    list_filter = ["route"]
    search_fields = ["id", "conversation_id", "message_id"]
    readonly_fields = ["id", "route", "conversation_id", "message_id", "total_ms", "steps", "created_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
