"""The general-provisions article defines every term a regulation uses, so it shares any question's words: the unit
ranker's ``definition_unasked`` signal marks its definitions when no definition is asked, and the frozen weight
ranks them below an article that says what is asked."""
from __future__ import annotations

import uuid

import pytest

from answering.extractive.question import read_question
from answering.extractive.ranker import frozen_ranker, log_odds, unit_features
from answering.types import Passage

TITLE = "Peraturan Gubernur Contoh Nomor 8 Tahun 2025 tentang Penanganan Gelandangan dan Pengemis"
DEFINITION = ("Satuan Tugas Penanganan Gelandangan dan Pengemis adalah tim yang dibentuk oleh Gubernur untuk "
              "menangani Gelandangan dan Pengemis di luar panti.")


def passage(text: str, section: str) -> Passage:
    return Passage(uuid.uuid4(), uuid.uuid4(), TITLE, f"{TITLE} {section}", (section,), "body", text, 1.0, {})


def features(question: str, text: str, section: str) -> dict:
    return unit_features(read_question(question), text, passage(text, section), 0, 0, "sentence", overlap=0.5,
                         closing=False, semantic=None, passage_semantic=None)


@pytest.mark.parametrize("question,section,marked", [
    ("Siapa yang menangani gelandangan di luar panti?", "Pasal 1", 1.0),        # a person asked: the definition is beside it
    ("Apa yang dimaksud dengan Satuan Tugas Penanganan Gelandangan dan Pengemis?", "Pasal 1", 0.0),   # asked
    ("Siapa yang menangani gelandangan di luar panti?", "Pasal 10", 0.0),       # not the general provisions
    ("Siapa yang menangani gelandangan di luar panti?", "Pasal 12", 0.0),
])
def test_a_definition_of_the_general_provisions_is_marked_only_when_no_definition_is_asked(question, section, marked):
    assert features(question, DEFINITION, section)["definition_unasked"] == marked


def test_the_frozen_weight_ranks_an_unasked_definition_below_the_same_unit_elsewhere():
    params = frozen_ranker()
    assert params.weights["definition_unasked"] < 0
    question = "Siapa yang menangani gelandangan di luar panti?"
    assert log_odds(features(question, DEFINITION, "Pasal 1"), params) < log_odds(
        features(question, DEFINITION, "Pasal 10"), params)
