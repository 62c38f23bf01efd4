from django.conf import settings
from django.db import models


class RetrievalTest(models.Model):
    """One retrieval test an administrator ran, kept so they can look back and re-run it."""

    class Identity(models.TextChoices):
        ANONYMOUS = "anonymous", "Anonymous caller"
        MEMBER = "member", "Verified user of a unit and level"
        ADMIN = "admin", "Verified admin"

    administrator = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    query = models.TextField()
    mode = models.CharField(max_length=10)
    top_k = models.PositiveSmallIntegerField()
    collection_ids = models.JSONField(default=list, blank=True)
    document_ids = models.JSONField(default=list, blank=True)
    identity = models.CharField(max_length=10, choices=Identity.choices)
    unit = models.CharField(max_length=200, blank=True)
    level = models.PositiveIntegerField(blank=True, null=True)
    # The ranked hits with each leg's rank and score, the tier decision and the timings.
    result = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["administrator", "-created_at"], name="retrievaltest_admin_recent")]

    def __str__(self) -> str:
        return self.query[:80]
