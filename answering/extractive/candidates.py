"""Candidate answer units of the top passages, scored by words, focus and meaning.

Each unit (answering.extractive.units; a signature block read whole) gets a
lexical score (the share of the question's content stems it carries, its
passage's rank, a named anchor's bonus, the fit to what the question asks:
a definition, a date, a name, a figure) and, for the SEMANTIC_UNITS best by
that score, the multilingual-e5 cosine with the question. The combined score
adds SEMANTIC_WEIGHT × (cosine − SEMANTIC_CENTRE): a paraphrase ("kasih
jawaban" for "memberikan tanggapan") or an English question reaches the unit
that means it. The two constants are fitted on the training part of
``../shared/quality/`` (``fit_answerability --units``) and frozen here.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Sequence

from answering.extractive.focus import focus_bonus
from answering.extractive.question import Question
from answering.extractive.semantic import SemanticScorer
from answering.extractive.units import Unit, asks_legal_basis, passage_units
from answering.text import content_stems
from answering.types import Passage

PASSAGES_READ = 8
SEMANTIC_UNITS = 16
SEMANTIC_WEIGHT = 6.0
SEMANTIC_CENTRE = 0.80
MIN_SENTENCE_CHARS = 25
DISTRIBUTION = re.compile(r"(?:SALINAN|Salinan|Tembusan|TEMBUSAN)\b")
# A penal provision ("… dipidana dengan pidana kurungan paling lama 1 (satu) tahun") restates a duty to punish
# its breach: it answers what the sanction is, not what the duty or its deadline is.
PENAL = re.compile(r"\bdipidana\b|\bpidana\s+(?:penjara|kurungan|denda)\b", re.I)
ASKS_SANCTION = re.compile(r"\b(?:sanksi|pidana|dipidana|denda|hukuman|dihukum|penjara|kurungan|ancaman|penalt\w*|fine[sd]?|"
                           r"punish\w*|prison|jail)\b", re.I)
PENAL_PENALTY = 0.6
# Text a broken font or a bad scan left behind ("FE o.IJ 0.p. oN N to N N od d!") is not a unit: most of a
# real unit's tokens are words.
_WORDLIKE = re.compile(r"^[(\"']?(?:[A-Za-z][a-z]+(?:[-/][A-Za-z][a-z]+)*|[A-Z]{2,}|[\d.,/%]+|\(?\d{1,2}[a-z]?\)|[a-z]\.)"
                       r"[)\"',.;:]*$|^[:|\-–]$")
MIN_WORDLIKE_SHARE = 0.6


def readable(text: str) -> bool:
    tokens = text.split()
    return bool(tokens) and sum(1 for t in tokens if _WORDLIKE.match(t)) / len(tokens) >= MIN_WORDLIKE_SHARE
# The title of a heading, as headings print it in capitals ("NOMOR 94 TAHUN 2021 TENTANG DISIPLIN PEGAWAI
# NEGERI SIPIL", "NOMOR 31 /POJK.05/2016 TENTANG USAHA PERGADAIAN"), up to the preamble; a citation of another
# law in the considerations ("Nomor 21 Tahun 2011 tentang …") is not one.
HEADING_TITLE = re.compile(
    r"\bNOMOR\s+[\w.]+(?:\s*/\s*[\w.]+)*(?:\s+TAHUN\s+\d{4})?\s+TENTANG\s+[^\n]+?(?:\n[^\n]+?)*?"
    r"(?=\s*\n\s*\n|\s*\n\s*(?:DENGAN|BISMILLAH|ATAS\s+RAHMAT|[A-Z][A-Z .]+,\s*\n|Menimbang)|\s+DENGAN\s*RAHMAT|"
    r"\s+Menimbang|\s*$)")


@dataclass(frozen=True)
class Candidate:
    text: str
    passage: Passage
    passage_rank: int
    position: int
    score: float
    overlap: float = 0.0                # share of the question's stems the unit carries
    semantic: float | None = None       # cosine with the question (None: not scored)
    kind: str = "sentence"              # the unit's kind: "sentence" | "list" | "definition" | "row" | "closing"
    items: tuple[str, ...] = ()         # a list unit's items
    omitted: int = 0                    # list items the unit could not hold


def closing_units(text: str) -> list[str]:
    """A signature block read whole: enactment (place, date, office, signatory), then promulgation."""
    flat = " ".join(text.split())
    parts = re.split(r"(?=\b(?:Ditetapkan|Disahkan|Diundangkan)\s+di\b)|(?=\bLEMBARAN\b|\bBERITA\b)|"
                     r"(?=\b(?:SALINAN|Salinan|Tembusan|TEMBUSAN)\b)", flat)
    # Who receives a copy ("SALINAN … disampaikan kepada 1. Menteri …") is not who signed or when.
    return [part.strip() for part in parts if len(part.strip()) >= MIN_SENTENCE_CHARS
            and not DISTRIBUTION.match(part.strip())]


def is_closing(passage: Passage) -> bool:
    return passage.origin == "closing" or passage.kind == "closing"


def passage_units_for(passage: Passage, question: Question, legal_basis: bool) -> list[Unit]:
    """The units a passage offers this question."""
    if is_closing(passage):
        return [Unit(text, "closing", position) for position, text in enumerate(closing_units(passage.text))]
    if question.focus.kind == "about" and passage.kind == "preamble" and passage.origin == "anchor":
        # What the named instrument is about: its own title line (read_scope), not its considerations,
        # nor another document's heading (an amendment's title cites the instrument it amends).
        title = HEADING_TITLE.search(passage.text)
        return [Unit(" ".join(title.group(0).split()), "sentence", 0)] if title else []
    return passage_units(passage.text, legal_basis=legal_basis, preamble=passage.kind == "preamble")


def _lexical(text: str, question: Question, passage: Passage, rank: int, closing: bool) -> tuple[float, float]:
    stems = content_stems(text)
    if not stems or not question.stems:
        return 0.0, 0.0
    overlap = len(stems & question.stems) / len(question.stems)
    score = overlap + 0.15 / (1 + rank)
    if passage.origin in ("anchor", "closing") and overlap == 0:
        score += 0.2  # the question named this article: its text answers it even without shared words
    elif overlap == 0:
        return 0.0, 0.0   # no shared word: only its meaning (the semantic score) can make it a candidate
    if PENAL.search(text) and not ASKS_SANCTION.search(question.text):
        score -= PENAL_PENALTY
    return score + focus_bonus(question.focus, text, closing), overlap


def candidates(question: Question, passages: Sequence[Passage], semantic: SemanticScorer | None) -> list[Candidate]:
    """Every unit of the top passages with its scores, best first."""
    legal_basis = asks_legal_basis(question.text)
    found: list[Candidate] = []
    for rank, passage in enumerate(passages[:PASSAGES_READ]):
        closing = is_closing(passage)
        for position, unit in enumerate(passage_units_for(passage, question, legal_basis)):
            if not readable(unit.text):
                continue
            score, overlap = _lexical(unit.text, question, passage, rank, closing)
            found.append(Candidate(unit.text, passage, rank, position, score, overlap, None, unit.kind, unit.items,
                                   unit.omitted))
    found.sort(key=lambda c: (-c.score, c.passage_rank, c.position))
    if semantic is not None and found:
        head = found[:SEMANTIC_UNITS]
        cosines = semantic.units([c.text for c in head])
        if cosines is not None:
            head = [replace(c, semantic=cos, score=c.score + SEMANTIC_WEIGHT * (cos - SEMANTIC_CENTRE))
                    for c, cos in zip(head, cosines)]
            found = head + found[SEMANTIC_UNITS:]
            found.sort(key=lambda c: (-c.score, c.passage_rank, c.position))
    return found


def with_semantic(chosen: list[tuple[Candidate, dict]], semantic: SemanticScorer) -> list[tuple[Candidate, dict]]:
    """The chosen units each with its cosine (a unit chosen on words alone was not among those scored)."""
    missing = [c.text for c, _ in chosen if c.semantic is None]
    cosines = dict(zip(missing, semantic.units(missing) or [])) if missing else {}
    return [(replace(c, semantic=cosines.get(c.text)) if c.semantic is None else c, labels) for c, labels in chosen]
