"""OCR for PDF pages without a usable text layer: PDFium renders a page, Tesseract reads it.

Steps per page: render at ``dpi`` in grey (pypdfium2); read it with Tesseract (pytesseract over
Debian's ``tesseract-ocr`` with the ``ind`` and ``eng`` models) as one column of text (``--psm 4``), or,
when the page stands in two columns (a blank vertical band with text on both sides, ``_two_columns``),
with automatic page segmentation (``--psm 3``), which reads the columns one after the other. When the
mean word confidence is low, Tesseract's orientation detector (``osd``) says whether the page is turned
and it is read rotated; if still low, it is read after a 3x3 median filter (speckle noise of a
photocopy); the best reading is kept. Lines are rebuilt from Tesseract's words (block, paragraph, line),
blocks in its reading order, with hanging ayat and list labels that it took for a column of their own
put back on their lines, and labels it dropped from the margin left of the text column (a circular
letter's bold "B.", a hanging "3.") read on their own and put back too. Each page reports its mean word
confidence (0-100), which ingestion stores for review.

Measured by bench/ocr.py (22 text-layer pages against their own layer, docs/ocr.md): automatic
segmentation on every page read the hanging "(1)"/"a." as a column (CER median 2.64 %); one column
of text, 0.49 %.

``ocr_unavailable()`` says why OCR cannot run here (no tesseract, no language model); callers
then refuse a scan as before. Every Tesseract call has a time limit; a page that exceeds it fails
the document with a clear reason.
"""
from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from functools import lru_cache
from importlib.util import find_spec
from typing import Callable

from .text import ExtractionError

LOW_CONFIDENCE = 60.0      # below this mean word confidence a page is checked for rotation
ROTATION_MIN_CONFIDENCE = 2.0  # Tesseract's orientation confidence needed to turn a page
_GUTTER = 0.015  # the narrowest gap between two columns, as a share of the inked width
_COLUMNS_SHARE = 0.25  # share of the inked rows beside such a gap that makes a page two-column


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


# A numbering label that may stand alone in the margin: "(1)", "(12)", "a.", "12.", "(S)" (a misread 5).
_LABEL = re.compile(r"^(?:\(?[0-9A-Za-z]{1,3}[.)]|\([0-9A-Za-z]{1,3}\)?)$")
_LABEL_REACH = 5  # pixels a label may overlap the line it numbers
_MARGIN_INCHES = 1.0  # how far left of the text column a margin label may stand
_MARGIN_BANDS = 40  # more bands of ink than this in the margin are not labels
# What a margin label reads as alone: "1." is read "1" or "1:" (the ind model), a bold "C." "Cc.".
_MARGIN_READ = re.compile(r"^(\([0-9]{1,2}\)|[0-9]{1,2}|[A-Z][a-z]?)[.:,]?$")


@dataclass(frozen=True)
class _Word:
    text: str
    line: tuple[int, int, int]  # Tesseract's (block, paragraph, line)
    left: int
    top: int
    right: int
    bottom: int


def _labelled_lines(words: list[_Word]) -> dict[tuple[int, int, int], list[_Word]]:
    """Tesseract's lines, with margin labels put back at the start of the line they number.

    Automatic segmentation often takes the hanging "(1)", "(2)", "a." of ayat and lists for a column of
    their own, read before or after the text, and the structure parser then finds no ayat. A block made
    only of labels is dissolved: each label goes to the line whose height it sits in, nearest to its right.
    """
    lines: dict[tuple[int, int, int], list[_Word]] = {}
    for word in words:
        lines.setdefault(word.line, []).append(word)
    blocks: dict[int, list[_Word]] = {}
    for word in words:
        blocks.setdefault(word.line[0], []).append(word)
    label_blocks = {block for block, members in blocks.items() if all(_LABEL.match(w.text) for w in members)}
    spans = {key: (min(w.top for w in members), max(w.bottom for w in members), members[0].left)
             for key, members in lines.items() if key[0] not in label_blocks}
    placed: dict[tuple[int, int, int], list[_Word]] = {}
    for block in label_blocks:
        for label in blocks[block]:
            middle = (label.top + label.bottom) / 2
            targets = [(left - label.right, key) for key, (top, bottom, left) in spans.items()
                       if top <= middle <= bottom and left >= label.right - _LABEL_REACH]
            target = min(targets)[1] if targets else label.line
            placed.setdefault(target, []).append(label)
    rebuilt = {}
    for key, members in lines.items():
        if key[0] in label_blocks:
            members = []
        labels = sorted(placed.get(key, []), key=lambda w: w.left)
        if labels or members:
            rebuilt[key] = labels + members
    return rebuilt


def _lines(data: dict) -> tuple[str, float]:
    """Text rebuilt from Tesseract's word table, and the mean confidence of its words."""
    words, confidences = [], []
    for index, text in enumerate(data["text"]):
        text = (text or "").strip()
        confidence = float(data["conf"][index])
        if not text or confidence < 0:
            continue
        confidences.append(confidence)
        left, top = data["left"][index], data["top"][index]
        words.append(_Word(text, (data["block_num"][index], data["par_num"][index], data["line_num"][index]),
                           left, top, left + data["width"][index], top + data["height"][index]))
    blocks: dict[int, list[str]] = {}
    for (block, _, _), members in _labelled_lines(words).items():
        blocks.setdefault(block, []).append(" ".join(w.text for w in members))
    mean = sum(confidences) / len(confidences) if confidences else 0.0
    return "\n\n".join("\n".join(lines) for lines in blocks.values()), round(mean, 1)


def _column_gap_share(image) -> float:
    """The share of the page's inked rows that stand in two columns: the longest vertical stretch, in the
    middle 30-70 % of the inked width, with text on both sides of a blank band ``_GUTTER`` of the width wide
    and no ink inside it (blank rows between lines do not break the stretch, a heading across it does)."""
    import numpy

    dark = numpy.asarray(image.convert("L")) < 128
    rows, columns = numpy.flatnonzero(dark.any(axis=1)), numpy.flatnonzero(dark.any(axis=0))
    if len(rows) < 2 or len(columns) < 2:
        return 0.0
    dark = dark[rows[0]:rows[-1] + 1, columns[0]:columns[-1] + 1]
    height, width = dark.shape
    window = max(3, int(width * _GUTTER))
    ink = numpy.cumsum(dark, axis=1, dtype=numpy.int32)
    total = ink[:, -1]
    best = 0
    for x in range(int(width * 0.3), int(width * 0.7) - window, max(1, window // 3)):
        inside = ink[:, x + window] - ink[:, x]
        beside = (inside == 0) & (ink[:, x] > 0) & (total > ink[:, x + window])
        counted = numpy.concatenate(([0], numpy.cumsum(beside)))
        edges = numpy.concatenate(([-1], numpy.flatnonzero(inside > 0), [height]))
        best = max(best, int((counted[edges[1:]] - counted[edges[:-1] + 1]).max()))
    return best / int((total > 0).sum())


def _two_columns(image) -> bool:
    """Whether the page's text stands in two columns (``_column_gap_share`` at least ``_COLUMNS_SHARE``)."""
    return _column_gap_share(image) >= _COLUMNS_SHARE


def _read(image, options: OcrOptions) -> tuple[str, float]:
    import pytesseract

    # One column of text (``--psm 4``) keeps each hanging "(1)" or "a." on its line; automatic segmentation
    # (``--psm 3``) is needed only to read two columns one after the other.
    mode = 3 if _two_columns(image) else 4
    data = pytesseract.image_to_data(image, lang=options.languages, config=f"--psm {mode}",
                                     output_type=pytesseract.Output.DICT, timeout=options.page_timeout_seconds)
    if mode == 4:
        _add_margin_labels(image, data, options)
    return _lines(data)


def _add_margin_labels(image, data: dict, options: OcrOptions) -> None:
    """Labels standing alone left of the text column ("B." before a bold "Dasar", a hanging "3."), which the
    one-column reading drops: each band of ink rows there that no word read covers is read as one line
    (``--psm 7``) and kept when it reads as a label, in a block of its own that ``_labelled_lines`` puts back
    on the line at its height. A margin with more bands than ``_MARGIN_BANDS`` (a stamp, a side note) is left."""
    import numpy
    import pytesseract

    read_words = [((text or "").strip(), (data["left"][i], data["top"][i], data["left"][i] + data["width"][i],
                                          data["top"][i] + data["height"][i]))
                  for i, text in enumerate(data["text"]) if (text or "").strip()]
    boxes = [box for _, box in read_words]
    column = min((box[0] for text, box in read_words if not _LABEL.match(text)), default=0)
    start = max(0, column - int(options.dpi * _MARGIN_INCHES))
    dark = numpy.asarray(image.convert("L"))[:, start:max(start, column - _LABEL_REACH)] < 128
    rows = numpy.flatnonzero(dark.any(axis=1))
    bands = numpy.split(rows, numpy.flatnonzero(numpy.diff(rows) > 3) + 1) if len(rows) else []
    if len(bands) > _MARGIN_BANDS:
        return
    block = max(data["block_num"], default=0) + 1
    for band in bands:
        top, bottom = int(band[0]), int(band[-1]) + 1
        inked = numpy.flatnonzero(dark[top:bottom].any(axis=0))
        left, right = start + int(inked[0]), start + int(inked[-1]) + 1
        if not options.dpi / 20 <= bottom - top <= options.dpi / 4 or any(
                x0 < right and left < x1 and y0 < bottom and top < y1 for x0, y0, x1, y1 in boxes):
            continue
        pad = options.dpi // 10       # a tight crop reads "B." as nothing and "3." as "os"
        read = pytesseract.image_to_data(image.crop((left - pad, top - pad, right + pad, bottom + pad)),
                                         lang=options.languages, config="--psm 7",
                                         output_type=pytesseract.Output.DICT, timeout=options.page_timeout_seconds)
        words = [(text.strip(), conf) for text, conf in zip(read["text"], read["conf"]) if (text or "").strip()]
        label = _MARGIN_READ.match(words[0][0]) if len(words) == 1 and float(words[0][1]) >= 0 else None
        if label:
            text = label.group(1) if label.group(1).startswith("(") else f"{label.group(1)}."
            for key, value in (("text", text), ("conf", words[0][1]), ("block_num", block), ("par_num", 1),
                               ("line_num", top), ("left", left), ("top", top), ("width", right - left),
                               ("height", bottom - top)):
                data[key].append(value)


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
