"""Quantities a yes/no question names and the ranges a regulation states for them.

A yes/no question that names a quantity ("umur 22 tahun", "minimal 30 persen", "anak ke-4") is answered by the
range the regulation states for it: inside the range is yes, outside is no ("Tidak. … berusia 7 sampai 21
tahun."). Ordinals ("anak pertama sampai dengan anak ketiga", "ke-4") are quantities of their own measure.
A figure asked as a limit ("minimal berapa persen", "batas waktunya") is stated by a unit with a bound of that
direction ("paling sedikit 10%"), and one asked as a range ("dr umur brp sampe brp") by a unit stating both ends:
``asked_bound`` and ``states_bound``, one of the unit ranker's signals.
"""
from __future__ import annotations

import re

from answering.extractive.focus import SPELLED as IN_WORDS   # "lima belas", "dua puluh satu"

_MEASURE = r"(tahun|thn|persen|%|hari|bulan|minggu|jam|kali|urutan)"
_NUMBER = r"(\d+(?:[.,]\d+)?)"
# Not a citation: "Nomor 29 Tahun 2025" names a regulation, not 29 years.
_ASKED_QUANTITY = re.compile(rf"(?<!nomor )(?<!no\. )(?<!no )\b{_NUMBER}\s*{_MEASURE}\b(?!\s*\d{{4}}\b)", re.I)
# A statute spells each number out after the digits: "13 (tiga belas) tahun".
_SPELLED = r"(?:\([^)]{1,40}\)\s*)?"
# "paling sedikit berumur 14 tahun", "di bawah usia 18 tahun": an age's word between the bound and its number.
_AGED = r"(?:(?:berumur|berusia|usia|umur)\s+)?"
_THROUGH = r"sampai\s+dengan|sampai|hingga|s\.?\s?d\.?"


def _range(number: str, through: str, between: str) -> re.Pattern:
    """Two quantities joined by ``through``, with up to three ``between`` words before the second."""
    return re.compile(rf"{number}\s*{_SPELLED}{_MEASURE}?\s*(?:{through})\s*(?:(?:{between})\s+){{0,3}}{number}\s*"
                      rf"{_SPELLED}{_MEASURE}\b", re.I)


# "13 tahun sampai dengan 15 tahun", "anak pertama sampai dengan kelahiran anak ketiga" (a few words between).
_RANGE = _range(_NUMBER, rf"{_THROUGH}|–|-", "usia|umur|berumur|berusia|kelahiran|anak|yang")
# The words that state a bound below and a bound above ("paling sedikit 10%", "paling lama 14 hari").
LOWER_BOUND = r"paling\s+(?:sedikit|rendah|singkat|cepat)|sekurang-kurangnya|minimal|minimum"
UPPER_BOUND = r"paling\s+(?:banyak|tinggi|lama|lambat)|selambat-lambatnya|setinggi-tingginya|maksimal|maksimum"
_AT_LEAST = re.compile(rf"\b(?:{LOWER_BOUND})\s+"
                       rf"{_AGED}{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_AT_MOST = re.compile(rf"\b(?:{UPPER_BOUND})\s+{_AGED}{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_BELOW = re.compile(rf"\b(?:kurang\s+dari|di\s*bawah|belum\s+(?:berumur|berusia|mencapai(?:\s+usia|\s+umur)?))\s+"
                    rf"{_AGED}{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
_ABOVE = re.compile(rf"\b(?:lebih\s+dari|di\s*atas|melebihi)\s+{_AGED}{_NUMBER}\s*{_SPELLED}{_MEASURE}\b", re.I)
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


# "anak aku umur 14", "usia 17 boleh …?": an age without its unit is in years.
_BARE_AGE = re.compile(r"\b((?:ber)?(?:umur|usia)|aged?)\s+(\d{1,2})\b"
                       r"(?!\s*(?:[.,]\d|tahun|thn|bulan|minggu|hari|years?|months?))", re.I)


def asked_quantities(question: str) -> list[tuple[float, str]]:
    read = _BARE_AGE.sub(r"\1 \2 tahun", _with_ordinals(question))
    return [(_number(m.group(1)), _unit_word(m.group(2))) for m in _ASKED_QUANTITY.finditer(read)]


# Periods compare across their units, in days (a month as 30, a year as 365): "3 minggu" is below "1 bulan". Not
# hours: "maksimum 3 jam" is a working day's length, never the period or age a question names in days or years.
_DAYS = {"hari": 1.0, "minggu": 7.0, "bulan": 30.0, "tahun": 365.0}


def _as(value: float, measure: str, stated: str) -> float | None:
    """``value`` of ``measure`` in the ``stated`` unit; None when the two do not compare."""
    stated = _unit_word(stated)
    if stated == measure:
        return value
    if stated in _DAYS and measure in _DAYS:
        return value * _DAYS[measure] / _DAYS[stated]
    return None


def bounded(value: float, measure: str, text: str) -> tuple[bool, float] | None:
    """``(holds, width)``: whether the first range ``text`` states for the measure holds ``value``, and how wide
    the range is in days or in the measure (a bound below or a range is narrower than a bound above: the
    narrowest range that holds is the most specific rule). None: the text states none."""
    text = _with_ordinals(text)
    for match in _RANGE.finditer(text):
        low, high = _number(match.group(1)), _number(match.group(3))
        asked = _as(value, measure, match.group(4))
        if asked is not None:
            return low <= asked <= high, _width(high - low, match.group(4))
    for pattern, within, narrow in ((_AT_LEAST, lambda bound, v: v >= bound, False),
                                    (_AT_MOST, lambda bound, v: v <= bound, True),
                                    (_BELOW, lambda bound, v: v < bound, True),
                                    (_ABOVE, lambda bound, v: v > bound, False)):
        for match in pattern.finditer(text):
            asked = _as(value, measure, match.group(2))
            if asked is not None:
                bound = _number(match.group(1))
                return within(bound, asked), _width(bound, match.group(2)) if narrow else float("inf")
    return None


def _width(amount: float, unit: str) -> float:
    unit = _unit_word(unit)
    return amount * _DAYS.get(unit, 1.0)


def quantity_differs(question: str, unit: str) -> bool:
    """The question names a quantity ("umur 5 tahun") that the unit states otherwise ("berusia 6 tahun") and no
    range decides it: the unit's modal says nothing about the asked case, so no yes or no is given."""
    asked = set(asked_quantities(question))
    if not asked:
        return False
    stated = {(_number(m.group(1)), _unit_word(m.group(2))) for m in _STATED_QUANTITY.finditer(_with_ordinals(unit))}
    measures = {measure for _, measure in asked}
    return any(measure in measures for _, measure in stated) and not (asked & stated)


# A figure asked as a limit: "minimal brp", "paling lama", "batas atas", "at least", "maximum", "batas waktu" (a
# deadline is a bound above). The first ask's words decide.
_ASKS_LOWER = re.compile(rf"\b(?:{LOWER_BOUND}|batas\s+(?:bawah|minimal|minimum)|at\s+least|no\s+less\s+than)\b", re.I)
_ASKS_UPPER = re.compile(rf"\b(?:{UPPER_BOUND}|maks|max|batas\s+(?:atas|maksimal|maksimum|waktu)|tenggat|"
                         r"at\s+most|no\s+more\s+than|up\s+to|cap|ceiling|deadline|time\s+limit|maximum)\b", re.I)
# What a regulation says a limit with: the bound words, "batas atas", "tidak melebihi", "tidak kurang dari".
_STATES_LOWER = re.compile(rf"\b(?:{LOWER_BOUND}|batas\s+bawah|tidak\s+(?:boleh\s+)?kurang\s+dari|at\s+least)\b", re.I)
_STATES_UPPER = re.compile(rf"\b(?:{UPPER_BOUND}|sebanyak-banyaknya|batas\s+atas|tidak\s+(?:boleh\s+)?(?:melebihi|lebih\s+dari)|"
                           r"at\s+most|no\s+later\s+than|not\s+exceed\w*)\b", re.I)


# Both ends asked at once: "dr umur brp sampe brp?", "berapa sampai berapa persen", "from what age to what age".
_ASKS_RANGE = re.compile(r"\b(?:berapa|brp|what|which)\b(?:\s+\w+){0,3}?\s+(?:sampai|sampe|hingga|until|to)\s+"
                         r"(?:\w+\s+){0,2}?(?:berapa|brp|what|which)\b", re.I)
# A range stated in digits or in words: "7 (tujuh) sampai dengan 15 (lima belas) tahun", "tujuh sampai dengan lima
# belas tahun" (a statute may spell its numbers out only).
_ANY_NUMBER = rf"(?:\d+(?:[.,]\d+)?|{IN_WORDS})"
# A quantity a statute writes in words alone ("berusia tujuh sampai dengan lima belas tahun"): older laws do.
WORDED_QUANTITY = re.compile(rf"\b{IN_WORDS}\s+(?P<measure>tahun|bulan|minggu|hari|jam|persen|kali|orang)\b", re.I)
WORDED_PERIODS = frozenset({"tahun", "bulan", "minggu", "hari", "jam"})
_STATES_RANGE = _range(rf"\b{_ANY_NUMBER}", _THROUGH, "usia|umur|berumur|berusia")


def asked_bound(ask: str) -> str | None:
    """"lower", "upper", "range" or None: the limit a figure question asks for (both ends: a range)."""
    if _ASKS_RANGE.search(ask):
        return "range"
    lower, upper = bool(_ASKS_LOWER.search(ask)), bool(_ASKS_UPPER.search(ask))
    return None if lower == upper else ("lower" if lower else "upper")


_STATES = {"lower": _STATES_LOWER, "upper": _STATES_UPPER, "range": _STATES_RANGE}


def states_bound(text: str, bound: str | None) -> bool:
    """The text states a limit of the kind asked ("paling sedikit 10%" for "minimal berapa persen", "tujuh sampai
    dengan lima belas tahun" for "dr umur brp sampe brp")."""
    return bound is not None and bool(_STATES[bound].search(text))
