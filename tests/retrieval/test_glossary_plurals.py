"""An English glossary entry reads its plural too: "terms" is "term" (masa jabatan) unless the glossary has its own
entry for the plural (retrieval/search/glossary.py ``english_plurals``)."""
from __future__ import annotations

import pytest

from retrieval.models import GlossaryEntry
from retrieval.search.glossary import english_plurals, forget_glossary, glossary_expansions, rewrite_query


@pytest.mark.parametrize(("phrase", "plural"), [
    ("term", "terms"), ("tax", "taxes"), ("public body", "public bodies"), ("holiday", "holidays"),
    ("village head", "village heads"), ("branch", "branches"), ("court of appeal", "courts of appeal"),
    ("child", "children"),
])
def test_the_plural_of_a_phrases_last_word(phrase, plural):
    assert english_plurals(phrase) == (plural,)


@pytest.mark.parametrize("phrase", ["laws", "women", "data"])
def test_no_plural_for_a_phrase_already_plural(phrase):
    assert english_plurals(phrase) == ()


def _entry(phrase: str, expansion: str) -> None:
    GlossaryEntry.objects.update_or_create(phrase=phrase, defaults={"kind": "english", "expansion": expansion})


@pytest.mark.django_db
def test_an_english_question_reads_a_plural_in_the_laws_words():
    _entry("tenure", "masa jabatan")
    GlossaryEntry.objects.filter(phrase="tenures").delete()
    forget_glossary()
    assert "masa jabatan" in rewrite_query("Can a village head serve three tenures?").lexical
    assert glossary_expansions("How many tenures can a village head serve?")["tenures"] == "masa jabatan"


@pytest.mark.django_db
def test_a_plurals_own_entry_wins_and_indonesian_text_is_left_alone():
    _entry("tenure", "masa jabatan")
    _entry("tenures", "periode jabatan")
    forget_glossary()
    assert "periode jabatan" in rewrite_query("How many tenures can a village head serve?").lexical
    assert rewrite_query("berapa tenures kepala desa").lexical == "berapa tenures kepala desa"
