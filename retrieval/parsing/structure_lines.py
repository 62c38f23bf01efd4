"""The line patterns the regulation reader (``structure``) recognises, and its small tests."""
from __future__ import annotations

import re


# --------------------------------------------------------------------------- line patterns

_MD_PREFIX_RE = re.compile(r"^(?:#{1,6}\s+|\*\*|__)")
_BAB_RE = re.compile(r"^BAB\s+([IVXLC]{1,7}[A-Z]?)(?!\s*:)(?:\s*[.:-]?\s+(\S.*))?\s*\.?$")
_BAGIAN_RE = re.compile(r"^(?:Bagian|BAGIAN)\s+(Kesatu|Pertama|Ke[a-z]{3,}(?:\s+(?:Belas|Puluh))?|KESATU|PERTAMA|KE[A-Z]{3,}(?:\s+(?:BELAS|PULUH))?)\b(.*)$")
_PARAGRAF_RE = re.compile(r"^(?:Paragraf|PARAGRAF)\s+(\d{1,3}[A-Z]?|Ke[a-z]{3,}|KE[A-Z]{3,})\b(.*)$")
_PASAL_RE = re.compile(r"^(?P<q>[\"“”'‘’]?)\s*(?:Pasal|PASAL)\s+(?:(?P<num>\d{1,4})\s?(?P<suf>[A-Z])?|(?P<roman>[IVXL]{1,6}))\s*\.?\s*$")
_DICTUM_RE = re.compile(
    r"^(PERTAMA|KE(?:SATU|DUA|TIGA|EMPAT|LIMA|ENAM|TUJUH|DELAPAN|SEMBILAN|SEPULUH|SEBELAS)(?:\s+(?:BELAS|PULUH(?:\s+[A-Z]+)?))?)\s*:"
)
_PRE_RE = re.compile(
    r"^(Menimbang|MENIMBANG|Mengingat|MENGINGAT|Memperhatikan|MEMPERHATIKAN|Menetapkan|MENETAPKAN|MEMUTUSKAN|Memutuskan"
    r"|Kepada\s*:|KEPADA\s*:|Untuk\s*:|UNTUK\s*:|Mengingat)(?=\W|$)"
)
_PRE_LABEL = {
    "menimbang": "Menimbang", "mengingat": "Mengingat", "memperhatikan": "Memperhatikan",
    "menetapkan": "Menetapkan", "memutuskan": "Menetapkan", "kepada": "Kepada", "untuk": "Kepada",
}
_PENJ_RE = re.compile(r"^(?:PENJELASAN|P E N J E L A S A N)(?:\s*$|\s+ATAS\b)")
_LAMP_RE = re.compile(r"^LAMPIRAN(?:\s+([IVXLC]{1,6}|\d{1,2})\b)?(?:\s*$|\s*:|\s+[A-Z]{3,})")
_CLOSE_RE = re.compile(
    r"^(?:Agar\s+(?:supaya\s+)?setiap\s+orang\s+mengetahui|Ditetapkan\s+di\b|Disahkan\s+di\b|Diundangkan\s+di\b"
    r"|LEMBARAN\s+(?:NEGARA|ACEH|DAERAH)\b|TAMBAHAN\s+LEMBARAN\b|BERITA\s+(?:NEGARA|ACEH|DAERAH)\b)"
)
_UMUM_RE = re.compile(r"^(?:I\.\s*)?UMUM\b\.?")
_PDP_RE = re.compile(r"^(?:II\.\s*)?PASAL\s+DEMI\s+PASAL\b")
# A circular letter has no articles: its parts are lettered headings ("A. Umum", "B. Dasar", "D. Untuk melakukan
# hal-hal sebagai berikut"), a capital, a dot and a short title that does not end a sentence.
LETTERED_PART = re.compile(r"^[A-Z]\.\s+[A-Z][a-z][^.;:,]{0,70}$")
# The first lettered part of an attachment printed with no "LAMPIRAN" heading ("A. Latar Belakang"); a signature's
# initial ("A. Hamid") is a name, not a part: the part's title is a known opening word.
UNTITLED_ATTACHMENT = re.compile(r"^A\.\s+(?:Latar\s+Belakang|Pendahuluan|Umum|Dasar\s+Hukum|Maksud|Gambaran\s+Umum)\b",
                                 re.I)
_LAMP_SUB_RE = re.compile(r"^(?:[A-Z]|[IVX]{1,4})\.\s+[A-Z][A-Z0-9 ,/&()'’-]{2,80}$")
_INSTRUCTION_RE = re.compile(r"(?i)\b(?:diubah|disisipkan|ditambahkan|ditambah|diganti|dihapus)\b.*:\s*[\"“]?\s*$")
_CONNECTIVE_END_RE = re.compile(
    r"(?:,|\b(?:dalam|pada|dan|atau|dengan|dimaksud|ketentuan|sesuai|berdasarkan|oleh|terhadap|dari|ke|di|bahwa"
    r"|yaitu|serta|menurut|melalui|tentang|sebagaimana|huruf|ayat|angka|dan/atau))\s*$"
)
_PASAL_COUNT_RE = re.compile(r"(?m)^[ \t]*(?:#{1,6}[ \t]+)?Pasal[ \t]+\d{1,4}[A-Z]?[ \t]*$")
_DICTUM_COUNT_RE = re.compile(r"(?m)^[ \t]*(?:KESATU|PERTAMA|KEDUA)[ \t]*:")


def count_pasal_headings(text: str) -> int:
    return len(_PASAL_COUNT_RE.findall(text)) + len(_DICTUM_COUNT_RE.findall(text))


def _strip_md(line: str) -> str:
    line = _MD_PREFIX_RE.sub("", line)
    if line.endswith(("**", "__")):
        line = line[:-2].rstrip()
    return line


_ITEM_START_RE = re.compile(r"(?:[a-z]|\d{1,3})[.)]\s")


def _is_title_like(line: str) -> bool:
    """A short line that can be the title of a BAB / Bagian / Paragraf heading."""
    if len(line) > 160 or line[0] == "(" or _ITEM_START_RE.match(line):
        return False
    if line[-1] in ".;:,":
        return line[-1] == "." and len(line) <= 80 and line.upper() == line
    return True


# --------------------------------------------------------------------------- regulations


_AMEND_VERB_RE = re.compile(r"(?i)\b(?:diubah|disisipkan|ditambahkan|ditambah|dihapus|diganti)\b")
_AMEND_INTRO_RE = re.compile(
    r"(?i)^[\"“]?\s*(?:\d+\.\s*)?(?:beberapa\s+ketentuan|ketentuan|di\s*antara|pasal\s+\d|bab\s+[ivxlc]|penjelasan)\b"
)


def _opens_amendment(text: str, lines, idx: int, roman: bool) -> bool:
    """Does the article heading at ``lines[idx]`` open a list of amendments?"""
    if idx + 1 >= len(lines):
        return False
    s = lines[idx + 1][0]
    window = text[s:s + 600]
    if roman:
        return bool(_AMEND_VERB_RE.search(window))
    return bool(_AMEND_INTRO_RE.match(window)) and bool(
        re.search(r"(?i)\b(?:diubah|disisipkan|ditambahkan|dihapus)\b[^.]{0,200}?(?:sebagai\s+berikut|berbunyi)\s*:", window)
    )


def article_label(number: str, suffix: str | None) -> str:
    """"7" and "A" -> "7A"; an "O" after the digits is a zero a text layer read as a letter ("Pasal 7O" is Pasal 70:
    an inserted article's letter follows its number in order, and no regulation inserts fifteen after one)."""
    if suffix == "O":
        return f"{number}0"
    return number + (suffix or "")


def continues_title(mode: str, prev_text: str) -> bool:
    """A "LAMPIRAN …" line in the body after a line ending in a connective continues that line, a chapter's title
    ("BAB III / PENGHITUNGAN … YANG BELUM TERCANTUM DALAM / LAMPIRAN PERATURAN MENTERI DALAM NEGERI"): no attachment
    starts in the middle of a phrase."""
    return mode == "body" and bool(_CONNECTIVE_END_RE.search(prev_text.lower()))


def misread_first_article(roman: str | None, opens: bool, *, amended: bool, first: bool) -> bool:
    """"Pasal I" as a regulation's first article that opens no amendment, in a regulation that has amended nothing,
    is "Pasal 1" read by a text layer as a roman one ("BAB I KETENTUAN UMUM Pasal I Dalam Undang-Undang ini yang
    dimaksud dengan:"): an amending regulation's Pasal I says what it changes."""
    return roman == "I" and not opens and not amended and first


def pasal_heading(line: str, inline: str | None, prev_text: str, next_starts_lower: bool):
    """The ``Pasal`` heading match of a line, or None: a stand-alone "Pasal 8" after a connective
    ("dalam", ",") and before a lower-case line is a reference, not a heading."""
    pm = _PASAL_RE.match(line) if inline in (None, "ipasal") else None
    if pm and inline is None and _CONNECTIVE_END_RE.search(prev_text) and next_starts_lower:
        return None
    return pm


def structure_heading(line: str, inline: str | None, prev_text: str, *, in_arabic_article: bool):
    """``(level, name, title)`` of a BAB, Bagian or Paragraf heading, or None.

    A quoted BAB inside an Arabic article (omnibus amendment) is plain content.
    """
    struct = None
    if inline in (None, "ibab") and (bm := _BAB_RE.match(line)):
        struct = ("bab", f"BAB {bm.group(1)}", bm.group(2))
    elif inline in (None, "ibagian") and (gm := _BAGIAN_RE.match(line)) and not re.match(r"\s+[a-z]", gm.group(2)):
        struct = ("bagian", f"Bagian {gm.group(1).title()}", gm.group(2).strip())
    elif inline in (None, "iparagraf") and (qm := _PARAGRAF_RE.match(line)) and not re.match(r"\s+[a-z]", qm.group(2)):
        struct = ("paragraf", f"Paragraf {qm.group(1)}", qm.group(2).strip())
    if struct and in_arabic_article and (line.startswith(("\"", "“")) or _INSTRUCTION_RE.search(prev_text)):
        return None
    return struct


def descend(level: str, name: str, levels: tuple) -> tuple:
    """(BAB, Bagian, Paragraf) in force after a heading of ``level``: a BAB closes the Bagian and Paragraf before
    it, a Bagian its Paragraf."""
    bab, bagian, _ = levels
    if level == "bab":
        return name, None, None
    if level == "bagian":
        return bab, name, None
    return bab, bagian, name
