"""An English question's cosines with Indonesian passages run lower than an Indonesian one's: the decision moves them
by fitted offsets when the glossary reads the question in the law's words, and only then."""
from __future__ import annotations

from dataclasses import replace

import pytest

from answering.evaluation.fitting import Example, crosslingual_offsets, fit, scores
from answering.extractive.decision import FEATURES, DecisionParams, probability
from answering.extractive.question import read_question
from answering.extractive.synthesis import read_in_law_words
from retrieval.facade.language import glossary_expansions


def signals(sem: float, **others) -> dict:
    return {name: 0.0 for name in FEATURES} | {"sem_unit": sem, "sem_passage": sem, "focus_met": 1.0} | others


def test_the_offsets_are_the_indonesian_mean_minus_the_english_mean_of_each_semantic_signal():
    examples = [Example("id1", signals(0.90), 1), Example("id2", signals(0.86), 0),
                Example("en1", signals(0.85), 1, english=True, crosslingual=True),
                Example("en2", signals(0.81), 0, english=True)]
    assert crosslingual_offsets(examples) == {"sem_unit": pytest.approx(0.05), "sem_passage": pytest.approx(0.05)}
    assert crosslingual_offsets(examples[:2]) == {}


def params(offsets: dict) -> DecisionParams:
    means = {name: 0.0 for name in FEATURES} | {"sem_unit": 0.87, "sem_passage": 0.87}
    scales = {name: 1.0 for name in FEATURES} | {"sem_unit": 0.03, "sem_passage": 0.03}
    weights = {name: 0.0 for name in FEATURES} | {"sem_unit": 1.0, "sem_passage": 0.5}
    return DecisionParams(weights=weights, intercept=0.0, means=means, scales=scales, threshold=0.5,
                          embedding_model="m", crosslingual=offsets)


def test_an_english_question_read_in_the_laws_words_is_judged_on_the_indonesian_scale():
    english = signals(0.84)
    frozen = params({"sem_unit": 0.04, "sem_passage": 0.04})
    as_is = probability(english, frozen, semantic=True, lexical=False)
    moved = probability(english, frozen, semantic=True, lexical=False, crosslingual=True)
    assert as_is < 0.5 < moved
    assert moved == pytest.approx(probability(signals(0.88), frozen, semantic=True))
    # Under another embedder the semantic signals sit at their means: nothing to move.
    assert probability(english, frozen, semantic=False, crosslingual=True) == probability(english, frozen, semantic=False)


def test_the_fit_applies_the_offsets_it_measures_to_the_examples_it_fits():
    examples = [Example(f"id{i}", signals(0.89 + 0.01 * (i % 3)), 1) for i in range(12)]
    examples += [Example(f"idn{i}", signals(0.85 + 0.01 * (i % 3)), 0) for i in range(12)]
    # English answerable questions at English cosines (as low as the Indonesian unanswerable ones), and English
    # unanswerable ones lower still.
    examples += [Example(f"en{i}", signals(0.85 + 0.01 * (i % 3)), 1, english=True, crosslingual=True)
                 for i in range(6)]
    examples += [Example(f"enn{i}", signals(0.81 + 0.01 * (i % 3)), 0, english=True, crosslingual=True)
                 for i in range(6)]
    moved = fit(examples)
    unmoved = fit([replace(e, crosslingual=False) for e in examples])
    assert moved["crosslingual_offsets"]["sem_unit"] == pytest.approx(0.04)
    assert scores(moved, examples)["accuracy"] == 1.0
    assert scores(unmoved, examples)["accuracy"] < 0.9


@pytest.mark.django_db
@pytest.mark.parametrize("question, read", [
    ("How many days of annual leave does an employee get under the labour law?", True),
    ("Who won the 2022 FIFA World Cup?", False),
    ("What is the best recipe for beef rendang?", False),
    ("Berapa hari cuti tahunan pekerja?", False),          # Indonesian: its own cosines
])
def test_only_an_english_question_the_glossary_reads_in_the_laws_words_is_moved(question, read):
    assert read_in_law_words(read_question(question, expansions=glossary_expansions)) is read
