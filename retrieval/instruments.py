"""The instrument-type vocabulary: every way a regulation's type is written, in one module.

Three readers match it in three registers, each with its own table here:
``HEADING_TYPES`` — the upper-case heading of a regulation's first page
(``parsing.identity``), with ``DEFAULT_ISSUER`` for a heading that names none;
``CITATION_TYPES`` + ``JURISDICTION_DEFAULT`` — a citation in running text and
the canonical key it resolves to (``relations.citations``); ``QUESTION_TYPES`` —
the short forms a question uses ("pergub", "uu"), mapped onto the canonical
family prefixes stored on documents (``search.naming``).
"""
from __future__ import annotations

# --------------------------------------------------------------------------- regulation headings

_HEADING_SPACE = r"[ \t]*\n?[ \t]*"  # whitespace that may include one line break
_HEADING_UU = r"UNDANG[ \t]*[-–—]?[ \t]*UNDANG"

# (regex for the type phrase, canonical display form or None = title-case the match)
HEADING_TYPES: list[tuple[str, str | None]] = [
    (rf"PERATURAN{_HEADING_SPACE}PEMERINTAH{_HEADING_SPACE}PENGGANTI{_HEADING_SPACE}{_HEADING_UU}", "Peraturan Pemerintah Pengganti Undang-Undang"),
    (r"QANUN\s+ACEH", "Qanun Aceh"),
    (r"QANUN\s+(?:KABUPATEN|KOTA)\s+[A-Z][A-Z]+(?:\s+[A-Z][A-Z]+){0,3}?", None),
    (r"PERATURAN\s+GUBE?R?NUR\s+ACEH", "Peraturan Gubernur Aceh"),
    (r"KEPUTUSAN\s+GUBE?R?NUR\s+ACEH", "Keputusan Gubernur Aceh"),
    (r"INSTRUKSI\s+GUBE?R?NUR\s+ACEH", "Instruksi Gubernur Aceh"),
    (r"KEPUTUSAN\s+DEWAN\s+PERWAKILAN\s+RAKYAT\s+ACEH", "Keputusan Dewan Perwakilan Rakyat Aceh"),
    (r"PERATURAN\s+DEWAN\s+PERWAKILAN\s+RAKYAT\s+ACEH", "Peraturan Dewan Perwakilan Rakyat Aceh"),
    (r"PERATURAN\s+PEME[A-Za-z]{2,5}H", "Peraturan Pemerintah"),
    (_HEADING_UU, "Undang-Undang"),
    (r"PERATURAN\s+PRESIDEN", "Peraturan Presiden"),
    (r"KEPUTUSAN\s+PRESIDEN", "Keputusan Presiden"),
    (r"INSTRUKSI\s+PRESIDEN", "Instruksi Presiden"),
    (r"PERATURAN\s+OTORITAS\s+JASA\s+KEUANGAN", "Peraturan Otoritas Jasa Keuangan"),
    (r"PERATURAN\s+BANK\s+INDONESIA", "Peraturan Bank Indonesia"),
    (r"PERATURAN\s+MAHKAMAH\s+AGUNG", "Peraturan Mahkamah Agung"),
    (r"PERATURAN\s+MENTERI\s+[A-Z][A-Z,]*(?:\s+[A-Z][A-Z,]*){0,9}?", None),
    (r"KEPUTUSAN\s+MENTERI\s+[A-Z][A-Z,]*(?:\s+[A-Z][A-Z,]*){0,9}?", None),
    (r"PERATURAN\s+(?:KEPALA\s+)?BADAN\s+[A-Z][A-Z]*(?:\s+[A-Z][A-Z]*){0,9}?", None),
    (r"PERATURAN\s+(?:KEPALA\s+)?LEMBAGA\s+[A-Z][A-Z]*(?:\s+[A-Z][A-Z]*){0,9}?", None),
    (r"PERATURAN\s+DAERAH\s+[A-Z][A-Z]*(?:\s+[A-Z][A-Z]*){0,5}?", None),
    # A circular letter names its issuer after the type ("SURAT EDARAN KEPALA BADAN PENGAWAS TENAGA NUKLIR") and
    # often carries its year only inside the number ("NOMOR 1904/PI 05/K/IX/2019").
    (r"SURAT\s+EDARAN(?:\s+BERSAMA)?(?:\s+[A-Z][A-Z]*(?:\s+[A-Z][A-Z]*){0,9}?)?", None),
    (r"PERATURAN\s+(?:BUPATI|WALI\s?KOTA)\s+[A-Z][A-Z]*(?:\s+[A-Z][A-Z]*){0,3}?", None),
    (r"KEPUTUSAN\s+(?:BUPATI|WALI\s?KOTA|KEPALA\s+[A-Z]+)\s+[A-Z][A-Z]*(?:\s+[A-Z][A-Z]*){0,5}?", None),
]


DEFAULT_ISSUER = {
    "Qanun Aceh": "Gubernur Aceh",
    "Peraturan Gubernur Aceh": "Gubernur Aceh",
    "Keputusan Gubernur Aceh": "Gubernur Aceh",
    "Instruksi Gubernur Aceh": "Gubernur Aceh",
    "Undang-Undang": "Presiden Republik Indonesia",
    "Peraturan Pemerintah": "Presiden Republik Indonesia",
    "Peraturan Pemerintah Pengganti Undang-Undang": "Presiden Republik Indonesia",
    "Peraturan Presiden": "Presiden Republik Indonesia",
    "Keputusan Presiden": "Presiden Republik Indonesia",
    "Instruksi Presiden": "Presiden Republik Indonesia",
    "Keputusan Dewan Perwakilan Rakyat Aceh": "Dewan Perwakilan Rakyat Aceh",
}


# --------------------------------------------------------------------------- citations in running text

_CITATION_UU = r"Undang\s*-\s*[Uu]ndang|UNDANG\s*-?\s*UNDANG|Undang\s+[Uu]ndang"
CITATION_WORD = r"(?:[A-Z][a-z]+|[A-Z]{2,})"
CITATION_TYPES = (
    rf"(?:Peraturan|PERATURAN)\s+(?:Pemerintah|PEMERINTAH)\s+(?:Pengganti|PENGGANTI)\s+(?:{_CITATION_UU})",
    rf"(?:{_CITATION_UU})",
    r"(?:Qanun|QANUN)(?:\s+(?:Aceh|ACEH|(?:Kabupaten|KABUPATEN|Kota|KOTA)(?:\s+" + CITATION_WORD + r"){1,3}))?",
    r"(?:Peraturan|PERATURAN|Keputusan|KEPUTUSAN|Instruksi|INSTRUKSI)\s+(?:Gube?r?nur|GUBE?R?NUR)(?:\s+(?:Aceh|ACEH))?",
    r"(?:Keputusan|KEPUTUSAN|Peraturan|PERATURAN)\s+(?:Dewan|DEWAN)\s+(?:Perwakilan|PERWAKILAN)\s+(?:Rakyat|RAKYAT)"
    r"(?:\s+(?:Aceh|ACEH|Daerah|DAERAH))?",
    r"(?:Peraturan|PERATURAN)\s+(?:Pemerintah|PEMERINTAH)",
    r"(?:Peraturan|PERATURAN|Keputusan|KEPUTUSAN|Instruksi|INSTRUKSI)\s+(?:Presiden|PRESIDEN)",
    r"(?:Peraturan|PERATURAN|Keputusan|KEPUTUSAN)\s+(?:Menteri|MENTERI)(?:\s+(?!Nomor|NOMOR)" + CITATION_WORD + r"){1,6}",
    r"(?:Peraturan|PERATURAN)\s+(?:Daerah|DAERAH|Bupati|BUPATI|Wali\s?[Kk]ota|WALI\s?KOTA)"
    r"(?:\s+(?!Nomor|NOMOR)" + CITATION_WORD + r"){0,4}",
    # A circular letter names its issuer ("Surat Edaran Menteri Dalam Negeri", "SE Gubernur Aceh Nomor …").
    r"(?:Surat\s+Edaran|SURAT\s+EDARAN|\bSE\b)(?:\s+(?:Bersama|BERSAMA))?"
    r"(?:\s+(?!Nomor|NOMOR)" + CITATION_WORD + r"){0,8}",
)

# The short form a citation may use for a family, read as the family ("SE Gubernur Aceh" is a Surat Edaran).
CITATION_SHORT_FORMS = {"se": "surat edaran"}
JURISDICTION_DEFAULT = {
    "undang-undang": "undang-undang",
    "undang undang": "undang-undang",
    "peraturan pemerintah pengganti undang-undang": "perpu",
    "qanun": "qanun aceh",
    "peraturan gubernur": "peraturan gubernur aceh",
    "keputusan gubernur": "keputusan gubernur aceh",
    "instruksi gubernur": "instruksi gubernur aceh",
    "keputusan dewan perwakilan rakyat": "keputusan dewan perwakilan rakyat aceh",
    "peraturan dewan perwakilan rakyat": "peraturan dewan perwakilan rakyat aceh",
}


# --------------------------------------------------------------------------- questions

# Families whose place follows the type directly ("Peraturan Bupati Aceh Besar Nomor 5 Tahun 2020").
PLACE_NAMED_TYPES: list[tuple[str, tuple[str, ...]]] = [
    (r"peraturan\s+bupati|perbup", ("Peraturan Bupati",)),
    (r"peraturan\s+wali\s*kota|perwal(?:i|kot)?", ("Peraturan Walikota", "Peraturan Wali Kota")),
]
# Alias (lower case, spaces collapsed) → (type family prefixes, jurisdiction named?)
QUESTION_TYPES: list[tuple[str, tuple[str, ...]]] = [
    (r"qanun\s+aceh", ("Qanun Aceh",)),
    (r"qanun", ("Qanun",)),
    (r"(?:peraturan\s+gubernur|pergub)\s+aceh", ("Peraturan Gubernur Aceh",)),
    (r"peraturan\s+gubernur|pergub", ("Peraturan Gubernur",)),
    (r"(?:keputusan\s+gubernur|kepgub)\s+aceh", ("Keputusan Gubernur Aceh",)),
    (r"keputusan\s+gubernur|kepgub", ("Keputusan Gubernur",)),
    (r"(?:instruksi\s+gubernur|ingub)\s+aceh", ("Instruksi Gubernur Aceh",)),
    (r"instruksi\s+gubernur|ingub", ("Instruksi Gubernur",)),
    (r"undang-undang|undang\s+undang|uu|law", ("Undang-Undang",)),
    (r"peraturan\s+pemerintah|pp|government\s+regulation", ("Peraturan Pemerintah",)),
    (r"peraturan\s+presiden|perpres|presidential\s+regulation", ("Peraturan Presiden",)),
    (r"aceh\s+governor(?:'s)?\s+regulation|governor(?:'s)?\s+regulation", ("Peraturan Gubernur Aceh",)),
    (r"aceh\s+governor(?:'s)?\s+decree|governor(?:'s)?\s+decree", ("Keputusan Gubernur Aceh",)),
    (r"aceh\s+governor(?:'s)?\s+instruction|governor(?:'s)?\s+instruction", ("Instruksi Gubernur Aceh",)),
    (r"presidential\s+instruction", ("Instruksi Presiden",)),
    (r"surat\s+edaran|se(?!-)|circular(?:\s+letter)?", ("Surat Edaran",)),   # "se-Aceh" is not one
    (r"peraturan\s+(?:kepala\s+)?badan\s+pengawas\s+tenaga\s+nuklir|peraturan\s+(?:kepala\s+)?bapeten|perba",
     ("Peraturan Badan Pengawas Tenaga Nuklir", "Peraturan Kepala Badan Pengawas Tenaga Nuklir")),
    (r"peraturan\s+otoritas\s+jasa\s+keuangan|peraturan\s+ojk|pojk", ("Peraturan Otoritas Jasa Keuangan",)),
    (PLACE_NAMED_TYPES[0][0], PLACE_NAMED_TYPES[0][1]),
    (PLACE_NAMED_TYPES[1][0], PLACE_NAMED_TYPES[1][1]),
]
# Short forms a title slug may use for a family ("pergub-aceh-5-2025-…").
SLUG_SHORT_FORMS = {"Peraturan Gubernur": "pergub", "Keputusan Gubernur": "kepgub", "Instruksi Gubernur": "ingub",
                    "Undang-Undang": "uu", "Peraturan Pemerintah": "pp", "Peraturan Presiden": "perpres",
                    "Peraturan Badan Pengawas Tenaga Nuklir": "perba", "Peraturan Otoritas Jasa Keuangan": "pojk",
                    "Peraturan Bupati": "perbup", "Peraturan Walikota": "perwal", "Surat Edaran": "se"}


def number_and_year(number: str | None, year: int | None) -> str:
    """``91/2024``; a number that already ends with its year (``03/INSTR/2025``) is printed once."""
    if not (number or year):
        return ""
    if number and year and number.rstrip().endswith(f"/{year}"):
        return number
    return f"{number or '?'}/{year or '?'}"
