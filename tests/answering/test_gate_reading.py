"""What the gate's term check reads (answering/extractive/answerability.py): every sentence that asks, and a
wording the glossary gives as a phrase, not as scattered words."""
from __future__ import annotations

from answering.extractive.answerability import assess
from answering.text import carries_phrase, stem_sequence
from answering.types import Claim
from tests.answering.test_embedded_opener import passage

AMOUNTS = passage("Bantuan Biaya Pendidikan untuk jenjang Sekolah Menengah Pertama diberikan paling tinggi sebesar "
                  "Rp1.800.000,00 per orang per tahun.")


def _assess(question: str, expansions=None):
    return assess(question, (Claim(AMOUNTS.text, (AMOUNTS.label,)),), [AMOUNTS], expansions=expansions)


def _unmet(question: str) -> tuple[str, ...]:
    return _assess(question).unmet


def test_a_second_ask_goes_on_with_the_first_asks_terms():
    # "… brp?" alone asks nothing the passage could miss; with the first ask, the vendor, levy and market are wanted.
    assert _unmet("Pedagang kaki lima bayar retribusi pasar gak? brp?")
    assert not _unmet("Bantuan biaya pendidikan jenjang SMP? brp?")


def test_a_wording_is_met_as_a_phrase_not_as_scattered_words():
    assert carries_phrase(stem_sequence("pendidikan tinggi"), stem_sequence("jenjang pendidikan formal tinggi"))
    assert not carries_phrase(stem_sequence("pendidikan tinggi"),
                              stem_sequence("biaya pendidikan diberikan paling banyak dan paling tinggi"))
    assert carries_phrase(stem_sequence("perjanjian kerja waktu tertentu"),
                          stem_sequence("perjanjian kerja untuk waktu tertentu"))
    # "kuliah" stands for "pendidikan tinggi": the amounts for junior secondary school say "pendidikan" and "paling
    # tinggi" apart, which does not meet it.
    glossary = {"kuliah": "pendidikan tinggi | perguruan tinggi"}
    missing = _assess("Kuliah dapat bantuan biaya berapa?", lambda text: glossary if "uliah" in text else {}).missing
    assert "kuliah" in missing
    said = {"kuliah": "pendidikan tinggi | jenjang sekolah menengah"}      # a wording the passage says as written
    assert "kuliah" not in _assess("Kuliah dapat bantuan biaya berapa?", lambda text: said).missing
