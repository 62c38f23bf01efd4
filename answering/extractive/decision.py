"""Answerability as one calibrated decision: a logistic model over the answer's signals, fitted and frozen.

No single signal separates answerable from unanswerable questions (an
unanswerable question is usually on-topic and wrong in a year, a place or a
detail), so the decision weighs them together: the question's similarity to
the best unit and passage (multilingual-e5) and the margin over the next
unit, the share of the question's distinctive terms the cited passages carry
(through the glossary), the best unit's own overlap, the focus being met,
constraint checks that failed (years and places; numbers, articles, named
instruments, offices), question words the corpus never uses, and whether the
evidence is a named anchor, a tool read, or a document a follow-up carried from the conversation, and the
unit ranker's view of the lead unit (its score, and its share of the softmax over the question's units).

``manage.py fit_answerability`` fits the weights, standardisation and
threshold on the training part of ``../shared/quality/`` (and the project's
own sets, which are fit data too) and writes ``answerability.json`` beside
this module, printing the fitted values and the validation figures. The
semantic weights hold for the model they were fitted with; under another
embedder (the tests' hashing vectors) the semantic signals sit at their
training means, so only the other signals decide.
"""
from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path

PARAMS_PATH = Path(__file__).with_name("answerability.json")
FEATURES = ("sem_unit", "sem_margin", "sem_passage", "lex_coverage", "lex_unit", "focus_met", "unmet_year_place",
            "unmet_number", "unmet_other", "absent_share", "anchor", "tool", "rank_best", "carried", "unit_score", "unit_share")
SEMANTIC = frozenset({"sem_unit", "sem_margin", "sem_passage"})
# Word overlap between an English question and Indonesian regulations measures nothing: for an English question
# these signals sit at their training means (like the semantic ones under another embedder).
LEXICAL = frozenset({"lex_coverage", "lex_unit", "absent_share"})
# An English question meets Indonesian passages at lower cosines than an Indonesian question does (the model's
# cross-lingual gap: the best unit's cosine 0.045 lower on average over the fit's examples, more than a standard
# deviation of the signal). When the glossary reads it in at least CROSSLINGUAL_LAW_WORDS of the law's words (it is about what the
# corpus regulates), its semantic signals are moved by the fitted offsets (``crosslingual_offsets``: the mean of the
# Indonesian examples' signal minus the English examples') onto the scale of the Indonesian questions most weights
# were fitted on. An English question the glossary cannot read ("Who won the 2022 FIFA World Cup?") keeps its own.
CROSSLINGUAL_LAW_WORDS = 2
CROSSLINGUAL = ("sem_unit", "sem_passage")


@dataclass(frozen=True)
class DecisionParams:
    weights: dict[str, float]
    intercept: float
    means: dict[str, float]
    scales: dict[str, float]
    threshold: float
    embedding_model: str
    crosslingual: dict[str, float] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path = PARAMS_PATH) -> "DecisionParams":
        raw = json.loads(path.read_text())
        return cls(weights=raw["weights"], intercept=raw["intercept"], means=raw["means"], scales=raw["scales"],
                   threshold=raw["threshold"], embedding_model=raw["embedding_model"],
                   crosslingual=raw.get("crosslingual_offsets", {}))


@functools.lru_cache(maxsize=1)
def frozen_params() -> DecisionParams:
    return DecisionParams.read()


def on_indonesian_scale(signals: dict[str, float], offsets: dict[str, float]) -> dict[str, float]:
    """An English question's semantic signals moved by the cross-lingual offsets (CROSSLINGUAL_LAW_WORDS)."""
    return {**signals, **{name: signals.get(name, 0.0) + offsets[name] for name in CROSSLINGUAL if name in offsets}}


def probability(signals: dict[str, float], params: DecisionParams, *, semantic: bool, lexical: bool = True,
                crosslingual: bool = False) -> float:
    """P(answerable) for the signals; ``semantic=False`` (``lexical=False``) holds the semantic (lexical) signals
    at their training means; ``crosslingual``: an English question read in the law's words."""
    if crosslingual and semantic:
        signals = on_indonesian_scale(signals, params.crosslingual)
    # A signal newer than the frozen fit weighs nothing until the next fit.
    weights = {name: params.weights[name] for name in FEATURES if name in params.weights}
    held = (SEMANTIC if not semantic else frozenset()) | (LEXICAL if not lexical else frozenset())
    total = linear_score({name: signals.get(name, 0.0) for name in weights}, weights=weights,
                         intercept=params.intercept, means=params.means, scales=params.scales, held=held)
    return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, total))))


def linear_score(values: dict, *, weights: dict, intercept: float, means: dict, scales: dict,
                 held: frozenset = frozenset()) -> float:
    """``intercept`` + Σ weight × standardised value, the frozen linear models' score (this decision and the unit
    ranker); a value held, missing or None sits at its training mean."""
    total = intercept
    for name, weight in weights.items():
        value = values.get(name)
        if value is None or name in held:
            value = means[name]
        total += weight * (value - means[name]) / (scales[name] or 1.0)
    return total


def answerable(signals: dict[str, float], semantic: bool, lexical: bool = True,
               crosslingual: bool = False) -> tuple[bool, float]:
    """The frozen decision: (publish?, probability); ``semantic``: the signals came from the fitted model;
    ``lexical``: the question shares the corpus's language; ``crosslingual``: it does not, but the glossary reads it
    in the law's words."""
    params = frozen_params()
    value = probability(signals, params, semantic=semantic, lexical=lexical, crosslingual=crosslingual)
    return value >= params.threshold, round(value, 4)
