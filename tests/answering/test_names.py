"""A name the question asks about (two capitalised words or more) must be said by the cited documents."""
from __future__ import annotations

import pytest

from answering.extractive.names import names, printed_name, unmet_names
from tests.answering.test_answerability import ask, assert_declined, assert_published
from tests.factories import make_document

TERM = ("(2) Sebelum terpilihnya Walikota dan Wakil Walikota definitif, Penjabat Walikota diangkat dan dilantik oleh "
        "Menteri Dalam Negeri dengan masa jabatan paling lama 1 (satu) tahun.")


def test_names_are_runs_of_capitalised_words_inside_the_question_places_left_to_the_place_check():
    assert names("Berapa lama masa jabatan Wali Nanggroe?") == ["Wali Nanggroe"]
    assert names("Kapan dan di mana Pekan Kebudayaan Aceh berikutnya?") == ["Pekan Kebudayaan Aceh"]
    assert names("Berapa UMK Kota Banda Aceh tahun 2026?") == []                 # a place: places.py
    assert names("Wali Nanggroe dipilih oleh siapa?") == []                      # opening the question
    assert unmet_names("masa jabatan Wali Nanggroe?", TERM) == ["Wali Nanggroe"]
    assert unmet_names("masa jabatan Penjabat Walikota?", TERM) == []


def test_a_signatory_printed_in_capitals_is_named_in_the_readers_case_initials_kept():
    assert printed_name("SAFRIZAL ZA") == "Safrizal ZA"          # Pergub Aceh 5/2025: initials, not a word
    assert printed_name("MUZAKIR MANAF") == "Muzakir Manaf"
    assert printed_name("SOEKARNO") == "Soekarno"
    assert printed_name("IR. H. JOKO S.H.") == "Ir. H. Joko S.H."


@pytest.mark.django_db
def test_a_term_of_office_for_another_office_does_not_answer_the_one_named(api_client):
    make_document(title="Undang-Undang Nomor 8 Tahun 2007 tentang Pembentukan Kota Subulussalam di Provinsi Nanggroe "
                        "Aceh Darussalam", chunks=[TERM])
    assert_declined(ask(api_client, "Berapa lama masa jabatan Wali Nanggroe?"))
    assert_published(ask(api_client, "Berapa lama masa jabatan Penjabat Walikota?"), "paling lama 1")
