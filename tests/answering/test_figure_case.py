"""A figure opens the answer only for the case asked: a list of amounts for other cases is quoted, not read as the
answer (answering/extractive/opener.py ``_case_items``), nor does a worked example (synthesis.py)."""
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
    # The amounts are set for primary and junior secondary pupils only: the dayah student's figure is not there,
    # so the answer declines rather than quote the others' (answering/extractive/opener.figures_for_other_cases).
    draft = synthesise("santri dayah dapet bantuan biaya pendidikan brp?", [AMOUNTS])
    assert draft.no_answer and not draft.claims and "case asked" in draft.unmet
    assert not synthesise("anak yatim SMP dapet bantuan biaya pendidikan brp?", [AMOUNTS]).no_answer
    # An English question's words are never an Indonesian item's: it is not declined for naming no item's case.
    assert "case asked" not in synthesise("How much education aid does a student get?", [AMOUNTS]).unmet


def test_the_case_an_item_names_opens_with_its_figure():
    assert "Rp1.800.000,00" in _opening("anak yatim SMP dapet bantuan biaya pendidikan brp?")
    assert "Rp1.000.000,00" in _opening("Berapa bantuan biaya pendidikan untuk jenjang madrasah ibtidaiyah?")


EXAMPLE = passage("Misalnya uang pesangon yang seharusnya diterima pekerja/buruh adalah Rp 10.000.000,00 (sepuluh juta "
                  "rupiah) dan besarnya jaminan pensiun adalah Rp 6.000.000,00.", kind="explanation",
                  reference="Penjelasan Peraturan Contoh Nomor 7 Tahun 2024 Pasal 167")
SEVERANCE = passage("(2) Uang pesangon bagi pekerja/buruh yang mengalami pemutusan hubungan kerja paling sedikit "
                    "sebesar Rp 5.000.000,00 (lima juta rupiah).")


def test_a_worked_example_does_not_answer_unless_an_example_is_asked():
    # The Penjelasan's example illustrates the rule with made-up figures: alone, it is not the answer.
    alone = synthesise("Berapa uang pesangon yang diterima pekerja?", [EXAMPLE])
    assert "Rp 10.000.000" not in " ".join(c.text for c in alone.claims)
    # Beside it, the article states the figure.
    draft = synthesise("Berapa uang pesangon pekerja yang mengalami pemutusan hubungan kerja?", [EXAMPLE, SEVERANCE])
    assert "Rp 5.000.000,00" in draft.claims[0].text
    asked = synthesise("Ada contoh perhitungan uang pesangon pekerja?", [EXAMPLE])
    assert not asked.no_answer and "Rp 10.000.000" in " ".join(c.text for c in asked.claims)
