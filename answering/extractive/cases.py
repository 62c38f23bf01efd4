"""Which case a rule is about, against the case the question asks: its complement ("Perjanjian kerja untuk waktu
tidak tertentu …" for a fixed-term contract) or a narrower one ("Pekerja/buruh perempuan yang berumur kurang dari 18
tahun …" for any woman worker). A yes or no read from such a rule would answer another question (yesno.py).
"""
from __future__ import annotations

import re

from answering.extractive.answerability import GENERIC_STEMS
from answering.extractive.phrasing import EXEMPT, MODAL_STEMS, OBLIGE, PERMIT, PROHIBIT
from answering.extractive.question import NEGATED_WORD, Question
from answering.text import content_stems


def about_the_complement(question: Question, subject: str) -> bool:
    """The unit's subject negates a word the question asks without negating it ("Perjanjian kerja untuk waktu
    tidak tertentu" for "waktu tertentu", "fixed-term", "PKWT" in the glossary's words): what it permits or
    forbids is the other case's."""
    negated = content_stems(" ".join(NEGATED_WORD.findall(subject)))
    asked = (question.stems | question.law_stems | question.ask_stems) - question.negated
    return bool(negated & (asked - MODAL_STEMS))


# "Pekerja/buruh perempuan yang berumur kurang dari 18 tahun dilarang …", "… pekerja/buruh perempuan hamil yang
# menurut keterangan dokter berbahaya …": a word the question asks, narrowed by a relative clause ("yang …", with up
# to NARROW_BEFORE words between them) that says nothing the question says, in NARROW_LEAST words at least ("upah
# minimum yang berlaku" is the wage itself, not a narrower one).
_RELATIVE = re.compile(r"\byang\b", re.I)
_CLAUSE_END = re.compile(r"[,;:.()]")
NARROW_BEFORE = 2
NARROW_AFTER = 6
NARROW_LEAST = 2


def rules_the_complement(question: Question, unit: str, found: dict | None = None) -> bool:
    """The subject before the unit's first modal says whose rule it is ("… waktu tidak tertentu dapat …"), and
    it is the complement of what is asked; a negation after it is the rule's own polarity ("… tidak diberikan")."""
    found = found or {pattern: list(pattern.finditer(unit)) for pattern in (PROHIBIT, EXEMPT, OBLIGE, PERMIT)}
    first = min((m.start() for matches in found.values() for m in matches), default=None)
    return first is not None and about_the_complement(question, unit[:first])


def narrowed(question: Question, text: str) -> bool:
    """The text rules a narrower case than asked: a word of the question qualified by a relative clause none of
    whose words the question (or the law's words for it) says."""
    asked = (question.stems | question.law_stems | question.ask_stems) - MODAL_STEMS - GENERIC_STEMS
    for match in _RELATIVE.finditer(text):
        before = text[:match.start()].split()[-(NARROW_BEFORE + 1):]
        heads = [i for i, word in enumerate(before) if content_stems(word) & asked]
        if not heads:
            continue
        after = _CLAUSE_END.split(text[match.end():], maxsplit=1)[0].split()[:NARROW_AFTER]
        qualifier = content_stems(" ".join(before[heads[-1] + 1:] + after)) - MODAL_STEMS - GENERIC_STEMS
        if len(qualifier) >= NARROW_LEAST and not qualifier & asked:
            return True
    return False
