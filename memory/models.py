from django.db import models
from pgvector.django import VectorField

from retrieval.facade.search import EMBEDDING_DIMENSIONS


class Memory(models.Model):
    class Type(models.TextChoices):
        PREFERENCE = "preference"
        FACT = "fact"
        REFLECTION = "reflection"

    class Status(models.TextChoices):
        ACTIVE = "active"
        SUPERSEDED = "superseded"
        DELETED = "deleted"

    owner = models.CharField(max_length=256, db_index=True)
    memory_type = models.CharField(max_length=12, choices=Type.choices)
    # What the memory is about ("answer_language", "workplace"): a new value for
    # the same slot supersedes the old one. Blank for free-form memories.
    slot = models.CharField(max_length=50, blank=True)
    text = models.TextField(blank=True)
    importance = models.FloatField(default=0.5)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    confidential = models.BooleanField(default=False)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS, blank=True, null=True)
    embedding_model = models.CharField(max_length=200, blank=True)
    superseded_by = models.ForeignKey("self", on_delete=models.SET_NULL, blank=True, null=True, related_name="+")
    source_message_id = models.UUIDField(blank=True, null=True)
    # Restricted documents (confidential, unit- or level-bound) the turn cited: the memory is recalled
    # only for a principal the access predicate lets see every one of them.
    source_document_ids = models.JSONField(default=list, blank=True)
    last_accessed_at = models.DateTimeField(blank=True, null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "memories"
        ordering = ["-updated_at", "-id"]
        indexes = [models.Index(fields=["owner", "status", "-updated_at"])]

    def __str__(self) -> str:
        return f"{self.owner}: {self.text[:60]}" if self.text else f"{self.owner}: (erased)"
