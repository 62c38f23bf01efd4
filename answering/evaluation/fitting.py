"""Fitting the answerability decision (``manage.py fit_answerability``; decision.py says what it decides).

Examples come from running the training part of ``../shared/quality/`` (and,
as more fit data, the project's own sets) through ``/query``: each answer's
recorded signals with a label. An answerable question whose read passages
carry its gold evidence is a positive; an unanswerable or off-topic one a
negative; an answerable question whose evidence was never read teaches
nothing about the decision (retrieval missed it) and is left out, as is an answer with no candidate unit
(declined whatever the weights).
Standardised features, scikit-learn's logistic regression with balanced
class weights, threshold 0.5: nothing is tuned per question.
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from pathlib import Path

from answering.extractive.decision import FEATURES, PARAMS_PATH


@dataclass(frozen=True)
class Example:
    id: str
    signals: dict
    label: int
    english: bool = False        # its lexical signals measure nothing (decision.LEXICAL)
    crosslingual: bool = False   # English, read in the law's words: its semantic signals are moved (decision.py)


def _languages(question: str) -> dict:
    """``english`` and ``crosslingual`` of an example's question."""
    from answering.extractive.question import read_question
    from answering.extractive.synthesis import read_in_law_words
    from retrieval.facade.language import glossary_expansions

    read = read_question(question, expansions=glossary_expansions)
    return {"english": read.language == "en", "crosslingual": read_in_law_words(read)}


def example(record, answerability: dict | None) -> Example | None:
    """The record's labelled signals, or None when it teaches nothing."""
    if not answerability or not any(answerability["signals"].values()):
        return None          # no candidate unit at all: declined whatever the weights
    if record.answerable and not record.verdicts.get("read_gold_evidence"):
        return None
    return Example(record.id, answerability["signals"], int(record.answerable), **_languages(record.query))


# The direction each signal can only push the decision: a weight of the other sign is the small sample's noise
# (a collinear pair splitting one effect), so that signal is dropped and the model refitted without it.
SIGNS = {"sem_unit": 1, "sem_margin": 1, "sem_passage": 1, "lex_coverage": 1, "lex_unit": 1, "focus_met": 1,
         "unmet_year_place": -1, "unmet_number": -1, "unmet_other": -1, "absent_share": -1, "anchor": 1, "tool": 1, "rank_best": 1, "carried": 1,
         "unit_score": 1, "unit_share": 1}


def project_example(question, result, read_text: str) -> Example | None:
    """A row of the project's own sets (bench/answers_*.jsonl) as a fit example, labelled like the shared sets'."""
    from answering.evaluation.measures import carries

    record = getattr(result, "answerability", None)
    if not record or not any(record["signals"].values()):
        return None
    if question.answerable and not carries(question.evidence, read_text):
        return None
    return Example(f"bench:{question.id}", record["signals"], int(question.answerable), **_languages(question.question))


def crosslingual_offsets(examples: list[Example]) -> dict[str, float]:
    """Per semantic signal, the Indonesian examples' mean minus the English examples' (decision.CROSSLINGUAL); {}
    without examples of both languages."""
    from statistics import fmean

    from answering.extractive.decision import CROSSLINGUAL

    english = [e for e in examples if e.english]
    indonesian = [e for e in examples if not e.english]
    if not english or not indonesian:
        return {}
    return {name: round(fmean(e.signals.get(name, 0.0) for e in indonesian)
                        - fmean(e.signals.get(name, 0.0) for e in english), 5) for name in CROSSLINGUAL}


def fit(examples: list[Example], *, regularisation: float = 1.0) -> dict:
    """The logistic model as the JSON decision.py reads (sign-checked: see SIGNS), with the cross-lingual offsets
    measured on the same examples and applied to them as the decision applies them."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    from answering.extractive.decision import LEXICAL, on_indonesian_scale

    offsets = crosslingual_offsets(examples)
    rows = [on_indonesian_scale(e.signals, offsets) if e.crosslingual else e.signals for e in examples]
    matrix = np.array([[row.get(name, 0.0) for name in FEATURES] for row in rows], dtype=float)
    labels = np.array([e.label for e in examples])
    english = np.array([e.english for e in examples])
    for column, name in enumerate(FEATURES):
        if name in LEXICAL and (~english).any():
            matrix[english, column] = matrix[~english, column].mean()   # as decision.py holds them
    scaler = StandardScaler().fit(matrix)
    scaled = scaler.transform(matrix)
    kept = [i for i, name in enumerate(FEATURES) if scaler.scale_[i] > 1e-9]
    while True:
        model = LogisticRegression(C=regularisation, class_weight="balanced", max_iter=2000)
        model.fit(scaled[:, kept], labels)
        wrong = [i for i, w in zip(kept, model.coef_[0]) if w * SIGNS[FEATURES[i]] < 0]
        if not wrong:
            break
        kept = [i for i in kept if i != min(wrong, key=lambda i: abs(model.coef_[0][kept.index(i)]))]
    coefficients = dict(zip(kept, model.coef_[0]))
    return {
        "weights": {name: round(float(coefficients.get(i, 0.0)), 4) for i, name in enumerate(FEATURES)},
        "intercept": round(float(model.intercept_[0]), 4),
        "means": {name: round(float(m), 5) for name, m in zip(FEATURES, scaler.mean_)},
        "scales": {name: round(float(s), 5) for name, s in zip(FEATURES, scaler.scale_)},
        # Balanced class weights make 0.5 the point where both kinds of error cost the same. (Youden's J on the
        # training examples was tried: with signals this weak its maximum jumped between 0.40 and 0.63 from one
        # refit to the next.)
        "threshold": 0.5,
        "crosslingual_offsets": offsets,
        "fitted_on": {"examples": len(examples), "positives": int(labels.sum()),
                      "negatives": int(len(labels) - labels.sum()), "date": datetime.date.today().isoformat()},
    }


def scores(params: dict, examples: list[Example]) -> dict:
    """AUC and accuracy of the fitted decision on labelled examples."""
    from sklearn.metrics import roc_auc_score

    from answering.extractive.decision import DecisionParams, probability

    decision = DecisionParams(weights=params["weights"], intercept=params["intercept"], means=params["means"],
                              scales=params["scales"], threshold=params["threshold"], embedding_model="",
                              crosslingual=params.get("crosslingual_offsets", {}))
    values = [probability(e.signals, decision, semantic=True, lexical=not e.english, crosslingual=e.crosslingual)
              for e in examples]
    labels = [e.label for e in examples]
    correct = sum(1 for v, y in zip(values, labels) if (v >= decision.threshold) == bool(y))
    both = len(set(labels)) == 2
    return {"n": len(labels), "auc": round(roc_auc_score(labels, values), 3) if both else None,
            "accuracy": round(correct / len(labels), 3) if labels else None}


def write(params: dict, model_name: str, path: Path = PARAMS_PATH) -> None:
    path.write_text(json.dumps({**params, "embedding_model": model_name}, indent=1) + "\n")
