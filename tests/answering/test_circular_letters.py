"""A circular letter (Surat Edaran) named in a question: by its short form "SE", and by type, issuer and year.

"surat edaran Badan Metrologi 2021" names the circular made in 2021: its year is in the circular's own
number ("Nomor 12/BM/VI/2021"), not in what it is about, and the answer check reads it there.
"""
from __future__ import annotations

import uuid

import pytest

from answering.extractive.answerability import assess
from answering.types import Claim, Passage
from retrieval.search.naming import find_named_regulations
from retrieval.search.titles import instrument_years

RULE = "Sertifikat kalibrasi berlaku sejak tanggal pengujian sampai dengan 2 (dua) tahun."


def circular(number: str) -> Passage:
    return Passage(chunk_id=uuid.uuid4(), document_id=uuid.uuid4(),
                   document_title=f"Surat Edaran Kepala Badan Metrologi Nomor {number} tentang Masa Berlaku Sertifikat",
                   legal_reference=None, section_path=("C. Isi Edaran",), kind="body", text=RULE, score=1.0,
                   citation={})


@pytest.mark.parametrize("question", [
    "Sejak kapan sertifikat kalibrasi berlaku menurut surat edaran Badan Metrologi 2021?",
    "Menurut SE Badan Metrologi tahun 2021, sertifikat kalibrasi berlaku sejak kapan?",
])
def test_the_year_of_a_circular_named_by_type_is_met_by_its_own_number(question):
    made_2021, made_2020 = circular("12/BM/VI/2021"), circular("7/BM/II/2020")
    assert "year 2021" not in assess(question, (Claim(RULE, (made_2021.label,)),), [made_2021]).unmet
    # Another year's circular does not answer it.
    assert "year 2021" in assess(question, (Claim(RULE, (made_2020.label,)),), [made_2020]).unmet


def test_a_year_after_the_subject_is_what_the_instrument_is_about():
    assert instrument_years("surat edaran BAPETEN 2019 soal uji kesesuaian") == {"2019"}
    assert instrument_years("pergub perjalanan dinas tahun 2025 isinya apa") == {"2025"}
    assert instrument_years("pergub tentang UMP 2024") == frozenset()      # about 2024, made in any year
    assert instrument_years("Berapa UMP se-Aceh 2024?") == frozenset()     # "se-" is not a Surat Edaran


def test_an_english_year_before_the_instrument_dates_it():
    """"the 1999 law on …": English puts the year the instrument was made right before it; the law's own
    "Tahun 1999" meets it, another year's law does not, and a year before a subject is no instrument's."""
    question = "What fields does Aceh's special status cover under the 1999 law on its implementation?"
    assert instrument_years(question) == {"1999"}
    assert instrument_years("Under the 2009 law on public services, how long do I have?") == {"2009"}
    assert instrument_years("What is the 2026 minimum wage in Aceh?") == frozenset()
    assert instrument_years("What does the 2026 minimum wage decree set?") == frozenset()   # 2026's wage, made in 2025

    def law(year: int) -> Passage:
        return Passage(chunk_id=uuid.uuid4(), document_id=uuid.uuid4(), legal_reference=None, kind="body",
                       document_title=f"Undang-Undang Nomor 44 Tahun {year} tentang Penyelenggaraan Keistimewaan",
                       section_path=("Pasal 3",), score=1.0, citation={},
                       text="Penyelenggaraan Keistimewaan meliputi kehidupan beragama, adat, dan pendidikan.")

    made_1999, made_2006 = law(1999), law(2006)
    assert "year 1999" not in assess(question, (Claim(made_1999.text, (made_1999.label,)),), [made_1999]).unmet
    assert "year 1999" in assess(question, (Claim(made_2006.text, (made_2006.label,)),), [made_2006]).unmet


@pytest.mark.parametrize("question, number, year", [
    ("SE Gubernur Aceh Nomor 5 Tahun 2020 berlaku untuk siapa?", "5", 2020),
    ("Apa isi Surat Edaran Menteri Dalam Negeri Nomor 3 Tahun 2021?", "3", 2021),
    ("se nomor 12 tahun 2022 isinya apa", "12", 2022),
])
def test_se_and_an_issuer_name_a_surat_edaran(question, number, year):
    [named] = find_named_regulations(question)
    assert (named.type_prefixes, named.number, named.year) == (("Surat Edaran",), number, year)


def test_lower_case_words_between_a_type_and_a_number_are_not_a_name():
    # "UU ini dan PP Nomor 3": the number is the PP's, not the UU's
    assert [(n.type_prefixes, n.number) for n in find_named_regulations("Pasal 5 UU ini dan PP Nomor 3 Tahun 2020")] \
        == [(("Peraturan Pemerintah",), "3")]
