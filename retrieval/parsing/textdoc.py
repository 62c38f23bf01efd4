"""Heading / paragraph sections for documents that are not regulations.

Headings: markdown ("# ...", as also produced for HTML/DOCX headings), Roman or
decimal numbered headings ("II. METODE", "2.1 Latar Belakang"), and short all-caps
lines.  The section path is the stack of enclosing headings.
"""
from __future__ import annotations

import re

from .segments import Section, finish_sections, logical_lines

__all__ = ["text_sections"]


_MD_HEADING_RE = re.compile(r"^(#{1,6})\s+(\S.*?)\s*#*$")
_NUM_HEADING_RE = re.compile(r"^((?:\d{1,2}\.)+\d{0,2}|\d{1,2}\.?)\s+(\S.{0,100})$")
_ROMAN_HEADING_RE = re.compile(r"^(?:BAB\s+)?([IVX]{1,5})[.)]?\s+([A-Z][A-Z0-9 ,/&()'’-]{2,100})$")


def _heading_level(line: str) -> tuple[int, str] | None:
    m = _MD_HEADING_RE.match(line)
    if m:
        return len(m.group(1)), m.group(2)
    if len(line) > 110 or line[-1] in ".;:,!?":
        return None
    m = _ROMAN_HEADING_RE.match(line)
    if m:
        return 1, line
    m = _NUM_HEADING_RE.match(line)
    if m and m.group(2)[0].isupper() and len(m.group(2).split()) <= 12:
        depth = len([p for p in m.group(1).split(".") if p])
        words = m.group(2).split()
        capitalised = sum(1 for w in words if w[:1].isupper() or not w[:1].isalpha())
        if depth > 1 or capitalised / len(words) >= 0.6:
            return depth + 1, line
    letters = [c for c in line if c.isalpha()]
    if len(letters) >= 4 and all(c.isupper() for c in letters) and len(line.split()) <= 14:
        return 1, line
    return None


def text_sections(text: str) -> list[Section]:
    """Heading / paragraph structure for documents that are not regulations."""
    sections: list[Section] = []
    stack: list[tuple[int, str]] = []
    cur: Section | None = None
    for s, e, _inline in logical_lines(text):
        line = text[s:e]
        found = _heading_level(line) if " | " not in line else None
        if found:
            level, title = found
            title = " ".join(title.split())[:200]
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, title))
            path = tuple(t for _, t in stack)
            if cur is not None and cur.pending:
                cur.path = path
            else:
                cur = Section(start=s, kind="text", path=path, ref_kind="text", pending=True)
                sections.append(cur)
            continue
        if cur is None:
            cur = Section(start=s, kind="text", path=(), ref_kind="text")
            sections.append(cur)
        cur.pending = False
    return finish_sections(text, sections)
