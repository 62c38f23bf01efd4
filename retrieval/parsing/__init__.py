"""Pure-Python parsing of Indonesian / Aceh regulations (no Django imports).

Public API::

    extract_bytes(data, filename) -> ExtractedText      # raises ExtractionError
    extract_file(path) -> ExtractedText
    parse_identity(text) -> LegalIdentity
    parse_document(extracted, *, max_chars=1500, min_chars=200, title_hint=None) -> ParsedDocument
"""
from .chunking import ChunkDraft, ParsedDocument, parse_document
from .extract import (
    SUPPORTED_EXTENSIONS,
    ExtractedText,
    ExtractionError,
    content_matches_extension,
    extract_bytes,
    extract_bytes_bounded,
    extract_file,
    sniff_format,
)
from .identity import LegalIdentity, parse_identity
from .text import restore_digits

__all__ = [
    "SUPPORTED_EXTENSIONS",
    "ChunkDraft",
    "ExtractedText",
    "ExtractionError",
    "LegalIdentity",
    "ParsedDocument",
    "extract_bytes",
    "restore_digits",
    "extract_bytes_bounded",
    "extract_file",
    "parse_document",
    "parse_identity",
    "content_matches_extension",
    "sniff_format",
]
