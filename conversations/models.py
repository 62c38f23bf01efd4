import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models

# The owner of a public chat widget's conversation: this prefix, then the visitor's key.
PUBLIC_OWNER_PREFIX = "public:"


class Conversation(models.Model):
    class RouteFamily(models.TextChoices):
        QUERY = "query", "/query"             # /query, /query/stream and the public widget
        QUERY_V2 = "query_v2", "/query/v2"    # /query/v2 and /query/v2/stream

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.CharField(max_length=256, db_index=True)
    title = models.CharField(max_length=300, blank=True, null=True)
    metadata = models.JSONField(default=dict, blank=True)
    # The answer route family that first answered here owns the conversation.
    route_family = models.CharField(max_length=10, choices=RouteFamily.choices, blank=True, null=True)
    # A chat of a shared workspace or a personal notebook (workspaces app); null = an ordinary chat.
    workspace_id = models.UUIDField(blank=True, null=True, db_index=True)
    notebook_id = models.UUIDField(blank=True, null=True, db_index=True)
    # The chat's saved MCP selection; null = none saved (the request's, if any, applies).
    mcp_source_ids = models.JSONField(blank=True, null=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["owner", "-created_at"])]

    def __str__(self) -> str:
        return self.title or str(self.id)


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user"
        ASSISTANT = "assistant"
        SYSTEM = "system"
        TOOL = "tool"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    conversation = models.ForeignKey(Conversation, on_delete=models.CASCADE, related_name="messages")
    position = models.PositiveIntegerField()
    role = models.CharField(max_length=10, choices=Role.choices)
    content = models.TextField()
    source_citations = models.JSONField(default=list, blank=True)
    metadata = models.JSONField(default=dict, blank=True)
    # Zero-based index of the user exchange this message belongs to.
    exchange_index = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # An answer's figures, copied from its metadata when stored (conversations/stats.py) so the
    # dashboard aggregates small indexed columns instead of every answer's JSON.
    route = models.CharField(max_length=40, blank=True, default="", db_default="")
    fallback_reason = models.CharField(max_length=64, blank=True, null=True, help_text="Why the answer was refused (empty when published).")
    grounding_rate = models.FloatField(blank=True, null=True)
    latency_ms = models.FloatField(blank=True, null=True)
    cited_document_ids = ArrayField(models.UUIDField(), default=list, blank=True)

    class Meta:
        ordering = ["conversation", "position"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "position"], name="message_position_unique"),
        ]
        indexes = [
            # The dashboard reads answers by time with their figures from this index alone (index-only scans).
            models.Index(fields=["created_at"], include=["fallback_reason", "grounding_rate", "latency_ms", "cited_document_ids"],
                         condition=models.Q(role="assistant"), name="message_answer_figures"),
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:60]}"


class Feedback(models.Model):
    """A reader's thumbs up or down on one answer; one per message and subject (re-rating replaces it)."""

    class Rating(models.TextChoices):
        UP = "up", "Thumbs up"
        DOWN = "down", "Thumbs down"

    class Triage(models.TextChoices):
        NEW = "new", "New"
        REVIEWED = "reviewed", "Reviewed"
        RESOLVED = "resolved", "Resolved"

    message = models.ForeignKey(Message, on_delete=models.CASCADE, related_name="feedback")
    # Who rated: the conversation's owner (a partner user, or "public:<visitor>" from the widget).
    subject = models.CharField(max_length=256)
    rating = models.CharField(max_length=4, choices=Rating.choices)
    comment = models.TextField(blank=True)
    # Triage by the team reading the feedback; a new rating of the same answer starts again at "new".
    triage = models.CharField(max_length=10, choices=Triage.choices, default=Triage.NEW, db_default=Triage.NEW)
    triaged_by = models.CharField(max_length=150, blank=True, default="", db_default="")
    triaged_at = models.DateTimeField(blank=True, null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at"]
        verbose_name_plural = "feedback"
        constraints = [models.UniqueConstraint(fields=["message", "subject"], name="feedback_one_per_message_subject")]
        indexes = [models.Index(fields=["rating", "updated_at"], name="feedback_rating_updated")]

    def __str__(self) -> str:
        return f"{self.rating} on {self.message_id}"
