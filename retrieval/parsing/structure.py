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
from .structure_lines import (LETTERED_PART, UNTITLED_ATTACHMENT, _BAB_RE, _CLOSE_RE, _DICTUM_RE, _INSTRUCTION_RE,
                              _LAMP_RE, _LAMP_SUB_RE, _PDP_RE, _PENJ_RE, _PRE_LABEL, _PRE_RE, _UMUM_RE, _is_title_like,
                              _opens_amendment, _strip_md, article_label, continues_title, count_pasal_headings,
                              descend, misread_first_article, pasal_heading, structure_heading)

__all__ = ["count_pasal_headings", "regulation_sections"]


def regulation_sections(text: str) -> list[Section]:
    """Split a regulation into sections; see the module docstring."""
    return _SectionReader(text).read()


class _SectionReader:
    """One pass over the logical lines; each ``_on_*`` step takes the line or declines it.

    ``mode`` is the part being read (preamble, body, closing, penjelasan, lampiran);
    ``cur`` the section the line belongs to. A step that takes a line returns True.
    """

    def __init__(self, text: str):
        self.text = text
        self.lines = logical_lines(text)
        self.sections: list[Section] = []
        self.mode = "preamble"
        self.bab = self.bagian = self.paragraf = None
        self.container: str | None = None           # Roman article holding amendment items
        self.container_path: tuple[str, ...] = ()
        self.n_bab = self.n_bagian = self.n_paragraf = None    # structure nested inside a container
        self.current_pasal: tuple[str, tuple[str, ...]] | None = None  # (label, path) of the running top-level article
        self.pre_label: str | None = None
        self.lettered = False                       # a circular letter's lettered parts are its body
        self.seen_menetapkan = False
        self.had_amendment = False
        self.lamp_label = "Lampiran"
        self.lamp_bab = self.lamp_sub = None
        self.prev_text = ""
        self.prev_start = -1
        self.cur = self._new(self.lines[0][0] if self.lines else 0, "preamble", ("Pembukaan",), "preamble")

    def read(self) -> list[Section]:
        steps = (self._on_part_switch, self._on_penjelasan_heading, self._on_pasal, self._on_structure,
                 self._on_dictum, self._on_preamble_label, self._on_lettered, self._on_lampiran_heading)
        for idx, (s, e, inline) in enumerate(self.lines):
            raw = self.text[s:e]
            line = _strip_md(raw) if raw[:1] in "#*_" else raw
            if not any(step(idx, s, inline, line) for step in steps):
                self._on_content(line)
            self.prev_text, self.prev_start = line, s
        return finish_sections(self.text, self.sections)

    # ---- helpers

    def _new(self, start: int, kind: str, path, ref_kind: str, label=None, cont=None, pending=False,
             budget=0) -> Section:
        sec = Section(start=start, kind=kind, path=tuple(path), ref_kind=ref_kind, label=label,
                      container=cont, pending=pending, title_budget=budget)
        self.sections.append(sec)
        return sec

    def _struct_path(self) -> tuple[str, ...]:
        return tuple(x for x in (self.bab, self.bagian, self.paragraf) if x)

    def _nested_struct(self) -> tuple[str, ...]:
        return tuple(x for x in (self.n_bab, self.n_bagian, self.n_paragraf) if x)

    # ---- part switches that are valid in (almost) every mode

    def _on_part_switch(self, idx, s, inline, line) -> bool:
        mode = self.mode
        if (inline in (None, "ipenj")) and mode != "penjelasan" and mode != "preamble" and _PENJ_RE.match(line):
            self.mode = "penjelasan"
            self.container = None
            self.cur = self._new(s, "penjelasan", ("Penjelasan",), "penjelasan", pending=True, budget=10)
            return True
        if inline in (None, "ilamp") and mode in ("body", "closing", "penjelasan", "lampiran") and _LAMP_RE.match(line) \
                and not continues_title(mode, self.prev_text):
            m = _LAMP_RE.match(line)
            label = f"Lampiran {m.group(1)}" if m.group(1) else "Lampiran"
            if not (mode == "lampiran" and label == self.lamp_label):
                self._open_lampiran(s, label)
            return True
        if inline is None and mode == "closing" and UNTITLED_ATTACHMENT.match(line):
            # An attachment printed after the signature with no "LAMPIRAN" heading: not the closing block.
            self._open_lampiran(s, "Lampiran", " ".join(line.split())[:120])
            return True
        # The closing block: after the body ("Ditetapkan di …"), or after the Penjelasan ("TAMBAHAN LEMBARAN …").
        if inline in (None, "iclose") and (
                (mode == "body" or (mode == "preamble" and self.pre_label)) and _CLOSE_RE.match(line)
                or mode == "penjelasan" and re.match(r"TAMBAHAN\s+LEMBARAN|LEMBARAN\s", line)):
            self.mode = "closing"
            self.cur = self._new(s, "closing", ("Penutup",), "closing")
            return True
        return False

    def _open_lampiran(self, start: int, label: str, sub: str | None = None) -> None:
        self.lamp_label, self.lamp_bab, self.lamp_sub = label, None, sub
        self.mode = "lampiran"
        self.cur = self._new(start, "lampiran", (label,) + ((sub,) if sub else ()), "lampiran", label=label)

    # ---- penjelasan internals

    def _on_penjelasan_heading(self, idx, s, inline, line) -> bool:
        mode, cur = self.mode, self.cur
        if mode in ("penjelasan", "closing") and inline in (None, "iumum") and _UMUM_RE.match(line) and (
            mode == "penjelasan" or line.startswith("I")
        ):
            if mode == "closing":
                self.mode = "penjelasan"
            if cur.kind == "penjelasan" and cur.pending:
                cur.path, cur.ref_kind, cur.pending = ("Penjelasan", "Umum"), "penjelasan_umum", False
            else:
                self.cur = self._new(s, "penjelasan", ("Penjelasan", "Umum"), "penjelasan_umum")
            return True
        if mode in ("penjelasan", "closing") and inline in (None, "ipdp") and _PDP_RE.match(line):
            self.mode = "penjelasan"
            self.container = None
            if not (cur.kind == "penjelasan" and cur.pending):
                self.cur = self._new(s, "penjelasan", ("Penjelasan",), "penjelasan", pending=True, budget=0)
            return True
        return False

    # ---- article headings of the body (and of the penjelasan)

    def _on_pasal(self, idx, s, inline, line) -> bool:
        if self.mode not in ("preamble", "body", "closing", "penjelasan"):
            return False
        nxt = self.lines[idx + 1] if idx + 1 < len(self.lines) else None
        next_lower = nxt is not None and nxt[0] < len(self.text) and self.text[nxt[0]].islower()
        pm = pasal_heading(line, inline, self.prev_text, next_lower)
        if pm is None:
            return False
        quoted = bool(pm.group("q"))
        roman = pm.group("roman")
        label = roman or article_label(pm.group("num"), pm.group("suf"))
        after_instruction = bool(_INSTRUCTION_RE.search(self.prev_text))
        if self.mode in ("preamble", "closing"):
            self.mode = "body"
        in_penj = self.mode == "penjelasan"
        start = s
        if in_penj:
            opens = roman is not None and self.had_amendment
        else:
            opens = _opens_amendment(self.text, self.lines, idx, roman is not None)
        if misread_first_article(roman, opens, amended=self.had_amendment,
                                 first=not in_penj and self.current_pasal is None):
            roman, label = None, "1"
        container = self.container
        if container is not None and not opens and not quoted and not after_instruction:
            if roman is not None or (container.isdigit() and label == str(int(container) + 1)):
                self.container = None
        ref_kind = "penjelasan" if in_penj else "pasal"
        if opens:
            self.container = label
            self.had_amendment = True
            self.n_bab = self.n_bagian = self.n_paragraf = None
            path = (("Penjelasan",) if in_penj else self._struct_path()) + (f"Pasal {label}",)
            self.container_path = path
            cont = None
            self.current_pasal = (label, path)
        elif self.container or ((quoted or after_instruction) and self.current_pasal is not None):
            if self.container:
                cont, base = self.container, self.container_path
            else:
                cont, base = self.current_pasal[0], self.current_pasal[1]
            path = base + self._nested_struct() + (f"Pasal {label}",)
            if after_instruction and self.prev_start > (self.cur.start if self.cur else -1):
                start = self.prev_start
        else:
            path = (("Penjelasan",) if in_penj else self._struct_path()) + (f"Pasal {label}",)
            cont = None
            self.current_pasal = (label, path)
        cur = self.cur
        if cur.pending and cur.kind == ("penjelasan" if in_penj else "body") and start >= cur.start:
            cur.path, cur.ref_kind, cur.label, cur.container, cur.pending = path, ref_kind, label, cont, False
        else:
            self.cur = self._new(start, "penjelasan" if in_penj else "body", path, ref_kind, label=label, cont=cont)
        return True

    # ---- BAB, Bagian, Paragraf

    def _on_structure(self, idx, s, inline, line) -> bool:
        if not (self.mode in ("preamble", "body", "closing")
                and (inline is None or self.seen_menetapkan or self.mode == "body")):
            return False
        struct = structure_heading(line, inline, self.prev_text,
                                   in_arabic_article=self.container is None and self.current_pasal is not None)
        if not struct:
            return False
        level, name, title = struct
        if self.mode in ("preamble", "closing"):
            self.mode = "body"
        nested = self.container is not None
        if nested:
            self.n_bab, self.n_bagian, self.n_paragraf = descend(level, name, (self.n_bab, self.n_bagian,
                                                                                self.n_paragraf))
            path = self.container_path + self._nested_struct()
        else:
            self.bab, self.bagian, self.paragraf = descend(level, name, (self.bab, self.bagian, self.paragraf))
            path = self._struct_path()
        budget = 0 if title else 3
        has_content = bool(title) and (len(title) > 160 or bool(re.search(r"[.;:]\s", title)))
        cur = self.cur
        if cur.pending and cur.kind == "body":
            cur.path, cur.title_budget, cur.label = path, budget, name
            cur.pending = not has_content
        else:
            start = (self.prev_start if nested and _INSTRUCTION_RE.search(self.prev_text) and self.prev_start > cur.start
                     else s)
            self.cur = self._new(start, "body", path, "struct", label=name, cont=self.container if nested else None,
                                 pending=not has_content, budget=budget)
        return True

    # ---- dictum, preamble parts, lampiran headings

    def _on_dictum(self, idx, s, inline, line) -> bool:
        if not (self.mode in ("preamble", "body", "closing") and inline is None and (dm := _DICTUM_RE.match(line))):
            return False
        label = " ".join(dm.group(1).split())
        self.mode = "body"
        self.container = None
        self.cur = self._new(s, "body", (label,), "diktum", label=label)
        self.current_pasal = None
        return True

    def _on_preamble_label(self, idx, s, inline, line) -> bool:
        if not (self.mode == "preamble" and inline is None and (pr := _PRE_RE.match(line))):
            return False
        key = re.sub(r"\W", "", pr.group(1)).lower()
        label = _PRE_LABEL.get(key, pr.group(1))
        if label == "Menetapkan":
            self.seen_menetapkan = True
        if label != self.pre_label:
            self.pre_label = label
            cur = self.cur
            if cur.start == s or (len(self.sections) == 1 and cur.start >= s):
                cur.path, cur.label = ("Pembukaan", label), label
            else:
                self.cur = self._new(s, "preamble", ("Pembukaan", label), "preamble", label=label)
        return True

    def _on_lettered(self, idx, s, inline, line) -> bool:
        """"A. Umum" before any preamble label opens a circular letter's body (it has no Pasal nor dictum); the
        letters after it are its parts."""
        opens = self.mode == "preamble" and self.pre_label is None or self.lettered and self.mode == "body"
        if not (opens and inline is None and LETTERED_PART.match(line)):
            return False
        self.mode, self.lettered = "body", True
        self.cur = self._new(s, "body", (" ".join(line.split()),), "struct", label=f"huruf {line[0]}")
        return True

    def _on_lampiran_heading(self, idx, s, inline, line) -> bool:
        if not (self.mode == "lampiran" and inline is None):
            return False
        if (bm := _BAB_RE.match(line)):
            self.lamp_bab, self.lamp_sub = f"BAB {bm.group(1)}", None
        elif _LAMP_SUB_RE.match(line):
            self.lamp_sub = " ".join(line.split())[:120]
        else:
            return False
        path = (self.lamp_label,) + tuple(x for x in (self.lamp_bab, self.lamp_sub) if x)
        if self.cur.pending:
            self.cur.path = path
        else:
            self.cur = self._new(s, "lampiran", path, "lampiran", label=self.lamp_label, pending=True, budget=2)
        return True

    # ---- an ordinary content line

    def _on_content(self, line: str) -> None:
        cur = self.cur
        if cur.pending:
            if cur.title_budget > 0 and _is_title_like(line):
                cur.title_budget -= 1
            else:
                cur.pending = False
