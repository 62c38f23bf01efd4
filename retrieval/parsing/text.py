"""What every extractor returns, and the one normalisation they share (see ``extract``).

Below the extractors (``pdf``, ``markup``) and the dispatcher (``extract``), so
none of them imports another's module back (``hyphens`` is below it).
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from .hyphens import join_split_words, vocabulary


@dataclass(frozen=True)
class ExtractedText:
    text: str
    page_starts: tuple[int, ...]
    format: str  # "pdf" | "text" | "html" | "docx"
    extraction: str = "text"  # "text" (a text layer), "ocr" (every page read by OCR) or "mixed"
    ocr_pages: tuple[tuple[int, float], ...] = ()  # (page number, mean OCR word confidence)
    # Pages whose text layer is garbage and that OCR did not read (it is off or Tesseract is absent): left out,
    # so junk never reaches the index (a junk chunk sits near every short question's vector).
    unreadable_pages: tuple[int, ...] = ()


class ExtractionError(Exception):
    """Raised when a file cannot be turned into usable text; ``str(exc)`` is one line."""

    def __init__(self, reason: str):
        super().__init__(" ".join(str(reason).split()))


# --------------------------------------------------------------------------- normalisation

# Control characters except \n and \t (tabs become spaces below), plus zero-width
# and BOM characters that only confuse downstream regexes.
_CTRL_RE = re.compile("[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f\u200b-\u200d\u2060\ufeff\u00ad]")
_HSPACE_RE = re.compile("[\t\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")
_TRAILING_WS_RE = re.compile(r"[ ]+$", re.MULTILINE)
_MANY_BLANKS_RE = re.compile(r"\n{3,}")
# A date whose digits a scan or a broken font turned into look-alike letters ("L7 Oktober 2O22", "12 Maret 2OL9",
# "17 Agustus l94S"): day and year are put back, one character for one, so offsets hold. A day or year with no
# digit at all ("bulan Juni 2005") is a word and is left alone.
_MONTHS = "Januari|Februari|Maret|April|Mei|Juni|Juli|Agustus|September|Oktober|November|Desember"
_LOOKALIKE_DATE_RE = re.compile(rf"\b([0-9lILO|]{{1,2}}\s+)?((?:{_MONTHS})\s+)([12lI][0-9OolILS]{{3}})\b")
_DIGIT_LOOKALIKES = str.maketrans({"l": "1", "I": "1", "L": "1", "|": "1", "O": "0", "o": "0", "S": "5"})


def _date_digits(match: re.Match) -> str:
    day, year = match.group(1) or "", match.group(3)
    if sum(ch.isdigit() for ch in year) < 2:
        return match.group(0)
    if re.search(r"\d", day):
        day = day.translate(_DIGIT_LOOKALIKES)
    return day + match.group(2) + year.translate(_DIGIT_LOOKALIKES)


def normalise_text(text: str, words: Counter | None = None) -> str:
    """Apply the module-wide normalisation to one unpaged text (or one page); ``words``: the whole document's
    ``hyphens.vocabulary`` when the text is one of its pages (the text's own otherwise)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = text.replace("\x0c", "\n").replace("\x0b", "\n").replace("\u2028", "\n").replace("\u2029", "\n")
    text = unicodedata.normalize("NFC", text)
    text = _CTRL_RE.sub("", text)
    text = _HSPACE_RE.sub(" ", text)
    text = _TRAILING_WS_RE.sub("", text)
    text = _MANY_BLANKS_RE.sub("\n\n", text)
    text = restore_digits(text)
    text = join_split_words(text, words if words is not None else vocabulary([text]))
    return text.strip("\n")


def restore_digits(text: str) -> str:
    """Dates' digits back from look-alike letters; the same length, so stored offsets and page starts hold (a
    reindex applies it to text stored before this repair existed)."""
    return _LOOKALIKE_DATE_RE.sub(_date_digits, text)


_INNER_SPACES_RE = re.compile(r"(?<=\S) {2,}")
_LEADING_SPACES_RE = re.compile(r"(?m)^ +")


def _join_pages(pages: list[str], collapse_spaces: bool = False) -> tuple[str, tuple[int, ...]]:
    """Normalise each page and join them with a blank line; returns (text, page_starts)."""
    parts: list[str] = []
    starts: list[int] = []
    pos = 0
    words = vocabulary(pages)
    for page in pages:
        page = normalise_text(page, words)
        if collapse_spaces:  # PDF layout padding: "Pada   saat   Peraturan" -> "Pada saat Peraturan"
            page = _LEADING_SPACES_RE.sub("", _INNER_SPACES_RE.sub(" ", page))
        page = page.strip()
        if parts and page:
            parts.append("\n\n")
            pos += 2
        starts.append(pos)
        if page:
            parts.append(page)
            pos += len(page)
    text = "".join(parts)
    # An empty trailing page would point past the end of text: clamp it.
    starts = [min(s, len(text)) for s in starts]
    return text, tuple(starts)
