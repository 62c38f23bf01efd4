"""A question about the time after a date is answered only by a text stating a later date (answering.extractive.dates)."""
from __future__ import annotations

import datetime
import uuid

import pytest

from answering.extractive.dates import asked_after, in_force_after, unmet_after
from answering.extractive.synthesis import synthesise
from answering.types import Passage

TITLE = "Keputusan Gubernur Contoh Nomor 300.2/77/2025 tentang Perpanjangan Status Siaga Banjir"


def decree(text: str) -> Passage:
    return Passage(uuid.uuid4(), uuid.uuid4(), TITLE, f"{TITLE} Diktum KESATU", ("KESATU",), "body", text, 1.0, {},
                   origin="search")


ENDS_ON_IT = decree("KESATU : Memperpanjang Status Siaga Banjir di Kabupaten Contoh selama 14 (empat belas) hari sejak "
                    "tanggal 26 Desember 2025 sampai dengan 8 Januari 2026 dan dapat diperpanjang sesuai kebutuhan.")
GOES_PAST = decree("KESATU : Memperpanjang Status Siaga Banjir di Kabupaten Contoh selama 14 (empat belas) hari sejak "
                   "tanggal 9 Januari 2026 sampai dengan 22 Januari 2026.")
QUESTION = "Status siaga banjir di Kabupaten Contoh diperpanjang lagi gak setelah 8 Januari 2026? sampe kapan?"


@pytest.mark.parametrize("question,asked", [
    (QUESTION, (datetime.date(2026, 1, 8), "setelah 8 Januari 2026")),
    ("Is the waiver still in force after 1 May 2026?", (datetime.date(2026, 5, 1), "after 1 May 2026")),
    ("Apakah berlaku sesudah tanggal 30 Nopember 2025?", (datetime.date(2025, 11, 30), "sesudah tanggal 30 Nopember 2025")),
    ("Berlaku sampai 8 Januari 2026?", None),            # no "after": nothing asked past the date
    ("Apa yang berlaku setelah 31 Februari 2026?", None),  # no such day
])
def test_the_date_a_question_asks_past_is_read_with_its_words(question, asked):
    assert asked_after(question) == asked


def test_a_period_ending_on_the_date_asked_does_not_say_what_comes_after():
    assert unmet_after(QUESTION, ENDS_ON_IT.text) == "setelah 8 Januari 2026"
    assert unmet_after(QUESTION, GOES_PAST.text) is None
    assert unmet_after(QUESTION, "Status dapat diperpanjang sesuai kebutuhan.") is None   # no date stated: no verdict


def test_a_question_about_after_the_period_is_declined_from_the_period_and_answered_from_its_extension():
    declined = synthesise(QUESTION, [ENDS_ON_IT])
    assert declined.no_answer and "year setelah 8 Januari 2026" in declined.unmet
    assert declined.pointer and declined.pointer.endswith("tetapi tidak untuk setelah 8 Januari 2026.")
    answered = synthesise(QUESTION, [GOES_PAST])
    assert not answered.no_answer and "22 Januari 2026" in " ".join(c.text for c in answered.claims)
    # The next extension among the passages read: the date is not what declines the answer.
    both = synthesise(QUESTION, [ENDS_ON_IT, GOES_PAST])
    assert not any(u.startswith("year setelah") for u in both.unmet)


WAIVER_TITLE = "Peraturan Gubernur Contoh Nomor 9 Tahun 2025 tentang Pembebasan Pajak atas Kendaraan Bermotor"
WAIVER = Passage(uuid.uuid4(), uuid.uuid4(), WAIVER_TITLE, f"{WAIVER_TITLE} Pasal 5", ("Pasal 5",), "body",
                 "Pasal 5 Pembebasan Pajak atas Kendaraan Bermotor berdasarkan Peraturan Gubernur ini berlaku sampai "
                 "dengan 30 April 2026.", 1.0, {}, origin="search")


@pytest.mark.parametrize("question,holds", [
    ("Apakah pembebasan pajak kendaraan bermotor masih berlaku setelah 1 Januari 2026?", True),
    ("Apakah pembebasan pajak kendaraan bermotor masih berlaku setelah 1 Mei 2026?", False),
    ("Pembebasan pajak kendaraan bermotor berlaku sampai kapan?", None),      # no date asked past
])
def test_until_when_a_text_holds_answers_whether_it_holds_after_a_date(question, holds):
    assert in_force_after(question, WAIVER.text) is holds


@pytest.mark.parametrize("question,opens", [
    ("Apakah pembebasan pajak kendaraan bermotor masih berlaku setelah 1 Januari 2026?", "Ya. "),
    ("Apakah pembebasan pajak kendaraan bermotor masih berlaku setelah 1 Mei 2026?", "Tidak. "),
    ("Is the motor vehicle tax waiver (pembebasan pajak kendaraan bermotor) still in force after 1 May 2026?", "No. "),
])
def test_still_in_force_after_a_date_is_answered_yes_or_no_from_until_when_it_holds(question, opens):
    draft = synthesise(question, [WAIVER])
    # The date's day ("1") is part of the date asked past, not a number the passage must state; the clause saying
    # until when the waiver holds states its status.
    assert not draft.no_answer, draft.unmet
    assert draft.claims[0].text.startswith(opens) and "30 April 2026" in draft.claims[0].text


def test_an_english_question_gets_its_pointer_in_english():
    declined = synthesise("Was the Status Siaga Banjir of Kabupaten Contoh extended (diperpanjang) again after "
                          "8 January 2026?", [ENDS_ON_IT])
    assert declined.no_answer
    assert declined.pointer == f"The available documents cover this in {TITLE}, but not for after 8 January 2026."
