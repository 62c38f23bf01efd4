"""bench/twins_real.jsonl: thirty questions, each worded formally, colloquially and in English, whose gold
evidence sits in the Pasal or Diktum it names in the real text (../shared/corpus/txt; skipped without it)."""
from __future__ import annotations

import json
import re
from collections import defaultdict

import pytest

from retrieval.evaluation import DICTUMS, load_questions
from tests.conftest import ROOT, corpus_path

TWINS = ROOT / "bench" / "twins_real.jsonl"
ROWS = [json.loads(line) for line in TWINS.read_text(encoding="utf-8").splitlines() if line.strip()]
PLACES = sorted({(label["document"], label["pasal"], label["evidence"]) for row in ROWS for label in row["relevant"]})
_HEADING = re.compile(r"^\s*(?:Pasal\s+(?P<pasal>\d+[A-Z]?)\b|(?P<dictum>" + "|".join(sorted(DICTUMS, key=len, reverse=True))
                      + r")\s*:)")


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def test_every_group_is_one_question_in_three_wordings_with_one_gold():
    questions = load_questions(TWINS)
    assert len(questions) == len(ROWS) == 90
    assert len({row["id"] for row in ROWS}) == 90
    groups = defaultdict(list)
    for row, question in zip(ROWS, questions):
        groups[question.twin].append((question.styles, row["kind"], json.dumps(row["relevant"], sort_keys=True)))
    assert len(groups) == 30
    for twin, members in groups.items():
        assert sorted(styles for styles, _, _ in members) == [("colloquial",), ("english",), ("formal",)], twin
        assert len({(kind, gold) for _, kind, gold in members}) == 1, twin
    assert {row["kind"] for row in ROWS} == {"national", "aceh"}
    assert len({document for document, _, _ in PLACES}) == 30


@pytest.mark.parametrize("document, pasal, evidence", PLACES, ids=lambda value: str(value)[:40])
def test_the_evidence_is_in_the_pasal_or_dictum_the_row_names(document, pasal, evidence):
    lines = corpus_path(f"txt/{document}.txt").read_text(encoding="utf-8").splitlines()
    wanted = _collapsed(evidence)
    # The first occurrence: the body comes before its Penjelasan.
    at = next((number for number, line in enumerate(lines) if wanted in _collapsed(line)), None)
    assert at is not None, f"evidence not found in {document}: {evidence}"
    heading = next(
        (match for line in reversed(lines[: at + 1]) if (match := _HEADING.match(line))), None
    )
    assert heading is not None, f"no Pasal or Diktum heading above the evidence in {document}"
    assert (heading.group("pasal") or heading.group("dictum")) == pasal
