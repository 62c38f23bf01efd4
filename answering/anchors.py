"""The answer pipeline's anchors: named regulations, articles and signature blocks.

Named-regulation and article resolution is a retrieval component
(``retrieval.search.naming``, used by hybrid search too); this module adds the
signatory question and the closing block.
"""
from __future__ import annotations

import re
import uuid

from django.db.models import Q

from retrieval.access import chunk_enabled_q
from retrieval.models import Chunk
# The resolution lives in retrieval (hybrid search uses it too); re-exported here.
from retrieval.search.naming import (  # noqa: F401
    ANCHOR_CHUNK_LIMIT,
    NAMED_REGULATION,
    PASAL,
    ArticleLocator,
    NamedRegulation,
    article_chunks,
    find_article,
    find_named_regulation,
    resolve_regulation,
)

SIGNATORY = re.compile(
    r"\b(tanda\s*tangan|menandatangani|ditandatangani|penandatangan|yang\s+menetapkan|yang\s+mengesahkan|"
    r"who\s+signed|signed\s+by|signatory)\b",
    re.IGNORECASE,
)
CLOSING_CHUNK_LIMIT = 2


def asks_for_signatory(question: str) -> bool:
    return SIGNATORY.search(question) is not None


def closing_chunks(document_id: uuid.UUID) -> list[Chunk]:
    """The signature block of a document, located in the database."""
    return list(
        Chunk.objects.filter(chunk_enabled_q(), document_id=document_id, kind="closing")
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
            Chunk.objects.filter(chunk_enabled_q(), wording, document_id=document_id).exclude(kind="penjelasan")
            .select_related("document").defer("embedding", "search_vector", "document__text").order_by("ordinal")[:1]
        )
        if found:
            return found
    return []


def enactment_chunks(document_id: uuid.UUID) -> list[Chunk]:
    """The chunk holding the enactment block ("Ditetapkan/Disahkan di … pada tanggal …"), even inside the last article."""
    return list(
        Chunk.objects.filter(chunk_enabled_q(), document_id=document_id, text__iregex=r"(ditetapkan|disahkan)\s+di\s+\w+")
        .exclude(kind="penjelasan").select_related("document").defer("embedding", "search_vector", "document__text")
        .order_by("-ordinal")[:1]
    )
