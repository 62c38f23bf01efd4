"""A date the question asks about the time after ("diperpanjang lagi gak setelah 8 Januari 2026?", "still in force
after 1 May 2026?"): the evidence answers it only when what it quotes states a later date. A period that ends on
that very date ("… sampai dengan 8 Januari 2026") says nothing about the time after it, unless the question asks
whether something is still in force and the text says until when it is ("… berlaku sampai dengan 30 April 2026"):
then the answer is that date's (``in_force_after``).
"""
from __future__ import annotations

import datetime
import re

# Each month's number by its Indonesian (old spellings too) and English names.
MONTH_NUMBER = {name: month for month, names in enumerate((
    "januari january", "februari pebruari february", "maret march", "april", "mei may", "juni june", "juli july",
    "agustus august", "september", "oktober october", "november nopember", "desember december"), start=1)
    for name in names.split()}
_DAY_MONTH_YEAR = r"(\d{1,2})\s+([^\W\d_]+)\s+(\d{4})"
_AFTER = re.compile(r"\b(?:setelah|sesudah|lewat|melewati|after|beyond)\s+(?:tanggal\s+|the\s+)?" + _DAY_MONTH_YEAR, re.I)
_DATE = re.compile(r"\b" + _DAY_MONTH_YEAR + r"\b")
# "… berlaku sampai dengan 30 April 2026", "berlaku hingga tanggal …": until when the text holds.
_IN_FORCE_UNTIL = re.compile(r"\bberlaku\s+(?:sampai\s+dengan|sampai|hingga)\s+(?:tanggal\s+)?" + _DAY_MONTH_YEAR, re.I)


def _date(day: str, month: str, year: str) -> datetime.date | None:
    number = MONTH_NUMBER.get(month.lower())
    try:
        return datetime.date(int(year), number, int(day)) if number else None
    except ValueError:
        return None


def asked_after(question: str) -> tuple[datetime.date, str] | None:
    """The date the question asks about the time after, with the words that ask it ("setelah 8 Januari 2026")."""
    match = _AFTER.search(question)
    date = match and _date(*match.groups())
    return (date, " ".join(match.group(0).split())) if date else None


def in_force_after(question: str, text: str) -> bool | None:
    """Whether what ``text`` says holds "berlaku sampai dengan <date>" still holds after the date the question asks
    past (True: its end is later); None when the question asks past no date or the text states no such end."""
    asked = asked_after(question)
    ends = _in_force_ends(text)
    return max(ends) > asked[0] if asked and ends else None


def _in_force_ends(text: str) -> list[datetime.date]:
    return [d for d in (_date(*m) for m in _IN_FORCE_UNTIL.findall(text)) if d]


def unmet_after(question: str, quoted: str, *, status: bool = False) -> str | None:
    """The question's "setelah <date>" when the quoted text states dates and none of them is later; None when the
    question asks no such date or the text states none (nothing to compare), or, for a question asking whether
    something still holds (``status``), when the text says until when it does (the answer either way)."""
    asked = asked_after(question)
    if asked is None or (status and _in_force_ends(quoted)):
        return None
    stated = [d for d in (_date(*m) for m in _DATE.findall(quoted)) if d]
    return asked[1] if stated and not any(d > asked[0] for d in stated) else None
