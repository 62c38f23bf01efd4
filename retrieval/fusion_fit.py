"""Fitting hybrid search's fusion (``manage.py fit_retrieval``).

The legs' weights, the RRF constant, the candidate limits, the document leg's
weight and the question-aware switches are chosen by coordinate ascent on the
training part of ``../shared/quality/questions.jsonl``: each parameter in
turn takes the value of its grid that scores best with the others held, until
a round changes nothing. The score is the mean of Recall@5 and MRR@10 (the
issue's two targets); ties keep the value nearer the current one. The
validation part is measured with the values found, never searched. Query
vectors are embedded once, so a trial costs only the searches.

The frozen values live in ``kernel/config/retrieval_fit.json`` with the fit's
date and figures; ``RetrievalSettings`` reads its defaults from there, and an
environment variable still overrides each one.
"""
from __future__ import annotations

import dataclasses
import datetime
import os
import json
from dataclasses import dataclass
from typing import Callable

from django.conf import settings
from django.test.utils import override_settings

from kernel.config.retrieval import RETRIEVAL_FIT_PATH
from retrieval.access import Scope
from retrieval.embedders import get_embedder
from retrieval.evaluation import EVALUATOR, Question, Scores, evaluate, ranked_chunk
from retrieval.search import chunk_search

GRID: dict[str, tuple] = {
    "rrf_k": (5, 10, 20, 40, 60, 100),
    "semantic_weight": (0.5, 0.75, 1.0, 1.25, 1.5, 2.0),
    "english_lexical_weight": (0.0, 0.25, 0.5, 0.75, 1.0),
    "document_weight": (0.0, 0.25, 0.5, 1.0, 1.5),
    "document_candidate_limit": (3, 5, 10),
    "feedback_weight": (0.0, 0.5, 1.0, 2.0),
    "semantic_centering": (False, True),
    "semantic_rewrite": (False, True),
    "semantic_formal": (False, True),
    "semantic_candidate_limit": (30, 50, 100),
    "lexical_candidate_limit": (30, 50, 100),
    "within_document_rerank": (True, False),
}
MAX_ROUNDS = 3
K = 10


@dataclass(frozen=True)
class FitResult:
    values: dict
    train: Scores
    validation: Scores | None
    before_train: Scores
    before_validation: Scores | None
    trials: int


def objective(scores: Scores) -> float:
    return round((scores.recall[5] + scores.mrr) / 2, 6)


class Trial:
    """Runs a question set through ``chunk_search`` under given retrieval values, the query vectors cached."""

    def __init__(self, scope: Scope, questions: list[Question]) -> None:
        self._scope = scope
        embedder = get_embedder()
        texts = list(dict.fromkeys(question.query for question in questions))
        self._vectors = dict(zip(texts, embedder.embed_queries(texts)))
        self.count = 0

    def _vector(self, text: str):
        if text not in self._vectors:        # a glossary rewrite, embedded once
            self._vectors[text] = get_embedder().embed_queries([text])[0]
        return self._vectors[text]

    def _rank(self, query: str):
        outcome = chunk_search(query, mode="hybrid", top_k=K, principal=EVALUATOR, scope=self._scope,
                               embed_query=self._vector)
        return [ranked_chunk(hit.chunk) for hit in outcome.hits]

    def scores(self, questions: list[Question], values: dict, name: str = "hybrid") -> Scores:
        self.count += 1
        retrieval = dataclasses.replace(settings.ACEH_RAG.retrieval, **values)
        with override_settings(ACEH_RAG=dataclasses.replace(settings.ACEH_RAG, retrieval=retrieval)):
            overall, _ = evaluate(name, questions, self._rank, K)
        return overall


def current_values() -> dict:
    retrieval = settings.ACEH_RAG.retrieval
    return {name: getattr(retrieval, name) for name in GRID}


def fit(train: list[Question], validation: list[Question], scope: Scope,
        report: Callable[[str], None] = lambda line: None, grid: dict[str, tuple] = GRID) -> FitResult:
    trial = Trial(scope, train + validation)
    values = {name: getattr(settings.ACEH_RAG.retrieval, name) for name in grid}
    before = trial.scores(train, values)
    best = objective(before)
    report(f"start {values}: train R@5 {before.recall[5]:.3f} MRR@10 {before.mrr:.3f}")
    for round_number in range(1, MAX_ROUNDS + 1):
        changed = False
        for name, options in grid.items():
            for option in options:
                if option == values[name]:
                    continue
                score = objective(trial.scores(train, {**values, name: option}))
                if score > best:
                    best, values, changed = score, {**values, name: option}, True
                    report(f"round {round_number}: {name}={option} -> {best:.3f}")
        if not changed:
            break
    start = {name: getattr(settings.ACEH_RAG.retrieval, name) for name in grid}
    return FitResult(
        values=values, train=trial.scores(train, values),
        validation=trial.scores(validation, values) if validation else None,
        before_train=before, before_validation=trial.scores(validation, start) if validation else None,
        trials=trial.count,
    )


def figures(scores: Scores | None) -> dict | None:
    if scores is None:
        return None
    return {"questions": scores.questions, "recall@1": scores.recall[1], "recall@5": scores.recall[5],
            "recall@10": scores.recall[10], "mrr@10": round(scores.mrr, 4)}


def write(result: FitResult, source: str, path=RETRIEVAL_FIT_PATH) -> None:
    payload = {
        "fitted": datetime.date.today().isoformat(),
        "command": "manage.py fit_retrieval --write",
        "source": os.path.relpath(source, settings.BASE_DIR),
        "values": result.values,
        "train (fit figure)": figures(result.train),
        "validation": figures(result.validation),
        "before": {"train": figures(result.before_train), "validation": figures(result.before_validation)},
    }
    path.write_text(json.dumps(payload, indent=2) + "\n")
