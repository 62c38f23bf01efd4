"""The signals the answerability decision weighs (answering.extractive.decision.FEATURES), for one draft."""
from __future__ import annotations

import math
import re
from typing import Callable, Sequence

from answering.extractive.answerability import OFF_TOPIC_COVERAGE, Answerability, distinctive_stems
from answering.extractive.candidates import Candidate
from answering.extractive.semantic import SemanticScorer
from answering.extractive.question import Question
from answering.extractive.ranker import fit_to_lead
from answering.text import content_stems
from answering.types import LEGAL_RELATION_ORIGIN, Passage

TOOL_ORIGINS = frozenset({"tool", LEGAL_RELATION_ORIGIN})
ANCHOR_ORIGINS = frozenset({"anchor", "closing"})
CARRIED_ORIGINS = frozenset({"followup"})       # read from the documents a follow-up carried (followup.py)
PASSAGES_COMPARED = 3
_YEAR_PLACE = ("year", "place")
_SOFT = ("focus", "terms", "absent", "number")


def _absent_share(question: Question, checks: Answerability, absent_words: Callable | None) -> float:
    """The share of the question's distinctive words the cited passages miss that no visible passage anywhere
    contains ("bitcoin"): a word met through the glossary is not missing."""
    wanted = distinctive_stems(question.text)
    if not wanted or not checks.missing or absent_words is None or checks.coverage > OFF_TOPIC_COVERAGE:
        return 0.0        # asked only at the margin: an acronym the passage spells out is not off-topic
    words = [w for w in re.findall(r"[^\W\d_]+", question.text) if content_stems(w) & checks.missing]
    if not words:
        return 0.0
    gone = absent_words(list(dict.fromkeys(words)))
    return len(gone) / len(wanted)


def answer_signals(question: Question, chosen: Sequence[Candidate], ranked: Sequence[Candidate],
                   passages: Sequence[Passage], checks: Answerability, *, semantic: SemanticScorer | None,
                   absent_words: Callable | None) -> dict[str, float]:
    """One value per decision feature; a draft with no candidate has every signal at zero."""
    if not chosen:
        return {"sem_unit": 0.0, "sem_margin": 0.0, "sem_passage": 0.0, "lex_coverage": 0.0, "lex_unit": 0.0,
                "focus_met": 0.0, "unmet_year_place": 0.0, "unmet_number": 0.0, "unmet_other": 0.0, "absent_share": 0.0,
                "anchor": 0.0, "tool": 0.0, "rank_best": 0.0, "carried": 0.0, "unit_score": 0.0, "unit_share": 0.0}
    lead = max(chosen, key=lambda c: fit_to_lead(question, c.text, c.score))     # the opener's unit
    scored = [c.semantic for c in ranked if c.semantic is not None]
    sem_unit = max((c.semantic for c in chosen if c.semantic is not None), default=0.0)
    others = sorted((s for s in scored), reverse=True)
    margin = (others[0] - others[1]) if len(others) > 1 else 0.0
    passage_cos = semantic.passages([p.chunk_id for p in passages[:PASSAGES_COMPARED]]) if semantic else {}
    unmet = [u.split(" ")[0] for u in checks.unmet]
    origins = {c.passage.origin for c in chosen}
    return {
        "sem_unit": sem_unit,
        "sem_margin": margin,
        "sem_passage": max(passage_cos.values(), default=0.0),
        "lex_coverage": checks.coverage,
        "lex_unit": lead.overlap,
        "focus_met": 0.0 if "focus" in unmet else 1.0,
        "unmet_year_place": float(sum(1 for u in unmet if u in _YEAR_PLACE)),
        "unmet_number": float(sum(1 for u in unmet if u == "number")),
        "unmet_other": float(sum(1 for u in unmet if u not in _YEAR_PLACE and u not in _SOFT)),
        "absent_share": _absent_share(question, checks, absent_words),
        "anchor": 1.0 if origins & ANCHOR_ORIGINS else 0.0,
        "tool": 1.0 if origins & TOOL_ORIGINS else 0.0,
        "rank_best": 1.0 / (1 + min(c.passage_rank for c in chosen)),
        "carried": 1.0 if origins & CARRIED_ORIGINS else 0.0,
        "unit_score": lead.score,
        "unit_share": _share(lead, ranked),
    }


def _share(lead: Candidate, ranked: Sequence[Candidate]) -> float:
    """The lead unit's share of the softmax over every unit read (how clearly one unit answers)."""
    top = max(c.score for c in ranked)
    return math.exp(lead.score - top) / sum(math.exp(c.score - top) for c in ranked)
