"""Cutting a long section into pieces of at most ``max_chars`` at the best boundary.

Boundary levels, best first: 0 ayat "(n)" (Penjelasan "Ayat (n)"; closing sub-blocks;
paragraphs for plain documents), 1 list items / paragraphs / table start+end,
2 line ends (= table row ends), 3 sentence ends, 4 whitespace, 5 inside a table row.
"""
from __future__ import annotations

import re
from bisect import bisect_right

from .segments import Section

__all__ = ["Tables", "markers", "split_section", "AYAT_RE", "AYAT_PENJ_RE", "ITEM_RE", "ITEM_PENJ_RE"]


_TABLE_LINE_RE = re.compile(r"(?m)^[^\n]*(?: \| |^\|[^\n]*\|[ \t]*$)[^\n]*$")


def _table_runs(text: str) -> list[tuple[int, int, int]]:
    """(start, end, header_end) of each run of consecutive table lines."""
    runs: list[tuple[int, int, int]] = []
    for m in _TABLE_LINE_RE.finditer(text):
        s, e = m.start(), m.end()
        if runs and text.count("\n", runs[-1][1], s) == 1 and not text[runs[-1][1]:s].strip():
            runs[-1] = (runs[-1][0], e, runs[-1][2])
        else:
            runs.append((s, e, e))
    out = []
    for s, e, h in runs:
        while s < e and text[s].isspace():
            s += 1
        out.append((s, e, h))
    return out


class Tables:
    def __init__(self, text: str):
        self.text = text
        self.runs = _table_runs(text)
        self.starts = [r[0] for r in self.runs]

    def run_at(self, pos: int) -> tuple[int, int, int] | None:
        i = bisect_right(self.starts, pos) - 1
        if i >= 0 and self.runs[i][0] <= pos < self.runs[i][1]:
            return self.runs[i]
        return None

    def inside_row(self, pos: int) -> bool:
        """True when ``pos`` lies inside a table row but not at its first character."""
        run = self.run_at(pos)
        if run is None:
            return False
        j = pos - 1
        while j >= run[0] and self.text[j] in " \t":
            j -= 1
        return j >= run[0] and self.text[j] != "\n"

    def header_for(self, start: int) -> str | None:
        run = self.run_at(start)
        if run is None or start < run[2]:
            return None
        return self.text[run[0]:run[2]].strip()


# --------------------------------------------------------------------------- markers

AYAT_RE = re.compile(r"(?m)^[ \t]*\((\d{1,3}[a-z]?)\)(?=\s)|(?<=[.;:] )\((\d{1,3}[a-z]?)\)(?= [A-Z])")
AYAT_PENJ_RE = re.compile(r"(?m)^[ \t]*Ayat[ \t]+\((\d{1,3}[a-z]?)\)|(?<=[.;:] )Ayat \((\d{1,3}[a-z]?)\)")
ITEM_RE = re.compile(r"(?m)^[ \t]*([a-z]|\d{1,3})[.)](?=[ \t]+\S)|(?<=[;:] )([a-z]|\d{1,3})\.(?= \S)")
ITEM_PENJ_RE = re.compile(r"(?m)^[ \t]*(?:Huruf[ \t]+([a-z])|Angka[ \t]+(\d{1,3}))\b")
_PARA_RE = re.compile(r"\n[ \t]*\n\s*(?=\S)")
_LINE_RE = re.compile(r"\n\s*(?=\S)")
_SENT_RE = re.compile(r"[.!?;:][\"”’)]?\s+(?=\S)")
_WS_RE = re.compile(r"\s+(?=\S)")
_CLOSE_SUB_RE = re.compile(
    r"(?m)^[ \t]*(?:Diundangkan\s+di|LEMBARAN\s|BERITA\s|TAMBAHAN\s+LEMBARAN|Salinan\s+sesuai|SALINAN\b|Tembusan|NOREG)"
)


def markers(regex: re.Pattern, text: str, s: int, e: int) -> list[tuple[int, str]]:
    out = []
    for m in regex.finditer(text, s, e):
        pos = m.start()
        while pos < e and text[pos] in " \t":
            pos += 1
        groups = [g for g in m.groups() if g is not None]
        value = groups[0] if groups else ""
        out.append((pos, value))
    return out


# --------------------------------------------------------------------------- splitting


def _candidates(text: str, sec: Section, tables: Tables) -> list[list[int]]:
    s, e = sec.start, sec.end
    levels: list[list[int]] = [[], [], [], [], [], []]
    in_penj = sec.kind == "penjelasan"
    if sec.kind == "text":
        levels[0] += [m.end() for m in _PARA_RE.finditer(text, s, e)]
    elif sec.kind == "closing":
        levels[0] += [p for p, _ in markers(_CLOSE_SUB_RE, text, s, e)]
    else:
        levels[0] += [p for p, _ in markers(AYAT_PENJ_RE if in_penj else AYAT_RE, text, s, e)]
        levels[1] += [m.end() for m in _PARA_RE.finditer(text, s, e)]
    levels[1] += [p for p, _ in markers(ITEM_PENJ_RE if in_penj else ITEM_RE, text, s, e)]
    for run_s, run_e, _ in tables.runs[max(0, bisect_right(tables.starts, s) - 1):]:
        if run_s >= e:
            break
        if run_e <= s:
            continue
        levels[1].append(run_s)
        nxt = run_e
        while nxt < e and text[nxt].isspace():
            nxt += 1
        levels[1].append(nxt)
    levels[2] += [m.end() for m in _LINE_RE.finditer(text, s, e)]
    levels[3] += [m.end() for m in _SENT_RE.finditer(text, s, e)]
    levels[4] += [m.end() for m in _WS_RE.finditer(text, s, e)]
    out: list[list[int]] = [[] for _ in levels]
    for lvl, cands in enumerate(levels):
        for p in cands:
            if not (s < p < e) or not text[p - 1].isspace() or text[p].isspace():
                continue
            if lvl != 2 and tables.inside_row(p):
                out[5].append(p)
            else:
                out[lvl].append(p)
    return [sorted(set(c)) for c in out]


def split_section(
    text: str, sec: Section, max_chars: int, min_chars: int, tables: Tables, first_max: int | None = None
) -> list[tuple[int, int]]:
    """Pieces of ``sec``; the first one is at most ``first_max`` long when given (it will be
    merged with a tiny preceding chunk)."""
    s, e = sec.start, sec.end
    limit = first_max if first_max is not None else max_chars
    if e - s <= limit:
        return [(s, e)]
    levels = _candidates(text, sec, tables)
    pieces: list[tuple[int, int]] = []
    p = s
    while e - p > limit:
        hi = p + limit + 1  # the char before a candidate is whitespace, so the piece fits
        b = None
        # Structural boundaries first (a piece of at least min_chars, then any size);
        # cutting inside a table row (level 5) only when nothing else fits.
        for group in (levels[:5], levels[5:]):
            for lo in (p + min_chars, p):
                for cands in group:
                    i = bisect_right(cands, hi) - 1
                    if i < 0 or cands[i] <= lo:
                        continue
                    j = bisect_right(cands, min(hi, e - min_chars)) - 1
                    b = cands[j] if j >= 0 and cands[j] > lo else cands[i]
                    break
                if b is not None:
                    break
            if b is not None:
                break
        if b is None:  # one token longer than max_chars: keep it whole
            for cands in levels:
                i = bisect_right(cands, hi)
                if i < len(cands) and (b is None or cands[i] < b):
                    b = cands[i]
            if b is None:
                break
        end = b
        while end > p and text[end - 1].isspace():
            end -= 1
        pieces.append((p, end))
        p = b
        limit = max_chars
    pieces.append((p, e))
    return pieces
