"""Structural segmentation of a document into *sections* (no sizing decisions here).

A section is a span of the document that starts at a structural boundary: a
Pasal heading, a dictum ("KESATU :"), a part of the preamble ("Menimbang",
"Mengingat", ...), the closing block, the Penjelasan (general part and each
elucidated Pasal), a Lampiran, or, for non-regulations, a heading.  Structural
headings that carry no text of their own (BAB, Bagian, Paragraf, "II. PASAL DEMI
PASAL") are attached to the section that follows them, so the chunk of "Pasal 1"
starts at "BAB I / KETENTUAN UMUM".

The document is read as *logical lines*: physical lines, further split at a few
strong inline markers for texts whose line breaks were lost (e.g. "... diundangkan.
Pasal 9 (1) ...", "... NOMOR 62 PENJELASAN ATAS ...").  An inline "Pasal N" counts
as a heading only right after ". ", "; " or ": " and before "(1)" or a capitalised
word that is not a law name; "sebagaimana dimaksud dalam Pasal 8" never is.  A
stand-alone "Pasal 8" line is rejected too when the previous line ends with a
connective ("dalam", "pada", ",", ...) and the next line starts in lower case.

Amendment laws: inside a Roman-numbered article ("Pasal I") every quoted article,
BAB, Bagian or Paragraf heading is nested: path ("Pasal I", "Pasal 5").  A quoted
heading line ('"Pasal 5') or one right after an instruction ending in ":" ("...
diubah sehingga berbunyi sebagai berikut:") is nested in the current article even
when that article has an Arabic number; the instruction line then opens the nested
section.
"""
from __future__ import annotations

import re

from .segments import Section, finish_sections, logical_lines

__all__ = ["count_pasal_headings", "regulation_sections"]


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


def regulation_sections(text: str) -> list[Section]:
    """Split a regulation into sections; see the module docstring."""
    lines = logical_lines(text)
    sections: list[Section] = []
    mode = "preamble"
    bab = bagian = paragraf = None
    container: str | None = None           # Roman article holding amendment items
    container_path: tuple[str, ...] = ()
    n_bab = n_bagian = n_paragraf = None    # structure nested inside a container
    current_pasal: tuple[str, tuple[str, ...]] | None = None  # (label, path) of the running top-level article
    pre_label: str | None = None
    seen_menetapkan = False
    had_amendment = False
    lamp_label = "Lampiran"
    lamp_bab = lamp_sub = None
    prev_text = ""
    prev_start = -1

    def new(start: int, kind: str, path, ref_kind: str, label=None, cont=None, pending=False, budget=0) -> Section:
        sec = Section(start=start, kind=kind, path=tuple(path), ref_kind=ref_kind, label=label,
                      container=cont, pending=pending, title_budget=budget)
        sections.append(sec)
        return sec

    def struct_path() -> tuple[str, ...]:
        return tuple(x for x in (bab, bagian, paragraf) if x)

    def nested_struct() -> tuple[str, ...]:
        return tuple(x for x in (n_bab, n_bagian, n_paragraf) if x)

    cur = new(lines[0][0] if lines else 0, "preamble", ("Pembukaan",), "preamble")

    for idx, (s, e, inline) in enumerate(lines):
        raw = text[s:e]
        line = _strip_md(raw) if raw[:1] in "#*_" else raw
        handled = False

        # ---- part switches that are valid in (almost) every mode
        if (inline in (None, "ipenj")) and mode != "penjelasan" and mode != "preamble" and _PENJ_RE.match(line):
            mode = "penjelasan"
            container = None
            cur = new(s, "penjelasan", ("Penjelasan",), "penjelasan", pending=True, budget=10)
            handled = True
        elif inline in (None, "ilamp") and mode in ("body", "closing", "penjelasan", "lampiran") and _LAMP_RE.match(line):
            m = _LAMP_RE.match(line)
            label = f"Lampiran {m.group(1)}" if m.group(1) else "Lampiran"
            if not (mode == "lampiran" and label == lamp_label):
                lamp_label, lamp_bab, lamp_sub = label, None, None
                mode = "lampiran"
                cur = new(s, "lampiran", (label,), "lampiran", label=label)
            handled = True
        elif (inline in (None, "iclose")) and (mode == "body" or (mode == "preamble" and pre_label)) and _CLOSE_RE.match(line):
            mode = "closing"
            cur = new(s, "closing", ("Penutup",), "closing")
            handled = True
        elif (inline in (None, "iclose")) and mode == "penjelasan" and re.match(r"TAMBAHAN\s+LEMBARAN|LEMBARAN\s", line):
            mode = "closing"
            cur = new(s, "closing", ("Penutup",), "closing")
            handled = True
        if handled:
            prev_text, prev_start = line, s
            continue

        # ---- penjelasan internals
        if mode in ("penjelasan", "closing") and inline in (None, "iumum") and _UMUM_RE.match(line) and (
            mode == "penjelasan" or line.startswith("I")
        ):
            if mode == "closing":
                mode = "penjelasan"
            if cur.kind == "penjelasan" and cur.pending:
                cur.path, cur.ref_kind, cur.pending = ("Penjelasan", "Umum"), "penjelasan_umum", False
            else:
                cur = new(s, "penjelasan", ("Penjelasan", "Umum"), "penjelasan_umum")
            prev_text, prev_start = line, s
            continue
        if mode in ("penjelasan", "closing") and inline in (None, "ipdp") and _PDP_RE.match(line):
            mode = "penjelasan"
            container = None
            if not (cur.kind == "penjelasan" and cur.pending):
                cur = new(s, "penjelasan", ("Penjelasan",), "penjelasan", pending=True, budget=0)
            prev_text, prev_start = line, s
            continue

        # ---- headings of the body (and of the penjelasan: Pasal only)
        pm = _PASAL_RE.match(line) if inline in (None, "ipasal") else None
        if pm and mode in ("preamble", "body", "closing", "penjelasan"):
            if inline is None and _CONNECTIVE_END_RE.search(prev_text):
                nxt = lines[idx + 1] if idx + 1 < len(lines) else None
                if nxt is not None and text[nxt[0]].islower():
                    pm = None
        if pm and mode in ("preamble", "body", "closing", "penjelasan"):
            quoted = bool(pm.group("q"))
            roman = pm.group("roman")
            label = roman or (pm.group("num") + (pm.group("suf") or ""))
            after_instruction = bool(_INSTRUCTION_RE.search(prev_text))
            if mode in ("preamble", "closing"):
                mode = "body"
            in_penj = mode == "penjelasan"
            start = s
            if in_penj:
                opens = roman is not None and had_amendment
            else:
                opens = _opens_amendment(text, lines, idx, roman is not None)
            if container is not None and not opens and not quoted and not after_instruction:
                if roman is not None or (container.isdigit() and label == str(int(container) + 1)):
                    container = None
            if opens:
                container = label
                had_amendment = True
                n_bab = n_bagian = n_paragraf = None
                path = (("Penjelasan",) if in_penj else struct_path()) + (f"Pasal {label}",)
                container_path = path
                ref_kind, cont = ("penjelasan" if in_penj else "pasal"), None
                current_pasal = (label, path)
            elif container or ((quoted or after_instruction) and current_pasal is not None):
                if container:
                    cont, base = container, container_path
                else:
                    cont, base = current_pasal[0], current_pasal[1]
                path = base + nested_struct() + (f"Pasal {label}",)
                ref_kind = "penjelasan" if in_penj else "pasal"
                if after_instruction and prev_start > (cur.start if cur else -1):
                    start = prev_start
            else:
                path = (("Penjelasan",) if in_penj else struct_path()) + (f"Pasal {label}",)
                ref_kind, cont = ("penjelasan" if in_penj else "pasal"), None
                current_pasal = (label, path)
            if cur.pending and cur.kind == ("penjelasan" if in_penj else "body") and start >= cur.start:
                cur.path, cur.ref_kind, cur.label, cur.container, cur.pending = path, ref_kind, label, cont, False
                if in_penj and ref_kind == "penjelasan":
                    cur.ref_kind = "penjelasan"
            else:
                cur = new(start, "penjelasan" if in_penj else "body", path, ref_kind, label=label, cont=cont)
            prev_text, prev_start = line, s
            continue

        struct = None
        if mode in ("preamble", "body", "closing") and (inline is None or seen_menetapkan or mode == "body"):
            if inline in (None, "ibab") and (bm := _BAB_RE.match(line)):
                struct = ("bab", f"BAB {bm.group(1)}", bm.group(2))
            elif inline in (None, "ibagian") and (gm := _BAGIAN_RE.match(line)) and not re.match(r"\s+[a-z]", gm.group(2)):
                struct = ("bagian", f"Bagian {gm.group(1).title()}", gm.group(2).strip())
            elif inline in (None, "iparagraf") and (qm := _PARAGRAF_RE.match(line)) and not re.match(r"\s+[a-z]", qm.group(2)):
                struct = ("paragraf", f"Paragraf {qm.group(1)}", qm.group(2).strip())
        if struct and container is None and current_pasal is not None and (
            line.startswith(("\"", "“")) or _INSTRUCTION_RE.search(prev_text)
        ):
            struct = None  # a quoted BAB inside an Arabic article (omnibus amendment): plain content
        if struct:
            level, name, title = struct
            if mode in ("preamble", "closing"):
                mode = "body"
            nested = container is not None
            if nested:
                if level == "bab":
                    n_bab, n_bagian, n_paragraf = name, None, None
                elif level == "bagian":
                    n_bagian, n_paragraf = name, None
                else:
                    n_paragraf = name
                path = container_path + nested_struct()
            else:
                if level == "bab":
                    bab, bagian, paragraf = name, None, None
                elif level == "bagian":
                    bagian, paragraf = name, None
                else:
                    paragraf = name
                path = struct_path()
            budget = 0 if title else 3
            has_content = bool(title) and (len(title) > 160 or bool(re.search(r"[.;:]\s", title)))
            if cur.pending and cur.kind == "body":
                cur.path, cur.title_budget, cur.label = path, budget, name
                cur.pending = not has_content
            else:
                start = prev_start if nested and _INSTRUCTION_RE.search(prev_text) and prev_start > cur.start else s
                cur = new(start, "body", path, "struct", label=name, cont=container if nested else None,
                          pending=not has_content, budget=budget)
            prev_text, prev_start = line, s
            continue

        if mode in ("preamble", "body", "closing") and inline is None and (dm := _DICTUM_RE.match(line)):
            label = " ".join(dm.group(1).split())
            mode = "body"
            container = None
            cur = new(s, "body", (label,), "diktum", label=label)
            current_pasal = None
            prev_text, prev_start = line, s
            continue

        if mode == "preamble" and inline is None and (pr := _PRE_RE.match(line)):
            key = re.sub(r"\W", "", pr.group(1)).lower()
            label = _PRE_LABEL.get(key, pr.group(1))
            if label == "Menetapkan":
                seen_menetapkan = True
            if label != pre_label:
                pre_label = label
                if cur.start == s or (len(sections) == 1 and cur.start >= s):
                    cur.path, cur.label = ("Pembukaan", label), label
                else:
                    cur = new(s, "preamble", ("Pembukaan", label), "preamble", label=label)
            prev_text, prev_start = line, s
            continue

        if mode == "lampiran" and inline is None:
            sub = None
            if (bm := _BAB_RE.match(line)):
                lamp_bab, lamp_sub = f"BAB {bm.group(1)}", None
                sub = True
            elif _LAMP_SUB_RE.match(line):
                lamp_sub = " ".join(line.split())[:120]
                sub = True
            if sub:
                path = (lamp_label,) + tuple(x for x in (lamp_bab, lamp_sub) if x)
                if cur.pending:
                    cur.path = path
                else:
                    cur = new(s, "lampiran", path, "lampiran", label=lamp_label, pending=True, budget=2)
                prev_text, prev_start = line, s
                continue

        # ---- ordinary content line
        if cur.pending:
            if cur.title_budget > 0 and _is_title_like(line):
                cur.title_budget -= 1
            else:
                cur.pending = False
        prev_text, prev_start = line, s

    return finish_sections(text, sections)


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
