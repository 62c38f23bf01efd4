"""Sections and logical lines shared by the regulation and the plain-document parsers."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Section", "finish_sections", "logical_lines"]


@dataclass
class Section:
    start: int
    kind: str                      # preamble | body | penjelasan | closing | lampiran | text
    path: tuple[str, ...]
    ref_kind: str                  # pasal | diktum | preamble | penjelasan | penjelasan_umum | closing | lampiran | struct | text
    label: str | None = None       # "8", "KESATU", "Menimbang", "Lampiran II", "BAB III", ...
    container: str | None = None   # "I" for an article nested in "Pasal I"
    end: int = 0
    pending: bool = False          # only structural headings so far
    title_budget: int = 0          # heading title lines still allowed while pending
    group: tuple = field(default_factory=tuple)


# --------------------------------------------------------------------------- logical lines

_PHYS_LINE_RE = re.compile(r"[^\n]+")
_INLINE_RE = re.compile(
    r"(?:(?<=[.;:] )|(?<=[A-Z]{3} ))(?P<ipasal>Pasal \d{1,4}[A-Z]?)\.?(?= (?:\(\d+\)|Ayat \(|Cukup jelas|[A-Z][a-z])|$)"
    r"|(?<=[.;:] )(?P<ibab>BAB [IVXLC]{1,6}[A-Z]?)(?= [A-Z]{2})"
    r"|(?<=[.;:] )(?P<ibagian>Bagian (?:Kesatu|Pertama|Ke[a-z]{3,}))(?= [A-Z])"
    r"|(?<=[.;:] )(?P<iparagraf>Paragraf \d{1,3})(?= [A-Z])"
    r"|(?<= )(?P<iclose>Agar (?:supaya )?setiap orang mengetahui|Ditetapkan di [A-Z]|Disahkan di [A-Z]|Diundangkan di [A-Z]"
    r"|(?<!TAMBAHAN )LEMBARAN (?:NEGARA|ACEH|DAERAH)\b|TAMBAHAN LEMBARAN\b|BERITA (?:NEGARA|ACEH|DAERAH)\b)"
    r"|(?<= )(?P<ipenj>PENJELASAN\s+ATAS)\b"
    r"|(?<= )(?P<ilamp>LAMPIRAN(?: [IVX]{1,5})?)(?= (?:UNDANG|PERATURAN|QANUN|KEPUTUSAN|INSTRUKSI))"
    r"|(?<= )(?P<iumum>I\.\s?UMUM)\b"
    r"|(?<= )(?P<ipdp>II\.\s?PASAL\s+DEMI\s+PASAL)\b"
)
_INLINE_NOT_AFTER_PASAL = re.compile(r" (?:Undang|Peraturan|Qanun|Keputusan|Instruksi|UUD|Kitab)")
_INLINE_HINT = re.compile(r"Pasal |BAB |Bagian |Paragraf |Agar |Ditetapkan|Disahkan|Diundangkan|LEMBARAN|BERITA|PENJELASAN|UMUM|PASAL DEMI|LAMPIRAN")


def logical_lines(text: str) -> list[tuple[int, int, str | None]]:
    """(start, end, inline_kind) for each logical line; start/end exclude outer spaces."""
    out: list[tuple[int, int, str | None]] = []
    for m in _PHYS_LINE_RE.finditer(text):
        s, e = m.start(), m.end()
        while s < e and text[s] in " \t":
            s += 1
        while e > s and text[e - 1] in " \t":
            e -= 1
        if s >= e:
            continue
        if e - s < 30 or " | " in text[s:e] or not _INLINE_HINT.search(text, s, e):
            out.append((s, e, None))
            continue
        cuts: list[tuple[int, int, str]] = []  # (cut_start, cut_end_or_-1, kind)
        for im in _INLINE_RE.finditer(text, s, e):
            if im.start() == s:
                continue
            kind = im.lastgroup
            if kind == "ipasal":
                if _INLINE_NOT_AFTER_PASAL.match(text, im.end()):
                    continue
                cuts.append((im.start(), im.end(), kind))
            else:
                cuts.append((im.start(), -1, kind))
        if not cuts:
            out.append((s, e, None))
            continue
        pos, kind_here = s, None
        for c_start, c_end, kind in cuts:
            if c_start <= pos:
                continue
            seg_end = c_start
            while seg_end > pos and text[seg_end - 1] == " ":
                seg_end -= 1
            if seg_end > pos:
                out.append((pos, seg_end, kind_here))
            if c_end != -1:
                out.append((c_start, c_end, kind))
                pos = c_end
                while pos < e and text[pos] == " ":
                    pos += 1
                kind_here = None
            else:
                pos, kind_here = c_start, kind
        if pos < e:
            out.append((pos, e, kind_here))
    return out


def finish_sections(text: str, sections: list[Section]) -> list[Section]:
    """Order sections, set ``end`` (exclusive, right-stripped) and drop empty ones."""
    sections.sort(key=lambda sec: sec.start)
    out: list[Section] = []
    n = len(text)
    for i, sec in enumerate(sections):
        nxt = sections[i + 1].start if i + 1 < len(sections) else n
        start = sec.start
        while start < nxt and text[start].isspace():
            start += 1
        end = nxt
        while end > start and text[end - 1].isspace():
            end -= 1
        if end <= start:
            continue
        sec.start, sec.end = start, end
        out.append(sec)
    return out
