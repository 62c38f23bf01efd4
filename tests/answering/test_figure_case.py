"""A figure opens the answer only for the case asked: a list of amounts for other cases is quoted, not read as the
answer (answering/extractive/opener.py ``_case_items``)."""
from __future__ import annotations

from answering.extractive.synthesis import synthesise
from tests.answering.test_embedded_opener import passage

AMOUNTS = passage("(1) Bantuan Biaya Pendidikan diberikan paling banyak sebesar:\n"
                  "a. untuk jenjang Sekolah Dasar/Madrasah Ibtidaiyah Rp1.000.000,00 per orang per tahun;\n"
                  "b. untuk jenjang Sekolah Menengah Pertama/Madrasah Tsanawiyah Rp1.800.000,00 per orang per tahun.",
                  title="Peraturan Gubernur Contoh tentang Bantuan Biaya Pendidikan kepada Anak Yatim")


def _opening(question: str) -> str:
    return synthesise(question, [AMOUNTS]).claims[0].text


def test_a_case_no_item_names_gets_no_other_cases_figure():
    opening = _opening("santri dayah dapet bantuan biaya pendidikan brp?")
    assert "Rp1.800.000" not in opening and "Rp1.000.000" not in opening


def test_the_case_an_item_names_opens_with_its_figure():
    assert "Rp1.800.000,00" in _opening("anak yatim SMP dapet bantuan biaya pendidikan brp?")
    assert "Rp1.000.000,00" in _opening("Berapa bantuan biaya pendidikan untuk jenjang madrasah ibtidaiyah?")
