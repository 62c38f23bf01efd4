"""PDF text extraction (pypdf, pdfminer.six fallback) with quality gates.

Refuses scans without a text layer and PDFs whose text layer is garbage from fonts
without a usable encoding; see ``_text_quality_problem`` for the calibration.
"""
from __future__ import annotations

import io
import logging
import re

from .text import ExtractedText, ExtractionError, _join_pages

__all__ = ["extract_pdf"]

# --------------------------------------------------------------------------- PDF

# Quality gates, calibrated on shared/corpus/pdf (24 good PDFs, all accepted) versus
# shared/corpus/pdf/hard (2 broken-font PDFs and 1 scan, all refused):
#   * text layer: good PDFs carry >= 660 letters per page; the scan only a watermark
#     (~15 letters per page); broken-font PDFs carry plenty of non-space glyphs.
#   * readable pages: a page with >= 8 tokens is "readable" when >= 5 % of its tokens
#     are common Indonesian/English function words.  Good PDFs: 83-100 % readable pages,
#     except perpres-60-2019 (7 of 87: its appendix is an image with OCR junk) which
#     still passes the 5 % bar; broken-font PDFs: 0 readable pages.
_MIN_GLYPHS_PER_PAGE = 40
_MIN_READABLE_PAGE_SHARE = 0.05
_READABLE_STOPWORD_SHARE = 0.05
_STOPWORDS = frozenset(
    """yang dan di dengan untuk dalam atau pada ini dari ke oleh tersebut sebagaimana dimaksud
    adalah tentang nomor tahun pasal ayat huruf angka serta bahwa sebagai tidak dapat
    the of and to in for is on that by with as be are this""".split()
)
_TOKEN_RE = re.compile(r"\S+")
_WORD_STRIP = ".,;:()[]\"'“”‘’!?"


def _text_quality_problem(pages: list[str]) -> str | None:
    """Return a one-line refusal reason for unusable PDF text, or None when it is fine."""
    raw = "\n".join(pages)
    n_pages = max(1, len(pages))
    glyphs = sum(1 for c in raw if not c.isspace() and c.isprintable())
    letters = sum(1 for c in raw if c.isalpha())
    if glyphs / n_pages < _MIN_GLYPHS_PER_PAGE or letters < 20:
        if glyphs / n_pages >= _MIN_GLYPHS_PER_PAGE:
            return "PDF text is garbage from broken font encodings (no letters); needs OCR"
        return "PDF has no extractable text layer (scanned document?)"
    tokens_total = len(_TOKEN_RE.findall(raw))
    if raw.count("(cid:") / max(1, tokens_total) > 0.05:
        return "PDF text is garbage from broken font encodings (unmapped (cid:) glyphs); needs OCR"
    text_pages = readable = 0
    for page in pages:
        tokens = [t.strip(_WORD_STRIP).lower() for t in _TOKEN_RE.findall(page)]
        if len(tokens) < 8:
            continue
        text_pages += 1
        if sum(1 for t in tokens if t in _STOPWORDS) / len(tokens) >= _READABLE_STOPWORD_SHARE:
            readable += 1
    if text_pages == 0 or readable < 1 or readable / text_pages < _MIN_READABLE_PAGE_SHARE:
        return "PDF text is garbage from broken font encodings (no readable words); needs OCR"
    return None


def extract_pdf(data: bytes) -> ExtractedText:
    pages: list[str] | None = None
    first_error: Exception | None = None
    try:
        pages = _pdf_pages_pypdf(data)
    except ExtractionError:
        raise
    except Exception as exc:  # pypdf raises many exception types on damaged files
        first_error = exc
    if pages is None:
        try:
            pages = _pdf_pages_pdfminer(data)
        except ExtractionError:
            raise
        except Exception as exc:
            reason = type(first_error or exc).__name__
            raise ExtractionError(f"PDF is corrupt or unreadable ({reason})") from exc
    if not pages:
        raise ExtractionError("PDF has no pages")
    problem = _text_quality_problem(pages)
    if problem:
        raise ExtractionError(problem)
    text, starts = _join_pages(pages, collapse_spaces=True)
    return ExtractedText(text=text, page_starts=starts, format="pdf")


def _pdf_pages_pypdf(data: bytes) -> list[str]:
    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError

    logging.getLogger("pypdf").setLevel(logging.ERROR)
    reader = PdfReader(io.BytesIO(data))
    if reader.is_encrypted:
        try:
            ok = reader.decrypt("")
        except Exception as exc:
            raise ExtractionError("PDF is encrypted and cannot be opened") from exc
        if not ok:
            raise ExtractionError("PDF is encrypted (password-protected)")
    try:
        return [page.extract_text() or "" for page in reader.pages]
    except FileNotDecryptedError as exc:
        raise ExtractionError("PDF is encrypted (password-protected)") from exc


def _pdf_pages_pdfminer(data: bytes) -> list[str]:
    from pdfminer.high_level import extract_text
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        raw = extract_text(io.BytesIO(data))
    except PDFPasswordIncorrect as exc:
        raise ExtractionError("PDF is encrypted (password-protected)") from exc
    pages = raw.split("\x0c")
    if pages and not pages[-1].strip():
        pages.pop()
    return pages
