"""The answer inspector: conversations listed with quality filters and read as answers, not JSON.

Registered here rather than in ``conversations`` because it joins what the
answering app stored (traces) with conversations and feedback.
"""
from django.contrib import admin
from django.db.models import Count, Exists, Min, OuterRef, Q
from django.utils.html import format_html

from conversations.models import Conversation, Feedback, Message
from workbench.inspector import conversation_inspection, grounding_badge

PUBLIC_OWNER_PREFIX = "public:"


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
    change_form_template = "admin/workbench/conversation_inspector.html"

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
        extra = {"inspection": conversation_inspection(conversation) if conversation else []}
        return super().change_view(request, object_id, form_url, {**(extra_context or {}), **extra})

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
