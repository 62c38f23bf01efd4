"""Fitting the answerability decision (``manage.py fit_answerability``; decision.py says what it decides).

Examples come from running the training part of ``../shared/quality/`` (and,
as more fit data, the project's own sets) through ``/query``: each answer's
recorded signals with a label. An answerable question whose read passages
carry its gold evidence is a positive; an unanswerable or off-topic one a
negative; an answerable question whose evidence was never read teaches
nothing about the decision (retrieval missed it) and is left out.
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


def example(record, answerability: dict | None) -> Example | None:
    """The record's labelled signals, or None when it teaches nothing."""
    if not answerability:
        return None
    if record.answerable and not record.verdicts.get("read_gold_evidence"):
        return None
    return Example(record.id, answerability["signals"], int(record.answerable))


def fit(examples: list[Example], *, regularisation: float = 1.0) -> dict:
    """The logistic model as the JSON decision.py reads."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression
    from sklearn.preprocessing import StandardScaler

    matrix = np.array([[e.signals.get(name, 0.0) for name in FEATURES] for e in examples], dtype=float)
    labels = np.array([e.label for e in examples])
    scaler = StandardScaler().fit(matrix)
    model = LogisticRegression(C=regularisation, class_weight="balanced", max_iter=2000)
    model.fit(scaler.transform(matrix), labels)
    return {
        "weights": {name: round(float(w), 4) for name, w in zip(FEATURES, model.coef_[0])},
        "intercept": round(float(model.intercept_[0]), 4),
        "means": {name: round(float(m), 5) for name, m in zip(FEATURES, scaler.mean_)},
        "scales": {name: round(float(s), 5) for name, s in zip(FEATURES, scaler.scale_)},
        "threshold": 0.5,
        "fitted_on": {"examples": len(examples), "positives": int(labels.sum()),
                      "negatives": int(len(labels) - labels.sum()), "date": datetime.date.today().isoformat()},
    }


def scores(params: dict, examples: list[Example]) -> dict:
    """AUC and accuracy of the fitted decision on labelled examples."""
    from sklearn.metrics import roc_auc_score

    from answering.extractive.decision import DecisionParams, probability

    decision = DecisionParams(weights=params["weights"], intercept=params["intercept"], means=params["means"],
                              scales=params["scales"], threshold=params["threshold"], embedding_model="")
    values = [probability(e.signals, decision, semantic=True) for e in examples]
    labels = [e.label for e in examples]
    correct = sum(1 for v, y in zip(values, labels) if (v >= decision.threshold) == bool(y))
    both = len(set(labels)) == 2
    return {"n": len(labels), "auc": round(roc_auc_score(labels, values), 3) if both else None,
            "accuracy": round(correct / len(labels), 3) if labels else None}


def write(params: dict, model_name: str, path: Path = PARAMS_PATH) -> None:
    path.write_text(json.dumps({**params, "embedding_model": model_name}, indent=1) + "\n")
