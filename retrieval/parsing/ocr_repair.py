"""Repairs to OCR text where Tesseract's typical faults would break the legal structure.

- Digits read as letters in structure headings: ``Pasal l`` / ``Pasal 1l`` / ``Pasal l0`` become
  ``Pasal 1`` / ``Pasal 11`` / ``Pasal 10`` (a heading that is a Roman numeral, ``Pasal I`` of an
  amending regulation, is kept); ``BAB Il`` / ``BAB 1V`` become ``BAB II`` / ``BAB IV``; an ayat
  marker ``(l)`` at a line start becomes ``(1)``.
- A word hyphenated across a line break is joined (``kewe-`` + ``nangan``).
- A blank line Tesseract put inside a sentence (a block break: ``sebagaimana`` / blank / ``dimaksud pada``)
  goes: after a line that ends in a word and before one that goes on in lower case (not a list label), so
  the sentence stays one paragraph.
- The list label ``c.`` that follows ``b.`` is read ``C.`` or ``Cc.`` (the small c is as tall as a capital
  in the fonts of the gazettes): it is put back, so the list and its semicolons hold; ``Cc.`` elsewhere is
  the part label ``C.`` (a circular letter's bold ``C. Ruang Lingkup``).
- A comma that closes a line before a list or ayat label (``a.``, ``2.``, ``(3)``) becomes the semicolon
  that Indonesian drafting puts there: Debian's ``ind`` model has no ``;`` and reads it as ``,``. In the
  corpus's text layers such a line ends with ``;`` 3,699 times and with ``,`` 38 times.
- Running headers and footers (a line that opens or closes most pages) and page numbers
  (``- 3 -``, ``~3-``, ``3``, ``Halaman 3 dari 10``) are dropped, and so is a page number Tesseract garbled
  (``- 2 -`` read ``2:2 YA``, ``- 3 -`` read ``«3``): the first or last line of a page, short, whose digits are
  all the page's own number and that holds at most two letters.
"""
from __future__ import annotations

import re
from collections import Counter

_DIGIT_LOOKALIKES = str.maketrans({"l": "1", "I": "1", "|": "1", "!": "1", "o": "0", "O": "0"})
_ROMAN_LOOKALIKES = str.maketrans({"l": "I", "1": "I", "|": "I"})
_PASAL = re.compile(r"(?m)^(\s*Pasal\s+)([0-9lIoO|!]{1,4})([A-Z]?)\s*$")
_BAB = re.compile(r"(?m)^(\s*BAB\s+)([IVXLl1|]{1,6})\s*$")
_AYAT = re.compile(r"(?m)^(\s*\()([0-9lI|!]{1,3})(\))")
_HYPHENATED = re.compile(r"(\w)-\n(?=[a-z])")
_BROKEN_SENTENCE = re.compile(r"(?<=[^\W_])[ \t]*\n[ \t]*\n(?=[ \t]*[a-z])(?![ \t]*[a-z]{1,2}[.)][ \t])")
_LIST_COMMA = re.compile(r"(?m),((?:[ \t]+(?:dan|atau|dan/atau))?[ \t]*\n)"
                         r"(?=[ \t]*(?:[a-z]\.|\d{1,2}\.|\(\d{1,2}\)|\([a-z]\))[ \t])")
_LIST_LABEL = re.compile(r"^(\s*)([a-zA-Z]{1,2})\.(?=[ \t])")
_PAGE_NUMBER = re.compile(r"^[\s\-–—~_.=]*\d{1,4}[\s\-–—~_.=]*$|^\s*(?:halaman|hal\.?|page)\s+\d+(?:\s+(?:dari|of)\s+\d+)?\s*$",
                          re.I)
_GARBLED_NUMBER_CHARS = 12  # the longest line read as a garbled page number
_EDGE_LINES = 3           # lines from the top and the bottom of a page that may be running text
_RUNNING_SHARE = 0.4      # a line at a page edge on this share of pages is a running header or footer
_RUNNING_MIN_PAGES = 3


def _pasal(match: re.Match) -> str:
    number = match.group(2)
    if re.fullmatch(r"[IVX]+", number) or not re.search(r"[0-9l|!]", number):
        return match.group(0)
    return f"{match.group(1)}{number.translate(_DIGIT_LOOKALIKES)}{match.group(3)}"


def _bab(match: re.Match) -> str:
    numeral = match.group(2)
    if numeral.isdigit():  # an Arabic chapter number is kept as written
        return match.group(0)
    return f"{match.group(1)}{numeral.translate(_ROMAN_LOOKALIKES)}"


def _list_labels(text: str) -> str:
    """``C.``/``Cc.`` opening a line after an item ``b.`` back to ``c.``."""
    lines, previous = text.split("\n"), None
    for index, line in enumerate(lines):
        label = _LIST_LABEL.match(line)
        if not label:
            continue
        if label.group(2) in ("C", "Cc") and previous == "b":
            lines[index] = f"{label.group(1)}c{line[label.end(2):]}"
            previous = "c"
        elif label.group(2) == "Cc":      # a bold part label "C." is read doubled too
            lines[index] = f"{label.group(1)}C{line[label.end(2):]}"
            previous = "C"
        else:
            previous = label.group(2)
    return "\n".join(lines)


def repair_structure(text: str) -> str:
    """Headings and ayat markers with their digits restored, list items' semicolons back, hyphenated words
    joined, sentences broken by a blank line mended."""
    text = _PASAL.sub(_pasal, text)
    text = _BAB.sub(_bab, text)
    text = _AYAT.sub(lambda m: m.group(1) + m.group(2).translate(_DIGIT_LOOKALIKES) + m.group(3), text)
    text = _LIST_COMMA.sub(r";\1", _list_labels(text))
    return _HYPHENATED.sub(r"\1", _BROKEN_SENTENCE.sub("\n", text))


_HEADING = re.compile(r"^\s*(?:BAB|Bagian|Paragraf|Pasal)\b", re.I)


def _key(line: str) -> str:
    """A line as running text compares (digits and punctuation aside); "" for a structure heading."""
    return "" if _HEADING.match(line) else re.sub(r"[\d\W]+", " ", line.lower()).strip()


def _garbled_page_number(line: str, page: int | None) -> bool:
    """``2:2 YA`` on page 2: nothing but the page's number, marks and a stray letter or two (an ayat's ``(2)`` is
    kept)."""
    digits = re.findall(r"\d+", line)
    return (page is not None and not _AYAT.match(line) and len(line.strip()) <= _GARBLED_NUMBER_CHARS and bool(digits)
            and all(int(run) == page for run in digits) and sum(c.isalpha() for c in line) <= 2)


def drop_running_lines(pages: list[str], numbers: list[int] | None = None) -> list[str]:
    """Each page without its page-number lines and the headers or footers most pages share; ``numbers`` (each
    page's number in the PDF) lets a garbled page number on the page's first or last line go too."""
    edges: Counter[str] = Counter()
    for page in pages:
        lines = [line for line in page.splitlines() if line.strip()]
        edges.update({_key(line) for line in lines[:_EDGE_LINES] + lines[-_EDGE_LINES:] if _key(line)})
    threshold = max(_RUNNING_MIN_PAGES, _RUNNING_SHARE * len(pages))
    running = {key for key, count in edges.items() if count >= threshold}
    cleaned = []
    for position, page in enumerate(pages):
        number = numbers[position] if numbers else None
        lines = page.splitlines()
        filled = [index for index, line in enumerate(lines) if line.strip()]
        edge = set(filled[:_EDGE_LINES] + filled[-_EDGE_LINES:])
        outer = set(filled[:1] + filled[-1:])
        cleaned.append("\n".join(line for index, line in enumerate(lines)
                                 if not _PAGE_NUMBER.match(line)
                                 and not (index in outer and _garbled_page_number(line, number))
                                 and not (index in edge and _key(line) and _key(line) in running)))
    return cleaned
