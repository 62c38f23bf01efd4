"""Candidate answer units of the top passages, each scored by the fitted unit ranker.

Each unit (answering.extractive.units; a signature block read whole) of the
PASSAGES_READ best passages gets its signals (``ranker.unit_features``: the
multilingual-e5 cosine of the question with the unit and with its passage,
the share of the question's words it carries (of an English question, the
share of the law's words the glossary gives it), its passage's rank, a named
article, the fit to what the question asks, the kind of text) and the frozen
ranker's log-odds that it states the answer as its score. A paraphrase
("kasih jawaban" for "memberikan tanggapan") or an English question reaches
the unit that means it through the cosines; a unit sharing no word with the
question is a candidate through its meaning alone.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from typing import Sequence

from answering.extractive.question import Question, met_colloquially
from answering.extractive.ranker import frozen_ranker, log_odds, unit_features
from answering.extractive.semantic import SemanticScorer
from answering.extractive.textlayer import without_text_layer_marks
from answering.extractive.units import Unit, asks_legal_basis, passage_units
from answering.text import complement_stems, content_stems
from answering.types import Passage

PASSAGES_READ = 8
SEMANTIC_UNITS = 96             # units scored by meaning (the best by words and rank first)
MIN_SENTENCE_CHARS = 25
DISTRIBUTION = re.compile(r"(?:SALINAN|Salinan|Tembusan|TEMBUSAN)\b")
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
    kind: str = "sentence"              # the unit's kind: "sentence" | "list" | "table" | "definition" | "row" | "closing"
    items: tuple[str, ...] = ()         # a list unit's items
    omitted: int = 0                    # list items the unit could not hold
    features: dict | None = field(default=None, compare=False)   # the ranker's signals (ranker.unit_features)


def closing_units(text: str) -> list[str]:
    """A signature block read whole: enactment (place, date, office, signatory), then promulgation."""
    flat = " ".join(without_text_layer_marks(text).split())
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
    return passage_units(passage.text, legal_basis=legal_basis, preamble=passage.kind == "preamble",
                         whole_lists=question.lists, explanation=passage.kind == "penjelasan")


@functools.lru_cache(maxsize=256)
def _asked_complements(question: str) -> frozenset[str]:
    """``complement_stems`` of the question, read once for all its units."""
    return frozenset(complement_stems(question))


def _overlap(text: str, question: Question) -> float:
    """The share of the question's words the unit carries; for an English question, of the law's words the glossary
    gives it (its own words meet nothing in Indonesian text)."""
    # A word the unit names only as its complement ("Penerimaan Negara Bukan Pajak" for "pajak") is not the one asked.
    stems = content_stems(text) - (complement_stems(text) - _asked_complements(question.text))
    if not stems or not question.stems:
        return 0.0
    if question.law_stems:
        return len(stems & question.law_stems) / len(question.law_stems)
    matched = (stems | met_colloquially(question.colloquial, stems)) & question.stems  # "nanggepin" by "menanggapi"
    return len(matched) / len(question.stems)


def candidates(question: Question, passages: Sequence[Passage], semantic: SemanticScorer | None) -> list[Candidate]:
    """Every unit of the top passages with its ranker score, best first."""
    legal_basis = asks_legal_basis(question.text)
    found: list[tuple[Candidate, dict]] = []
    for rank, passage in enumerate(passages[:PASSAGES_READ]):
        closing = is_closing(passage)
        for position, unit in enumerate(passage_units_for(passage, question, legal_basis)):
            if not readable(unit.text):
                continue
            overlap = _overlap(unit.text, question)
            features = unit_features(question, unit.text, passage, rank, position, unit.kind, overlap=overlap,
                                     closing=closing, semantic=None, passage_semantic=None)
            found.append((Candidate(unit.text, passage, rank, position, 0.0, overlap, None, unit.kind, unit.items,
                                    unit.omitted), features))
    if semantic is not None and found:
        _measure_meaning(found, passages, semantic)
    # An English question the glossary reads nothing of has no words to share: its overlap sits at the mean.
    params, lexical = frozen_ranker(), question.language != "en" or bool(question.law_stems)
    scored = [replace(c, score=log_odds(f, params, lexical=lexical), features=f) for c, f in found]
    scored.sort(key=lambda c: (-c.score, c.passage_rank, c.position))
    return scored


def _measure_meaning(found: list[tuple[Candidate, dict]], passages: Sequence[Passage], semantic: SemanticScorer) -> None:
    """The cosines of the SEMANTIC_UNITS most likely units by words and rank (a bound on embedding cost)."""
    order = sorted(range(len(found)), key=lambda i: -(found[i][1]["overlap"] + found[i][1]["rank"] / 4
                                                      + found[i][1]["anchor"]))[:SEMANTIC_UNITS]
    cosines = semantic.units([found[i][0].text for i in order])
    by_passage = semantic.passages([p.chunk_id for p in passages[:PASSAGES_READ]])
    for i, cos in zip(order, cosines or []):
        candidate, features = found[i]
        found[i] = (replace(candidate, semantic=cos), features)
        features["semantic"] = cos
    for candidate, features in found:
        features["passage_semantic"] = by_passage.get(candidate.passage.chunk_id)
def with_semantic(chosen: list[tuple[Candidate, dict]], semantic: SemanticScorer) -> list[tuple[Candidate, dict]]:
    """The chosen units each with its cosine (a unit chosen on words alone was not among those scored)."""
    missing = [c.text for c, _ in chosen if c.semantic is None]
    cosines = dict(zip(missing, semantic.units(missing) or [])) if missing else {}
    return [(replace(c, semantic=cosines.get(c.text)) if c.semantic is None else c, labels) for c, labels in chosen]
