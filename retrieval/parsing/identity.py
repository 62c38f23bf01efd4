"""The identity card of an Indonesian / Aceh legal instrument.

``parse_identity(text)`` reads the heading block ("QANUN ACEH / NOMOR 4 TAHUN 2025 /
TENTANG / ..."), the issuer line ("GUBERNUR ACEH,"), and the signature block
("Ditetapkan di Banda Aceh / pada tanggal 25 Juli 2025 / GUBERNUR ACEH, / NAME").

Search order for the heading (first hit wins):
  1. an UPPER-CASE "<TYPE> [REPUBLIK INDONESIA] NOMOR ..." in the first 4000 characters;
  2. the same, any case, at the start of a line in the first 4000 characters;
  3. an UPPER-CASE heading right after "PENJELASAN ATAS" or "LAMPIRAN" anywhere
     (texts whose own heading was lost).
OCR slips seen in the corpus are tolerated: "PERATURAN PEMEzuNTAH", "GUBENUR",
"JENTANG", "NOMOR 03TAHUN", "N0MOR", years written "2OL9", "UNDANG UNDANG" without hyphen.
A circular letter ("SURAT EDARAN KEPALA ... NOMOR 1904/PI 05/K/IX/2019") takes its year from the end of its number.
"""
from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from retrieval.instruments import DEFAULT_ISSUER, HEADING_TYPES
from retrieval.parsing.title_case import subject_title_case

__all__ = ["LegalIdentity", "parse_identity"]


@dataclass(frozen=True)
class LegalIdentity:
    instrument_type: str | None = None
    number: str | None = None
    year: int | None = None
    subject: str | None = None
    issuer: str | None = None
    place_enacted: str | None = None
    date_enacted: str | None = None
    signatory: str | None = None

    def citation(self) -> str | None:
        """``"Qanun Aceh Nomor 1 Tahun 2024"``; the year is left out when the number
        already ends with it ("Keputusan Gubernur Aceh Nomor 100.3.2/1180/2025")."""
        if not self.instrument_type or not self.number:
            return None
        cite = f"{self.instrument_type} Nomor {self.number}"
        if self.year and not re.search(rf"(?:^|[/.\s-]){self.year}$", self.number):
            cite += f" Tahun {self.year}"
        return cite

    def title(self) -> str | None:
        """The citation and the subject; a shouted subject reads in title casing (the ``subject`` field keeps
        the source's letters)."""
        cite = self.citation()
        if cite and self.subject:
            return f"{cite} tentang {subject_title_case(self.subject)}"
        return cite

    def as_dict(self) -> dict:
        return asdict(self)


# --------------------------------------------------------------------------- patterns

_RI = r"(?:\s+REPUBLIK\s+INDO\s?NESIA)?"
_NOMOR = (
    r"\s+N[O0]M[O0]R\s*[:.]?\s*"
    r"(?P<num>[0-9A-Za-z][0-9A-Za-z.\-/ ]{0,60}?)"
    r"\s*(?:TAHUN\s*(?P<year>[12][0-9OoIlL]{3})\b|(?=\s*\n|\s*[TJ]ENTANG\b|\s*$))"
)

_TYPE_ALT = "|".join(f"(?P<t{i}>{pat})" for i, (pat, _) in enumerate(HEADING_TYPES))
_HEAD_UPPER_RE = re.compile(rf"(?:{_TYPE_ALT}){_RI}{_NOMOR}")
_HEAD_ANYCASE_RE = re.compile(rf"(?im)^[ \t#>*]*(?:{_TYPE_ALT}){_RI}{_NOMOR}")
_HEAD_AFTER_RE = re.compile(rf"(?:PENJELASAN\s+ATAS|LAMPIRAN(?:\s+[IVX]+)?)\s+(?:{_TYPE_ALT}){_RI}{_NOMOR}")

_TENTANG_RE = re.compile(r"\b[TJ]ENTANG\b|\bTentang\b|\btentang\b")
_SUBJECT_STOP_RE = re.compile(
    r"DENGAN\s+RAHMAT|BISMILLAH|DENGAN\s+NAMA\s+ALLAH|ATAS\s+RAHMAT|\bMenimbang\b|\bMENIMBANG\b|\bMengingat\b"
    r"|\bMEMUTUSKAN\b|\bDalam\s+rangka\b|\bKepada\s*:|\bbahwa\b|\bI\.\s?UMUM\b|"
    r"\b(?:PRESIDEN\s+REPUBLIK\s+INDONESIA|Presiden\s+Republik\s+Indonesia|GUBERNUR\s+ACEH|"
    r"DEWAN\s+PERWAKILAN\s+RAKYAT\s+ACEH|MENTERI\s+[A-Z ]+|KEPALA\s+[A-Z ]+|DEWAN\s+KOMISIONER[A-Z ]*)\s*,"
)
_ISSUER_RE = re.compile(
    r"(?i)(?<![\w])((?:PRESIDEN|GUBERNUR|MENTERI|KEPALA|DEWAN|BUPATI|WALI\s?KOTA|KETUA)\b[A-Za-z .]{0,90}?)\s*,"
)
_ISSUER_LINE_RE = re.compile(
    r"(?m)^[ \t]*((?:PRESIDEN|GUBERNUR|MENTERI|KEPALA|DEWAN|BUPATI|WALI\s?KOTA|KETUA)\b[A-Z .]{0,90}?)[ \t]*,?[ \t]*$"
)
_HEAD_END_RE = re.compile(r"\bMenimbang\b|\bMENIMBANG\b|\bMengingat\b|\bDalam\s+rangka\b|\bMEMUTUSKAN\b|\bbahwa\b")

_MONTHS = (
    r"(?:Januari|Februari|Pebruari|Maret|April|Mei|Juni|Juli|Agustus|September|Oktober|Nopember|November|"
    r"Desember|JANUARI|FEBRUARI|MARET|APRIL|MEI|JUNI|JULI|AGUSTUS|SEPTEMBER|OKTOBER|NOVEMBER|DESEMBER)"
)
_ENACTED_RE = re.compile(
    r"(?:Ditetapkan|DITETAPKAN|Disahkan|DISAHKAN)\s+(?:di|DI)\s+(?P<place>[A-Z][A-Za-z' .-]{1,40}?)\s*[,.]?\s+"
    r"(?:[Pp]ada\s+tanggal|PADA\s+TANGGAL|tanggal)\s*[,:]?\s*(?P<date>\d{1,2}\s*" + _MONTHS + r"\s*[0-9OoIl]{4})"
)
_SIGN_CUT_RE = re.compile(
    r"Diundangkan|DIUNDANGKAN|LEMBARAN\s|BERITA\s+(?:ACEH|NEGARA|DAERAH)|PENJELASAN|Salinan\s+sesuai|SALINAN\b|"
    r"TAMBAHAN\s+LEMBARAN|NOREG|Tembusan|TEMBUSAN|LAMPIRAN"
)
_OFFICE_WORDS = r"(?:PRESIDEN|GUBERNUR|MENTERI|KEPALA|KETUA|BUPATI|WALI\s?KOTA|DEWAN|WAKIL|PEJABAT)"
_OFFICE_RE = re.compile(r"(?:(?:PLT|Plt|PJ|Pj)\.?\s*)?" + _OFFICE_WORDS + r"\b[A-Z .]{0,90}?(?:\n[A-Z .]{2,60}?)?,")
_OFFICE_START_RE = re.compile(r"(?:(?:PLT|Plt|PJ|Pj)\.?\s*)?" + _OFFICE_WORDS + r"\b")
_TTD_RE = re.compile(r"(?i)\b(?:cap\s*/\s*)?t\.?t\.?d\.?(?=\s|$)|\bcap\b")
_NAME_RE = re.compile(r"[A-Z][A-Za-z.'’\-]*(?:[ ,]+[A-Za-z][A-Za-z.'’\-]*){0,9}")

_ROMAN_UPPER = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "L": "1"})
_SMALL_WORDS = {"dan", "atau", "di", "ke", "dari", "untuk", "pada", "yang", "serta"}
_KEEP_UPPER = {"RI", "DPR", "DPRA", "DPRK", "OJK", "BI", "BPK", "II", "III", "IV"}


def _title_case(phrase: str) -> str:
    words = phrase.split()
    out = []
    for i, w in enumerate(words):
        if w.upper() in _KEEP_UPPER:
            out.append(w.upper())
        elif i > 0 and w.lower() in _SMALL_WORDS:
            out.append(w.lower())
        else:
            out.append("-".join(part[:1].upper() + part[1:].lower() for part in w.split("-")))
    return " ".join(out)


def _collapse(s: str) -> str:
    return " ".join(s.split())


def _canonical_type(match: re.Match) -> str:
    for i, (_, canonical) in enumerate(HEADING_TYPES):
        found = match.group(f"t{i}")
        if found is not None:
            return canonical or _title_case(_collapse(found))
    return _title_case(_collapse(match.group(0)))


def _clean_number(raw: str) -> str:
    num = _collapse(raw)
    num = re.sub(r"\s*([/.])\s*", r"\1", num)
    return num.strip(" .-/")[:100]


def _parse_year(raw: str | None, number: str) -> int | None:
    candidates = []
    if raw:
        candidates.append(raw.translate(_ROMAN_UPPER))
    tail = re.search(r"(?:^|[/.\s-])((?:19|20)\d\d)(?:(?:19|20)\d\d)?$", number)  # "/20162015": overprinted year
    if tail:
        candidates.append(tail.group(1))
    for cand in candidates:
        if cand.isdigit() and 1800 <= int(cand) <= 2100:
            return int(cand)
    return None


def _find_heading(text: str) -> re.Match | None:
    head = text[:4000]
    for regex, scope in ((_HEAD_UPPER_RE, head), (_HEAD_ANYCASE_RE, head), (_HEAD_AFTER_RE, text)):
        for match in regex.finditer(scope):
            if regex is _HEAD_UPPER_RE and match.start() >= 300:
                # beyond the very top, an upper-case heading must open its line
                line_start = scope.rfind("\n", 0, match.start()) + 1
                if scope[line_start:match.start()].strip(" \t#>*"):
                    continue
            number = _clean_number(match.group("num"))
            if number and re.search(r"\d", number) or (number and match.group("year")):
                return match
    return None


def _extract_subject(text: str, start: int) -> tuple[str | None, int]:
    """Subject after the first TENTANG within 300 characters of ``start``.

    Returns the subject and the offset just after the consumed subject text."""
    window = text[start:start + 300]
    tm = _TENTANG_RE.search(window)
    if not tm:
        return None, start
    pos = start + tm.end()
    end = pos
    collected: list[str] = []
    upper_mode: bool | None = None
    cursor = pos
    limit = min(len(text), pos + 1500)
    while cursor < limit:
        nl = text.find("\n", cursor, limit)
        line_end = nl if nl != -1 else limit
        line = text[cursor:line_end]
        next_cursor = line_end + 1
        stripped = line.strip()
        if not stripped:
            if collected:
                break
            cursor = next_cursor
            continue
        stop = _SUBJECT_STOP_RE.search(stripped)
        piece = stripped[: stop.start()].strip() if stop else stripped
        letters = [c for c in piece if c.isalpha()]
        if letters:
            is_upper = sum(1 for c in letters if c.isupper()) / len(letters) > 0.7
            if upper_mode is None:
                upper_mode = is_upper
            elif upper_mode and not is_upper:
                break
            collected.append(piece)
            end = cursor + line.find(piece) + len(piece)
        if stop or len(collected) >= 8 or sum(len(c) for c in collected) > 500:
            break
        cursor = next_cursor
    subject = _collapse(" ".join(collected)).strip(" ,;:")
    subject = re.sub(r"\s*-{2,}$", "", subject)
    return (subject[:500] or None), max(end, pos)


def _extract_issuer(text: str, start: int) -> str | None:
    end_match = _HEAD_END_RE.search(text, start, start + 2500)
    region = text[start:end_match.start() if end_match else start + 1200]
    found = None
    for match in _ISSUER_RE.finditer(region):
        found = match.group(1)
        break
    if not found:
        return None
    # Drop a leading "DENGAN RAHMAT TUHAN YANG MAHA ESA" fragment glued to the office.
    office = _collapse(found)
    return _title_case(office)[:300]


def _extract_signature(text: str) -> tuple[str | None, str | None, str | None, str | None]:
    match = _ENACTED_RE.search(text)
    if not match:
        return None, None, None, None
    place = _collapse(match.group("place")).strip(" ,.")
    date = _collapse(match.group("date"))
    after = text[match.end():match.end() + 500]
    cut = _SIGN_CUT_RE.search(after)
    if cut:
        after = after[: cut.start()]
    office = None
    om = _OFFICE_RE.search(after)
    if om:
        office = _title_case(_collapse(om.group(0)).rstrip(","))
        after = after[om.end():]
    else:
        line_office = _ISSUER_LINE_RE.search(after)
        if line_office:
            office = _title_case(_collapse(line_office.group(1)))
            after = after[line_office.end():]
    ttd = _TTD_RE.search(after)
    if ttd:
        # "... ttd NAME" : the name follows the signature mark on the same line.
        lines = [after[ttd.end():].split("\n", 1)[0]] + after[ttd.end():].split("\n")[1:]
    else:
        lines = after.split("\n")
    signatory = None
    for line in lines:
        line = _collapse(_TTD_RE.sub(" ", line)).strip(" ,;:")
        if not line or re.search(r"\d", line) or len(line) > 90 or _OFFICE_START_RE.match(line):
            continue
        if not _NAME_RE.fullmatch(line):
            continue
        letters = [c for c in line if c.isalpha()]
        words = [w for w in re.split(r"[ ,]+", line) if len(w.strip(".")) >= 3]
        if len(letters) >= 4 and words and sum(c.isupper() for c in letters) / len(letters) >= 0.6:
            signatory = line[:300]
            break
    return place[:200], date[:100], signatory, office


def parse_identity(text: str) -> LegalIdentity:
    """Read type, number, year, subject, issuer, place/date of enactment and signatory."""
    heading = _find_heading(text)
    if heading is None:
        return LegalIdentity()
    instrument_type = _canonical_type(heading)[:200]
    number = _clean_number(heading.group("num"))
    year = _parse_year(heading.group("year"), number)
    subject, subject_pos = _extract_subject(text, heading.end())
    issuer = _extract_issuer(text, max(heading.end(), subject_pos))
    place, date, signatory, office = _extract_signature(text)
    if issuer is None:
        issuer = office or DEFAULT_ISSUER.get(instrument_type)
    return LegalIdentity(
        instrument_type=instrument_type,
        number=number or None,
        year=year,
        subject=subject,
        issuer=issuer,
        place_enacted=place or None,
        date_enacted=date or None,
        signatory=signatory,
    )
