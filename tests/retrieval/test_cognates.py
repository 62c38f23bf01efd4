"""An English question's word no glossary row translates is read as the loanword the corpus uses ("conflict":
konflik), by the national rules for forming terms (retrieval/search/cognates.py)."""
from __future__ import annotations

import pytest

from kernel.principal import Principal
from retrieval.search import chunk_search
from retrieval.search.cognates import cognate_forms
from retrieval.search.colloquial import forget_present_words
from retrieval.search.glossary import forget_glossary, glossary_expansions, rewrite_query
from tests.factories import make_document

ADMIN = Principal(subject="admin", role="admin", verified=True)


@pytest.mark.parametrize(("english", "indonesian"), [
    ("conflict", "konflik"), ("regulation", "regulasi"), ("constitution", "konstitusi"), ("commission", "komisi"),
    ("university", "universitas"), ("quality", "kualitas"), ("structure", "struktur"), ("technology", "teknologi"),
    ("effective", "efektif"), ("public", "publik"), ("procedure", "prosedur"), ("tolerance", "toleransi"),
    ("consequence", "konsekuensi"), ("organization", "organisasi"), ("autonomy", "otonomi"), ("practical", "praktis"),
    ("executive", "eksekutif"), ("philosophy", "filosofi"), ("accountant", "akuntan"), ("conflicts", "konflik"),
    ("aspects", "aspek"), ("automatically", "otomatis"),
])
def test_the_loanword_spelling_is_among_the_forms(english, indonesian):
    assert indonesian in cognate_forms(english)


@pytest.mark.parametrize("word", ["case", "data", "regional", "Aceh2", "pay"])
def test_short_unchanged_or_odd_words_have_no_form(word):
    assert cognate_forms(word) == ()


@pytest.fixture(autouse=True)
def fresh_caches():
    forget_glossary()
    forget_present_words()
    yield
    forget_glossary()
    forget_present_words()


@pytest.mark.django_db
def test_an_english_question_finds_the_passage_that_uses_the_loanword():
    wanted = make_document(title="Qanun Perdamaian", chunks=[
        "Konflik adalah pertentangan antara dua pihak atau lebih yang mengganggu ketertiban masyarakat."])
    make_document(title="Qanun Lain", chunks=["Pertentangan batas wilayah diselesaikan oleh gubernur."])
    question = "What does the qanun mean by 'conflict'?"
    assert "konflik" in rewrite_query(question).lexical.split()
    assert glossary_expansions(question)["conflict"] == "konflik"
    outcome = chunk_search(question, mode="lexical", top_k=3, principal=ADMIN)
    assert outcome.hits and outcome.hits[0].chunk.document_id == wanted.id


@pytest.mark.django_db
def test_a_spelling_the_corpus_never_uses_and_an_indonesian_question_change_nothing():
    make_document(title="Qanun Perdamaian", chunks=["Konflik adalah pertentangan antara dua pihak atau lebih."])
    # "tolerance" would be "toleransi", which no passage says: the English word stays.
    assert rewrite_query("What is the tolerance for conflict?").lexical.split() == ["tolerance", "konflik"]
    assert "tolerance" not in glossary_expansions("What is the tolerance for conflict?")
    # An Indonesian question is read as written.
    assert rewrite_query("apa itu conflict menurut qanun").lexical == "apa itu conflict menurut qanun"
    assert glossary_expansions("apa itu conflict menurut qanun") == {}
