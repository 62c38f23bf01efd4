"""How the first sentence is worded: a unit tidied into a sentence, its clause, its modal words.

Shared by the opener (figures, dates, names, status) and the yes/no openers (``yesno``): "Ya."/"Tidak." and
"oleh" are the only words either adds to the passage's own.
"""
from __future__ import annotations

import re

from answering.text import content_stems

MAX_OPENER_CHARS = 320
MAX_WHOLE_SENTENCE_CHARS = 480      # one sentence this long is said whole rather than cut
# A list marker: "(1)", "a.", "1." or "1)" (not the "3." of "3.987.940"), a decree's "KESATU :", "Pasal 5".
# Words that leave a phrase open: a cut sentence never ends on them.
_OPEN_END = re.compile(r"(?:[\s,;:]+(?:yang|dan|atau|dan/atau|serta|dengan|untuk|bagi|dari|pada|oleh|di|ke|dalam|"
                       r"terhadap|sebagaimana|yaitu|antara|atas|tentang|sesuai|berupa|meliputi|of|and|or|to|for|by|in|"
                       r"the))+[\s,;:]*$", re.I)
MARKER = re.compile(r"^\s*(?:\(\d+[a-z]?\)|[a-z]\.|\d{1,2}[.)](?!\d)|[A-Z]{4,}(?:\s+BELAS)?\s*:|Pasal\s+\d+[A-Z]?\.?)\s*")
SPELLED = re.compile(r"(\d[\d.,]*%?)\s*\((?:[a-z\s,/-]{3,120}|[a-z\s]+ (?:rupiah|persen))\)", re.I)
PROHIBIT = re.compile(r"\b(?:dilarang|tidak\s+boleh|tidak\s+dapat|tidak\s+diperbolehkan|tidak\s+diizinkan|"
                      r"tidak\s+berhak|prohibited|may\s+not|must\s+not)\b", re.I)
EXEMPT = re.compile(r"\b(?:tidak\s+wajib|tidak\s+harus|tidak\s+diwajibkan|dikecualikan|tidak\s+berlaku|"
                    r"tidak\s+termasuk|bukan\s+merupakan|tidak\s+dikenakan|dibebaskan\s+dari)\b", re.I)
OBLIGE = re.compile(r"\b(?:wajib|harus|diwajibkan|berkewajiban|shall|must)\b", re.I)
PERMIT = re.compile(r"\b(?:dapat|boleh|berhak|diperbolehkan|berwenang|mendapat|memperoleh|menerima|diberikan)\b", re.I)
# "Ketentuan … dapat dikecualikan bagi anak berumur 13 sampai 15 tahun": a rule waived for a range is a permission.
GRANTED_EXCEPTION = re.compile(r"\bdapat\s+dikecualikan\s+(?:bagi|untuk|terhadap)\b", re.I)
MODAL_STEMS = frozenset(content_stems("boleh bisa dapat wajib harus berhak dilarang tidak tak bukan gak nggak ga "
                                       "apakah bolehkah can may must should allowed"))
YES = {"id": "Ya.", "en": "Yes."}
NO = {"id": "Tidak.", "en": "No."}
BY = {"id": "oleh", "en": "by"}


def unmarked(text: str) -> str:
    """The text without its leading list markers, nested ones too ("(1) a. Membentuk …" -> "Membentuk …")."""
    for _ in range(3):
        text, removed = MARKER.subn("", text, count=1)
        if not removed:
            break
    return text


def tidy(text: str) -> str:
    """A unit as a sentence: no list marker, no spelled-out number, one space, a capital and a full stop."""
    text = " ".join(text.split())
    text = unmarked(text)
    text = SPELLED.sub(r"\1", text)
    text = text.strip(" ;:,")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def clause(text: str, pattern: re.Pattern) -> str | None:
    """The semicolon-separated clause of a tidied unit that carries ``pattern``."""
    for piece in re.split(r";\s+", text):
        if pattern.search(piece):
            return tidy(piece)
    return None


ITEM_END = re.compile(r"[;,.]?\s*(?:dan|atau|dan/atau)?\s*$", re.I)


def short(text: str) -> str:
    """The text as an opening sentence: whole when it fits, else its first clause before ";", else (a definition or
    a rule a little longer than MAX_OPENER_CHARS) whole up to MAX_WHOLE_SENTENCE_CHARS; a longer one is cut at a
    word and ends with "…", never with a word that leaves its phrase open ("… serta informasi lain yang.")."""
    if len(text) <= MAX_OPENER_CHARS:
        return text
    first = re.split(r";\s+", text)[0]
    if len(first) <= MAX_OPENER_CHARS or len(first) <= MAX_WHOLE_SENTENCE_CHARS and not first.rstrip().endswith(":"):
        return tidy(first)
    said = tidy(_OPEN_END.sub("", first[:MAX_OPENER_CHARS].rsplit(" ", 1)[0]))
    return f"{said[:-1] if said.endswith('.') else said} …"
