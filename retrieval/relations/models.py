"""What one regulation says about another: revokes, revokes in part, supersedes, amends, extends."""
import uuid

from django.contrib.postgres.fields import ArrayField
from django.db import models


class LegalRelation(models.Model):
    class Relation(models.TextChoices):
        REVOKES = "revokes"
        REVOKES_IN_PART = "revokes_in_part"
        AMENDS = "amends"
        SUPERSEDES = "supersedes"
        # "Penetapan Perpanjangan Status …" prolongs what an earlier decree set for a period; its status is untouched.
        EXTENDS = "extends"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    # The regulation whose clause states the relation (one version; a re-ingested
    # source gets its own rows and the superseded version's rows stop counting).
    source_document = models.ForeignKey("retrieval.Document", on_delete=models.CASCADE,
                                        related_name="outgoing_relations")
    relation = models.CharField(max_length=16, choices=Relation.choices)
    articles = ArrayField(models.CharField(max_length=40), default=list, blank=True)
    pasal = models.CharField(max_length=60, blank=True)
    ayat = models.CharField(max_length=10, blank=True)
    char_start = models.PositiveIntegerField()
    char_end = models.PositiveIntegerField()
    # The target as the clause writes it, and the key both sides are compared by.
    target_type = models.CharField(max_length=200)
    target_number = models.CharField(max_length=100)
    target_year = models.PositiveIntegerField(blank=True, null=True)
    target_title = models.TextField(blank=True)
    target_key = models.CharField(max_length=400, db_index=True)
    target_document = models.ForeignKey("retrieval.Document", on_delete=models.SET_NULL, blank=True, null=True,
                                        related_name="incoming_relations")
    effective_date = models.CharField(max_length=40, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "retrieval"
        ordering = ["source_document", "char_start", "target_key"]
        constraints = [
            models.UniqueConstraint(fields=["source_document", "relation", "target_key"],
                                    name="legal_relation_once_per_source_target"),
        ]

    def __str__(self) -> str:
        return f"{self.get_relation_display()} {self.target_citation}"

    @property
    def target_citation(self) -> str:
        year = f" Tahun {self.target_year}" if self.target_year and not self.target_number.endswith(
            str(self.target_year)) else ""
        return f"{self.target_type} Nomor {self.target_number}{year}"
