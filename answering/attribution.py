"""A framing line that names its source ("Berdasarkan Qanun Aceh Nomor 1 Tahun 2024 Pasal 8:").

Such a line asserts one thing: that what follows comes from that regulation and
article. On /query/v2 it cites the passage it introduces and is checked against
that passage's identity (document title, legal reference, section path), not
its text: the words of a reference are rarely in the passage body. A line that
names nothing ("Berikut rinciannya:", "Berdasarkan dokumen yang tersedia:")
is not an attribution and stays framing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from answering.extractive.anchors import PASAL, NamedRegulation, find_named_regulations
from answering.text import content_stems
from retrieval.facade.language import covered_articles

LEAD_IN = re.compile(
    r"^\s*(?:berdasarkan|menurut|sesuai(?:\s+dengan)?|mengacu\s+(?:pada|kepada)|merujuk\s+(?:pada|kepada)|"
    r"according\s+to|based\s+on|pursuant\s+to|under)\s+",
    re.IGNORECASE,
)
# Words a source name may hold without naming anything ("dokumen yang tersedia", a bare "Qanun").
GENERIC_STEMS = content_stems(
    "dokumen sumber data informasi berikut tersedia tersebut terkait ketentuan peraturan perundang undangan "
    "tentang qanun gubernur aceh pemerintah regulasi documents document sources source available following "
    "regulation regulations information"
)
# A part of some document ("Berdasarkan Lampiran:") names no source on its own; beside a name it is checked.
PART_STEMS = content_stems("lampiran penjelasan umum pembukaan penutup diktum bab bagian paragraf annex appendix")
_DIGITS = re.compile(r"\d+")
_ROMAN = re.compile(r"[ivxl]+")


@dataclass(frozen=True)
class Attribution:
    """What a framing line names as its source."""

    instruments: tuple[NamedRegulation, ...]
    articles: frozenset[str]            # "8", "12A", "I"
    words: frozenset[str]               # content stems besides the instruments, articles and generic words
    numbers: frozenset[str]             # digits besides the instruments' and articles' (an ayat, an angka)


# "(5 dari 7 butir ditampilkan)": the layout's note on a list cut short (extractive/layout.py), not a name.
SHOWN_NOTE = re.compile(r"\s*\(\d+ (?:dari|of) \d+ (?:butir ditampilkan|items shown)\)$")


@dataclass(frozen=True)
class SourceIdentity:
    """A passage's identity as the reader sees it beside the passage."""

    title: str
    legal_reference: str | None = None
    section_path: tuple[str, ...] = ()

    @classmethod
    def of(cls, passage) -> "SourceIdentity":
        return cls(passage.document_title, passage.legal_reference, tuple(passage.section_path))

    @property
    def text(self) -> str:
        return " | ".join([self.title, self.legal_reference or "", *self.section_path])

    def is_named_by(self, heading: str) -> bool:
        """The heading is this identity as the embedded answerer prints it (its legal reference or its title,
        possibly cut with "…")."""
        heading = SHOWN_NOTE.sub("", " ".join(heading.split())).removesuffix(" …")
        return bool(heading) and any((name or "").startswith(heading) for name in (self.legal_reference, self.title))


def attribution(text: str) -> Attribution | None:
    """The source a framing line names, or None when it names none.

    It names a source when, after an optional lead-in ("Berdasarkan", "According to"), the rest
    names a regulation (type, number, year) or an article, or, after a lead-in, a title. A line that
    says more than the name ("Berdasarkan Pasal 8, PPID wajib …") is an attribution only when it ends
    with a colon, as a lead-in does; its other words must then be the passage's identity too.
    """
    lead = LEAD_IN.match(text)
    source = text[lead.end():] if lead else text
    source = source.strip()
    colon = source.endswith(":")
    source = source.rstrip(":").strip()
    instruments = find_named_regulations(source)
    articles: set[str] = set()
    leftover = list(source)
    for named in instruments:
        leftover[named.start:named.end] = " " * (named.end - named.start)
    for match in PASAL.finditer(source):
        # The article numbers are checked as articles; an ayat or angka after them as a number.
        end = match.end("last") if match.group("last") else match.end("pasal")
        leftover[match.start():end] = " " * (end - match.start())
        articles.update(_articles(match))
    rest = "".join(leftover)
    words = frozenset(content_stems(rest) - GENERIC_STEMS)
    title_words = {word for word in words - PART_STEMS if not _ROMAN.fullmatch(word)}     # not "Lampiran II"
    named = bool(instruments or articles or (lead and title_words))
    if not named or (words and not colon):
        return None
    return Attribution(instruments, frozenset(articles), words, frozenset(_numbers(rest)))


def attributes_to(named: Attribution, identity: SourceIdentity) -> bool:
    """Whether the passage with ``identity`` is the source ``named`` names: its regulation, its articles,
    and every other word and number of the name are the identity's."""
    own = _own_instrument(identity)
    for instrument in named.instruments:
        if own is None or not _same_instrument(instrument, own):
            return False
    if named.articles and not named.articles <= covered_articles(identity.section_path, identity.legal_reference):
        return False
    return named.words <= content_stems(identity.text) and named.numbers <= _numbers(identity.text)


def _articles(match: re.Match) -> set[str]:
    first, last = match.group("pasal").upper(), (match.group("last") or "").upper()
    if last and first.isdigit() and last.isdigit() and 0 <= int(last) - int(first) <= 50:
        return {str(n) for n in range(int(first), int(last) + 1)}
    return {first, last} - {""}


def _numbers(text: str) -> set[str]:
    return {digits.lstrip("0") or "0" for digits in _DIGITS.findall(text)}


def _own_instrument(identity: SourceIdentity) -> NamedRegulation | None:
    """The passage's own regulation: its reference's citation comes first (an amendment's title names the
    instrument it amends after its own)."""
    for text in (identity.legal_reference or "", identity.title):
        named = find_named_regulations(text)
        if named:
            return named[0]
    return None


def _same_instrument(named: NamedRegulation, own: NamedRegulation) -> bool:
    if named.year != own.year or (named.number.lstrip("0") or "0") != (own.number.lstrip("0") or "0"):
        return False
    # "Qanun 6/2014" names the family; "Qanun Aceh" the instrument type exactly.
    return any(a.lower().startswith(b.lower()) or b.lower().startswith(a.lower())
               for a in named.type_prefixes for b in own.type_prefixes)
