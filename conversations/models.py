import uuid

from django.db import models


class Conversation(models.Model):
    class RouteFamily(models.TextChoices):
        QUERY = "query"          # /query and /query/stream
        QUERY_V2 = "query_v2"    # /query/v2 and /query/v2/stream

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

    class Meta:
        ordering = ["conversation", "position"]
        constraints = [
            models.UniqueConstraint(fields=["conversation", "position"], name="message_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.role}: {self.content[:60]}"
