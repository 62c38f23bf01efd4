"""The values an ingestion takes and reports: options, outcome, progress."""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from typing import Callable

from django.conf import settings

from retrieval.parsing.ocr import OcrOptions

OUTCOMES = ("ingested", "unchanged", "replaced", "updated", "failed")


@dataclass(frozen=True)
class IngestOptions:
    collection_id: str
    title: str | None = None
    confidential: bool = False
    owning_org_unit: str | None = None
    min_position_level: int | None = None
    workspace_id: uuid.UUID | None = None      # an upload into a workspace (members only)

    @classmethod
    def build(cls, *, collection_id: str, title: str | None = None, confidential: bool = False,
              owning_org_unit: str | None = None, min_position_level: int | None = None,
              workspace_id: uuid.UUID | None = None) -> "IngestOptions":
        """The one way a route, the admin, the command or a queued row makes options: blanks are unset."""
        return cls(collection_id=collection_id.strip(), title=(title or "").strip() or None,
                   confidential=bool(confidential), owning_org_unit=(owning_org_unit or "").strip() or None,
                   min_position_level=min_position_level, workspace_id=workspace_id)

    @classmethod
    def of_ingestion(cls, ingestion) -> "IngestOptions":
        """The options a queued ``Ingestion`` row was requested with."""
        return cls.build(collection_id=ingestion.collection_id, title=ingestion.title,
                         confidential=ingestion.confidential, owning_org_unit=ingestion.owning_org_unit,
                         min_position_level=ingestion.min_position_level, workspace_id=ingestion.workspace_id)


@dataclass(frozen=True)
class IngestOutcome:
    status: str                 # one of OUTCOMES
    source_name: str
    source_key: str
    document_id: uuid.UUID | None = None
    chunk_count: int = 0
    reason: str = ""
    seconds: float = 0.0


@dataclass
class IngestProgress:
    """Counters the command's progress line reads; updated as work happens."""

    files_done: int = 0
    chunks_embedded: int = 0
    ocr_pages: int = 0
    ocr_file_pages: tuple[int, int] = (0, 0)  # (read, to read) in the current file
    started: float = field(default_factory=time.monotonic)
    on_change: Callable[["IngestProgress"], None] | None = None

    def add_chunks(self, count: int) -> None:
        self.chunks_embedded += count
        if self.on_change:
            self.on_change(self)

    def ocr_page_read(self, done: int, total: int) -> None:
        """One more page read by OCR (``done`` of ``total`` in the current file)."""
        self.ocr_pages += 1
        self.ocr_file_pages = (done, total)
        if self.on_change:
            self.on_change(self)

    def file_finished(self) -> None:
        self.files_done += 1
        if self.on_change:
            self.on_change(self)


def ocr_options(progress: IngestProgress | None = None) -> OcrOptions | None:
    """OCR as configured (None when switched off); pages read are counted on ``progress``."""
    config = settings.ACEH_RAG.ingestion
    if not config.ocr_enabled:
        return None
    return OcrOptions(languages=config.ocr_languages, dpi=config.ocr_dpi, max_pages=config.ocr_max_pages,
                      page_timeout_seconds=config.ocr_page_timeout_seconds,
                      on_page=progress.ocr_page_read if progress else None)
