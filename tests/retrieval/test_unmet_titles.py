"""An instrument named by type and subject ("qanun pelindungan hak perempuan") is met only by a document that can
be it: of that type, or whose title says one of the subject's words (retrieval/search/titles.py)."""
from __future__ import annotations

import pytest

from retrieval.search.glossary import forget_glossary
from retrieval.search.titles import unmet_titles

pytestmark = pytest.mark.django_db

KIP = "Undang-Undang Nomor 14 Tahun 2008 tentang Keterbukaan Informasi Publik"
WOMEN = "Qanun Aceh Nomor 4 Tahun 2025 tentang Pelindungan Hak Perempuan"
UMP = "Keputusan Gubernur Aceh Nomor 500.15.14.1/1488/2025 tentang Penetapan Upah Minimum Provinsi Aceh Tahun 2026"


@pytest.fixture(autouse=True)
def glossary():
    forget_glossary()


def test_a_document_of_another_type_and_subject_does_not_meet_the_named_instrument():
    question = "Hak perempuan apa saja yang diatur dalam qanun pelindungan hak perempuan?"
    assert unmet_titles(question, [KIP]) == ("qanun pelindungan hak perempuan",)
    assert unmet_titles(question, [KIP, WOMEN]) == ()


def test_the_type_or_one_subject_word_meets_it():
    # The type alone: "the qanun that regulates it" names no subject a title must carry.
    assert unmet_titles("Apa yang dimaksud dengan Pusat Distribusi Aceh menurut qanun yang mengaturnya?",
                        ["Qanun Aceh Nomor 3 Tahun 2025 tentang Pusat Distribusi Aceh"]) == ()
    # Another type whose title says the subject (a decree called a regulation), through the glossary's wording.
    assert unmet_titles("Berapa UMP Aceh menurut pergub UMP?", [UMP]) == ()
    assert unmet_titles("Berapa UMP Aceh menurut pergub pertanahan?", [UMP]) == ("pergub pertanahan",)


def test_only_the_source_the_answer_is_to_come_from_must_be_met():
    # The qanun is what the question is about, not where the answer is to come from.
    assert unmet_titles("Revisi qanun wali nanggroe masuk prolega prioritas DPRA 2025?", [KIP]) == ()
    # A lone short word names no instrument ("qanun zakat" could be several).
    assert unmet_titles("Berapa nisab menurut qanun zakat?", [KIP]) == ()


def test_a_question_naming_no_instrument_by_subject_has_nothing_to_meet():
    assert unmet_titles("Berapa UMP Aceh tahun 2026?", [KIP]) == ()
    assert unmet_titles("Siapa yang menandatangani Qanun Aceh Nomor 4 Tahun 2025?", [KIP]) == ()
