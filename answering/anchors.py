"""Named regulations and article locators in a question.

"Qanun Aceh Nomor 6 Tahun 2014", "Qanun 6/2014", "Pergub Aceh No. 60 Tahun
2013." resolve to one visible indexed document by identity (type family,
number with its letter suffix, year; the jurisdiction when named). Anything
ambiguous or unknown resolves to nothing and ordinary retrieval goes on.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from django.db.models import Q

from acehrag.auth import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.models import Chunk, Document
from retrieval.references import covered_articles

# Alias (lower case, spaces collapsed) → (type family prefixes, jurisdiction named?)
_TYPE_ALIASES: list[tuple[str, tuple[str, ...]]] = [
    (r"qanun\s+aceh", ("Qanun Aceh",)),
    (r"qanun", ("Qanun",)),
    (r"(?:peraturan\s+gubernur|pergub)\s+aceh", ("Peraturan Gubernur Aceh",)),
    (r"peraturan\s+gubernur|pergub", ("Peraturan Gubernur",)),
    (r"(?:keputusan\s+gubernur|kepgub)\s+aceh", ("Keputusan Gubernur Aceh",)),
    (r"keputusan\s+gubernur|kepgub", ("Keputusan Gubernur",)),
    (r"(?:instruksi\s+gubernur|ingub)\s+aceh", ("Instruksi Gubernur Aceh",)),
    (r"instruksi\s+gubernur|ingub", ("Instruksi Gubernur",)),
    (r"undang-undang|undang\s+undang|uu", ("Undang-Undang",)),
    (r"peraturan\s+pemerintah|pp", ("Peraturan Pemerintah",)),
    (r"peraturan\s+presiden|perpres", ("Peraturan Presiden",)),
]
_TYPE = "|".join(f"(?:{alias})" for alias, _ in _TYPE_ALIASES)
NAMED_REGULATION = re.compile(
    rf"\b(?P<type>{_TYPE})\s*(?:nomor|nomer|no\.?|nr\.?|number)?\s*(?P<number>\d+[a-z]?)"
    rf"\s*(?:(?:tahun|th\.?|thn\.?|year|/)\s*(?P<year>(?:19|20)\d\d))",
    re.IGNORECASE,
)
PASAL = re.compile(r"\bpasal\s+(?P<pasal>\d+[a-z]?|[IVX]+)\b(?:\s+ayat\s*\(?(?P<ayat>\d+)\)?)?", re.IGNORECASE)
SIGNATORY = re.compile(
    r"\b(tanda\s*tangan|menandatangani|ditandatangani|penandatangan|yang\s+menetapkan|yang\s+mengesahkan|"
    r"who\s+signed|signed\s+by|signatory)\b",
    re.IGNORECASE,
)
ANCHOR_CHUNK_LIMIT = 6
CLOSING_CHUNK_LIMIT = 2


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


def find_named_regulation(question: str) -> NamedRegulation | None:
    match = NAMED_REGULATION.search(question)
    if not match:
        return None
    alias = " ".join(match.group("type").lower().split())
    for pattern, prefixes in _TYPE_ALIASES:
        if re.fullmatch(pattern, alias):
            return NamedRegulation(prefixes, match.group("number"), int(match.group("year")), match.group(0))
    return None


def find_article(question: str) -> ArticleLocator | None:
    match = PASAL.search(question)
    if not match:
        return None
    pasal = match.group("pasal")
    return ArticleLocator(pasal.upper() if pasal.isalpha() else pasal.upper(), match.group("ayat"))


def asks_for_signatory(question: str) -> bool:
    return SIGNATORY.search(question) is not None


def resolve_regulation(named: NamedRegulation, *, principal: Principal, scope: Scope) -> Document | None:
    """The one visible indexed document with that identity, or None if none or several."""
    type_match = Q()
    for prefix in named.type_prefixes:
        type_match |= Q(instrument_type__istartswith=prefix)
    candidates = list(
        Document.objects.filter(visible_documents_q(principal, scope))
        .filter(type_match, number__iexact=named.number, year=named.year)
        .only("id", "title", "source_key")[:4]
    )
    # Several versions of one source cannot both be visible; several sources are ambiguous.
    return candidates[0] if len(candidates) == 1 else None


def article_chunks(document_id: uuid.UUID, locator: ArticleLocator) -> list[Chunk]:
    """Chunks of the article (body first, then its Penjelasan), ayat-specific first."""
    heading = f"Pasal {locator.pasal}"
    candidates = (
        Chunk.objects.filter(document_id=document_id)
        .filter(Q(section_path__contains=[heading]) | Q(legal_reference__regex=r"Pasal [0-9]+[A-Z]?\s*[-–]"))
        .select_related("document").defer("embedding", "search_vector", "document__text").order_by("ordinal")
    )
    chunks = [c for c in candidates if locator.pasal in covered_articles(c.section_path, c.legal_reference)]
    chunks.sort(key=lambda c: (c.kind == "penjelasan", not _mentions_ayat(c, locator.ayat), c.ordinal))
    return chunks[:ANCHOR_CHUNK_LIMIT]


def _mentions_ayat(chunk: Chunk, ayat: str | None) -> bool:
    return bool(ayat) and f"({ayat})" in (chunk.legal_reference or chunk.text[:20])


def closing_chunks(document_id: uuid.UUID) -> list[Chunk]:
    """The signature block of a document, located in the database."""
    return list(
        Chunk.objects.filter(document_id=document_id, kind="closing")
        .select_related("document").defer("embedding", "search_vector", "document__text")
        .order_by("ordinal")[:CLOSING_CHUNK_LIMIT]
    )


DEFINITION_LOOKUP_DOCUMENTS = 3


def definition_chunks(document_ids: list[uuid.UUID], term: str) -> list[Chunk]:
    """The general-provisions chunk that defines ``term`` ("21. Qanun Aceh adalah …"), first document first.

    Pasal 1 of a long law spans many chunks; a search ranks the articles that use the term above the one
    that defines it, so the definition is looked up by its wording.
    """
    term = " ".join(term.split())
    if len(term) < 3:
        return []
    # PostgreSQL's regular expressions: \y is a word boundary (\b would be a backspace).
    # The term heads a definition item ("21. Qanun Aceh adalah", "\nZakat adalah") or is its short name
    # ("…, yang selanjutnya disebut Amdal, adalah"); "Pengelolaan zakat adalah" does not define zakat.
    name = re.escape(term)
    wording = Q(text__iregex=rf"(^|\n|\d+\.\s*|\(\d+\)\s*){name}(\s*,)?\s+((yang\s+)?selanjutnya|adalah|ialah)\y") | Q(
        text__iregex=rf"(disebut|disingkat)\s+{name}\s*,?\s+(adalah|ialah)\y")
    for document_id in document_ids[:DEFINITION_LOOKUP_DOCUMENTS]:
        found = list(
            Chunk.objects.filter(wording, document_id=document_id).exclude(kind="penjelasan")
            .select_related("document").defer("embedding", "search_vector", "document__text").order_by("ordinal")[:1]
        )
        if found:
            return found
    return []


def enactment_chunks(document_id: uuid.UUID) -> list[Chunk]:
    """The chunk holding the enactment block ("Ditetapkan/Disahkan di … pada tanggal …"), even inside the last article."""
    return list(
        Chunk.objects.filter(document_id=document_id, text__iregex=r"(ditetapkan|disahkan)\s+di\s+\w+")
        .exclude(kind="penjelasan").select_related("document").defer("embedding", "search_vector", "document__text")
        .order_by("-ordinal")[:1]
    )
