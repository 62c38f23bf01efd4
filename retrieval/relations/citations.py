"""Citations of regulations inside running text, and the identity key they resolve by.

``find_citations(text, start, end)`` returns every "<type> Nomor <number> [Tahun <year>]"
written in ``text[start:end]``, mixed or upper case ("Peraturan Gubernur Aceh Nomor 05
Tahun 2025", "UNDANG- UNDANG NOMOR 7 TAHUN 1989", "Undang-undang Nomor 48/Prp./1960").
``identity_key(type, number, year)`` is the comparison key both sides of a relation are
reduced to: the canonical type, the number without leading zeros and with OCR letters read
as digits ("l4O" -> "140", "2OO7" -> 2007), and the year.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.instruments import CITATION_SHORT_FORMS, CITATION_TYPES, JURISDICTION_DEFAULT

__all__ = ["Citation", "find_citations", "identity_key", "normalise_number", "normalise_year"]

_NUMBER = r"(?P<num>[0-9OoIl][0-9A-Za-z]*(?:[./-]+[0-9A-Za-z]+){0,5}(?:\s+(?:Pnps|PNPS|Prp|PRP|Drt|DRT)\b)?)"
_CITATION_RE = re.compile(
    r"(?P<type>" + "|".join(CITATION_TYPES) + r")"
    r"(?:\s+(?:Republik|REPUBLIK)\s+(?:Indonesia|INDONESIA))?"
    r"\s+(?:Nomor|NOMOR|No\.)\s*:?\s*" + _NUMBER
    + r"(?:\s+(?:[Tt]ahun|TAHUN)\s+(?P<year>[12][0-9OoIl]{3}|[12][0-9OoIl]\s[0-9OoIl]{2}))?"
)

_OCR_DIGITS = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1"})
@dataclass(frozen=True)
class Citation:
    start: int
    end: int
    instrument_type: str     # as written, whitespace collapsed
    number: str              # as written, whitespace collapsed
    year: int | None
    year_text: str | None

    @property
    def key(self) -> str | None:
        return identity_key(self.instrument_type, self.number, self.year)

    def display(self) -> str:
        year = f" Tahun {self.year}" if self.year and not self.number.endswith(str(self.year)) else ""
        return f"{_display_type(self.instrument_type)} Nomor {self.number}{year}"


def _display_type(written: str) -> str:
    words = " ".join(written.split())
    if words.isupper():
        words = " ".join(w.capitalize() if w not in {"RI"} else w for w in words.split())
        words = re.sub(r"Undang\s*-?\s*Undang", "Undang-Undang", words)
    return re.sub(r"Undang\s*-\s*[Uu]ndang|Undang\s+[Uu]ndang", "Undang-Undang", words)


def canonical_type(written: str | None) -> str | None:
    if not written:
        return None
    words = " ".join(written.lower().split())
    head, _, tail = words.partition(" ")
    words = " ".join(filter(None, (CITATION_SHORT_FORMS.get(head, head), tail)))
    words = re.sub(r"undang\s*-\s*undang|undang undang", "undang-undang", words)
    words = re.sub(r"\bgube?r?nur\b", "gubernur", words)
    words = re.sub(r"\bwali\s?kota\b", "walikota", words)
    return JURISDICTION_DEFAULT.get(words, words)


def normalise_number(number: str | None) -> str | None:
    """Digits read through OCR slips, leading zeros dropped per numeric part."""
    if not number:
        return None
    parts = re.split(r"\s*([./-])\s*", number.strip(" .-/"))
    out = []
    for part in parts:
        if part in "./-":
            out.append(part)
            continue
        fixed = part.translate(_OCR_DIGITS) if re.fullmatch(r"[0-9OoIl]+", part) else part
        out.append(fixed.lstrip("0") or "0" if fixed.isdigit() else fixed.lower())
    return "".join(out)


def normalise_year(year: str | int | None) -> int | None:
    if year is None:
        return None
    digits = "".join(str(year).split()).translate(_OCR_DIGITS)
    return int(digits) if digits.isdigit() and 1800 <= int(digits) <= 2100 else None


def identity_key(instrument_type: str | None, number: str | None, year: int | str | None) -> str | None:
    kind, num = canonical_type(instrument_type), normalise_number(number)
    if not kind or not num:
        return None
    year = normalise_year(year)
    if year is None:
        tail = re.search(r"[/.-]((?:19|20)\d\d)$", num)  # "6/DPRA/2025": the year closes the number
        year = int(tail.group(1)) if tail else None
    return f"{kind}|{num}|{year or ''}"


def find_citations(text: str, start: int = 0, end: int | None = None) -> list[Citation]:
    end = len(text) if end is None else end
    found = []
    for match in _CITATION_RE.finditer(text, start, end):
        number = match.group("num")
        if not re.search(r"\d", number.translate(_OCR_DIGITS)[:3]):
            continue
        year_text = match.group("year")
        found.append(Citation(
            start=match.start(), end=match.end(), instrument_type=" ".join(match.group("type").split()),
            number=re.sub(r"\s*([./-])\s*", r"\1", " ".join(number.split())), year=normalise_year(year_text),
            year_text=year_text,
        ))
    return found
