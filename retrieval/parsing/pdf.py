"""PDF text extraction (pypdf, pdfminer.six fallback) with quality gates, and OCR where they fail.

A page needs OCR when it carries an image but (almost) no text, or text that is garbage from fonts
without a usable encoding (``_page_needs_ocr``). With OCR options given and Tesseract installed
(``ocr.py``), those pages are read by OCR, repaired (``ocr_repair.py``) and the document is
labelled ``ocr`` (every page with text came from OCR) or ``mixed``; without, scans and garbled PDFs
are refused as before (see ``_text_quality_problem`` for the calibration), and a readable PDF's garbled
pages are left out (``ExtractedText.unreadable_pages``): junk text is never indexed.
"""
from __future__ import annotations

import io
import logging
import re

from .ocr import OcrOptions, ocr_pdf_pages, ocr_unavailable
from .ocr_repair import drop_running_lines, repair_structure
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


# A page's text layer is garbage (calibrated on shared/corpus/pdf, 1,462 pages with >= 8 tokens):
#   * broken-font glyphs map to control characters: >= 5 % of the non-space characters on every page of
#     the two broken-font PDFs (23-78 %), 0 % on every good page;
#   * a junk OCR layer over an image (perpres-60-2019's appendix) has tokens that are neither words,
#     numbers nor codes like "Co-60" or "3.E+01": >= 25 % of tokens on its pages (up to 34 %), at most
#     22 % on the good pages, whose tables of radionuclides come closest.
_MAX_CONTROL_SHARE = 0.05
_MAX_UNCLEAN_TOKEN_SHARE = 0.25
_CLEAN_TOKEN = re.compile(r"^(?:[^\W\d_]+|[\d.,/%:+\-xX×E]+|[^\W\d_]+[\-.]?\d+[^\W\d_]{0,2}|\d+[^\W\d_]{1,3})$")
_TOKEN_EDGE = ".,;:()[]\"'“”‘’!?*-–•"


def _page_garbled(page: str) -> bool:
    """Whether a page's text layer is garbage that OCR should replace (see the calibration above)."""
    visible = [c for c in page if not c.isspace()]
    if visible and sum(1 for c in visible if not c.isprintable()) / len(visible) >= _MAX_CONTROL_SHARE:
        return True
    tokens = [t.strip(_TOKEN_EDGE) for t in _TOKEN_RE.findall(page)]
    tokens = [t for t in tokens if t]
    if len(tokens) < 8:
        return False
    if page.count("(cid:") / len(tokens) > 0.05:
        return True
    unclean = sum(1 for t in tokens if not _CLEAN_TOKEN.match(t)) / len(tokens)
    words = sum(1 for t in tokens if t.lower() in _STOPWORDS) / len(tokens)
    return unclean >= _MAX_UNCLEAN_TOKEN_SHARE and words < _READABLE_STOPWORD_SHARE


def _pages_needing_ocr(data: bytes, pages: list[str]) -> list[int]:
    """1-based numbers of the pages to OCR: an image with (almost) no text, or garbled text."""
    import pypdfium2
    import pypdfium2.raw as pdfium_c

    document = pypdfium2.PdfDocument(data)
    try:
        needing = []
        for number, text in enumerate(pages, 1):
            glyphs = sum(1 for c in text if not c.isspace() and c.isprintable())
            if glyphs < _MIN_GLYPHS_PER_PAGE:
                page = document[number - 1]
                if any(True for _ in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE])):
                    needing.append(number)
            elif _page_garbled(text):
                needing.append(number)
        return needing
    finally:
        document.close()


def _with_ocr(data: bytes, pages: list[str], ocr: OcrOptions) -> tuple[list[str], str, tuple]:
    """The pages with OCR text where the text layer fails; the extraction label; (page, confidence)s."""
    needing = _pages_needing_ocr(data, pages)
    if not needing:
        return pages, "text", ()
    read = ocr_pdf_pages(data, needing, ocr)
    pages = list(pages)
    repaired = drop_running_lines([page.text for page in read], [page.number for page in read])
    for page, text in zip(read, repaired):
        pages[page.number - 1] = repair_structure(text)
    with_text = [number for number, text in enumerate(pages, 1) if text.strip()]
    label = "ocr" if set(with_text) <= set(needing) else "mixed"
    return pages, label, tuple((page.number, page.confidence) for page in read)


# Structure outside streams: dictionaries, arrays, strings (nested parentheses, escapes), comments, streams.
_STRUCTURE = re.compile(rb"<<|>>|[\[\]()%\\]|stream(?=[\r\n])")


def pdf_nesting_depth(data: bytes, max_depth: int) -> int:
    """The deepest nesting of dictionaries and arrays outside streams, counted up to ``max_depth + 1``.

    pypdf reads nested objects recursively (it gives up at Python's recursion limit and reads on with
    what it had), pdfminer with its own stack, without a bound: a file nested 100,000 deep costs both
    seconds and memory. Stream bodies are skipped (their bytes are data); objects packed inside
    compressed object streams are not seen here and are bounded by the parse's time and memory."""
    depth = deepest = strings = 0
    position, end = 0, len(data)
    search = _STRUCTURE.search
    while position < end:
        found = search(data, position)
        if found is None:
            break
        token, position = found.group(), found.end()
        if strings:
            if token == b"\\":
                position += 1
            elif token == b"(":
                strings += 1
            elif token == b")":
                strings -= 1
        elif token in (b"<<", b"["):
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > max_depth:
                    return deepest
        elif token in (b">>", b"]"):
            depth = max(0, depth - 1)
        elif token == b"(":
            strings = 1
        elif token == b"%":
            line_end = min((i for i in (data.find(b"\n", position), data.find(b"\r", position)) if i >= 0), default=end)
            position = line_end
        elif token == b"stream":
            body_end = data.find(b"endstream", position)
            position = end if body_end < 0 else body_end + len(b"endstream")
    return deepest


def extract_pdf(data: bytes, ocr: OcrOptions | None = None, *, max_pages: int = 5_000,
                max_depth: int = 256) -> ExtractedText:
    """Text per page; ``ocr`` reads the pages the text layer fails on (when Tesseract is installed).
    A PDF of more than ``max_pages`` pages, or whose objects nest deeper than ``max_depth``, is refused
    before any page is read."""
    if pdf_nesting_depth(data, max_depth) > max_depth:
        raise ExtractionError(f"Refused: the PDF nests its objects more than {max_depth:,} deep "
                              "(ACEH_RAG_INGESTION__PDF_MAX_DEPTH)")
    pages: list[str] | None = None
    first_error: Exception | None = None
    try:
        pages = _pdf_pages_pypdf(data, max_pages)
    except ExtractionError:
        raise
    except Exception as exc:  # pypdf raises many exception types on damaged files
        first_error = exc
    if pages is None:
        try:
            pages = _pdf_pages_pdfminer(data, max_pages)
        except ExtractionError:
            raise
        except Exception as exc:
            reason = type(first_error or exc).__name__
            raise ExtractionError(f"PDF is corrupt or unreadable ({reason})") from exc
    if not pages:
        raise ExtractionError("PDF has no pages")
    extraction, confidences, unreadable = "text", (), ()
    unavailable = ocr_unavailable(ocr.languages) if ocr is not None else None
    if ocr is not None and unavailable is None:
        pages, extraction, confidences = _with_ocr(data, pages, ocr)
    problem = _text_quality_problem(pages)
    if not problem and not confidences:
        pages, unreadable = _without_garbled(pages)
    if problem and confidences:
        raise ExtractionError(f"PDF text is unreadable even after OCR of {len(confidences)} page(s)")
    if problem:
        raise ExtractionError(f"{problem}; {unavailable}" if unavailable else problem)
    text, starts = _join_pages(pages, collapse_spaces=True)
    return ExtractedText(text=text, page_starts=starts, format="pdf", extraction=extraction,
                         ocr_pages=confidences, unreadable_pages=unreadable)


def _without_garbled(pages: list[str]) -> tuple[list[str], tuple[int, ...]]:
    """The pages with each garbled one emptied (the document is readable, OCR did not run), and their numbers."""
    garbled = tuple(number for number, page in enumerate(pages, 1) if _page_garbled(page))
    return [("" if number in garbled else page) for number, page in enumerate(pages, 1)], garbled


def _too_many_pages(max_pages: int) -> ExtractionError:
    return ExtractionError(f"Refused: the PDF has more than {max_pages:,} pages (ACEH_RAG_INGESTION__PDF_MAX_PAGES)")


def _pdf_pages_pypdf(data: bytes, max_pages: int) -> list[str]:
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
    count = len(reader.pages)      # pypdf walks the page tree once and refuses a cycle in it
    if count > max_pages:
        raise _too_many_pages(max_pages)
    try:
        return [page.extract_text() or "" for page in reader.pages]
    except FileNotDecryptedError as exc:
        raise ExtractionError("PDF is encrypted (password-protected)") from exc


def _pdf_pages_pdfminer(data: bytes, max_pages: int) -> list[str]:
    from pdfminer.high_level import extract_text
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        raw = extract_text(io.BytesIO(data), maxpages=max_pages + 1)
    except PDFPasswordIncorrect as exc:
        raise ExtractionError("PDF is encrypted (password-protected)") from exc
    pages = raw.split("\x0c")
    if pages and not pages[-1].strip():
        pages.pop()
    if len(pages) > max_pages:
        raise _too_many_pages(max_pages)
    return pages
