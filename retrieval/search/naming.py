"""Named regulations and article locators in a question (a retrieval component).

"Qanun Aceh Nomor 6 Tahun 2014", "Qanun 6/2014", "Pergub Aceh No. 60 Tahun
2013." resolve to one visible indexed document by identity (type family,
number with its letter suffix, year; the jurisdiction when named). Anything
ambiguous or unknown resolves to nothing and ordinary retrieval goes on.
Hybrid search ranks a resolved instrument's chunks first; the answer pipeline
reads its anchors from the same functions.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from django.db.models import Q

from kernel.principal import Principal
from retrieval.access import Scope, chunk_enabled_q, visible_documents_q
from retrieval.models import Chunk, Document
from retrieval.references import covered_articles
from retrieval.instruments import QUESTION_TYPES

_TYPE = "|".join(f"(?:{alias})" for alias, _ in QUESTION_TYPES)
NAMED_REGULATION = re.compile(
    rf"\b(?P<type>{_TYPE})\s*(?:nomor|nomer|no\.?|nr\.?|number)?\s*(?P<number>\d+[a-z]?)"
    rf"\s*(?:(?:tahun|th\.?|thn\.?|year|/)\s*(?P<year>(?:19|20)\d\d))",
    re.IGNORECASE,
)
PASAL = re.compile(
    r"\b(?:pasal|article)\s+(?P<pasal>\d+[a-z]?|[IVX]+)\b(?:\s+ayat\s*\(?(?P<ayat>\d+)\)?)?(?:\s+angka\s+(?P<angka>\d+))?",
    re.IGNORECASE,
)
ANCHOR_CHUNK_LIMIT = 6
RESOLVE_BROWSE_LIMIT = 4


@dataclass(frozen=True)
class NamedRegulation:
    type_prefixes: tuple[str, ...]
    number: str
    year: int
    text: str


@dataclass(frozen=True)
class ArticleLocator:
    pasal: str
    ayat: str | None
    angka: str | None = None


def type_prefixes(type_text: str) -> tuple[str, ...] | None:
    """The type family a written type ("pergub aceh", "UU") names, or None."""
    alias = " ".join(type_text.lower().split())
    for pattern, prefixes in QUESTION_TYPES:
        if re.fullmatch(pattern, alias):
            return prefixes
    return None


def find_named_regulations(question: str) -> list[NamedRegulation]:
    """Every instrument named by type, number and year, in order of appearance."""
    named = []
    for match in NAMED_REGULATION.finditer(question):
        prefixes = type_prefixes(match.group("type"))
        if prefixes:
            named.append(NamedRegulation(prefixes, match.group("number"), int(match.group("year")), match.group(0)))
    return named


def find_named_regulation(question: str) -> NamedRegulation | None:
    named = find_named_regulations(question)
    return named[0] if named else None


def find_article(question: str) -> ArticleLocator | None:
    match = PASAL.search(question)
    if not match:
        return None
    return ArticleLocator(match.group("pasal").upper(), match.group("ayat"), match.group("angka"))


def resolve_regulation(named: NamedRegulation, *, principal: Principal, scope: Scope | None) -> Document | None:
    """The one visible indexed document with that identity, or None if none or several."""
    type_match = Q()
    for prefix in named.type_prefixes:
        type_match |= Q(instrument_type__istartswith=prefix)
    candidates = list(
        Document.objects.filter(visible_documents_q(principal, scope))
        .filter(type_match, number__iregex=_number_pattern(named.number), year=named.year)
        .only("id", "title", "source_key")[:RESOLVE_BROWSE_LIMIT]
    )
    # Several versions of one source cannot both be visible; several sources are ambiguous.
    return candidates[0] if len(candidates) == 1 else None


def _number_pattern(number: str) -> str:
    """"3" also matches a card's "03" (Pergub Aceh Nomor 03 Tahun 2025), case-insensitively."""
    return "^0*" + re.escape(number.lstrip("0") or "0") + "$"


def article_chunks(document_id: uuid.UUID, locator: ArticleLocator, limit: int = ANCHOR_CHUNK_LIMIT) -> list[Chunk]:
    """Chunks of the article (body first, then its Penjelasan), ayat/angka-specific first."""
    heading = f"Pasal {locator.pasal}"
    candidates = (
        Chunk.objects.filter(chunk_enabled_q(), document_id=document_id)
        .filter(Q(section_path__contains=[heading]) | Q(legal_reference__regex=r"Pasal [0-9]+[A-Z]?\s*[-–]"))
        .select_related("document").defer("embedding", "search_vector", "document__text").order_by("ordinal")
    )
    chunks = [c for c in candidates if locator.pasal in covered_articles(c.section_path, c.legal_reference)]
    chunks.sort(key=lambda c: (c.kind == "penjelasan", not _mentions_unit(c, locator), c.ordinal))
    return chunks[:limit]


def _mentions_unit(chunk: Chunk, locator: ArticleLocator) -> bool:
    if locator.angka:
        return _angka_in_reference(chunk.legal_reference or "", int(locator.angka))
    return bool(locator.ayat) and f"({locator.ayat})" in (chunk.legal_reference or chunk.text[:20])


_ANGKA_RANGE = re.compile(r"angka\s+(\d+)(?:\s*[-–]\s*(\d+))?")


def _angka_in_reference(reference: str, angka: int) -> bool:
    """Whether "... Pasal 1 angka 5-9" (or "angka 7") covers ``angka``."""
    for match in _ANGKA_RANGE.finditer(reference):
        first, last = int(match.group(1)), int(match.group(2) or match.group(1))
        if first <= angka <= last:
            return True
    return False
