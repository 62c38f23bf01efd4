"""Numbers an Indonesian regulation spells out without digits: "berusia tujuh sampai dengan lima belas tahun".

Most regulations write "14 (empat belas) hari"; older ones write the words alone. A spelled number is read as a
quantity only when its unit follows it ("lima belas tahun", "dua puluh persen"), so "salah satu" or "kedua belah
pihak" are no figures. ``faithfulness.quantities`` reads them beside the digits.
"""
from __future__ import annotations

import re

_ONES = {"satu": 1, "dua": 2, "tiga": 3, "empat": 4, "lima": 5, "enam": 6, "tujuh": 7, "delapan": 8, "sembilan": 9}
_ONE = "|".join(_ONES)
# "lima belas", "dua puluh lima", "seratus dua puluh", "tiga ratus", "sepuluh": up to 9,999.
_GROUP = rf"(?:(?:{_ONE})\s+ribu|seribu)?\s*(?:(?:{_ONE})\s+ratus|seratus)?\s*(?:(?:{_ONE})\s+puluh|sepuluh|sebelas|(?:{_ONE})\s+belas)?\s*(?:{_ONE})?"
SPELLED = re.compile(rf"(?<![\w(])(?P<words>{_GROUP})(?=\s+(?P<unit>\w+|%))", re.I)


def spelled_value(words: str) -> int | None:
    """The value of a spelled number ("dua puluh lima" -> 25), or None when the words are not one."""
    parts = words.lower().split()
    if not parts:
        return None
    total, index = 0, 0
    for scale, word in ((1000, "ribu"), (100, "ratus"), (10, "puluh")):
        if index < len(parts) and parts[index] == f"se{word}":
            total, index = total + scale, index + 1
        elif index + 1 < len(parts) and parts[index + 1] == word and parts[index] in _ONES:
            total, index = total + _ONES[parts[index]] * scale, index + 2
    if index < len(parts) and parts[index] == "sebelas":
        total, index = total + 11, index + 1
    elif index + 1 < len(parts) and parts[index + 1] == "belas" and parts[index] in _ONES:
        total, index = total + 10 + _ONES[parts[index]], index + 2
    elif index < len(parts) and parts[index] in _ONES:
        total, index = total + _ONES[parts[index]], index + 1
    return total if index == len(parts) and total else None


def spelled_numbers(text: str):
    """(value, the word after it) for each spelled number followed by a word."""
    for match in SPELLED.finditer(text):
        words = match.group("words").strip()
        value = spelled_value(words) if words else None
        if value is not None:
            yield value, match.group("unit").lower()
