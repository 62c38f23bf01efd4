import uuid

from django.contrib.postgres.fields import ArrayField
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.search import SearchVectorField
from django.db import models
from django.db.models import Q
from pgvector.django import HnswIndex, VectorField

EMBEDDING_DIMENSIONS = 384


class Collection(models.Model):
    """A partner collection such as JDIH or PPID; the id is an opaque string."""

    id = models.CharField(primary_key=True, max_length=100)
    name = models.CharField(max_length=200, blank=True)
    description = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.id


class Document(models.Model):
    class Status(models.TextChoices):
        INGESTING = "ingesting"
        INDEXED = "indexed"
        FAILED = "failed"
        SUPERSEDED = "superseded"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    collection = models.ForeignKey(Collection, on_delete=models.PROTECT, related_name="documents")
    title = models.CharField(max_length=500)
    # Stable identity of the source across versions (e.g. the file's path);
    # re-ingesting changed content under the same key supersedes the old row.
    source_key = models.CharField(max_length=1000)
    source_name = models.CharField(max_length=500, blank=True)
    source_format = models.CharField(max_length=10, blank=True)
    version = models.PositiveIntegerField(default=1)

    # Legal identity card.
    instrument_type = models.CharField(max_length=200, blank=True, null=True)
    number = models.CharField(max_length=100, blank=True, null=True)
    year = models.PositiveIntegerField(blank=True, null=True)
    subject = models.TextField(blank=True, null=True)
    issuer = models.CharField(max_length=300, blank=True, null=True)
    place_enacted = models.CharField(max_length=200, blank=True, null=True)
    date_enacted = models.CharField(max_length=100, blank=True, null=True)
    signatory = models.CharField(max_length=300, blank=True, null=True)
    identity = models.JSONField(default=dict, blank=True)

    # Access restrictions (see DESIGN.md "Access predicate").
    confidential = models.BooleanField(default=False)
    owning_org_unit = models.CharField(max_length=200, blank=True, null=True)
    min_position_level = models.PositiveIntegerField(blank=True, null=True)
    # An upload into a workspace is visible to that workspace's members only.
    workspace_id = models.UUIDField(blank=True, null=True, db_index=True)

    status = models.CharField(max_length=12, choices=Status.choices, default=Status.INGESTING)
    error = models.TextField(blank=True)
    content_hash = models.CharField(max_length=64)
    text = models.TextField(blank=True)
    page_starts = ArrayField(models.PositiveIntegerField(), default=list, blank=True)
    # How the text was obtained: a text layer, OCR of every page with text, or both (parsing/ocr.py);
    # ocr_pages holds [page, mean word confidence 0-100] for each page read by OCR.
    extraction = models.CharField(max_length=8, default="text", blank=True)
    ocr_pages = models.JSONField(default=list, blank=True)
    # The capitalised phrases of its text by their initials, {"BPD": ["Badan Permusyawaratan Desa", 85]}: an
    # acronym a question uses and no passage writes is read through them (search/acronyms.py).
    acronyms = models.JSONField(default=dict, blank=True)
    # Whose rules it is about, read from its text at ingestion: "civil" (the civil service), "private" (private
    # employment), "" (neither or both). A question about the other regime ranks its passages after the rest
    # (search/population.py).
    class Regime(models.TextChoices):
        NEITHER = "", "neither"
        CIVIL = "civil", "civil service"
        PRIVATE = "private", "private employment"

    regime = models.CharField("employment regime", max_length=8, blank=True, default="", choices=Regime.choices)
    chunk_count = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    indexed_at = models.DateTimeField(blank=True, null=True)

    class Meta:
        ordering = ["title", "id"]
        indexes = [
            models.Index(fields=["status", "collection"]),
            models.Index(fields=["source_key", "content_hash"]),
            models.Index(fields=["instrument_type", "number", "year"]),
            # Both ways a named regulation matches need its year (card | titled, naming.regulation_candidates):
            # PostgreSQL reads one year's documents through this index, not every title (at 10,000 documents the
            # lookup 7.5 -> 1.4 ms, docs/benchmarks.md, session 34).
            models.Index(fields=["year"], name="document_year"),
            GinIndex(fields=["acronyms"], name="document_acronyms_gin"),
        ]
        constraints = [
            # At most one visible version per source.
            models.UniqueConstraint(
                fields=["source_key"], condition=Q(status="indexed"), name="one_indexed_version_per_source"
            ),
        ]

    def __str__(self) -> str:
        return self.title

    @property
    def is_restricted(self) -> bool:
        return self.confidential or bool(self.owning_org_unit) or self.min_position_level is not None


class Chunk(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    document = models.ForeignKey(Document, on_delete=models.CASCADE, related_name="chunks")
    # The document's collection, kept by the database (migration 0017's triggers): a large collection's own
    # vector index is partial on it (retrieval/collection_indexes.py), so a search scoped to that collection
    # walks a graph of its passages only.
    collection_id = models.CharField(max_length=100, null=True, blank=True, editable=False)
    ordinal = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, default="body")
    text = models.TextField()
    page_number = models.PositiveIntegerField(blank=True, null=True)
    section_path = ArrayField(models.CharField(max_length=300), default=list, blank=True)
    legal_reference = models.CharField(max_length=500, blank=True, null=True)
    char_start = models.PositiveIntegerField(blank=True, null=True)
    char_end = models.PositiveIntegerField(blank=True, null=True)
    # Header row of the table this chunk continues; indexed with the chunk.
    table_header = models.TextField(blank=True, null=True)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    embedding_model = models.CharField(max_length=200)
    search_vector = SearchVectorField(null=True)
    # A disabled chunk stays in its document but is never retrieved or cited
    # (retrieval/access.py composes ``enabled`` into every read).
    enabled = models.BooleanField(
        default=True, db_default=True,
        help_text="Disabled passages stay in the document but are never retrieved, quoted or cited.")
    disabled_by = models.CharField("disabled by", max_length=256, blank=True, default="", db_default="")
    disabled_at = models.DateTimeField("disabled at", blank=True, null=True)

    class Meta:
        ordering = ["document", "ordinal"]
        constraints = [
            models.UniqueConstraint(fields=["document", "ordinal"], name="chunk_ordinal_unique"),
        ]
        indexes = [
            HnswIndex(
                name="chunk_embedding_hnsw",
                fields=["embedding"],
                m=16,
                ef_construction=200,   # real corpus recall@10 at ef_search 200: 0.93 (64) -> 0.99
                opclasses=["vector_cosine_ops"],
            ),
            # No pending list: every full-text lookup scanned it whole (1,688 entries left by an
            # ingestion: 1.2 ms per lexeme instead of 0.2, several lexemes per search); an insert
            # updates the index at once instead, small beside embedding the passage.
            # The chunk's collection sits beside its lexemes (btree_gin), so one collection's matches of a common
            # word are read without the rest of the corpus's (retrieval/search/lexical.py).
            GinIndex(fields=["collection_id", "search_vector"], name="chunk_search_vector_gin", fastupdate=False),
        ]

    def __str__(self) -> str:
        where = self.legal_reference or " › ".join(self.section_path) or "passage"
        return f"{where} (#{self.ordinal})"


class Ingestion(models.Model):
    """One requested ingestion: a file (command, admin upload, API) or a re-index of a stored document."""

    class Kind(models.TextChoices):
        FILE = "file", "File"
        REINDEX = "reindex", "Re-index"

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.FILE, db_default=Kind.FILE)
    source_name = models.CharField(max_length=500)
    source_key = models.CharField(max_length=1000)
    # Where the bytes wait for the worker (under the data directory or a shared volume).
    stored_path = models.CharField(max_length=1000, blank=True)
    collection = models.ForeignKey(Collection, on_delete=models.PROTECT, related_name="ingestions")
    title = models.CharField(max_length=500, blank=True, null=True)
    confidential = models.BooleanField(default=False)
    owning_org_unit = models.CharField(max_length=200, blank=True, null=True)
    min_position_level = models.PositiveIntegerField(blank=True, null=True)
    workspace_id = models.UUIDField(blank=True, null=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # ingested | unchanged | replaced | updated | failed, once finished.
    outcome = models.CharField(max_length=10, blank=True)
    error = models.TextField(blank=True)
    document = models.ForeignKey(Document, on_delete=models.SET_NULL, blank=True, null=True, related_name="+")
    chunk_count = models.PositiveIntegerField(default=0)
    # A scanned PDF's pages read by OCR so far, of those it needs (0/0 when none do).
    ocr_pages_done = models.PositiveIntegerField(default=0)
    ocr_pages_total = models.PositiveIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    requested_by = models.CharField(max_length=256, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "created_at"], name="ingestion_status_created")]

    def __str__(self) -> str:
        return f"{self.source_name} ({self.status})"


class GlossaryEntry(models.Model):
    """A word or phrase of the legal vocabulary and what it stands for in a search.

    A *nickname* names a regulation by identity (type, number, year); it only
    acts when a visible indexed document has that identity card. The other
    kinds rewrite the lexical query: an *abbreviation* and an *everyday* word
    (what citizens say for the law's term: "gaji" for *upah*) add their
    expansion, a *colloquial* form and an *english* word are replaced by it.
    An expansion may give alternative wordings separated by "|" ("pengusaha |
    atasan"): a search reads them all, an answer's term check is met by one.
    """

    class Kind(models.TextChoices):
        NICKNAME = "nickname"
        ABBREVIATION = "abbreviation"
        COLLOQUIAL = "colloquial"
        ENGLISH = "english"
        EVERYDAY = "everyday"

    phrase = models.CharField(max_length=200, unique=True, help_text=(
        "As users write it; matched case-insensitively as whole words. An English entry matches its plural too "
        "(\"term\" also reads \"terms\"), unless the plural has its own entry."))
    kind = models.CharField(max_length=12, choices=Kind.choices)
    expansion = models.CharField(max_length=500, blank=True, help_text="Indonesian words for the lexical query.")
    instrument_type = models.CharField(max_length=200, blank=True, help_text="Nickname: type family, e.g. Undang-Undang.")
    number = models.CharField(max_length=100, blank=True)
    year = models.PositiveIntegerField(blank=True, null=True)
    enabled = models.BooleanField(default=True)
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["kind", "phrase"]
        verbose_name_plural = "glossary entries"
        constraints = [
            models.CheckConstraint(
                condition=~Q(kind="nickname") | (~Q(instrument_type="") & ~Q(number="") & Q(year__isnull=False)),
                name="glossary_nickname_has_identity",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.phrase} ({self.kind})"
from retrieval.relations.models import LegalRelation  # noqa: E402,F401  (registered with the retrieval app)


class UnitVector(models.Model):
    """An answer unit's embedding (a sentence, an ayat, a list with its lead-in), cached by its text's digest.

    The answer step scores the units of its passages against the question; a unit's text, not its chunk,
    keys the vector, so a re-chunked document reuses what it still says. No text is stored here.
    """

    digest = models.CharField(max_length=64)
    embedding_model = models.CharField(max_length=200)
    embedding = VectorField(dimensions=EMBEDDING_DIMENSIONS)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["embedding_model", "digest"], name="unit_vector_unique"),
        ]
