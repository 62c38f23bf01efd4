"""Names a question asks about, and whether the cited passages say them (the answerability gate's check).

A run of two or more capitalised words inside an Indonesian question ("masa jabatan Wali Nanggroe", "Qanun
perubahan kedua tentang Baitul Mal") names an institution, a programme or an office. The answer must come from
documents that say it: every content word of the name in a passage read of a cited document (its identity
included), or a word the glossary knows ("Pemprov"). A
Subulussalam acting mayor's term ("Walikota … masa jabatan paling lama 1 tahun") does not answer "masa jabatan
Wali Nanggroe". A place is the place check's (``places.py``); an English question's names are in English, which
the Indonesian text never says, so they are not checked here. A signatory's name, printed in capitals, is
said in the reader's case (``printed_name``).
"""
from __future__ import annotations

import re

from answering.extractive.places import places
from answering.text import content_stems

# Two or more capitalised words in a row, not opening the question or a sentence of it.
NAME = re.compile(r"(?<=[a-z0-9,;:()]\s)(?-i:[A-Z][a-z']+(?:[ -][A-Z][a-z']+)+)")


def names(question: str) -> list[str]:
    """The names ``question`` asks about; one holding a place ("Wilayah Sungai Aceh-Meureudu") is the place
    check's."""
    where = [place.lower() for place in places(question)]
    return [m.group(0) for m in NAME.finditer(question)
            if not any(place in m.group(0).lower() or m.group(0).lower() in place for place in where)]


def unmet_names(question: str, evidence: str) -> list[str]:
    """The names ``question`` asks about of which ``evidence`` (the passages read of the cited documents, with
    their identity, and the glossary's readings of the question) lacks a content word."""
    asked = names(question)
    if not asked:
        return []             # most questions name nothing: the evidence is not stemmed for them
    said = content_stems(evidence)
    return [name for name in asked if content_stems(name) - said]


def printed_name(name: str) -> str:
    """A name printed in capitals, in the reader's case: "SAFRIZAL ZA" -> "Safrizal ZA". A last word of two letters
    is initials and keeps its capitals ("ZA", not "Za"); degrees keep their points ("S.H." stays "S.H.")."""
    words = name.title().split(" ")
    original = name.split(" ")
    if len(words) > 1 and len(original[-1]) <= 2 and original[-1].isalpha() and original[-1].isupper():
        words[-1] = original[-1]
    return " ".join(words)
