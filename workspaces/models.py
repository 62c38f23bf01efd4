"""Workspaces (shared), notebooks (personal), their saved source sets, and MCP sources."""
import uuid

from django.db import models


class SavedSources(models.Model):
    """A saved source set: the whole corpus, or the named collections and documents (and MCP sources)."""

    whole_corpus = models.BooleanField(default=True)
    collection_ids = models.JSONField(default=list, blank=True)
    document_ids = models.JSONField(default=list, blank=True)
    mcp_source_ids = models.JSONField(default=list, blank=True)

    class Meta:
        abstract = True

    def sources(self) -> dict:
        return {"whole_corpus": self.whole_corpus, "collection_ids": list(self.collection_ids),
                "document_ids": list(self.document_ids), "mcp_source_ids": list(self.mcp_source_ids)}


class Workspace(SavedSources):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200)
    created_by = models.CharField(max_length=256)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class WorkspaceMember(models.Model):
    class Role(models.TextChoices):
        OWNER = "owner"
        PARTNER = "partner"
        VIEWER = "viewer"

    workspace = models.ForeignKey(Workspace, on_delete=models.CASCADE, related_name="members")
    subject = models.CharField(max_length=256)
    role = models.CharField(max_length=10, choices=Role.choices)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["workspace", "subject"]
        constraints = [models.UniqueConstraint(fields=["workspace", "subject"], name="workspace_member_unique")]
        indexes = [models.Index(fields=["subject"])]

    def __str__(self) -> str:
        return f"{self.subject} ({self.role})"


class Notebook(SavedSources):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.CharField(max_length=256, db_index=True)
    name = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class McpSource(models.Model):
    """An external tool server reached over MCP streamable HTTP, registered by an administrator."""

    class Visibility(models.TextChoices):
        PUBLIC = "public"        # may add evidence beside a document scope
        GOVERNED = "governed"    # withheld under a source boundary (a document scope)

    id = models.SlugField(primary_key=True, max_length=100)
    name = models.CharField(max_length=200)
    url = models.CharField(max_length=1000, help_text="streamable-HTTP endpoint, e.g. https://mcp.example.go.id/mcp")
    # Sent with every request (e.g. Authorization); never shown back.
    headers = models.JSONField(default=dict, blank=True)
    visibility = models.CharField(max_length=10, choices=Visibility.choices, default=Visibility.PUBLIC)
    allowed_tools = models.JSONField(default=list, blank=True, help_text="Tool names offered to the agent; empty = the search tool only")
    search_tool = models.CharField(max_length=100, default="search", help_text="The tool called with the question on the deterministic path")
    timeout_seconds = models.FloatField(default=10.0)
    enabled = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = "MCP source"

    def __str__(self) -> str:
        return self.name

    def tool_names(self) -> list[str]:
        return list(dict.fromkeys([self.search_tool, *self.allowed_tools]))
