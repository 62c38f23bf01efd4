"""Ingestion: bytes → text → legal structure → chunks → vectors → one transaction.

The slow part (embedding) runs before any transaction is opened; the document
and all its chunks then become visible together in one short transaction, so a
crash at any point leaves nothing half-visible and a re-run recovers.
"""
from __future__ import annotations

import logging
import time
import uuid
from pathlib import Path
from typing import Callable, Iterable

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from retrieval.embedders import Embedder, EmbeddingError, get_embedder
from retrieval.ingest_files import discover_files, source_key_for  # noqa: F401  (callers import them here)
from retrieval.ingest_values import OUTCOMES, IngestOptions, IngestOutcome, IngestProgress, ocr_options  # noqa: F401
from retrieval.ingestion_telemetry import ingest_file_finished, ingest_step, traced_ingest
from retrieval.formats import handler_for
from retrieval.models import Document
from retrieval.versions import content_hash, document_version_reuse, document_version_store
from retrieval.relations.services import relations_record
from retrieval.search.acronyms import document_acronyms
from retrieval.search.population import document_regime
from retrieval.search.semantic import vector_literal
from kernel.isolation import ParseBoundExceeded
from retrieval.parsing.chunking import is_junk
from retrieval.parsing import (ExtractedText, ExtractionError, ParsedDocument, extract_bytes_bounded, parse_document,
                               restore_digits)

logger = logging.getLogger(__name__)

def embedding_text(parsed_title: str, chunk) -> str:
    """What the embedder sees: the chunk with its document and article context.

    A bare ayat ("(2) Paling lambat 10 hari ...") says nothing about which
    regulation it belongs to; the context line lets a question that names the
    regulation or the topic reach it. The stored chunk text stays the exact slice.
    """
    context = chunk.legal_reference or " / ".join(chunk.section_path)
    lines = [parsed_title]
    if context and context not in parsed_title:
        lines.append(context)
    if chunk.table_header:
        lines.append(chunk.table_header)
    lines.append(chunk.text)
    return "\n".join(lines)


def embed_chunks(
    embedder: Embedder, parsed: ParsedDocument, batch_size: int, progress: IngestProgress | None
) -> np.ndarray:
    texts = [embedding_text(parsed.title, chunk) for chunk in parsed.chunks]
    parts: list[np.ndarray] = []
    for start in range(0, len(texts), batch_size):
        batch = texts[start : start + batch_size]
        parts.append(embedder.embed_passages(batch))
        if progress:
            progress.add_chunks(len(batch))
    if not parts:
        return np.zeros((0, embedder.dimensions), dtype=np.float32)
    return np.vstack(parts)


def full_text_sql(expression: str) -> str:
    """The SQL ``tsvector`` of a text expression as every writer indexes it. PostgreSQL's parser reads
    "pekerja/buruh", "kabupaten/kota" and "merkuri/air" as one file-path token, so neither word was ever found by
    itself: a slash is indexed as the space between two words (migration 0023 re-indexed the passages stored
    before)."""
    return f"to_tsvector('indonesian', translate({expression}, '/', ' '))"


_INSERT_CHUNK = f"""
INSERT INTO retrieval_chunk (
    id, document_id, ordinal, kind, text, page_number, section_path, legal_reference,
    char_start, char_end, table_header, embedding, embedding_model, enabled, disabled_by, disabled_at, search_vector
) VALUES (
    %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s::vector, %s, %s, %s, %s,
    setweight({full_text_sql('%s')}, 'A')
    || setweight({full_text_sql('%s')}, 'B')
    || setweight({full_text_sql('%s')}, 'C')
)
"""


# A junk chunk (parsing/chunking.py ``is_junk``: OCR of a rotated table) is kept, disabled: nothing is lost, search
# never returns it, and the admin can enable it.
JUNK_DISABLED_BY = "ingestion: junk text"


def _chunk_rows(document_id: uuid.UUID, title: str, parsed: ParsedDocument, vectors: np.ndarray, model: str) -> Iterable[tuple]:
    now = timezone.now()
    for chunk, vector in zip(parsed.chunks, vectors):
        junk = is_junk(chunk.text)
        reference = " ".join(filter(None, [chunk.legal_reference, *chunk.section_path]))
        body = f"{chunk.table_header}\n{chunk.text}" if chunk.table_header else chunk.text
        yield (
            uuid.uuid4(), document_id, chunk.ordinal, chunk.kind, chunk.text, chunk.page_number,
            list(chunk.section_path), chunk.legal_reference, chunk.char_start, chunk.char_end,
            chunk.table_header, vector_literal(vector), model,
            not junk, JUNK_DISABLED_BY if junk else "", now if junk else None,
            reference, body, title,
        )


def _insert_chunks(document_id: uuid.UUID, title: str, parsed: ParsedDocument, vectors: np.ndarray, model: str) -> None:
    with connection.cursor() as cursor:
        cursor.executemany(_INSERT_CHUNK, list(_chunk_rows(document_id, title, parsed, vectors, model)))


def _parsed_fields(parsed: ParsedDocument, text: str) -> dict:
    """Document columns that come from parsing: the identity card, the acronyms its phrases spell, whose rules it is
    about, and counts."""
    identity = parsed.identity
    return {
        "acronyms": document_acronyms(text, parsed.title),
        "regime": document_regime(text),
        "instrument_type": identity.instrument_type,
        "number": identity.number,
        "year": identity.year,
        "subject": identity.subject,
        "issuer": identity.issuer,
        "place_enacted": identity.place_enacted,
        "date_enacted": identity.date_enacted,
        "signatory": identity.signatory,
        "identity": identity.as_dict(),
        "chunk_count": len(parsed.chunks),
        "indexed_at": timezone.now(),
    }


@traced_ingest
def document_ingest_bytes(
    *,
    data: bytes,
    filename: str,
    source_key: str,
    options: IngestOptions,
    progress: IngestProgress | None = None,
    embedder: Embedder | None = None,
    before_commit: Callable[[], None] | None = None,
) -> IngestOutcome:
    """Ingest one file's bytes under ``source_key``.

    Unchanged bytes are a no-op (access/title changes are applied in place);
    changed bytes become a new version and the previous one is superseded.
    ``before_commit`` runs inside the final transaction (tests use it to
    simulate a crash at the last moment).
    """
    registered = handler_for(filename)
    if registered:
        return registered.ingest(data=data, filename=filename, source_key=source_key, options=options, progress=progress)
    started = time.monotonic()
    digest = content_hash(data)

    def outcome(status: str, **values) -> IngestOutcome:
        if progress:
            progress.file_finished()
        result = IngestOutcome(status=status, source_name=filename, source_key=source_key,
                               seconds=round(time.monotonic() - started, 3), **values)
        ingest_file_finished(result)
        return result

    reused = document_version_reuse(source_key=source_key, digest=digest, options=options)
    if reused is not None:
        return outcome("updated" if reused.changed else "unchanged", document_id=reused.document_id,
                       chunk_count=reused.chunk_count)

    try:
        with ingest_step("parse", bytes=len(data)):
            extracted = extract_bytes_bounded(data, filename, ocr_options(progress),
                                              settings.ACEH_RAG.ingestion.file_bounds())
        if extracted.unreadable_pages:
            logger.warning("%s: %d page(s) with a garbage text layer left out, OCR did not read them: %s", filename,
                           len(extracted.unreadable_pages), list(extracted.unreadable_pages))
        with ingest_step("chunk", characters=len(extracted.text)) as chunking:
            parsed = parse_extracted(extracted, title_hint=Path(filename).stem)
            chunking.set_attribute("aceh_rag.ingest.chunks", len(parsed.chunks))
    except ExtractionError as exc:
        return outcome("failed", reason=str(exc))
    except ParseBoundExceeded as exc:
        return outcome("failed", reason=exc.message)

    embedder = embedder or get_embedder()
    try:
        with ingest_step("embed", chunks=len(parsed.chunks)):
            vectors = embed_chunks(embedder, parsed, settings.ACEH_RAG.embedding.batch_size, progress)
    except EmbeddingError as exc:
        return outcome("failed", reason=f"embedding failed: {exc}")

    title = (options.title or parsed.title or Path(filename).stem)[:500]

    def fill(document: Document) -> None:
        _insert_chunks(document.id, title, parsed, vectors, embedder.model_name)
        relations_record(document=document)
        if before_commit:
            before_commit()

    with ingest_step("store", chunks=len(parsed.chunks)):
        stored = document_version_store(
            source_key=source_key, digest=digest, filename=filename, title=title, options=options, fill=fill,
            fields={"source_format": extracted.format, "text": extracted.text,
                    "page_starts": list(extracted.page_starts), "extraction": extracted.extraction,
                    "ocr_pages": [list(page) for page in extracted.ocr_pages],
                    **_parsed_fields(parsed, extracted.text)})
    if stored.unchanged:
        # Another worker stored the same bytes while we were embedding.
        return outcome("unchanged", document_id=stored.document_id, chunk_count=stored.chunk_count)
    return outcome("replaced" if stored.replaced else "ingested", document_id=stored.document_id,
                   chunk_count=len(parsed.chunks))


def parse_extracted(extracted: ExtractedText, *, title_hint: str | None) -> ParsedDocument:
    config = settings.ACEH_RAG.ingestion
    parsed = parse_document(
        extracted, max_chars=config.chunk_max_chars, min_chars=config.chunk_min_chars, title_hint=title_hint
    )
    if not parsed.chunks:
        raise ExtractionError("no text to index after parsing")
    return parsed


def document_reindex(*, document: Document, embedder: Embedder | None = None) -> IngestOutcome:
    """Re-chunk and re-embed a stored document in place (same id, new chunks).

    Used after a chunker change or an embedding-model change; the stored
    text and page offsets are the source, so no original file is needed. Repairs
    that keep the text's length (dates' digits) apply to text stored before them.
    """
    started = time.monotonic()
    text = restore_digits(document.text)
    extracted = ExtractedText(text=text, page_starts=tuple(document.page_starts) or (0,),
                              format=document.source_format or "text")

    def outcome(status: str, **values) -> IngestOutcome:
        return IngestOutcome(status=status, source_name=document.source_name, source_key=document.source_key,
                             document_id=document.id, seconds=round(time.monotonic() - started, 3), **values)

    try:
        parsed = parse_extracted(extracted, title_hint=document.title)
        embedder = embedder or get_embedder()
        vectors = embed_chunks(embedder, parsed, settings.ACEH_RAG.embedding.batch_size, None)
    except (ExtractionError, EmbeddingError) as exc:
        return outcome("failed", reason=str(exc))
    with transaction.atomic():
        locked = Document.objects.select_for_update().filter(pk=document.pk).first()
        if locked is None:
            return outcome("failed", reason="document was deleted")
        locked.chunks.all().delete()
        _insert_chunks(locked.id, locked.title, parsed, vectors, embedder.model_name)
        Document.objects.filter(pk=locked.pk).update(**_parsed_fields(parsed, text), text=text,
                                                     updated_at=timezone.now())
    return outcome("replaced", chunk_count=len(parsed.chunks))


def document_ingest_path(
    *, path: Path, source_key: str, options: IngestOptions, progress: IngestProgress | None = None
) -> IngestOutcome:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        if progress:
            progress.file_finished()
        unread = IngestOutcome(status="failed", source_name=Path(path).name, source_key=source_key,
                               reason=f"cannot read file: {exc.strerror or exc}")
        ingest_file_finished(unread)
        return unread
    return document_ingest_bytes(
        data=data, filename=Path(path).name, source_key=source_key, options=options, progress=progress
    )
