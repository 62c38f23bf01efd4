"""A figure asked as a limit is answered by the unit stating a limit of that direction (the signal's weight is
fitted alone: tests/answering/test_unit_ranker.py)."""
from __future__ import annotations

import uuid

import pytest

from answering.extractive.candidates import candidates
from answering.extractive.opener import states_figure
from answering.extractive.quantities import asked_bound, states_bound
from answering.extractive.question import read_question
from answering.extractive.ranker import frozen_ranker
from answering.extractive.synthesis import synthesise
from answering.types import Passage

TITLE = "Peraturan Contoh Nomor 4 Tahun 2024 tentang Dana Kampung"


def passage(text: str, pasal: str) -> Passage:
    return Passage(uuid.uuid4(), uuid.uuid4(), TITLE, f"Peraturan Contoh Nomor 4 Tahun 2024 {pasal}", (pasal,),
                   "body", text, 1.0, {})


@pytest.mark.parametrize("question,bound", [
    ("Paling sedikit berapa persen dana bagi hasil yang diberikan ke kampung?", "lower"),
    ("minimal brp orang anggota panitianya?", "lower"),
    ("Uang lembur maksimal brp jam sehari?", "upper"),
    ("batas waktu ngajuin keberatannya brp lama?", "upper"),
    ("What is the maximum fine for late filing?", "upper"),
    ("How many members must the council have at least?", "lower"),
    ("Batas usia minimal calon kepala kampung berapa tahun?", "lower"),
    ("wajib belajar itu dr umur brp sampe brp sih?", "range"),
    ("From what age to what age is schooling compulsory?", "range"),
    ("Berapa lama cuti melahirkan?", None),               # a length, not a limit
    ("Berapa besar dana kampung tahun ini?", None),
])
def test_the_limit_a_figure_question_asks_for(question, bound):
    assert asked_bound(question) == bound
    read = read_question(question)
    assert read.bound == (bound if read.asks in ("figure", "duration") else None)


def test_a_unit_states_a_limit_of_the_direction_asked():
    assert states_bound("Dana kampung paling sedikit 10% (sepuluh persen) dari dana bagi hasil.", "lower")
    assert states_bound("Batas atas jumlah uang persediaan sebesar 1/12 dari belanja.", "upper")
    assert states_bound("Keberatan diajukan selambat-lambatnya 21 hari kerja.", "upper")
    assert not states_bound("Dana kampung paling sedikit 10% dari dana bagi hasil.", "upper")
    assert not states_bound("Dana dibagi dengan rincian 6,5% merata dan 3,5% insentif.", "lower")
    assert not states_bound("paling sedikit 10%", None)


def test_a_unit_states_a_range_in_digits_or_in_words():
    assert states_bound("Penerima berusia 7 (tujuh) tahun sampai dengan 21 (dua puluh satu) tahun.", "range")
    assert states_bound("Setiap warga yang berusia tujuh sampai dengan lima belas tahun wajib bersekolah.", "range")
    assert not states_bound("Setiap warga yang berusia 6 (enam) tahun dapat bersekolah.", "range")
    assert not states_bound("sebagaimana dimaksud dalam Pasal 5 sampai dengan Pasal 9", "range")


SHARES = passage("(2) Bagian kabupaten sebesar 10% (sepuluh persen) dibagi dengan rincian 6,5% (enam koma lima "
                 "persen) dibagikan secara merata kepada seluruh kampung dan 3,5% (tiga koma lima persen) sebagai "
                 "insentif.", "Pasal 6")
FLOOR = passage("(4) Dana kampung paling sedikit 10% (sepuluh persen) dari dana bagi hasil yang diterima kabupaten "
                "setelah dikurangi belanja pegawai.", "Pasal 72")


def test_a_minimum_asked_is_answered_by_the_unit_stating_a_floor_not_by_a_breakdown_ranked_above_it():
    question = "Minimal berapa persen dana bagi hasil kabupaten wajib diberikan sebagai dana kampung?"
    read = read_question(question)
    found = candidates(read, [SHARES, FLOOR], None)
    floor = next(c for c in found if "paling sedikit" in c.text)
    shares = next(c for c in found if "rincian" in c.text)
    assert floor.features["bound"] == 1.0 and shares.features["bound"] == 0.0
    assert frozen_ranker().weights["bound"] > 0 and floor.score > shares.score
    draft = synthesise(question, [SHARES, FLOOR])
    assert not draft.no_answer and "10%" in draft.claims[0].text and "paling sedikit" in draft.claims[0].text


SIX = passage("(2) Setiap warga kampung yang berusia 6 (enam) tahun dapat mengikuti program wajib belajar.", "Pasal 34")
SPAN = passage("(1) Setiap warga kampung yang berusia tujuh sampai dengan lima belas tahun wajib mengikuti pendidikan "
               "dasar.", "Pasal 6")


def test_a_range_asked_is_answered_by_the_unit_stating_both_ends_even_in_words():
    question = "wajib belajar itu dr umur brp sampe brp sih?"
    found = candidates(read_question(question), [SIX, SPAN], None)
    span = next(c for c in found if "lima belas" in c.text)
    assert span.features["bound"] == 1.0
    draft = synthesise(question, [SIX, SPAN])
    assert not draft.no_answer
    assert "tujuh sampai dengan lima belas tahun" in draft.claims[0].text    # the opener states the range
    assert draft.claims[0].citation_keys == (SPAN.label,)


def test_a_quantity_in_words_is_a_figure_and_for_a_duration_only_a_period():
    how_long = read_question("berapa lama masa jabatan ketua panitia kampung?")
    how_many = read_question("berapa orang anggota panitia kampung?")
    assert how_long.asks == "duration" and how_many.asks == "figure"
    assert states_figure(how_long, "Masa jabatan ketua panitia lima tahun.")
    assert not states_figure(how_long, "Panitia terdiri atas tiga orang.")
    assert states_figure(how_many, "Panitia terdiri atas tiga orang.")
