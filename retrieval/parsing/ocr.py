"""OCR for PDF pages without a usable text layer: PDFium renders a page, Tesseract reads it.

Steps per page: render at ``dpi`` in grey (pypdfium2); read it with Tesseract (pytesseract over
Debian's ``tesseract-ocr`` with the ``ind`` and ``eng`` models, automatic page segmentation, which
also straightens slightly skewed lines); when the mean word confidence is low, read it again after a
ask Tesseract's orientation detector (``osd``) whether the page is turned and read it rotated; if
still low, read it after a 3x3 median filter (speckle noise of a photocopy); the best reading is kept. Lines are rebuilt from Tesseract's words (block, paragraph, line), blocks in its reading
order (so two columns come out one after the other). Each page reports its mean word confidence
(0-100), which ingestion stores for review.

``ocr_unavailable()`` says why OCR cannot run here (no tesseract, no language model); callers
then refuse a scan as before. Every Tesseract call has a time limit; a page that exceeds it fails
the document with a clear reason.
"""
from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from typing import Callable

from .text import ExtractionError

LOW_CONFIDENCE = 60.0      # below this mean word confidence a page is checked for rotation
ROTATION_MIN_CONFIDENCE = 2.0  # Tesseract's orientation confidence needed to turn a page


@dataclass(frozen=True)
class OcrOptions:
    languages: str = "ind+eng"
    dpi: int = 300
    max_pages: int = 300
    page_timeout_seconds: float = 120.0
    on_page: Callable[[int, int], None] | None = None  # (pages done, pages to read)


@dataclass(frozen=True)
class OcrPage:
    number: int          # 1-based page number in the PDF
    text: str
    confidence: float    # mean word confidence, 0-100


@lru_cache(maxsize=4)
def ocr_unavailable(languages: str = "ind+eng") -> str | None:
    """None when OCR can run with ``languages``; otherwise the reason, in one line."""
    if shutil.which("tesseract") is None:
        return "OCR unavailable: the tesseract program is not installed (make ocr-deps)"
    for module in ("pypdfium2", "pytesseract"):
        if find_spec(module) is None:
            return f"OCR unavailable: {module} is not installed"
    import pytesseract

    try:
        installed = set(pytesseract.get_languages(config=""))
    except Exception as exc:  # a broken installation
        return f"OCR unavailable: tesseract does not answer ({type(exc).__name__})"
    missing = [lang for lang in languages.split("+") if lang not in installed]
    if missing:
        return f"OCR unavailable: tesseract has no {'+'.join(missing)} model (tesseract-ocr-{missing[0]})"
    return None


def engine_label(languages: str) -> str:
    import pytesseract

    return f"tesseract {pytesseract.get_tesseract_version()} ({languages})"


def _lines(data: dict) -> tuple[str, float]:
    """Text rebuilt from Tesseract's word table, and the mean confidence of its words."""
    blocks: dict[int, dict[tuple[int, int], list[str]]] = {}
    confidences: list[float] = []
    for index, word in enumerate(data["text"]):
        word = (word or "").strip()
        confidence = float(data["conf"][index])
        if not word or confidence < 0:
            continue
        confidences.append(confidence)
        key = (data["par_num"][index], data["line_num"][index])
        blocks.setdefault(data["block_num"][index], {}).setdefault(key, []).append(word)
    paragraphs = []
    for block in blocks.values():
        paragraphs.append("\n".join(" ".join(words) for words in block.values()))
    mean = sum(confidences) / len(confidences) if confidences else 0.0
    return "\n\n".join(paragraphs), round(mean, 1)


def _read(image, options: OcrOptions) -> tuple[str, float]:
    import pytesseract

    data = pytesseract.image_to_data(image, lang=options.languages, config="--psm 3",
                                     output_type=pytesseract.Output.DICT, timeout=options.page_timeout_seconds)
    return _lines(data)


def _turned(image, options: OcrOptions) -> int:
    """Degrees Tesseract's orientation detector says to rotate the page by (0 when unsure)."""
    import pytesseract

    try:
        osd = pytesseract.image_to_osd(image, output_type=pytesseract.Output.DICT,
                                       timeout=options.page_timeout_seconds)
    except pytesseract.TesseractError:  # too little text to decide
        return 0
    return int(osd["rotate"]) if float(osd.get("orientation_conf", 0)) >= ROTATION_MIN_CONFIDENCE else 0


def _best_reading(image, options: OcrOptions) -> tuple[str, float]:
    from PIL import ImageFilter

    def better(current: tuple[str, float], candidate_image) -> tuple[str, float]:
        return max(current, _read(candidate_image, options), key=lambda candidate: candidate[1])

    reading = _read(image, options)
    if reading[1] < LOW_CONFIDENCE and (degrees := _turned(image, options)):
        image = image.rotate(-degrees, expand=True)
        reading = better(reading, image)
    if reading[1] < LOW_CONFIDENCE:
        reading = better(reading, image.filter(ImageFilter.MedianFilter(3)))
    return reading


def ocr_pdf_pages(data: bytes, numbers: list[int], options: OcrOptions) -> list[OcrPage]:
    """OCR the given 1-based pages of a PDF; raises ExtractionError on a bound or a failure."""
    import pypdfium2
    import pytesseract

    if len(numbers) > options.max_pages:
        raise ExtractionError(f"PDF needs OCR on {len(numbers)} pages, more than the limit of {options.max_pages}")
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")  # one core per page; the workers run in parallel
    document = pypdfium2.PdfDocument(data)
    pages = []
    try:
        for done, number in enumerate(numbers):
            image = document[number - 1].render(scale=options.dpi / 72, grayscale=True).to_pil()
            try:
                text, confidence = _best_reading(image, options)
            except RuntimeError as exc:  # pytesseract's timeout
                raise ExtractionError(f"OCR of page {number} took longer than "
                                      f"{options.page_timeout_seconds:g} s") from exc
            except pytesseract.TesseractError as exc:
                raise ExtractionError(f"OCR of page {number} failed ({exc.message.strip()[:120]})") from exc
            pages.append(OcrPage(number, text, confidence))
            if options.on_page:
                options.on_page(done + 1, len(numbers))
    finally:
        document.close()
    return pages
