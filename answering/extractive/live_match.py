"""Deterministic matching of a figure question to live rows (measured rules, no model).

A row answers the question when its text cells are named in the question
("Aceh Besar" in "berapa penduduk Aceh Besar 2023") and its year cell is a
year the question names; the longest named cells win, so "Aceh Besar" beats
"Aceh". A workbook matches when its title, sheet or column names share a
distinctive word with the question.
"""
from __future__ import annotations

import re

from answering.text import content_stems, normalise

YEAR = re.compile(r"(?<!\d)(19[5-9]\d|20\d\d)(?!\d)")
YEAR_FIELD = re.compile(r"^(tahun|year|periode|th)\b", re.I)
# Words every statistics title shares: they never pick a source on their own.
GENERIC = frozenset(content_stems("aceh provinsi kabupaten kota jumlah data tahun berapa total nilai angka menurut "
                                  "per banyak persentase persen"))
AGGREGATE_WORDS = (("rata-rata", "avg"), ("rerata", "avg"), ("average", "avg"), ("tertinggi", "max"),
                   ("terendah", "min"), ("total", "sum"), ("seluruh", "sum"), ("keseluruhan", "sum"))
MAX_MATCHES = 10


def question_years(question: str) -> set[str]:
    return set(YEAR.findall(question))


def _named(value, question: str) -> int:
    text = normalise(str(value)).strip()
    if len(text) < 3 or text.replace(".", "").replace(",", "").isdigit():
        return 0
    return len(text) if re.search(rf"(?<!\w){re.escape(text)}(?!\w)", question) else 0


def matching_records(records: list[dict], question: str) -> list[dict]:
    """The records the question asks about (best-named first); [] when none is named or the year differs."""
    lowered, years = normalise(question), question_years(question)
    scored = []
    for record in records:
        year_cells = [str(v) for k, v in record.items() if YEAR_FIELD.match(str(k)) and v is not None]
        if years and year_cells and not any(YEAR.search(cell) and YEAR.search(cell).group() in years for cell in year_cells):
            continue
        score = sum(_named(v, lowered) for k, v in record.items() if not YEAR_FIELD.match(str(k)))
        score += 1 if years and year_cells else 0
        if score:
            scored.append((score, record))
    if not scored:
        return []
    best = max(score for score, _ in scored)
    return [record for score, record in scored if score == best][:MAX_MATCHES]


def _score(question_stems: set[str], *texts: str) -> int:
    return len((question_stems - GENERIC) & content_stems(" ".join(texts)))


def workbook_plan(question: str, workbooks: list) -> tuple[object, str, dict] | None:
    """The best workbook and the read that answers the question: (workbook, tool, arguments), or None."""
    stems = content_stems(question)
    best, best_score = None, 0
    for workbook in workbooks:
        sheets = list(workbook.sheets.all())
        score = _score(stems, workbook.document.title, *(s.name for s in sheets),
                       *(c["name"] for s in sheets for c in s.columns))
        if score > best_score:
            best, best_score = workbook, score
    if best is None:
        return None
    sheets = list(best.sheets.all())
    sheet = max(sheets, key=lambda s: _score(stems, s.name, *(c["name"] for c in s.columns)))
    filters = _filters(sheet, question)
    if not filters:
        return None
    aggregate = next((fn for word, fn in AGGREGATE_WORDS if word in normalise(question)), None)
    measure = _measure(sheet, stems)
    if aggregate and measure:
        return best, "workbook_compute", {"sheet": sheet.name, "aggregate": aggregate, "column": measure,
                                          "filter": filters}
    return best, "workbook_rows", {"sheet": sheet.name, "filter": filters}


def _filters(sheet, question: str) -> list[dict]:
    """Year = a year the question names; text column = the longest of its values the question names."""
    lowered, years = normalise(question), sorted(question_years(question))
    filters = []
    for column in sheet.columns:
        name, kind = column["name"], column["type"].upper()
        if YEAR_FIELD.match(name) and years:
            filters.append({"column": name, "op": "=", "value": int(years[0]) if kind != "VARCHAR" else years[0]})
        elif "values" in column:  # a category column: its values are in the catalogue
            named = max(((_named(v, lowered), v) for v in column["values"]), default=(0, None))
            if named[0]:
                filters.append({"column": name, "op": "=", "value": named[1]})
    return filters


def _measure(sheet, stems: set[str]) -> str | None:
    numeric = [c for c in sheet.columns if c["type"].upper() in ("BIGINT", "DOUBLE", "INTEGER") and not YEAR_FIELD.match(c["name"])]
    if not numeric:
        return None
    return max(numeric, key=lambda c: len(stems & content_stems(c["name"])))["name"]
