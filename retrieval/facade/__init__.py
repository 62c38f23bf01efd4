"""How other apps read documents and chunks (STYLE.md: the facade rule).

Every read takes the principal and composes the access predicate
(``retrieval.access``) itself: no function here trusts a caller to have
checked a document id. Results are frozen values, never ORM rows.
"""
from __future__ import annotations

import threading
import uuid
from dataclasses import dataclass, replace
from enum import Enum
from typing import Callable, Sequence

from django.contrib.postgres.search import SearchQuery

from kernel.principal import Principal
from retrieval.signature import ENACTED_AT, closing_block
from retrieval.access import Scope, chunk_enabled_q, chunks_visible, document_access_q, visible_documents_q
from retrieval.citations import citation_for
from retrieval.models import Chunk, Document
# The answer step's semantic scoring (answering.extractive): vectors only.
from retrieval.facade.vectors import chunk_vectors_get, unit_vectors_get  # noqa: F401
from retrieval.search.timeouts import search_deadline  # noqa: F401  (re-exported: an answer's tool deadline)


# -- the answer path (answering) -------------------------------------------------------------

class SearchMode(str, Enum):
    """How a search ranks: both legs fused, vectors only, words only."""

    HYBRID = "hybrid"
    SEMANTIC = "semantic"
    LEXICAL = "lexical"


@dataclass(frozen=True)
class ChunkHit:
    """A visible chunk as a value: what a passage and its citation need."""

    chunk_id: uuid.UUID
    document_id: uuid.UUID
    document_title: str
    legal_reference: str | None
    section_path: tuple[str, ...]
    kind: str
    text: str
    score: float
    citation: dict
    char_start: int | None = None


class QueryVectors:
    """Texts embedded as queries, each once (one answer's question serves every arm and memory recall).

    A vector is reused only while the configured embedder is the one that made it.
    """

    def __init__(self) -> None:
        self._by_text: dict[str, tuple[str, Sequence[float]]] = {}
        self._lock = threading.Lock()
        self._text_locks: dict[str, threading.Lock] = {}   # concurrent tool calls embed a text once

    def get(self, text: str) -> Sequence[float]:
        """``text`` embedded as a query (raises EmbeddingError)."""
        from retrieval.embedders import get_embedder

        embedder = get_embedder()
        with self._lock:
            text_lock = self._text_locks.setdefault(text, threading.Lock())
        with text_lock:
            known = self._by_text.get(text)
            if known is None or known[0] != embedder.model_name:
                known = (embedder.model_name, embedder.embed_queries([text])[0])
                self._by_text[text] = known
        return known[1]


@dataclass(frozen=True)
class ChunkSearchResult:
    mode: SearchMode
    hits: tuple[ChunkHit, ...]
    lexical_tier: str | None = None
    lexical_matches: int | None = None     # keyword matches on any term; 0: the search matched none of its terms

    @property
    def zero_match(self) -> bool:
        return self.lexical_matches == 0


@dataclass(frozen=True)
class DocumentRef:
    id: uuid.UUID
    title: str


def chunk_hit(chunk: Chunk, score: float = 1.0) -> ChunkHit:
    """Precondition: ``chunk.document`` is loaded (select_related)."""
    return ChunkHit(
        chunk_id=chunk.id, document_id=chunk.document_id, document_title=chunk.document.title,
        legal_reference=chunk.legal_reference, section_path=tuple(chunk.section_path or ()), kind=chunk.kind,
        text=chunk.text, score=float(score), citation=citation_for(chunk, chunk.document), char_start=chunk.char_start,
    )


def chunks_search(*, principal: Principal, query: str, mode: SearchMode = SearchMode.HYBRID, top_k: int,
                  scope: Scope | None = None, vectors: QueryVectors | None = None,
                  keyword_leg: bool = True, one_copy: bool = True) -> ChunkSearchResult:
    """The visible chunks ranked for ``query``; raises EmbeddingError or SearchTimeout.

    ``vectors`` embeds ``query`` (inside the search, once per text) when the mode needs a vector.
    """
    from retrieval.search import chunk_search

    outcome = chunk_search(query, mode=mode.value, top_k=top_k, principal=principal, scope=scope,
                           embed_query=vectors.get if vectors is not None else None, keyword_leg=keyword_leg,
                           one_copy=one_copy)
    return ChunkSearchResult(mode=mode, hits=tuple(chunk_hit(hit.chunk, hit.score) for hit in outcome.hits),
                             lexical_tier=outcome.lexical_tier, lexical_matches=outcome.lexical_matches)


def content_visible_exists(*, principal: Principal, scope: Scope) -> bool:
    return chunks_visible(principal, scope).exists()


def document_ids_visible(*, principal: Principal, document_ids) -> set[str]:
    """Those of ``document_ids`` (UUID strings) the principal may read, as strings."""
    wanted = [str(d) for d in document_ids]
    if not wanted:
        return set()
    return {str(pk) for pk in Document.objects.filter(document_access_q(principal), id__in=wanted)
            .values_list("id", flat=True)}


def document_visible_first(*, principal: Principal, scope: Scope, document_id: uuid.UUID | None = None) -> DocumentRef | None:
    """The visible document (``document_id``, or the scope's first) as a reference."""
    documents = Document.objects.filter(visible_documents_q(principal, scope))
    if document_id is not None:
        documents = documents.filter(id=document_id)
    row = documents.values("id", "title").first()
    return DocumentRef(row["id"], row["title"]) if row else None


def regulation_resolve(named, *, principal: Principal, scope: Scope) -> DocumentRef | None:
    """The one visible document a named regulation identifies (``retrieval.search.naming``)."""
    from retrieval.search.naming import resolve_regulation

    document = resolve_regulation(named, principal=principal, scope=scope)
    return DocumentRef(document.id, document.title) if document else None


def _visible(principal: Principal, scope: Scope | None, document_id: uuid.UUID) -> bool:
    return Document.objects.filter(visible_documents_q(principal, scope), id=document_id).exists()


def article_chunks_visible(*, principal: Principal, scope: Scope, document_id: uuid.UUID, locator) -> list[ChunkHit]:
    """The article's chunks of a visible document (body first, then its Penjelasan)."""
    from retrieval.search.articles import article_chunks

    if not _visible(principal, scope, document_id):
        return []
    return [chunk_hit(c) for c in article_chunks(document_id, locator)]


DEFINITION_LOOKUP_DOCUMENTS = 3
_ROWS = ("embedding", "search_vector", "document__text")


def _document_chunks(principal: Principal, scope: Scope | None, document_id: uuid.UUID):
    visible = Document.objects.filter(visible_documents_q(principal, scope), id=document_id)
    return (Chunk.objects.filter(chunk_enabled_q(), document__in=visible)
            .select_related("document").defer(*_ROWS))


def closing_chunks_visible(*, principal: Principal, scope: Scope, document_id: uuid.UUID) -> list[ChunkHit]:
    """The signature block of a visible document, with its neighbour when split (``retrieval.signature``)."""
    return [chunk_hit(c) for c in closing_block(_document_chunks(principal, scope, document_id))]


def definition_chunks_visible(*, principal: Principal, scope: Scope, document_ids: list[uuid.UUID],
                              term: str) -> list[ChunkHit]:
    """The general-provisions chunk that defines ``term`` ("21. Qanun Aceh adalah …"), first document first.

    Pasal 1 of a long law spans many chunks; a search ranks the articles that use the term above the one
    that defines it, so the definition is looked up by its wording.
    """
    import re

    from django.db.models import Q

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
        found = list(_document_chunks(principal, scope, document_id).filter(wording).exclude(kind="penjelasan")
                     .order_by("ordinal")[:1])
        if found:
            return [chunk_hit(found[0])]
    return []


def enactment_chunks_visible(*, principal: Principal, scope: Scope, document_id: uuid.UUID) -> list[ChunkHit]:
    """The chunk holding the enactment block ("Ditetapkan/Disahkan di … pada tanggal …"), even inside the last article."""
    chunks = (_document_chunks(principal, scope, document_id).filter(text__iregex=ENACTED_AT)
              .exclude(kind="penjelasan").order_by("-ordinal"))
    return [chunk_hit(c) for c in chunks[:1]]


SCOPE_STATEMENT = (r"(qanun|peraturan|undang-undang|keputusan|instruksi)[[:alpha:][:space:]]{0,60}[[:space:]]ini[[:space:]]+"
                   r"(mengatur|bertujuan|dimaksudkan)|(^|\n)[[:space:]]*(maksud[[:space:]]+dan[[:space:]]+tujuan|"
                   r"ruang[[:space:]]+lingkup)[[:space:]]*(\n|$)")


def scope_chunks_visible(*, principal: Principal, scope: Scope, document_id: uuid.UUID) -> list[ChunkHit]:
    """What a document says it is about: its heading (the title line), then the first articles that state
    what it regulates or is for ("Peraturan Badan ini mengatur …", "MAKSUD DAN TUJUAN")."""
    chunks = _document_chunks(principal, scope, document_id).exclude(kind="penjelasan")
    heading = list(chunks.order_by("ordinal")[:1])
    stated = list(chunks.filter(text__iregex=SCOPE_STATEMENT).order_by("ordinal")[:2])
    return [chunk_hit(c) for c in {c.id: c for c in [*heading, *stated]}.values()]


def chunk_count_with_all_terms_visible(*, principal: Principal, scope: Scope, document_id: uuid.UUID,
                                       query: str) -> int:
    """How many of a visible document's passages contain every term of ``query`` (indonesian configuration)."""
    terms = SearchQuery(query, config="indonesian", search_type="plain")
    return _document_chunks(principal, scope, document_id).filter(search_vector=terms).count()


def words_absent_from_visible(words: list[str], *, principal: Principal, scope: Scope,
                              forms: Callable[[str], Sequence[str]] | None = None) -> list[str]:
    """The words no passage the caller may read contains (indonesian stemming; one indexed EXISTS each); with
    ``forms``, a word is present when it or any of its forms is (one EXISTS over their disjunction)."""
    visible = Document.objects.filter(visible_documents_q(principal, scope))

    def query(word: str) -> SearchQuery:
        terms = SearchQuery(word, config="indonesian", search_type="plain")
        for form in (forms(word) if forms else ()):
            terms |= SearchQuery(form, config="indonesian", search_type="plain")
        return terms

    return [word for word in words
            if not Chunk.objects.filter(document__in=visible, search_vector=query(word)).exists()]


def clause_chunk_visible(*, principal: Principal, document_id: uuid.UUID, char_start: int) -> ChunkHit | None:
    """The visible chunk holding the character ``char_start`` of a document (a relation's clause)."""
    chunk = (_document_chunks(principal, None, document_id)
             .filter(char_start__lte=char_start, char_end__gt=char_start).order_by("ordinal").first())
    return chunk_hit(chunk) if chunk else None


@dataclass(frozen=True)
class PassagePacket:
    """One passage an earlier answer cited, as stored (metadata.synthesis.source_passages)."""

    document_id: uuid.UUID
    chunk_id: uuid.UUID
    visible_chars: int                 # positive: how much of the chunk that answer showed


def chunks_restored_visible(*, principal: Principal, scope: Scope, packets: Sequence[PassagePacket]) -> list[ChunkHit]:
    """The current bodies of earlier cited chunks, each within its persisted visible prefix, in packet order.

    Access and scope are rechecked; a chunk no longer visible, disabled, or now in another document is
    left out (fresh retrieval finds what is needed). A restored body is never longer than it was shown.
    """
    if not packets:
        return []
    visible = Document.objects.filter(visible_documents_q(principal, scope))
    chunks = {c.id: c for c in Chunk.objects.filter(chunk_enabled_q(), document__in=visible,
                                                    id__in=[p.chunk_id for p in packets])
              .select_related("document").defer(*_ROWS)}
    hits = []
    for packet in packets:
        chunk = chunks.get(packet.chunk_id)
        if chunk is not None and chunk.document_id == packet.document_id:
            hit = chunk_hit(chunk)
            hits.append(replace(hit, text=hit.text[:packet.visible_chars]))
    return hits


def chunk_visible_get(*, principal: Principal, chunk_id: uuid.UUID) -> ChunkHit | None:
    """A chunk the principal may read; restricted and unknown alike give None."""
    chunk = chunks_visible(principal).select_related("document").filter(id=chunk_id).first()
    return chunk_hit(chunk) if chunk else None


def document_source_identity(*, principal: Principal, document_id: uuid.UUID) -> dict:
    """``source_key`` and ``source_name`` of a visible document (empty when not visible)."""
    return (Document.objects.filter(visible_documents_q(principal), id=document_id)
            .values("source_key", "source_name").first()) or {}


def chunk_texts_iter(batch_size: int = 500):
    """(kind, text) of every enabled chunk, in batches: for an operator's cache warm-up that shows no one the
    text (``manage.py embed_units``), so it takes no principal."""
    rows = Chunk.objects.filter(chunk_enabled_q()).order_by("id").values_list("kind", "text")
    yield from rows.iterator(chunk_size=batch_size)
