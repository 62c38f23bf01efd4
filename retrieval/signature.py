"""A regulation's signature block: where it is, what it prints, and how much of it to read.

One home for the block's vocabulary: the enactment line ("Ditetapkan/Disahkan di …"), an office
line and a printed name. The facade's closing read, the roster of ``corpus_facts`` and the answer's
signatory focus all use it.
"""
from __future__ import annotations

import re

from django.db.models import QuerySet

# PostgreSQL's iregex form (the database finds the chunk) and Python's (the text is narrowed).
ENACTED_AT = r"(ditetapkan|disahkan)\s+di\s+\w+"
ENACTED_AT_LINE = re.compile(r"\b(?:Ditetapkan|Disahkan)\s+di\b", re.IGNORECASE)
BLOCK_END = re.compile(r"\b(?:Diundangkan\s+di|LEMBARAN|BERITA)\b")
PERSON = re.compile(r"\b(?:(?:DR|Dr|H|Hj|Ir|Prof|Drs)\.\s*)*[A-Z][A-Z'.]{2,}(?:\s+[A-Z][A-Z'.]{1,}){1,4}\b")
OFFICE = re.compile(
    r"\b(gubernur|wakil\s+gubernur|bupati|wali\s*kota|presiden|menteri|sekretaris\s+daerah|kepala\s+\w+|ketua\s+\w+|"
    r"pejabat|badan|dinas|dewan|komisi|lembaga|satuan\s+kerja|governor|president|minister)\b", re.I)
CLOSING_CHUNK_LIMIT = 3
# Questions the block answers: who signed it, when or where it was enacted.
SIGNATORY = re.compile(
    r"\b(tanda\s*tangan|menandatangani|ditandatangani|penandatangan|yang\s+menetapkan|yang\s+mengesahkan|"
    r"diteken|teken|neken|yg\s+teken|"
    r"who\s+signed|signed\s+by|signatory)(?:nya)?\b",      # "siapa yang menandatanganinya?" (a follow-up)
    re.IGNORECASE,
)
ENACTMENT = re.compile(r"\b(ditetapkan|disahkan|diundangkan|ditandatangani|ditanda\s*tangani|menetapkan|mengesahkan|"
                       r"menandatangani|penandatangan|diteken|teken|neken|dikeluarkan|dikeluarin|diterbitkan|enacted|"
                       r"signed|issued)(?:nya)?\b", re.I)   # "diundangkannya"
_WHO_OR_WHEN = re.compile(r"\b(siapa|siapakah|who|kapan|tanggal\s+berapa|when|what\s+date|di\s+mana|dimana|where)\b", re.I)


# "Siapa yang berwenang menetapkan status darurat?": an active enacting verb whose object is not an instrument
# asks who decides a matter, not who enacted the regulation.
_ACTIVE_ENACTING = re.compile(r"\b(?:menetapkan|mengesahkan|mengeluarkan|menerbitkan)\s+(?P<object>[\w-]+)", re.I)
_INSTRUMENT_OBJECT = re.compile(r"(?:peraturan|qanun|undang|uu|pp|perpres|permen|pergub|perbup|perwal|perda|keputusan|"
                                r"kepgub|keppres|instruksi|ingub|aturan|regulasi|nya|ini|itu|regulation|law|decree)",
                                re.I)


def enacts_instrument(question: str) -> bool:
    """The question is about enacting an instrument ("kapan UU 11/2006 disahkan", "siapa yang menetapkan
    qanun ini"), not about who decides a matter ("siapa yang berwenang menetapkan status darurat")."""
    if not ENACTMENT.search(question):
        return False
    active = _ACTIVE_ENACTING.search(question)
    return active is None or bool(_INSTRUMENT_OBJECT.match(active.group("object")))


def asks_closing(question: str) -> bool:
    """Who signed the regulation, or when/where it was enacted: what its signature block says."""
    return bool(SIGNATORY.search(question) or (enacts_instrument(question) and _WHO_OR_WHEN.search(question)))


def closing_block(chunks: QuerySet) -> list:
    """The signature block among ``chunks`` (one document's visible chunks), with its neighbour when split.

    The block is the ``closing`` chunk, or (when the chunker filed it under a Lampiran or the last
    article) the last chunk holding "Ditetapkan/Disahkan di …", narrowed to that span. A block whose
    office and name run into the next chunk reads that chunk too; one that begins in the previous
    chunk reads that one. Only these few chunks are read, never the whole document. The returned
    instances may carry narrowed text and are never saved.
    """
    base = chunks.exclude(kind="penjelasan")
    found = list(base.filter(kind="closing").order_by("ordinal")[:CLOSING_CHUNK_LIMIT])
    if not found:
        found = list(base.filter(text__iregex=ENACTED_AT).order_by("-ordinal")[:1])
    if not found:
        return []
    wanted: set[int] = set()
    for chunk in found:
        enacted = ENACTED_AT_LINE.search(chunk.text)
        if enacted is None:
            wanted.add(chunk.ordinal - 1)          # the block began in the previous chunk
        elif not names_signatory(chunk.text[enacted.end():]):
            wanted.add(chunk.ordinal + 1)          # the office and name are in the next chunk
    missing = sorted(wanted - {chunk.ordinal for chunk in found})
    neighbours = list(base.filter(ordinal__in=missing)) if missing else []
    for chunk in [*found, *neighbours]:
        _narrow_to_block(chunk)
    return sorted([*found, *neighbours], key=lambda c: c.ordinal)[:CLOSING_CHUNK_LIMIT]


def _narrow_to_block(chunk) -> None:
    """Narrow a chunk that also holds the last articles to its closing span.

    A chunk filed as Lampiran or as the last article carries "BAB V … Pasal 8 …" before the signature
    block; read whole, those capitalised headings outrank the printed name. ``char_start`` moves with
    the span so the citation still points at the text read.
    """
    if chunk.kind == "closing":
        return
    enacted = ENACTED_AT_LINE.search(chunk.text)
    if enacted is None or enacted.start() == 0:
        return
    chunk.text = chunk.text[enacted.start():]
    if chunk.char_start is not None:
        chunk.char_start += enacted.start()


def names_signatory(after_enactment: str) -> bool:
    """Whether the text after "Ditetapkan di …" (up to the promulgation) carries a printed name."""
    block = BLOCK_END.split(after_enactment, maxsplit=1)[0]
    lines = [line.strip(" ,") for line in block.splitlines()]
    return any(PERSON.fullmatch(line) and not OFFICE.search(line) for line in lines if line)
