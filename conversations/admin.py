"""Feedback on answers, listed with the question and the answer it rates, and triaged (new → reviewed →
resolved). The conversation inspector is registered by ``workbench/admin.py`` (it reads the answering
app's traces, which this app does not import)."""
from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from conversations.models import Feedback
from conversations.selectors import answer_excerpt_subquery, answer_question_subquery
from conversations.services import feedback_triage
from kernel.admin_display import truncated

@admin.register(Feedback)
class FeedbackAdmin(admin.ModelAdmin):
    list_display = ["rating_mark", "question", "answer", "comment_preview", "triage", "updated_at"]
    list_display_links = ["question"]
    list_filter = ["triage", "rating", "updated_at"]
    search_fields = ["comment", "subject", "message__content"]
    fields = ["rating", "triage", "triaged_by", "triaged_at", "comment", "question", "answer_in_conversation", "subject",
              "created_at", "updated_at"]
    readonly_fields = fields
    date_hierarchy = "updated_at"
    ordering = ["-updated_at"]
    actions = ["mark_reviewed", "mark_resolved", "mark_new"]

    def get_queryset(self, request):
        return (super().get_queryset(request).select_related("message")
                .defer("message__metadata", "message__source_citations", "message__content")
                .annotate(question_text=answer_question_subquery("message_id"),
                          answer_text=answer_excerpt_subquery("message_id")))

    @admin.display(description="rating", ordering="rating")
    def rating_mark(self, obj):
        return format_html('<span title="{}">{}</span>', obj.get_rating_display(), "▲ up" if obj.rating == "up" else "▼ down")

    @admin.display(description="question")
    def question(self, obj):
        return truncated(obj.question_text, 80)

    @staticmethod
    def _answer_link(obj, length: int):
        """The answer's opening, linked to it in its conversation (the inspector)."""
        url = reverse("admin:conversations_conversation_change", args=[obj.message.conversation_id])
        return format_html('<a href="{}#message-{}">{}</a>', url, obj.message_id, truncated(obj.answer_text, length))

    @admin.display(description="answer")
    def answer(self, obj):
        return self._answer_link(obj, 110)

    @admin.display(description="comment")
    def comment_preview(self, obj):
        return truncated(obj.comment, 90)

    @admin.display(description="answer in its conversation")
    def answer_in_conversation(self, obj):
        return self._answer_link(obj, 200)

    def _triage(self, request, queryset, state: str) -> None:
        changed = feedback_triage(feedback_ids=list(queryset.values_list("pk", flat=True)), state=state,
                                  by=request.user.get_username())
        self.message_user(request, f"{changed} feedback item(s) marked {Feedback.Triage(state).label.lower()}.")

    @admin.action(description="Mark selected feedback reviewed")
    def mark_reviewed(self, request, queryset):
        self._triage(request, queryset, Feedback.Triage.REVIEWED)

    @admin.action(description="Mark selected feedback resolved")
    def mark_resolved(self, request, queryset):
        self._triage(request, queryset, Feedback.Triage.RESOLVED)

    @admin.action(description="Mark selected feedback new again")
    def mark_new(self, request, queryset):
        self._triage(request, queryset, Feedback.Triage.NEW)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
