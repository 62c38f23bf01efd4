"""The chunks of a named article inside one document (a retrieval component): its body, its Penjelasan, the
ayat or angka the question names first. ``naming`` finds the locators; this reads their passages."""
from __future__ import annotations

import re
import uuid

from django.db.models import Q
from django.db.models.functions import Left

from retrieval.access import chunk_enabled_q
from retrieval.models import Chunk
from retrieval.references import covered_articles
from retrieval.search.naming import ARTICLE_RANGE_LIMIT, ArticleLocator

ANCHOR_CHUNK_LIMIT = 6


def asks_explanation(question: str) -> bool:
    """The question asks what the Penjelasan (the official elucidation) says, not the article itself."""
    return bool(_EXPLANATION.search(question))


_EXPLANATION = re.compile(r"\bpenjelasan(?:nya)?\b|\belucidation\b|\bexplanatory\s+(?:note|memorandum)", re.IGNORECASE)


def article_chunk_ids(document_id: uuid.UUID, locator: ArticleLocator, limit: int = ANCHOR_CHUNK_LIMIT,
                      explanation_first: bool = False) -> list[uuid.UUID]:
    """Ids of the chunks of the article or article range (body first, then its Penjelasan, or the Penjelasan
    first when ``explanation_first``), ayat/angka-specific first: one statement reading headings, not texts."""
    articles = locator.articles()
    headings = Q()
    for article in articles:
        headings |= Q(section_path__contains=[f"Pasal {article}"])
    # Only the headings and the text's first characters are read: a long law has a hundred chunks under article
    # ranges ("Pasal 60-62"), and loading their text cost 8-10 ms of a named article's search.
    rows = (Chunk.objects.filter(chunk_enabled_q(), document_id=document_id)
            .filter(headings | Q(legal_reference__regex=r"Pasal [0-9]+[A-Z]?\s*[-–]"))
            .annotate(head=Left("text", 20))
            .values_list("id", "section_path", "legal_reference", "kind", "ordinal", "head"))
    held = [row for row in rows if set(articles) & covered_articles(row[1], row[2])]
    held.sort(key=lambda row: ((row[3] == "penjelasan") != explanation_first,
                               not _mentions_unit(row[2] or "", row[5] or "", locator), row[4]))
    return [row[0] for row in held[:limit]]


def article_chunks(document_id: uuid.UUID, locator: ArticleLocator, limit: int = ANCHOR_CHUNK_LIMIT,
                   explanation_first: bool = False) -> list[Chunk]:
    """The chunks ``article_chunk_ids`` names, in its order, with their documents."""
    ids = article_chunk_ids(document_id, locator, limit, explanation_first)
    chunks = {chunk.id: chunk for chunk in Chunk.objects.filter(id__in=ids).select_related("document")
              .defer("embedding", "search_vector", "document__text")}
    return [chunks[chunk_id] for chunk_id in ids if chunk_id in chunks]


def _mentions_unit(reference: str, head: str, locator: ArticleLocator) -> bool:
    if locator.angka:
        last = int(locator.angka_last or locator.angka)
        return any(_angka_in_reference(reference, n)
                   for n in range(int(locator.angka), min(last, int(locator.angka) + ARTICLE_RANGE_LIMIT) + 1))
    return bool(locator.ayat) and f"({locator.ayat})" in (reference or head)


_ANGKA_RANGE = re.compile(r"angka\s+(\d+)(?:\s*[-–]\s*(\d+))?")


def _angka_in_reference(reference: str, angka: int) -> bool:
    """Whether "... Pasal 1 angka 5-9" (or "angka 7") covers ``angka``."""
    for match in _ANGKA_RANGE.finditer(reference):
        first, last = int(match.group(1)), int(match.group(2) or match.group(1))
        if first <= angka <= last:
            return True
    return False


# What an elucidation says when it adds nothing: its headings and "Cukup jelas".
_EMPTY_EXPLANATION = re.compile(r"\b(?:Pasal\s+\d+[A-Z]?|Ayat\s*\(\d+[a-z]?\)|Huruf\s+[a-z]|Angka\s+\d+|Cukup\s+jelas)\.?",
                                re.IGNORECASE)
EXPLANATION_MIN_WORDS = 8
_RANGE_REFERENCE = Q(legal_reference__regex=r"Pasal [0-9]+[A-Z]?\s*[-–]")
_ARTICLE_HEAD = re.compile(r"^Pasal\s+(\d+[A-Z]?)\s*$", re.MULTILINE)


def explains(text: str, article: str | None = None) -> bool:
    """The Penjelasan passage says something of its own about ``article`` (its part under "Pasal <article>" when
    the passage holds several), not only "Pasal 13 Cukup jelas"."""
    heads = list(_ARTICLE_HEAD.finditer(text))
    own = next((i for i, head in enumerate(heads) if head.group(1) == article), None)
    if own is not None:
        end = heads[own + 1].start() if own + 1 < len(heads) else len(text)
        text = text[heads[own].end():end]
    return len(_EMPTY_EXPLANATION.sub(" ", text).split()) >= EXPLANATION_MIN_WORDS


def explanation_chunks(articles: list[tuple[uuid.UUID, str]], visible_documents) -> dict[tuple[uuid.UUID, str], Chunk]:
    """The Penjelasan chunk that explains each (document, article) pair and says something of its own: the
    headings are read first, the text only of chunks covering an article; ``visible_documents`` (a Document
    queryset) is the caller's access predicate."""
    if not articles:
        return {}
    headings = Q()
    for document_id, article in articles:
        # Short elucidations are merged into one chunk under a range ("Penjelasan … Pasal 12-14").
        headings |= Q(document_id=document_id) & (Q(section_path__contains=[f"Pasal {article}"]) | _RANGE_REFERENCE)
    # Headings first (a long law has 70-80 range chunks of Penjelasan), then the text of those that cover an article.
    heads = (Chunk.objects.filter(chunk_enabled_q(), headings, kind="penjelasan", document__in=visible_documents)
             .values_list("id", "document_id", "section_path", "legal_reference"))
    covering = {chunk_id: [(d, a) for d, a in articles if d == document_id and a in covered_articles(path, reference)]
                for chunk_id, document_id, path, reference in heads}
    rows = (Chunk.objects.filter(id__in=[i for i, pairs in covering.items() if pairs]).select_related("document")
            .defer("embedding", "search_vector", "document__text").order_by("ordinal"))
    found: dict[tuple[uuid.UUID, str], Chunk] = {}
    for chunk in rows:
        for pair in covering[chunk.id]:
            if pair not in found and explains(chunk.text, pair[1]):
                found[pair] = chunk
    return found
