"""Answer units: what the extractive synthesiser may quote from a passage.

A unit is a sentence, an ayat, a table row kept whole, or a lead-in that
ends in ":" together with the list items that follow it (up to
MAX_LIST_ITEMS / MAX_LIST_CHARS, so "… terdiri atas:" never loses its list);
an appendix's numbered table ("NO SEKTOR …", then "1 …", "2 …" a line) is
its header line with its rows, quoted the same way.
Headings (a circular letter's lettered parts, "A. Umum", too), page-continuation
stubs ("(2) Pembebasan .../3") and list items whose lead-in is not in the
passage (orphans) are never units; a numbered
definition ("3. PKB adalah …") stands on its own. Preamble lines
(Menimbang / Mengingat / Memperhatikan, "bahwa …" considerations, gazette
references) are units only when the question asks for the legal basis.
What a text layer left that no reader should see (stray underscores and carets, words broken at a line's
end: ``textlayer``) is not quoted.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from answering.extractive.textlayer import without_text_layer_marks
from retrieval.facade.language import LETTERED_PART

# Inside a paragraph a sentence ends at . ; or : before a capital or an item marker (inline lists split, then regroup).
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(\"']|[a-z]\.\s|\d{1,2}\.\s)")
# "1." or "KESATU :" at the end of a split piece is a marker, not a sentence end.
_BARE_MARKER_END = re.compile(r"(^|[\s:])(?:[a-z]|\d{1,2})\.$|^[A-Z]{4,}\s*:$")
_SHOUTING = re.compile(r"^[^a-z]*$")
_ITEM = re.compile(r"^(?:[a-z]|\d{1,2})[.)]\s+")
_AYAT = re.compile(r"^\(\d+[a-z]?\)\s")
_HEADING = re.compile(r"^(#{1,6}\s|(BAB|Bagian|Paragraf|Pasal)\s+\S+\s*$|[A-Z0-9 ,./()\-]{3,80}$|"
                      # "Bagian Ketiga Penyelesaian Pengaduan oleh Penyelenggara": a part's heading with its title
                      r"(?:BAB\s+[IVXLC]+|Bagian\s+(?:Ke[a-z]+|Pertama)(?:\s+Belas)?|Paragraf\s+\d+)\s[^.;:]{0,120}$)")
# A Penjelasan's own headings ("Ayat (3)", "Huruf a", "Angka 2") and its "Cukup jelas" ("clear enough") are
# never units: on a line of their own they end what comes before; inside a flattened line they are split off first.
_EXPLANATION_HEAD = re.compile(r"^(?:Ayat\s*\(\d+[a-z]?\)|Huruf\s+[a-z]|Angka\s+\d+|Cukup\s+jelas\.?)$")
_EXPLANATION_MARK = re.compile(r"\s*\b(Ayat\s*\(\d+[a-z]?\)|Huruf\s+[a-z]\b|Angka\s+\d+\b|Cukup\s+jelas\.?)\s*")
# "BAB XIII LARANGAN DALAM … Data Pribadi dilakukan …", "Pasal 14 Pelaksanaan hak …", "Pasal 46 (1) Yang …": a
# chapter's or an article's heading a PDF's text ran into the next line.
_INLINE_CHAPTER = re.compile(r"^(BAB\s+[IVXLC]+(?:\s+[^\sa-z]+)*|Pasal\s+\d+[A-Z]?)\s+(?=[A-Z(]\S*[a-z]|\(\d+[a-z]?\)\s)")
_CONTINUATION = re.compile(r"(\.\.\.|…)\s*/\s*\d+\s*$")
_DEFINITION = re.compile(r"\b(adalah|ialah|merupakan|yang selanjutnya (disebut|disingkat))\b", re.I)
# "Dalam Qanun ini yang dimaksud dengan:" heads definitions, each quotable on its own.
_DEFINITIONS_LEAD = re.compile(r"(yang\s+dimaksud\s+dengan|the\s+following\s+definitions)\s*:$", re.I)
_LEGAL_BASIS_LINE = re.compile(
    r"^(Menimbang|Menimbing|Mengingat|Memperhatikan|Menetapkan\s*:|MEMUTUSKAN|bahwa\b)|"
    r"(Lembaran Negara|Tambahan Lembaran|Lembaran Aceh|Lembaran Daerah|Berita Daerah)", re.I)
# A closing provision that revokes or amends another regulation cites its gazette too; it is not legal basis.
# ("sebagaimana telah diubah dengan …" in a Mengingat item is still legal basis.)
_ACTING_CLAUSE = re.compile(r"\b(dicabut|dinyatakan\s+tidak\s+berlaku|diubah\s+(?:sebagai\s+berikut|sehingga))\b", re.I)
LEGAL_BASIS_QUESTION = re.compile(
    r"\b(dasar\s+hukum|landasan\s+hukum|mengingat|menimbang|pertimbangan|latar\s+belakang|konsiderans|"
    r"legal\s+basis|dasar\s+(pembentukan|penetapan))\b", re.I)
MAX_LIST_ITEMS = 10
MAX_LIST_CHARS = 900
# A question asking for the list ("apa saja …") is answered by the whole of it, within these bounds.
ASKED_LIST_ITEMS = 20
ASKED_LIST_CHARS = 1800
MIN_UNIT_CHARS = 25


@dataclass(frozen=True)
class Unit:
    text: str
    kind: str          # "sentence" | "list" | "table" | "definition" | "row" | "closing"
    position: int
    items: tuple[str, ...] = ()    # a list unit's items (its text is the lead-in and the items joined)
    omitted: int = 0               # items past MAX_LIST_ITEMS / MAX_LIST_CHARS, not quoted


# An appendix's numbered table as its text layer prints it: a header line ("NO SEKTOR KODE KBLI …", "No NOMOR SKPA
# Keterangan"), perhaps the columns' numbers ("1 2 3 4 5"), then one line per row numbered from 1.
_TABLE_HEADER = re.compile(r"^N[Oo]\.?\s+\S")
_COLUMN_NUMBERS = re.compile(r"^\d{1,2}(?:\s+\d{1,2})+$")
_NUMBERED_ROW = re.compile(r"^(\d{1,3})\s+\S")


def _pieces(text: str) -> list[tuple[str, str]]:
    """(kind, text) in reading order: "row", "table" (a numbered table: its header line, then its rows, one a
    line), "break" (a heading), or a sentence of prose."""
    pieces: list[tuple[str, str]] = []
    paragraph: list[str] = []
    table: list[str] = []          # an open numbered table: its header line, then its rows

    def close_table() -> None:
        pieces.append(("table", "\n".join(table)))
        table.clear()

    def flush() -> None:
        if paragraph:
            carried = ""
            for sentence in _SENTENCE_END.split(" ".join(paragraph)):
                sentence = (carried + " " + sentence).strip() if carried else sentence.strip()
                carried = ""
                if _BARE_MARKER_END.search(sentence):
                    carried = sentence   # "Mengingat : 1." + "Pasal 18 …": a marker is not a sentence end
                elif sentence:
                    pieces.append(("text", sentence))
            if carried:
                pieces.append(("text", carried))
            paragraph.clear()

    lines = [" ".join(raw.split()) for raw in text.splitlines()]
    for at, line in enumerate(lines):
        if table:
            row = _NUMBERED_ROW.match(line)
            if len(table) == 1 and _COLUMN_NUMBERS.match(line):
                continue
            if row and int(row.group(1)) == len(table):
                table.append(line)
                continue
            close_table()
        if _TABLE_HEADER.match(line) and _opens_table(lines[at + 1:]):
            flush()
            table.append(line)
            continue
        if chapter := _INLINE_CHAPTER.match(line):
            flush()
            pieces.append(("break", chapter.group(1)))
            line = line[chapter.end():]
        if not line:
            flush()
        elif _CONTINUATION.search(line):
            flush()   # "(2) Pembebasan .../3": the page's running stub; the full text follows
        elif " | " in line:
            flush()
            pieces.append(("row", line))
        elif _HEADING.match(line) or LETTERED_PART.match(line) or _EXPLANATION_HEAD.match(line):
            # "A. Umum": a circular letter's part
            flush()
            pieces.append(("break", line))
        else:
            if _ITEM.match(line) or _AYAT.match(line):
                flush()
            paragraph.append(line)
    flush()
    if table:
        close_table()
    return pieces


def _opens_table(rest: list[str]) -> bool:
    """A header line's next lines are the columns' numbers (perhaps) and then row 1: "No. 5 Tahun 2020 …" is prose."""
    after = rest[1:] if rest and _COLUMN_NUMBERS.match(rest[0]) else rest
    return bool(after) and bool(row := _NUMBERED_ROW.match(after[0])) and row.group(1) == "1"


def passage_units(text: str, *, legal_basis: bool = False, preamble: bool = False,
                  whole_lists: bool = False, explanation: bool = False) -> list[Unit]:
    """The passage's quotable units (see the module docstring); ``whole_lists`` when the question asks for a list,
    ``explanation`` for a Penjelasan passage (its "Ayat (2) Cukup jelas Ayat (3) …" split at its headings)."""
    text = without_text_layer_marks(text)
    if explanation:
        text = _EXPLANATION_MARK.sub(lambda m: f"\n{m.group(1)}\n", text)
    max_items, max_chars = (ASKED_LIST_ITEMS, ASKED_LIST_CHARS) if whole_lists else (MAX_LIST_ITEMS, MAX_LIST_CHARS)
    units: list[Unit] = []
    lead: list[str] | None = None      # the open lead-in and its items so far
    lead_chars = 0
    omitted = 0

    def close() -> None:
        nonlocal lead, omitted
        if lead is not None and len(lead) > 1:   # a lead-in whose list is not here is not quoted
            units.append(Unit(" ".join(lead), "list", len(units), tuple(lead[1:]), omitted))
        elif lead is not None and _ACTING_CLAUSE.search(lead[0]):
            # … unless it acts by itself: "Beberapa ketentuan dalam … diubah sebagai berikut:" says the amendment
            units.append(Unit(lead[0], "sentence", len(units)))
        lead, omitted = None, 0

    for kind, piece in _pieces(text):
        if kind == "break":
            close()
            continue
        if kind == "row":
            close()
            units.append(Unit(piece, "row", len(units)))
            continue
        # Its header line leads its rows as a lead-in its list (a kind of its own: the unit ranker's list signal was
        # fitted on lead-ins that say what their items are).
        if kind == "table":
            close()
            header, *rows = piece.split("\n")
            kept = _bounded(rows, max_items, max_chars)
            units.append(Unit(" ".join([f"{header}:", *kept]), "table", len(units), tuple(kept), len(rows) - len(kept)))
            continue
        # An item under an open lead-in belongs to its list ("Pada saat … berlaku: … b. Undang-Undang … (Lembaran
        # Negara …) … dicabut"): a gazette reference there is what the clause acts on, not legal basis.
        in_list = lead is not None and bool(_ITEM.match(piece))
        if not legal_basis and not in_list and (
                preamble or (_LEGAL_BASIS_LINE.search(piece) and not _ACTING_CLAUSE.search(piece))):
            close()
            continue
        if _ITEM.match(piece) and lead is not None and _ended(lead, piece):
            close()        # "h. kolaboratif." ends the list: "3. Pasal 5 dihapus." is the amendment's next point
        if _ITEM.match(piece):
            if lead is not None and len(lead) <= max_items and lead_chars + len(piece) <= max_chars:
                lead.append(piece)
                lead_chars += len(piece)
                continue
            if lead is not None:
                omitted += 1
                continue   # past the bound: the list is cut (the answer says how many items it left out)
            if _DEFINITION.search(piece):
                units.append(Unit(_ITEM.sub("", piece), "definition", len(units)))
            continue       # an orphan item: its lead-in is not in this passage
        close()
        if piece.endswith(":"):
            if not _DEFINITIONS_LEAD.search(piece):
                lead, lead_chars = [piece], len(piece)
        elif _SHOUTING.match(piece):
            continue       # a title line in capitals ("PERATURAN GUBERNUR TENTANG …")
        else:
            units.append(Unit(piece, "definition" if _DEFINITION.search(piece) else "sentence", len(units)))
    close()
    return [u for u in units if len(u.text) >= MIN_UNIT_CHARS]


def _ended(lead: list[str], piece: str) -> bool:
    """The open list has ended before ``piece``: its last item closed with a full stop and ``piece`` is marked in
    another style (a number after letters, a letter after numbers). A nested list's parent item ends with ":" and
    its items with ";", so a nested list stays open."""
    first = lead[1] if len(lead) > 1 else None
    return (first is not None and lead[-1].rstrip().endswith(".")
            and piece[0].isdigit() != first[0].isdigit())


def _bounded(items: list[str], max_items: int, max_chars: int) -> list[str]:
    """The first items within the list bounds."""
    kept: list[str] = []
    for item in items[:max_items]:
        if sum(map(len, kept)) + len(item) > max_chars:
            break
        kept.append(item)
    return kept


def asks_legal_basis(question: str) -> bool:
    return bool(LEGAL_BASIS_QUESTION.search(question))
