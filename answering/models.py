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
