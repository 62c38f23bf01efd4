"""The shipped English legal vocabulary (migrations 0016, 0019, 0027): English questions read in the law's words.

Each batch was written from the corpus alone; these tests hold what a batch may contain, and that its rows load.
"""
from __future__ import annotations

import json

import pytest

from retrieval.models import GlossaryEntry
from retrieval.search.glossary import forget_glossary, rewrite_query
from tests.conftest import ROOT, words_the_corpus_lacks

BATCHES = sorted((ROOT / "retrieval" / "migrations" / "data").glob("english_legal_*.json"))
# A modal or a question word decides what is asked, not what it is about; an everyday word with another legal sense
# ("fine", "register") misreads more questions than it reads.
_NEVER = {"can", "may", "must", "shall", "should", "what", "who", "when", "how", "which", "fine", "register", "issue",
          "change"}


def _batches() -> dict[str, dict[str, str]]:
    return {path.name: json.loads(path.read_text(encoding="utf-8")) for path in BATCHES}


def test_no_batch_repeats_a_phrase_and_none_is_a_modal_or_an_ambiguous_word():
    seen: set[str] = set()
    for name, rows in _batches().items():
        assert rows, name
        for phrase, expansion in rows.items():
            assert phrase == phrase.lower() and phrase.strip() == phrase, (name, phrase)
            assert phrase not in _NEVER, (name, phrase)
            assert 1 <= len(expansion.split()) <= 8, (name, phrase)
        assert not set(rows) & seen, (name, sorted(set(rows) & seen)[:5])
        seen |= set(rows)


def test_the_latest_batch_says_only_what_the_corpus_says():
    missing = words_the_corpus_lacks(_batches()["english_legal_0027.json"].values())
    assert not missing, missing[:20]


@pytest.mark.django_db
def test_the_latest_batch_loads_and_reads_an_english_question_in_the_laws_words():
    forget_glossary()
    rows = _batches()["english_legal_0027.json"]
    loaded = set(GlossaryEntry.objects.filter(phrase__in=list(rows), kind="english").values_list("phrase", flat=True))
    assert loaded == set(rows)
    lexical = set(rewrite_query("What is the heavy equipment tax rate for an excavator?").lexical.split())
    assert {"pajak", "alat", "berat"} <= lexical
