"""Clause boundaries inside an article: where the sentence or list item around a verb starts.

A revocation names its targets before the verb ("..., Peraturan Gubernur Aceh Nomor 05
Tahun 2025 ... dicabut dan dinyatakan tidak berlaku.") or lists them after a colon
("dinyatakan tidak berlaku lagi : a. ...; b. ..."). Items of one list separated by ";"
share the verb at the end when they have none of their own (``uu-1-2022`` Pasal 206).
Semicolons and colons inside parentheses ("(Lembaran Negara ... Nomor 164; Tambahan ...)")
are not boundaries.
"""
from __future__ import annotations

import re

__all__ = ["clause_items_before", "clause_items_after", "split_items"]

_OWN_VERB_RE = re.compile(r"(?i)\bberlaku\b|\bdicabut\b")
_ABBREV = {"no", "stbl", "jo", "prp", "tbh", "ln", "tln", "bd", "hlm", "dll", "dsb", "nmr"}
_AYAT_RE = re.compile(r"\(\d{1,2}[a-z]?\)\s")


def _sentence_end(text: str, i: int) -> bool:
    """``text[i] == "."`` ends a sentence (not an abbreviation or a list-item number)."""
    if i + 1 >= len(text) or not text[i + 1].isspace():
        return False
    j = i + 1
    while j < len(text) and text[j].isspace():
        j += 1
    if j >= len(text) or not (text[j].isupper() or text[j].isdigit() or text[j] == "("):
        return False
    if text[j].isdigit() and not _OWN_VERB_RE.search(text, max(0, i - 200), i):
        # "...; dan\n15. Peraturan.\n15. Peraturan ..." (OCR): a list item goes on, not a sentence
        return False
    k = i
    while k > 0 and text[k - 1].isalnum():
        k -= 1
    word = text[k:i]
    if not word or word.lower() in _ABBREV:
        return False
    # "2. Peraturan ..." / "b. ketentuan": the dot of an item marker, not a sentence end.
    return not (len(word) <= 2 and (word.isdigit() or word.islower()) and (k == 0 or not text[k - 1].isalnum()))


def _opens_ayat(text: str, lo: int, i: int) -> bool:
    """An "(n)" at ``i`` opens an ayat when only a line break or a sentence end precedes it."""
    j = i - 1
    while j >= lo and text[j] in " \t":
        j -= 1
    return j < lo or text[j] in "\n.:;"


def _boundary_before(text: str, lo: int, pos: int) -> tuple[int, str]:
    """Scan back from ``pos``: (index just after the boundary, kind) with kind ';', 'hard' or 'start'."""
    depth = 0
    i = pos - 1
    while i >= lo:
        ch = text[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth = max(0, depth - 1)
            marker = _AYAT_RE.match(text, i) if depth == 0 else None
            if marker and _opens_ayat(text, lo, i):
                return marker.end(), "hard"
        elif depth == 0:
            if ch == ";":
                return i + 1, ";"
            if ch == ":":
                return i + 1, "hard"
            if ch == "." and _sentence_end(text, i):
                return i + 1, "hard"
        i -= 1
    return lo, "start"


def clause_items_before(text: str, lo: int, verb_start: int) -> list[tuple[int, int]]:
    """The list items (start, end) that the verb at ``verb_start`` governs, in text order."""
    items: list[tuple[int, int]] = []
    end = verb_start
    start, kind = _boundary_before(text, lo, end)
    items.append((start, end))
    while kind == ";":
        prev_start, prev_kind = _boundary_before(text, lo, start - 1)
        previous = text[prev_start:start - 1]
        if _OWN_VERB_RE.search(previous):
            break
        items.append((prev_start, start - 1))
        start, kind = prev_start, prev_kind
    items.reverse()
    return [_strip(text, s, e) for s, e in items]


def split_items(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """``text[start:end]`` cut at depth-0 semicolons."""
    out: list[tuple[int, int]] = []
    depth = 0
    cursor = start
    for i in range(start, end):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0:
            out.append(_strip(text, cursor, i))
            cursor = i + 1
    out.append(_strip(text, cursor, end))
    return [(s, e) for s, e in out if e > s]


def clause_items_after(text: str, verb_end: int, hi: int) -> list[tuple[int, int]]:
    """Items of a list that follows "...: " up to the sentence end or ``hi``."""
    depth = 0
    stop = hi
    for i in range(verb_end, hi):
        ch = text[i]
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and ch == "." and _sentence_end(text, i):
            stop = i
            break
    return split_items(text, verb_end, stop)


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in " \t\r\n,":
        start += 1
    while end > start and text[end - 1] in " \t\r\n,":
        end -= 1
    return start, end
