"""Quantities a yes/no question names and the ranges a regulation states for them.

A yes/no question that names a quantity ("umur 22 tahun", "minimal 30 persen", "anak ke-4") is answered by the
range the regulation states for it: inside the range is yes, outside is no ("Tidak. … berusia 7 sampai 21
tahun."). Ordinals ("anak pertama sampai dengan anak ketiga", "ke-4") are quantities of their own measure.
"""
from __future__ import annotations

import re

_MEASURE = r"(tahun|thn|persen|%|hari|bulan|minggu|jam|kali|urutan)"
_NUMBER = r"(\d+(?:[.,]\d+)?)"
_ASKED_QUANTITY = re.compile(rf"{_NUMBER}\s*{_MEASURE}\b", re.I)
# A statute spells each number out after the digits: "13 (tiga belas) tahun".
_SPELLED = r"(?:\([^)]{1,40}\)\s*)?"
# "13 tahun sampai dengan 15 tahun", "anak pertama sampai dengan kelahiran anak ketiga" (a few words between).
_RANGE = re.compile(rf"{_NUMBER}\s*{_SPELLED}{_MEASURE}?\s*(?:sampai\s+dengan|sampai|hingga|s\.?\s?d\.?|–|-)\s*"
                    rf"(?:(?:usia|umur|berumur|berusia|kelahiran|anak|yang)\s+){{0,3}}{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_AT_LEAST = re.compile(rf"\b(?:paling\s+(?:sedikit|rendah|singkat|cepat)|sekurang-kurangnya|minimal|minimum)\s+"
                       rf"{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_AT_MOST = re.compile(rf"\b(?:paling\s+(?:banyak|tinggi|lama|lambat)|selambat-lambatnya|setinggi-tingginya|maksimal|"
                      rf"maksimum)\s+{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_BELOW = re.compile(rf"\b(?:kurang\s+dari|di\s*bawah|belum\s+(?:berumur|berusia|mencapai(?:\s+usia|\s+umur)?))\s+"
                    rf"{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_ABOVE = re.compile(rf"\b(?:lebih\s+dari|di\s*atas|melebihi)\s+{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_STATED_QUANTITY = re.compile(rf"{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
NEGATED_ASK = re.compile(r"\b(?:dilarang|tidak|tak|bukan|larangan)\b", re.I)
_ORDINAL_WORDS = {"pertama": 1, "kesatu": 1, "kedua": 2, "ketiga": 3, "keempat": 4, "kelima": 5, "keenam": 6,
                  "ketujuh": 7, "kedelapan": 8, "kesembilan": 9, "kesepuluh": 10}
_ORDINAL = re.compile(r"\bke-?\s?(\d{1,2})\b|\b(" + "|".join(_ORDINAL_WORDS) + r")\b", re.I)


def _with_ordinals(text: str) -> str:
    """"anak ke-4", "anak keempat" → "anak 4 urutan": an ordinal as a quantity of its own measure."""
    return _ORDINAL.sub(lambda m: f"{m.group(1) or _ORDINAL_WORDS[m.group(2).lower()]} urutan", text)


def _unit_word(word: str) -> str:
    word = word.lower()
    return {"thn": "tahun", "%": "persen"}.get(word, word)


def _number(text: str) -> float:
    return float(text.replace(",", "."))


def asked_quantities(question: str) -> list[tuple[float, str]]:
    return [(_number(m.group(1)), _unit_word(m.group(2))) for m in _ASKED_QUANTITY.finditer(_with_ordinals(question))]


def holds(value: float, measure: str, text: str) -> bool | None:
    """Whether the stated range of ``measure`` in ``text`` holds ``value`` (None: the text states none)."""
    text = _with_ordinals(text)
    for match in _RANGE.finditer(text):
        if _unit_word(match.group(4)) == measure:
            return _number(match.group(1)) <= value <= _number(match.group(3))
    for pattern, within in ((_AT_LEAST, lambda bound: value >= bound), (_AT_MOST, lambda bound: value <= bound),
                            (_BELOW, lambda bound: value < bound), (_ABOVE, lambda bound: value > bound)):
        for match in pattern.finditer(text):
            if _unit_word(match.group(2)) == measure:
                return within(_number(match.group(1)))
    return None


def quantity_differs(question: str, unit: str) -> bool:
    """The question names a quantity ("umur 5 tahun") that the unit states otherwise ("berusia 6 tahun") and no
    range decides it: the unit's modal says nothing about the asked case, so no yes or no is given."""
    asked = set(asked_quantities(question))
    if not asked:
        return False
    stated = {(_number(m.group(1)), _unit_word(m.group(2))) for m in _STATED_QUANTITY.finditer(_with_ordinals(unit))}
    measures = {measure for _, measure in asked}
    return any(measure in measures for _, measure in stated) and not (asked & stated)
