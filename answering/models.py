import uuid

from django.db import models


class AnswerTrace(models.Model):
    """The steps and timings of one answer, referenced by ``trace_id``."""

    id = models.CharField(primary_key=True, max_length=32)
    route = models.CharField(max_length=40)
    conversation_id = models.UUIDField(db_index=True)
    message_id = models.UUIDField(db_index=True)
    total_ms = models.FloatField()
    steps = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.id


class PlaygroundRun(models.Model):
    """The receipt of one POST /playground trial: who, when, how it ended, counts and timing.

    It never holds the candidate prompt, the question, the answer or passage
    text (seed: Prompt playground); only identifiers, codes and numbers.
    """

    class Status(models.TextChoices):
        OK = "ok"
        REFUSED = "refused"      # the pipeline answered with a refusal; see fallback_reason
        ERROR = "error"          # the pipeline answered with an HTTP error; see error_status

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    admin_subject = models.CharField(max_length=256, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    fallback_reason = models.CharField(max_length=64, blank=True, null=True)
    error_status = models.PositiveSmallIntegerField(blank=True, null=True)
    claims_total = models.PositiveIntegerField(default=0)
    claims_supported = models.PositiveIntegerField(default=0)
    citations_count = models.PositiveIntegerField(default=0)
    tool_calls_count = models.PositiveIntegerField(default=0)
    latency_ms = models.FloatField()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return str(self.id)


class Artifact(models.Model):
    """A file an answer created for its reader (``offer_artifacts``), stored with the assistant message and
    owned like it: only the conversation's owner may download it (``GET /artifacts/{id}``)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    conversation_id = models.UUIDField(db_index=True)
    message_id = models.UUIDField(db_index=True)
    owner = models.CharField(max_length=256, db_index=True)
    title = models.CharField(max_length=200)
    filename = models.CharField(max_length=220)
    media_type = models.CharField(max_length=120)
    size = models.PositiveIntegerField()
    content = models.BinaryField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return self.title
