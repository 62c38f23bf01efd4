"""Named regulations and article locators in a question (a retrieval component).

"Qanun Aceh Nomor 6 Tahun 2014", "Qanun 6/2014", "Pergub Aceh No. 60 Tahun
2013." resolve to one visible indexed document by identity (type family,
number with its letter suffix, year; the jurisdiction when named). Anything
ambiguous or unknown resolves to nothing and ordinary retrieval goes on.
Hybrid search ranks a resolved instrument's chunks first; the answer pipeline
reads its anchors from the same functions.
"""
from __future__ import annotations

import functools
import re
import time
from dataclasses import dataclass

from django.db import OperationalError, connection, transaction
from django.db.models import Q

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.models import Document
from retrieval.instruments import PLACE_NAMED_TYPES, QUESTION_TYPES, SLUG_SHORT_FORMS

_JURISDICTION_NAMED = re.compile(r"\baceh$", re.IGNORECASE)
_TYPE = "|".join(f"(?:{alias})" for alias, _ in QUESTION_TYPES)
_WORD = r"[^\W\d_]+"
_NAME = r"(?-i:[A-Z][^\W\d_]*)"       # a capitalised word, whatever the flags
_PLACE_TYPE = "|".join(f"(?:{alias})" for alias, _ in PLACE_NAMED_TYPES)
NAMED_REGULATION = re.compile(
    # A regent's or mayor's regulation names its place right after the type; the others after
    # "kabupaten"/"kota" (a province's own types carry it in the alias: "Qanun Aceh").
    rf"\b(?:(?P<place_type>{_PLACE_TYPE})\s+(?!nomor\b|nomer\b|no\b|nr\b)(?P<own_place>{_WORD}(?:\s+{_WORD}){{0,2}}?)"
    # or a short name or an issuer between the type and an explicit number ("UU Pemda nomor 32 tahun 2004",
    # "SE Gubernur Aceh Nomor 5 Tahun 2020"; several words only capitalised, so "UU ini dan PP Nomor 3" is not one)
    rf"|(?P<type>{_TYPE})(?:\s+(?P<place>(?:kabupaten|kota)\s+{_WORD}(?:\s+{_WORD}){{0,2}}?)"
    rf"|\s+(?!nomor\b|nomer\b|no\b|nr\b|number\b|kabupaten\b|kota\b)(?:{_NAME}(?:\s+{_NAME}){{1,3}}|{_WORD})"
    # … or a bare number with its year ("qanun jinayat 6/2014", "UU pemda 22 tahun 1999")
    rf"(?=\s+(?:(?:nomor|nomer|no\.?|number)\s*\d|\d+[a-z]?\s*(?:/|(?:tahun|th\.?|thn\.?)\s)\s*(?:19|20)\d\d(?!\d))))?)"
    rf"\s*(?:nomor|nomer|no\.?|nr\.?|number)?\s*(?P<number>\d+[a-z]?)(?:\s*/\s*pojk\s*\.?\s*\d+)?"
    rf"\s*(?:(?:tahun|th\.?|thn\.?|year|of|/)\s*(?P<year>(?:19|20)\d\d))(?!\d)",
    re.IGNORECASE,
)
_NUMBER = r"\d+[A-Z]?|[IVX]+"
_THROUGH = r"\s*(?:-|–|s\.?\s?d\.?|sampai(?:\s+dengan)?|hingga|to|through)\s*"
PASAL = re.compile(
    rf"\b(?:pasal|article)\s+(?P<pasal>{_NUMBER})\b(?:{_THROUGH}(?:pasal\s+)?(?P<last>\d+[A-Z]?)\b)?"
    r"(?:\s+ayat\s*\(?(?P<ayat>\d+)\)?)?(?:\s+angka\s+(?P<angka>\d+)(?:" + _THROUGH + r"(?P<angka_last>\d+))?)?",
    re.IGNORECASE,
)
RESOLVE_BROWSE_LIMIT = 4
RESOLVE_DEADLINE_SECONDS = 10.0      # the identity lookup's bound; past it ordinary retrieval goes on
ARTICLE_RANGE_LIMIT = 20             # "Pasal 5 sampai dengan Pasal 9": at most this many articles read


@dataclass(frozen=True)
class NamedRegulation:
    type_prefixes: tuple[str, ...]
    number: str
    year: int
    text: str
    exact: bool = False               # the jurisdiction was named: the type must be exactly the prefix
    start: int = 0                    # where the citation sits in the question (locator ownership)
    end: int = 0


@dataclass(frozen=True)
class ArticleLocator:
    pasal: str
    ayat: str | None
    angka: str | None = None

    last = None                       # see ArticleRange
    angka_last = None

    def articles(self) -> tuple[str, ...]:
        """The articles the locator names: one, or a bounded numeric range."""
        if self.last and self.pasal.isdigit() and self.last.isdigit() and 0 <= int(self.last) - int(self.pasal) < ARTICLE_RANGE_LIMIT:
            return tuple(str(n) for n in range(int(self.pasal), int(self.last) + 1))
        return (self.pasal,) + ((self.last,) if self.last else ())


@dataclass(frozen=True)
class ArticleRange(ArticleLocator):
    """A locator over several articles ("Pasal 5 sampai dengan Pasal 7") or items ("angka 5-9")."""

    last: str | None = None
    angka_last: str | None = None


@dataclass(frozen=True)
class NamedAnchor:
    """One instrument of the question with the locators that belong to it."""

    named: NamedRegulation
    locators: tuple[ArticleLocator, ...]


def type_prefixes(type_text: str) -> tuple[str, ...] | None:
    """The type family a written type ("pergub aceh", "UU") names, or None."""
    alias = " ".join(type_text.lower().split())
    for pattern, prefixes in QUESTION_TYPES:
        if re.fullmatch(pattern, alias):
            return prefixes
    return None


@functools.lru_cache(maxsize=1024)
def find_named_regulations(question: str) -> tuple[NamedRegulation, ...]:
    """Every instrument named by type, number and year, in order of appearance.

    Parsed once per question text: the gatherer, the focus, the follow-up rule, the synthesiser and the
    answerability gate all ask about the same question.
    """
    named = []
    for match in NAMED_REGULATION.finditer(question):
        type_text = match.group("type") or match.group("place_type")
        prefixes = type_prefixes(type_text)
        if not prefixes:
            continue
        exact = bool(match.group("type") and _JURISDICTION_NAMED.search(type_text))
        place = match.group("place") or match.group("own_place")
        if place:
            # "Qanun Kabupaten Aceh Besar", "Perbup Aceh Besar": the jurisdiction makes the type exact.
            named_place = " ".join(w.capitalize() for w in place.split())
            prefixes, exact = tuple(f"{prefix} {named_place}" for prefix in prefixes), True
        named.append(NamedRegulation(prefixes, match.group("number").upper(), int(match.group("year")),
                                     match.group(0), exact, match.start(), match.end()))
    return tuple(named)


def find_named_regulation(question: str) -> NamedRegulation | None:
    named = find_named_regulations(question)
    return named[0] if named else None


def find_articles(question: str) -> list[ArticleLocator]:
    return [_locator(match) for match in PASAL.finditer(question)]


def find_article(question: str) -> ArticleLocator | None:
    """The question's article locator (the first instrument's own, when several are named)."""
    anchors = named_anchors(question)
    if anchors and anchors[0].locators:
        return anchors[0].locators[0]
    match = PASAL.search(question)
    return _locator(match) if match else None


def _locator(match: re.Match) -> ArticleLocator:
    pasal, ayat, angka = match.group("pasal").upper(), match.group("ayat"), match.group("angka")
    if match.group("last") or match.group("angka_last"):
        return ArticleRange(pasal, ayat, angka, (match.group("last") or "").upper() or None, match.group("angka_last"))
    return ArticleLocator(pasal, ayat, angka)


def named_anchors(question: str) -> list[NamedAnchor]:
    """Each named instrument with its locators: "Pasal 8 Qanun …" and "Qanun … Pasal 8" both belong to that Qanun.

    A locator directly followed by a citation (only its ayat/angka and a linking word between) belongs
    to it; otherwise to the nearest citation before it; a locator before every citation and not
    attached to one belongs to the first.
    """
    named = find_named_regulations(question)
    if not named:
        return []
    owned: dict[int, list[ArticleLocator]] = {i: [] for i in range(len(named))}
    for match in PASAL.finditer(question):
        following = next((i for i, n in enumerate(named) if n.start >= match.end()), None)
        gap = question[match.end():named[following].start] if following is not None else None
        if gap is not None and re.fullmatch(r"[\s,]*(?:(?:dari|dalam|pada|di|of|in)\s+)?", gap, re.IGNORECASE):
            owner = following
        else:
            before = [i for i, n in enumerate(named) if n.end <= match.start()]
            owner = before[-1] if before else 0
        owned[owner].append(_locator(match))
    return [NamedAnchor(n, tuple(owned[i])) for i, n in enumerate(named)]


def regulation_copies(named: NamedRegulation, *, principal: Principal, scope: Scope | None) -> list[Document]:
    """The visible documents that are copies of one named regulation (``copies_among``)."""
    return copies_among(regulation_candidates(named, principal=principal, scope=scope))


def copies_among(candidates: list[Document] | None) -> list[Document]:
    """The one document ``resolved_among`` finds, else two or three documents (a PDF and a text file of one
    law) whose identity cards agree exactly; [] when nothing, or more than one regulation, matches."""
    if not candidates:
        return []
    cards = {(c.instrument_type or "", (c.number or "").lower(), c.year) for c in candidates}
    identities = {candidate.source_key or str(candidate.id) for candidate in candidates}
    return candidates if len(cards) == 1 or len(identities) == 1 and len(candidates) == 1 else []


def resolve_regulation(named: NamedRegulation, *, principal: Principal, scope: Scope | None) -> Document | None:
    """The one visible indexed document with that identity, or None if none, several or too slow.

    A document matches by its identity card (type, number with its letter suffix, year), or by the
    citation at the start of its title ("Qanun Aceh Nomor 6 Tahun 2014 tentang …", or a slug such as
    "qanun-aceh-6-2014_hukum-jinayat") when its card does not contradict it. Amendments and
    implementing regulations carry their own citation first, so one that only references the named
    instrument does not match. Resolution needs one source identity (``source_key``, else the id) with
    exactly one current record; reaching the browse limit is ambiguous, and so is a lookup past
    ``RESOLVE_DEADLINE_SECONDS``.
    """
    return resolved_among(regulation_candidates(named, principal=principal, scope=scope))


def resolved_among(candidates: list[Document] | None) -> Document | None:
    identities = {candidate.source_key or str(candidate.id) for candidate in candidates or ()}
    return candidates[0] if candidates and len(identities) == 1 and len(candidates) == 1 else None


def candidate_reader(principal: Principal, scope: Scope | None):
    """``read(named)``: ``regulation_candidates`` read once per regulation, for one question's several uses."""
    read: dict[NamedRegulation, list[Document] | None] = {}

    def candidates(named: NamedRegulation) -> list[Document] | None:
        if named not in read:
            read[named] = regulation_candidates(named, principal=principal, scope=scope)
        return read[named]
    return candidates


def regulation_candidates(named: NamedRegulation, *, principal: Principal,
                          scope: Scope | None) -> list[Document] | None:
    """The visible current documents matching ``named`` by card or title; None when the lookup hit the browse
    limit or the deadline (ambiguous). One statement over the documents (a title pattern: 13-16 ms over
    10,000 documents), so a caller asking both questions above reads it once."""
    number_q, year_q, type_q = Q(number__iregex=_number_pattern(named.number)), Q(year=named.year), Q()
    for prefix in named.type_prefixes:
        type_q |= Q(instrument_type__iexact=prefix) if named.exact else Q(instrument_type__istartswith=prefix)
    card = type_q & number_q & year_q
    no_conflict = ((Q(instrument_type__isnull=True) | Q(instrument_type="") | type_q)
                   & (Q(number__isnull=True) | Q(number="") | number_q) & (Q(year__isnull=True) | year_q))
    titled = Q(title__iregex=_title_pattern(named)) & no_conflict
    started = time.monotonic()
    try:
        with transaction.atomic():   # a savepoint: a cancelled lookup rolls back its own timeout with it
            with connection.cursor() as cursor:
                cursor.execute("SELECT current_setting('statement_timeout')")
                previous = cursor.fetchone()[0]
                cursor.execute("SELECT set_config('statement_timeout', %s, true)",
                               [f"{max(1, int(RESOLVE_DEADLINE_SECONDS * 1000))}ms"])
            candidates = list(
                Document.objects.filter(visible_documents_q(principal, scope)).filter(card | titled)
                .exclude(status=Document.Status.SUPERSEDED)
                .only("id", "title", "source_key", "instrument_type", "number", "year").order_by("id")[:RESOLVE_BROWSE_LIMIT])
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('statement_timeout', %s, true)", [previous])
    except OperationalError:
        return None                  # cancelled at the deadline
    if time.monotonic() - started > RESOLVE_DEADLINE_SECONDS or len(candidates) >= RESOLVE_BROWSE_LIMIT:
        return None
    return candidates


def _number_pattern(number: str) -> str:
    """"3" also matches a card's "03" (Pergub Aceh Nomor 03 Tahun 2025), case-insensitively, and "31" an
    OJK card's "31/POJK.05/2016"."""
    return "^0*" + re.escape(number.lstrip("0") or "0") + r"(/pojk\.?[0-9]+/[0-9]{4})?$"


_SEP = r"[[:space:]_/.-]+"


def _title_pattern(named: NamedRegulation) -> str:
    """A PostgreSQL regular expression for the citation at the start of a title or a slug of it."""
    forms = []
    for prefix in named.type_prefixes:
        words = _SEP.join(re.escape(word) for word in re.split(r"[\s-]+", prefix.lower()))
        family = next((short for long, short in SLUG_SHORT_FORMS.items() if prefix.startswith(long)), None)
        if family:
            rest = prefix[len(next(long for long in SLUG_SHORT_FORMS if prefix.startswith(long))):].strip()
            short = re.escape(family) + ("" if not rest else _SEP + _SEP.join(re.escape(w) for w in rest.lower().split()))
            words = f"(?:{words}|{short})"
        # A bare family ("Qanun") admits a jurisdiction between type and number ("Qanun Aceh Nomor 6").
        forms.append(words if named.exact else words + r"(?:[[:space:]_-]+[[:alpha:]]+){0,4}")
    number = re.escape(named.number.lstrip("0") or "0")
    return (rf"^[[:space:]]*(?:{'|'.join(forms)}){_SEP}(?:(?:nomor|no){_SEP})?0*{number}{_SEP}"
            rf"(?:pojk{_SEP}[0-9]+{_SEP})?(?:tahun{_SEP})?{named.year}([^0-9]|$)")
