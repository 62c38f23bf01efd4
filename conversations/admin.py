"""The conversations app's admin: conversations listed with quality filters and read as answers, not JSON
(the transcript: ``conversations/inspection.py``); feedback on answers, listed with the question and the
answer it rates, and triaged (new → reviewed → resolved)."""
from django.contrib import admin
from django.db.models import Count, Exists, Min, OuterRef, Q
from django.urls import reverse
from django.utils.html import format_html

from conversations.inspection import conversation_transcript
from conversations.models import PUBLIC_OWNER_PREFIX, Conversation, Feedback, Message
from conversations.selectors import answer_excerpt_subquery, answer_question_subquery
from conversations.services import feedback_triage
from kernel.admin_display import grounding_badge, truncated


def _answers(**conditions):
    return Exists(Message.objects.filter(conversation=OuterRef("pk"), role=Message.Role.ASSISTANT, **conditions))


class RouteFamilyFilter(admin.SimpleListFilter):
    title = "route family"
    parameter_name = "route"

    def lookups(self, request, model_admin):
        return [("query", "/query"), ("query_v2", "/query/v2"), ("widget", "public widget")]

    def queryset(self, request, queryset):
        if self.value() == "widget":
            return queryset.filter(owner__startswith=PUBLIC_OWNER_PREFIX)
        if self.value() in ("query", "query_v2"):
            return queryset.filter(route_family=self.value()).exclude(owner__startswith=PUBLIC_OWNER_PREFIX)
        return queryset


class RefusedFilter(admin.SimpleListFilter):
    title = "refused (by reason)"
    parameter_name = "refused"

    def lookups(self, request, model_admin):
        reasons = (Message.objects.filter(role=Message.Role.ASSISTANT, fallback_reason__isnull=False)
                   .values_list("fallback_reason", flat=True).distinct().order_by("fallback_reason"))
        return [("any", "any reason")] + [(reason, reason) for reason in reasons]

    def queryset(self, request, queryset):
        if self.value() == "any":
            return queryset.filter(_answers(fallback_reason__isnull=False))
        if self.value():
            return queryset.filter(_answers(fallback_reason=self.value()))
        return queryset


class GroundingFilter(admin.SimpleListFilter):
    title = "grounding below"
    parameter_name = "grounding_below"
    THRESHOLDS = ["0.5", "0.75", "0.9", "1"]

    def lookups(self, request, model_admin):
        return [(t, f"below {float(t):.0%}") for t in self.THRESHOLDS]

    def queryset(self, request, queryset):
        if self.value() in self.THRESHOLDS:
            return queryset.filter(_answers(grounding_rate__lt=float(self.value())))
        return queryset


class FeedbackFilter(admin.SimpleListFilter):
    title = "feedback"
    parameter_name = "feedback"

    def lookups(self, request, model_admin):
        return [("down", "thumbs down"), ("up", "thumbs up"), ("any", "any")]

    def queryset(self, request, queryset):
        if self.value() in ("up", "down", "any"):
            rated = Feedback.objects.filter(message__conversation=OuterRef("pk"))
            if self.value() != "any":
                rated = rated.filter(rating=self.value())
            return queryset.filter(Exists(rated))
        return queryset


@admin.register(Conversation)
class ConversationAdmin(admin.ModelAdmin):
    """Read-only transcripts rendered for reading; the admin inspects conversations, it never edits them."""

    list_display = ["title", "owner", "family", "message_count", "refusals", "grounding", "created_at"]
    list_filter = [RouteFamilyFilter, RefusedFilter, GroundingFilter, FeedbackFilter, "created_at"]
    search_fields = ["title", "owner", "id"]
    date_hierarchy = "created_at"
    show_full_result_count = False
    fields = ["id", "owner", "title", "route_family", "created_at", "updated_at"]
    readonly_fields = fields
    change_form_template = "admin/conversations/conversation_inspector.html"

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(
            message_total=Count("messages"),
            refused_total=Count("messages", filter=Q(messages__fallback_reason__isnull=False)),
            grounding_min=Min("messages__grounding_rate"),
        )

    @admin.display(description="route family")
    def family(self, obj):
        if obj.owner.startswith(PUBLIC_OWNER_PREFIX):
            return "public widget"
        return {"query": "/query", "query_v2": "/query/v2"}.get(obj.route_family or "", "—")

    @admin.display(description="messages", ordering="message_total")
    def message_count(self, obj):
        return obj.message_total

    @admin.display(description="refused", ordering="refused_total")
    def refusals(self, obj):
        return obj.refused_total or ""

    @admin.display(description="lowest grounding", ordering="grounding_min")
    def grounding(self, obj):
        return grounding_badge(obj.grounding_min) if obj.grounding_min is not None else format_html("{}", "—")

    def change_view(self, request, object_id, form_url="", extra_context=None):
        conversation = self.get_object(request, object_id)
        extra = {"inspection": conversation_transcript(conversation) if conversation else []}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False


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
