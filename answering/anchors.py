"""The answer pipeline's anchors: named regulations, articles and signature blocks.

Named-regulation and article resolution is a retrieval component
(``retrieval.search.naming``, used by hybrid search too); this module adds the
signatory question and the closing block.
"""
from __future__ import annotations

import re
import uuid

from django.db.models import Q

from answering.focus import OFFICE, PERSON
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
CLOSING_CHUNK_LIMIT = 3
ENACTED_AT = r"(ditetapkan|disahkan)\s+di\s+\w+"
_ENACTED_AT = re.compile(r"\b(?:Ditetapkan|Disahkan)\s+di\b", re.IGNORECASE)
_SIGN_END = re.compile(r"\b(?:Diundangkan\s+di|LEMBARAN|BERITA)\b")


def asks_for_signatory(question: str) -> bool:
    return SIGNATORY.search(question) is not None


def closing_chunks(document_id: uuid.UUID) -> list[Chunk]:
    """The signature block of a document, located in the database, with its neighbour when it is split.

    The block is the ``closing`` chunk, or (when the chunker filed it under a Lampiran or the last
    article) the last chunk holding "Ditetapkan/Disahkan di …", narrowed to that span. A block whose
    office and name run into the next chunk reads that chunk too; one that begins in the previous chunk
    reads that one. Only these few chunks are read, never the whole document.
    """
    base = Chunk.objects.filter(chunk_enabled_q(), document_id=document_id).exclude(kind="penjelasan").select_related(
        "document").defer("embedding", "search_vector", "document__text")
    found = list(base.filter(kind="closing").order_by("ordinal")[:CLOSING_CHUNK_LIMIT])
    if not found:
        found = list(base.filter(text__iregex=ENACTED_AT).order_by("-ordinal")[:1])
    if not found:
        return []
    wanted: set[int] = set()
    for chunk in found:
        enacted = _ENACTED_AT.search(chunk.text)
        if enacted is None:
            wanted.add(chunk.ordinal - 1)          # the block began in the previous chunk
        elif not _names_signatory(chunk.text[enacted.end():]):
            wanted.add(chunk.ordinal + 1)          # the office and name are in the next chunk
    have = {chunk.ordinal for chunk in found}
    neighbours = list(base.filter(ordinal__in=sorted(wanted - have))) if wanted - have else []
    for chunk in [*found, *neighbours]:
        _keep_closing_span(chunk)
    return sorted([*found, *neighbours], key=lambda c: c.ordinal)[:CLOSING_CHUNK_LIMIT]


def _keep_closing_span(chunk: Chunk) -> None:
    """Narrow a chunk that also holds the last articles to its closing span (the instance is never saved).

    A chunk filed as Lampiran or as the last article carries "BAB V … Pasal 8 …" before the signature
    block; read whole, those capitalised headings outrank the printed name. ``char_start`` moves with
    the span so the citation still points at the text read.
    """
    if chunk.kind == "closing":
        return
    enacted = _ENACTED_AT.search(chunk.text)
    if enacted is None or enacted.start() == 0:
        return
    chunk.text = chunk.text[enacted.start():]
    if chunk.char_start is not None:
        chunk.char_start += enacted.start()


def _names_signatory(after_enactment: str) -> bool:
    """Whether the text after "Ditetapkan di …" (up to the promulgation) carries a printed name."""
    block = _SIGN_END.split(after_enactment, maxsplit=1)[0]
    lines = [line.strip(" ,") for line in block.splitlines()]
    return any(PERSON.fullmatch(line) and not OFFICE.search(line) for line in lines if line)


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
        Chunk.objects.filter(chunk_enabled_q(), document_id=document_id, text__iregex=ENACTED_AT)
        .exclude(kind="penjelasan").select_related("document").defer("embedding", "search_vector", "document__text")
        .order_by("-ordinal")[:1]
    )
