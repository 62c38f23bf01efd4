"""Text extraction from uploaded files (PDF, plain text / markdown, HTML, DOCX).

Every extractor returns an :class:`ExtractedText` whose ``text`` is normalised the
same way: Unicode NFC, ``"\\n"`` line ends, no control characters, no trailing
spaces, at most one blank line in a row, no leading/trailing blank lines.

Paged formats (PDF) are normalised page by page and the pages are joined with
``"\\n\\n"``; ``page_starts[i]`` is the offset in ``text`` where page ``i + 1``
begins (an empty page starts where the next page starts, so the tuple is
non-decreasing).  Unpaged formats have ``page_starts == (0,)``.

Tables (HTML ``<table>``, DOCX tables) are rendered one row per line with cells
joined by ``" | "``, header row first.  HTML/DOCX headings are rendered as
markdown headings (``"# Title"``, ``"## Subtitle"``) so the non-regulation
fallback of the chunker can see them.

Refusals raise :class:`ExtractionError` whose ``str()`` is a one-line reason.
"""
from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path

from dataclasses import replace

from kernel.archives import FileBounds, UnsafeArchive, archive_check
from kernel.isolation import run_bounded

from .ocr import OcrOptions
from .text import ExtractedText, ExtractionError, normalise_text

__all__ = [
    "ExtractedText",
    "ExtractionError",
    "SUPPORTED_EXTENSIONS",
    "extract_bytes",
    "extract_bytes_bounded",
    "extract_file",
    "content_matches_extension",
    "sniff_format",
]

SUPPORTED_EXTENSIONS: frozenset[str] = frozenset({".pdf", ".txt", ".md", ".html", ".htm", ".docx"})
# Types another app ingests itself (retrieval/formats.py adds them as they register), named in the
# "unsupported" message so staff see every accepted type (.csv, .xlsx, …).
REGISTERED_EXTENSIONS: set[str] = set()

_EXT_FORMAT = {
    ".pdf": "pdf",
    ".txt": "text",
    ".md": "text",
    ".html": "html",
    ".htm": "html",
    ".docx": "docx",
}


# --------------------------------------------------------------------------- sniffing


def _is_pdf(data: bytes, ext: str) -> bool:
    """A .pdf may carry junk before its header; any other name must start with it."""
    return b"%PDF-" in data[:1024] if ext == ".pdf" else data.lstrip()[:5] == b"%PDF-"


def _is_zip(data: bytes) -> bool:
    return data.startswith(b"PK\x03\x04")


def content_matches_extension(data: bytes, filename: str) -> bool:
    """The upload check: the bytes look like what the extension claims (the rule ``extract_bytes`` applies).

    A DOCX only needs to be a ZIP here: a ZIP without ``word/document.xml`` is
    accepted and fails its ingestion with the reason ``extract_bytes`` gives.
    """
    ext = Path(filename or "").suffix.lower()
    kind = _EXT_FORMAT.get(ext)
    if kind == "pdf":
        return _is_pdf(data, ext)
    if kind == "docx":
        return _is_zip(data)
    if kind in ("text", "html"):
        return b"\x00" not in data[:8192]
    return False


def sniff_format(data: bytes, filename: str = "") -> str | None:
    """Guess the format from magic bytes first, then the extension.

    Returns ``"pdf" | "docx" | "html" | "text"`` or ``None`` for unknown types.
    """
    head = data[:2048]
    if data.lstrip()[:5] == b"%PDF-" or (b"%PDF-" in head[:1024] and Path(filename or "").suffix.lower() == ".pdf"):
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        return "docx" if _is_docx_zip(data) else None
    ext = Path(filename or "").suffix.lower()
    if ext in _EXT_FORMAT:
        return _EXT_FORMAT[ext]
    if _looks_like_html(head):
        return "html"
    return None


def _archive_check(data: bytes, bounds: FileBounds) -> None:
    try:
        archive_check(data, bounds)
    except UnsafeArchive as exc:
        raise ExtractionError(f"Refused: {exc}") from None
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise ExtractionError(f"Corrupt ZIP archive ({exc})") from None


def _is_docx_zip(data: bytes) -> bool:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            return "word/document.xml" in zf.namelist()
    except (zipfile.BadZipFile, OSError, ValueError):
        return False


_HTML_SNIFF_RE = re.compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b", re.I | re.S)


def _looks_like_html(head: bytes) -> bool:
    return bool(_HTML_SNIFF_RE.match(head.lstrip(b"\xef\xbb\xbf")))


# --------------------------------------------------------------------------- entry points


def extract_file(path, ocr: OcrOptions | None = None, bounds: FileBounds = FileBounds()) -> ExtractedText:
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ExtractionError(f"Cannot read file: {exc.strerror or exc}") from exc
    return extract_bytes(data, path.name, ocr, bounds)


def extract_bytes(data: bytes, filename: str, ocr: OcrOptions | None = None,
                  bounds: FileBounds = FileBounds()) -> ExtractedText:
    """Extract normalised text from ``data``; dispatch on extension and magic bytes.

    ``ocr`` lets a PDF's scanned or garbled pages be read by OCR (``ocr.py``); without it they are
    refused. ``bounds``: a hostile file (ZIP bomb, XML entities, too many PDF pages, too deep HTML) is
    refused with the reason before or while it is parsed."""
    if not data or not data.strip():
        raise ExtractionError("File is empty")
    ext = Path(filename or "").suffix.lower()
    head = data[:1024]
    is_pdf, is_zip = _is_pdf(data, ext), _is_zip(data)

    if ext == ".pdf" or (is_pdf and ext not in (".html", ".htm")):
        if not is_pdf:
            raise ExtractionError("Not a valid PDF file (missing %PDF header; corrupt or mislabelled?)")
        from .pdf import extract_pdf

        result = extract_pdf(data, ocr, max_pages=bounds.pdf_max_pages, max_depth=bounds.pdf_max_depth)
    elif ext == ".docx" or is_zip:
        if not is_zip:
            raise ExtractionError("Not a valid DOCX file (not a ZIP archive; corrupt or mislabelled?)")
        _archive_check(data, bounds)
        if not _is_docx_zip(data):
            if ext == ".docx":
                raise ExtractionError("Corrupt DOCX file (no word/document.xml inside)")
            raise ExtractionError(f"Unsupported file type {ext or '(none)'} (ZIP archive that is not a DOCX)")
        from .markup import extract_docx

        result = extract_docx(data)
    elif ext in (".html", ".htm") or (ext not in _EXT_FORMAT and _looks_like_html(head)):
        from .markup import extract_html

        result = extract_html(data, max_depth=bounds.html_max_depth)
    elif ext in (".txt", ".md"):
        result = ExtractedText(text=normalise_text(_decode_text(data)), page_starts=(0,), format="text")
    else:
        raise UnsupportedFileType(ext)

    if not result.text.strip():
        raise ExtractionError("No text found in file (only whitespace after extraction)")
    return result


class UnsupportedFileType(ExtractionError):
    """A file type no parser reads; the message names every accepted type of the process that raises it."""

    def __init__(self, ext: str):
        self.ext = ext
        supported = ", ".join(sorted(SUPPORTED_EXTENSIONS | REGISTERED_EXTENSIONS))
        super().__init__(f"Unsupported file type {ext or '(none)'} (supported: {supported})")

    def __reduce__(self):
        return (UnsupportedFileType, (self.ext,))


def _extract_in_child(data: bytes, filename: str, ocr: OcrOptions | None, bounds: FileBounds, report) -> ExtractedText:
    if ocr is not None:
        ocr = replace(ocr, on_page=report)
    return extract_bytes(data, filename, ocr, bounds)


def extract_bytes_bounded(data: bytes, filename: str, ocr: OcrOptions | None = None,
                          bounds: FileBounds = FileBounds()) -> ExtractedText:
    """``extract_bytes`` in a child process bounded by ``bounds.parse_timeout_seconds`` and
    ``bounds.parse_memory_mb`` (``kernel.isolation``): a parse that meets a bound raises
    ``ParseBoundExceeded`` with the reason and this process goes on. ``ocr.on_page`` is called here as
    the child reads each page, and each page read restarts the clock."""
    on_page = ocr.on_page if ocr is not None else None
    child_ocr = replace(ocr, on_page=None) if ocr is not None else None
    try:
        return run_bounded(_extract_in_child, (data, filename, child_ocr, bounds),
                           timeout_seconds=bounds.parse_timeout_seconds, memory_mb=bounds.parse_memory_mb,
                           on_progress=on_page, preload=_PRELOAD)
    except UnsupportedFileType as refused:
        # The child knows only the built-in parsers; the types other apps register (spreadsheets) are this
        # process's to name.
        raise UnsupportedFileType(refused.ext) from None


_PRELOAD = ("retrieval.parsing.extract", "retrieval.parsing.pdf", "retrieval.parsing.markup", "pypdf",
            "pdfminer.high_level")


# --------------------------------------------------------------------------- plain text

_TEXT_PLAUSIBLE_RE = re.compile(r"[^\w\s.,;:!?()\[\]{}'\"/\\%&*+=<>#@$|~^`_\-–—“”‘’…€°]")


def _decode_text(data: bytes) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError as exc:
            raise ExtractionError("Text file has a UTF-16 byte-order mark but is not valid UTF-16") from exc
    if b"\x00" in data[:8192]:
        raise ExtractionError("File looks binary (NUL bytes), not a text file")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    # Conservative legacy fallback: Windows-1252 (a superset of printable Latin-1),
    # accepted only when the result reads like ordinary text.
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError as exc:
        raise ExtractionError("Text file is not valid UTF-8 (and not Windows-1252 either)") from exc
    non_space = sum(1 for c in text if not c.isspace())
    letters = sum(1 for c in text if c.isalpha())
    odd = len(_TEXT_PLAUSIBLE_RE.findall(text))
    high = sum(1 for c in text if ord(c) > 127)
    if non_space == 0 or letters / non_space < 0.6 or odd / non_space > 0.05 or high / non_space > 0.15:
        raise ExtractionError("Text file is not valid UTF-8 and does not look like Windows-1252 text")
    return text
