"""Fitting the unit ranker (``manage.py fit_answerability --units``; answering/extractive/ranker.py says what it ranks).

For each answerable question of the training part of ``../shared/quality/``
(and of the project's own answer set, fit data too) the real pipeline reads
its passages; every unit of those passages becomes an example with its
signals, labelled 1 when it states a gold evidence (it holds most of the
evidence's content words, or most of its own words are the evidence's and it
holds a fair share of it: an ayat of a longer gold passage). A question whose
read passages hold no labelled unit teaches nothing (retrieval missed) and is
left out. The model is a conditional logit on standardised signals (one
softmax over each question's units, fitted with SciPy): it learns which unit
of a question's passages states the answer, so its scores compare units of
one question (KEEP_MARGIN in synthesis.py), not questions.
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass

from answering.extractive.ranker import FEATURES, LEXICAL, PARAMS_PATH, RankerParams, log_odds
from answering.text import content_stems

EVIDENCE_SHARE = 0.6         # of the evidence's stems a unit holds to state it
PART_OF_EVIDENCE = 0.8       # of the unit's own stems inside the evidence …
PART_SHARE = 0.25            # … while it holds at least this share of the evidence
MIN_PART_STEMS = 4


@dataclass(frozen=True)
class UnitExample:
    group: str               # the question it was read for
    features: dict
    label: int
    english: bool


def states(evidence: str, unit: str) -> bool:
    wanted, have = content_stems(evidence), content_stems(unit)
    if not wanted or not have:
        return False
    shared = len(wanted & have)
    return (shared / len(wanted) >= EVIDENCE_SHARE or
            (len(have) >= MIN_PART_STEMS and shared / len(have) >= PART_OF_EVIDENCE and shared / len(wanted) >= PART_SHARE))


def question_examples(group: str, question: str, evidences: list[str], passages) -> list[UnitExample]:
    """The labelled units of one question's passages ([] when none states the evidence)."""
    from answering.extractive.candidates import candidates
    from answering.extractive.question import read_question
    from answering.extractive.semantic import SemanticScorer
    from retrieval.facade import QueryVectors
    from retrieval.facade.language import glossary_expansions

    read = read_question(question, expansions=glossary_expansions)   # as the answer step reads it
    vectors = QueryVectors()
    units = candidates(read, passages, SemanticScorer(lambda: vectors.get(question)))
    rows = [UnitExample(group, dict(c.features), int(any(states(e, c.text) for e in evidences if e)),
                        read.language == "en") for c in units]
    return rows if any(r.label for r in rows) else []


def _matrix(examples: list[UnitExample], means: dict | None = None):
    import numpy as np

    matrix = np.array([[_value(e, name, means) for name in FEATURES] for e in examples], dtype=float)
    return matrix


def _value(example: UnitExample, name: str, means: dict | None) -> float:
    value = example.features.get(name)
    if value is None or (example.english and name in LEXICAL):
        return means[name] if means else float("nan")
    return float(value)


def fit(examples: list[UnitExample], *, regularisation: float = 1.0, only: tuple[str, ...] = (),
        frozen: dict | None = None) -> dict:
    """The ranker as the JSON ranker.py reads: a conditional logit (one softmax over each question's units,
    maximising the probability the units that state the evidence get), L2-penalised by 1/``regularisation``.
    With ``only`` (signals new to the ranker), just their weights are fitted: the others keep ``frozen``'s
    weights, means and scales (a new signal added without refitting what was validated before it)."""
    import numpy as np
    from scipy.optimize import minimize

    raw = _matrix(examples)
    fill = {name: float(np.nanmean(raw[:, i])) for i, name in enumerate(FEATURES)}
    matrix = _matrix(examples, fill)
    means, scales = matrix.mean(axis=0), matrix.std(axis=0)
    scales[scales < 1e-9] = 1.0
    fitted = [i for i, name in enumerate(FEATURES) if not only or name in only]
    if only:
        for i, name in enumerate(FEATURES):
            if i not in fitted:
                means[i], scales[i] = frozen["means"][name], frozen["scales"][name]
    scaled = (matrix - means) / scales
    held = np.array([0.0 if i in fitted else frozen["weights"].get(name, 0.0) for i, name in enumerate(FEATURES)])
    offset = scaled @ held
    scaled_fitted = scaled[:, fitted]
    labels = np.array([e.label for e in examples])
    groups: dict[str, list[int]] = {}
    for i, e in enumerate(examples):
        groups.setdefault(e.group, []).append(i)
    penalty = 1.0 / regularisation

    def loss(weights):
        scores, total, gradient = offset + scaled_fitted @ weights, 0.0, 2 * penalty * weights
        for rows in groups.values():
            share = np.exp(scores[rows] - scores[rows].max())
            share /= share.sum()
            positive = labels[rows] == 1
            mass = share[positive].sum()
            target = np.where(positive, share / mass, 0.0)
            total -= np.log(mass)
            gradient -= (target - share) @ scaled_fitted[rows]
        return total + penalty * weights @ weights, gradient

    weights = held.copy()
    weights[fitted] = minimize(loss, np.zeros(len(fitted)), jac=True, method="L-BFGS-B").x
    return {
        "weights": {name: round(float(w), 4) for name, w in zip(FEATURES, weights)},
        "intercept": 0.0,
        "means": {name: round(float(m), 5) for name, m in zip(FEATURES, means)},
        "scales": {name: round(float(s), 5) for name, s in zip(FEATURES, scales)},
        "fitted_on": {"units": len(examples), "positives": int(labels.sum()), "questions": len(groups),
                      "regularisation": regularisation, "date": datetime.date.today().isoformat(),
                      **({"only": list(only), "others_from": frozen["fitted_on"]} if only else {})},
    }


def ranking_scores(params: dict, examples: list[UnitExample]) -> dict:
    """Per question: is the best-scored unit one that states the evidence (P@1), is one among the best 3?"""
    ranker = RankerParams(weights=params["weights"], intercept=params["intercept"], means=params["means"],
                          scales=params["scales"], embedding_model="")
    groups: dict[str, list[tuple[float, int]]] = {}
    for e in examples:
        groups.setdefault(e.group, []).append((log_odds(e.features, ranker, lexical=not e.english), e.label))
    top1 = top3 = 0
    for rows in groups.values():
        rows.sort(key=lambda r: -r[0])
        top1 += rows[0][1]
        top3 += any(label for _, label in rows[:3])
    n = len(groups) or 1
    return {"questions": len(groups), "p_at_1": round(top1 / n, 3), "hit_at_3": round(top3 / n, 3)}


def write(params: dict, model_name: str) -> None:
    PARAMS_PATH.write_text(json.dumps({**params, "embedding_model": model_name}, indent=1) + "\n")
