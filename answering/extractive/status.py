"""Whether a named instrument still holds, said first: from the clause that revokes or amends it.

"Tidak. Undang-Undang Nomor 32 Tahun 2004 tentang Pemerintahan Daerah dicabut dan dinyatakan tidak berlaku." from a
revoking clause or the item of a revoking list whose subject is the instrument; "Ya. Beberapa ketentuan dalam Qanun
Aceh Nomor 6 Tahun 2014 tentang Hukum Jinayat diubah." from an amending clause (a no when the question asks whether
it was revoked, the clause alone when it asks which of two); "Ya. Pembebasan … berlaku sampai dengan 30 April 2026."
for "masih berlaku setelah 1 Januari 2026?" from a clause that says until when it holds (a no past that date). The
sentence is the clause's words, without gazette references, behind the yes/no: the gate checks it like any claim
(opener.py).
"""
from __future__ import annotations

import re

from answering.extractive.candidates import Candidate
from answering.extractive.dates import in_force_after
from answering.extractive.phrasing import NO, YES, short, tidy
from answering.extractive.question import Question

_REVOKED = re.compile(r"\b(dicabut|dinyatakan\s+tidak\s+berlaku|tidak\s+berlaku\s+lagi|repealed|revoked)\b", re.I)


def _revokes_named(question: Question, unit: str) -> bool:
    """The unit revokes the regulation the question names: it says "dicabut" / "tidak berlaku" and cites that
    regulation by its number and year."""
    return bool(_REVOKED.search(unit)) and cites_named(question, unit)


def cites_named(question: Question, text: str) -> bool:
    """The text cites an instrument the question names, by its number and year."""
    flat = " ".join(text.split())
    return any(citation.search(flat) for citation in _citations(question))


def _citations(question: Question) -> list[re.Pattern]:
    """"Nomor <number> Tahun <year>" of each instrument the question names by number and year ("Nomor 05" is 5)."""
    return [re.compile(rf"\bNomor\s+0*{re.escape(named.number.lstrip('0'))}\s+Tahun\s+{named.year}\b", re.I)
            for named in question.named if named.number and named.year]


_GAZETTE = re.compile(r"\s*\((?:Lembaran|Berita|Tambahan)[^)]*\)", re.I)
_PREDICATE = re.compile(r"\b(dicabut(?:\s+dan\s+dinyatakan\s+tidak\s+berlaku(?:\s+lagi)?)?|"
                        r"dinyatakan\s+tidak\s+berlaku(?:\s+lagi)?)\b", re.I)
_ITEM_SPLIT = re.compile(r"(?:^|[;:]\s+(?:dan\s+|atau\s+)?)(?:[a-z]|\d{1,2})\.\s+")    # "…; dan c. …" too
_ARTICLE_HEADING = re.compile(r"(?m)^\s*Pasal\s+\d+[A-Z]?\s*$")     # an article's own heading line
_KEPT = re.compile(r"\b(?:tetap|masih)\s+berlaku\b", re.I)
# The instrument an item revokes is its subject: cited at the item's start ("Peraturan Pemerintah Nomor 43 Tahun
# 2006 …"), not inside another subject ("Peraturan … yang merupakan pelaksanaan dari PP 53/2010 … tetap berlaku").
SUBJECT_REACH = 45


def _revoking_item(question: Question, passage: str) -> str | None:
    """"Undang-Undang Nomor 32 Tahun 2004 tentang Pemerintahan Daerah dicabut dan dinyatakan tidak berlaku.": the
    item of a revoking list whose subject is the instrument asked about, with the predicate that closes the item or
    the list (within its article)."""
    for article in _ARTICLE_HEADING.split(passage):
        flat = " ".join(article.split())
        for cited in _citations(question):
            for item in _ITEM_SPLIT.split(flat)[1:]:
                head = item.split(" sebagaimana ")[0]
                found = cited.search(head)
                if not found or found.start() > SUBJECT_REACH or _KEPT.search(item):
                    continue
                predicate = _PREDICATE.search(flat, flat.index(item))
                if predicate is None:
                    continue
                core = _GAZETTE.split(item)[0] if _GAZETTE.search(item) else _PREDICATE.split(head)[0]
                return tidy(f"{core.strip(' ,;')} {predicate.group(1)}")
    return None


_AMENDED = re.compile(r"\bdiubah\b", re.I)
# "masih berlaku atau sudah diubah?" asks which of two, not yes or no ("… atau tidak?" is a yes/no question).
_ALTERNATIVE = re.compile(r"\b(?:atau|ato|or)\s+(?!tidak\b|tdk\b|nggak\b|gak\b|ga\b|enggak\b|belum\b|bukan\b|not\b)\w", re.I)
_ASKS_REVOKED = re.compile(r"\b(?:dicabut|tidak\s+berlaku|gak\s+berlaku|revoked|repealed|no\s+longer)\b", re.I)
_ARTICLE_HEAD = re.compile(r"^\s*Pasal\s+[IVXLC]+\b\s*", re.I)


def _amending_sentence(question: Question, text: str, language: str) -> str | None:
    """"Ya. Beberapa ketentuan dalam Qanun Aceh Nomor 6 Tahun 2014 tentang Hukum Jinayat diubah.": a clause that
    amends the instrument the question names (and revokes nothing) says it holds, changed. Asked whether it was
    revoked, that is a no; asked which of two ("masih berlaku atau sudah diubah?"), the clause says it alone."""
    if _REVOKED.search(text):
        return None
    for cited in _citations(question):
        found = cited.search(text)
        change = _AMENDED.search(text, found.end()) if found else None
        if change:
            clause = re.sub(r"\s*,\s*(?=diubah$)", " ", _GAZETTE.sub("", _ARTICLE_HEAD.sub("", text[:change.end()])))
            said = tidy(clause.strip(" ,") + ".")
            if _ALTERNATIVE.search(question.text):
                return said
            return f"{(NO if _ASKS_REVOKED.search(question.text) else YES)[language]} {said}"
    return None


def status_sentence(question: Question, lead: Candidate, text: str, language: str) -> str | None:
    """The first sentence of a status answer led by ``lead`` (``text``: its lead-in, tidied), or None."""
    if _revokes_named(question, text):
        return f"{NO[language]} {short(_GAZETTE.sub('', text))}"
    if revoked := _revoking_item(question, lead.passage.text):
        return f"{NO[language]} {revoked}"
    if (holds := in_force_after(question.text, text)) is not None:
        return f"{(YES if holds else NO)[language]} {short(text)}"
    return _amending_sentence(question, text, language)
