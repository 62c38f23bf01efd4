"""Chunking of an extracted document into retrieval units with legal references.

Pipeline: ``parse_identity`` (identity.py) -> sections (structure.py for regulations,
textdoc.py otherwise) -> split of long sections (splitting.py) -> merge of tiny
neighbours -> :class:`ChunkDraft` with path, reference (references.py), page and
table header.

Rules
-----
* **Offsets.** ``chunk.text == text[chunk.char_start:chunk.char_end]`` always.  Chunks
  are in document order, never overlap, start and end on non-whitespace characters
  that sit next to whitespace (never inside a word), and the gaps between them are
  whitespace only, so together they cover every non-whitespace character.
* **Sections** follow the legal structure: one per Pasal (with any BAB / Bagian /
  Paragraf headings just above it), per dictum ("KESATU :"), per preamble part
  (title block, Menimbang, Mengingat, Memperhatikan, Menetapkan), the closing block
  (path ``("Penutup",)``), the Penjelasan (``("Penjelasan", "Umum")``,
  ``("Penjelasan", "Pasal 8")``) and each Lampiran.
* **Merging.** A section shorter than ``min_chars`` merges with its neighbours of the
  same kind and parent (same BAB/Bagian/Paragraf, same amendment article, same
  Lampiran) while the merged span stays within ``max_chars``.  The merged chunk keeps
  the *first* section's ``section_path``; its ``legal_reference`` names the range:
  "... Pasal 3-4", "... Diktum KESATU-KETIGA", "Penjelasan ... Pasal 1-12",
  "... Pasal I (Pasal 5-6)".  Merged preamble parts are referenced as "... Pembukaan".
* **Splitting.** A section longer than ``max_chars`` is packed greedily into pieces of
  at most ``max_chars``, cutting at the best boundary available in the window, by
  priority: ayat "(n)" (Penjelasan: "Ayat (n)"), then list items ("a.", "1.") and
  paragraph / table boundaries, then line ends (= table row ends), then sentence
  ends, then whitespace.  Within a table only row ends are used unless a single row
  is longer than ``max_chars``.  Each piece prefers to be at least ``min_chars`` long
  and to leave at least ``min_chars`` behind it.  A single word longer than
  ``max_chars`` becomes a chunk of its own (the only way a chunk exceeds the limit).
* **References.** ``citation()`` of the identity + the article: whole Pasal ->
  "Qanun Aceh Nomor 1 Tahun 2024 Pasal 8"; a piece holding ayat (2) and (3) ->
  "... Pasal 8 ayat (2)-(3)"; a piece inside one ayat (or inside an article without
  ayat) that does not hold all of it -> "... Pasal 8 ayat (2) huruf c-f" /
  "... Pasal 1 angka 5-9"; nested amendment article -> "... Pasal I (Pasal 5 ayat
  (2))"; dictum -> "... Diktum KESATU"; preamble -> "... Menimbang huruf a-c";
  Penjelasan -> "Penjelasan ... Pasal 8", "Penjelasan Umum ..."; closing -> "...
  Penutup"; Lampiran -> "Lampiran II ...".  ``None`` when the citation is unknown
  (type or number missing) and for non-regulations.
* **Tables** are runs of lines containing " | ".  A chunk that starts inside a table
  after its first row gets ``table_header`` = that first row.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass

from .extract import ExtractedText
from .identity import LegalIdentity, parse_identity
from .references import reference
from .segments import Section
from .splitting import Tables, split_section
from .structure import count_pasal_headings, regulation_sections
from .textdoc import text_sections

__all__ = ["ChunkDraft", "ParsedDocument", "parse_document"]


@dataclass(frozen=True)
class ChunkDraft:
    ordinal: int
    text: str
    char_start: int
    char_end: int
    page_number: int | None
    section_path: tuple[str, ...]
    legal_reference: str | None
    kind: str
    table_header: str | None


@dataclass(frozen=True)
class ParsedDocument:
    title: str
    identity: LegalIdentity
    is_regulation: bool
    chunks: tuple[ChunkDraft, ...]


def _merge_key(sec: Section) -> tuple:
    if sec.ref_kind in ("pasal", "penjelasan"):
        return (sec.kind, sec.ref_kind, sec.path[:-1], sec.container)
    if sec.ref_kind == "lampiran":
        return (sec.kind, sec.label)
    if sec.ref_kind == "text":
        return (sec.kind, sec.path[:-1])
    if sec.ref_kind == "struct":
        return (sec.kind, "struct", id(sec))
    return (sec.kind, sec.ref_kind)


def _units(text: str, sections: list[Section], max_chars: int, min_chars: int, tables: Tables) -> list[list]:
    """Split long sections, then merge tiny neighbours: ``[start, end, [sections]]`` per chunk."""
    units: list[list] = []
    for sec in sections:
        first_max = None
        if units and _merge_key(units[-1][2][0]) == _merge_key(sec) and units[-1][1] - units[-1][0] < min_chars:
            room = max_chars - (sec.start - units[-1][0])
            if room >= min_chars and sec.end - sec.start > max_chars:
                first_max = room  # let the first piece absorb the tiny chunk before it
        for start, end in split_section(text, sec, max_chars, min_chars, tables, first_max):
            if end <= start:
                continue
            if units:
                last = units[-1]
                if (
                    _merge_key(last[2][0]) == _merge_key(sec)
                    and (last[1] - last[0] < min_chars or end - start < min_chars)
                    and end - last[0] <= max_chars
                ):
                    last[1] = end
                    if last[2][-1] is not sec:
                        last[2].append(sec)
                    continue
            units.append([start, end, [sec]])
    return units


# A chunk that is junk OCR of a rotated table or a drawing ("s\no\n(d\nq)\no\nLq)\n0\"\nU)…") is stored disabled
# (ingestion.py): it sits near every short question's vector. Its tokens, list markers ("a.", "(1)") aside and
# punctuation stripped, are mostly one or two characters that are not numbers. Calibrated on the real corpus (10,574 chunks with 30
# tokens or more: the 21 junk chunks of perpres-60-2019's appendix 0.49-0.72, every other chunk at most 0.33,
# formulas like "DAU Kab/Kota i = Bobot Kab/Kota i x …").
JUNK_SHORT_TOKEN_SHARE = 0.45
JUNK_MIN_TOKENS = 30
_EDGES = re.compile(r"^[\W_]+|[\W_]+$")
_LIST_MARKER = re.compile(r"^(?:[a-zA-Z]|\d{1,3}|[ivxlIVXL]{1,4})[.)]$|^\((?:\d{1,3}|[a-z])\)$")


def is_junk(text: str) -> bool:
    tokens = [_EDGES.sub("", t) for t in text.split() if not _LIST_MARKER.match(t)]
    tokens = [t for t in tokens if t]
    if len(tokens) < JUNK_MIN_TOKENS:
        return False
    return sum(1 for t in tokens if len(t) <= 2 and not t.isdigit()) / len(tokens) >= JUNK_SHORT_TOKEN_SHARE


def _first_line(text: str) -> str:
    for line in text.split("\n", 50):
        line = line.strip().lstrip("#").strip()
        if line:
            return line
    return ""


def _shorten(title: str, limit: int = 300) -> str:
    title = " ".join(title.split())
    if len(title) <= limit:
        return title
    cut = title[:limit].rsplit(" ", 1)[0]
    return cut or title[:limit]


def parse_document(
    extracted: ExtractedText,
    *,
    max_chars: int = 1500,
    min_chars: int = 200,
    title_hint: str | None = None,
) -> ParsedDocument:
    """Identity, title and chunks of an extracted document (see the module docstring).

    ``min_chars`` is clamped to ``max_chars // 2``.  ``title_hint`` (e.g. the file
    name) is used as the title of a non-regulation only when its text opens with a
    paragraph (first line longer than 150 characters) instead of a title line.
    """
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    min_chars = max(0, min(min_chars, max_chars // 2))
    text = extracted.text
    identity = parse_identity(text)
    is_regulation = bool(identity.instrument_type) or count_pasal_headings(text) >= 2
    sections = regulation_sections(text) if is_regulation else text_sections(text)
    tables = Tables(text)
    cite = identity.citation() if is_regulation else None
    page_starts = extracted.page_starts

    chunks: list[ChunkDraft] = []
    cache: dict = {}
    for start, end, group in _units(text, sections, max_chars, min_chars, tables):
        first = group[0]
        page = (max(0, bisect_right(page_starts, start) - 1) + 1) if page_starts else None
        chunks.append(
            ChunkDraft(
                ordinal=len(chunks),
                text=text[start:end],
                char_start=start,
                char_end=end,
                page_number=page,
                section_path=tuple(p[:300] for p in first.path),
                legal_reference=reference(cite, text, group, start, end, cache),
                kind=first.kind,
                table_header=tables.header_for(start),
            )
        )

    if is_regulation and identity.title():
        title = _shorten(identity.title(), 500)  # full "X Nomor n Tahun y tentang SUBJECT"
    else:
        heading = next((s.path[0] for s in sections if s.kind == "text" and s.path), None)
        first_line = _first_line(text)
        if heading:
            title = heading
        elif title_hint and (not first_line or len(first_line) > 150):
            title = title_hint  # the text opens with a paragraph, not a title line
        else:
            title = first_line or (title_hint or "")
        title = _shorten(title, 300)
    return ParsedDocument(
        title=title,
        identity=identity,
        is_regulation=is_regulation,
        chunks=tuple(chunks),
    )
