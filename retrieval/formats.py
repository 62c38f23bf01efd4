"""File types another app stores itself, registered at start (``livedata`` registers workbooks).

Every ingestion path (the command, the upload API, the admin) reaches
``document_ingest_bytes``, which hands a registered type to its handler
instead of the text pipeline; retrieval never imports the app that registers.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from retrieval.parsing import SUPPORTED_EXTENSIONS
from retrieval.parsing.extract import REGISTERED_EXTENSIONS


@dataclass(frozen=True)
class FormatHandler:
    ingest: Callable[..., object]                # (data, filename, source_key, options, progress) -> IngestOutcome
    content_matches: Callable[[bytes], bool]     # the bytes look like this type (upload check)


HANDLERS: dict[str, FormatHandler] = {}


def format_register(extensions: tuple[str, ...], handler: FormatHandler) -> None:
    for extension in extensions:
        HANDLERS[extension.lower()] = handler
        REGISTERED_EXTENSIONS.add(extension.lower())


def handler_for(filename: str) -> FormatHandler | None:
    return HANDLERS.get(Path(filename).suffix.lower())


def accepted_extensions() -> frozenset[str]:
    return SUPPORTED_EXTENSIONS | frozenset(HANDLERS)
