"""An appendix's numbered table (header line, column numbers, one numbered row a line) is a lead-in and its list:
a figure asked for one row's case opens with that row; a list asked quotes the rows under their header."""
import uuid

from dataclasses import replace

from answering.extractive.candidates import candidates
from answering.extractive.question import read_question
from answering.extractive.synthesis import KEEP_MARGIN, select, synthesise
from answering.extractive.units import passage_units
from answering.types import Passage

# Keputusan Gubernur Aceh Nomor 500.15.14.1/1489/2025, Lampiran (../shared/corpus/txt), as its chunk stores it.
TABLE = ("DAFTAR UPAH MINIMUM SEKTORAL PROVINSI ACEH TAHUN 2026\n\n"
         "NO SEKTOR KODE KBLI UPAH MINIMUM SEKTORAL PROVINSI TAHUN 2026 SKALA USAHA\n1 2 3 4 5\n"
         "1 Perkebunan Buah Kelapa Sawit 01262 3.987.940 Menengah, Besar\n"
         "2 Industri Minyak Kelapa Sawit 10431 3.987.940 Menengah, Besar\n"
         "3 Pertambangan Batu Bara 05100 4.061.791 Menengah, Besar\n"
         "4 Pertambangan Emas dan Perak 07301 4.061.791 Menengah, Besar\n"
         "5 Pertambangan Gas Alam 06201 4.061.791 Menengah, Besar\n\nGUBERNUR ACEH,\nTtd.\nMUZAKIR MANAF")


DECREE = uuid.uuid4()
# The same decree's Diktum KEEMPAT: which sectors the table covers, with no amount.
SECTORS = ("KEEMPAT : UMSP Aceh Tahun 2026 berlaku bagi pekerja/buruh lajang sektor Perkebunan Buah Kelapa Sawit, "
           "Industri Minyak Kelapa Sawit, Pertambangan Batu Bara, Pertambangan Emas dan Perak dan Pertambangan Gas Alam "
           "di Aceh dengan masa kerja kurang dari 1 (satu) tahun.")


def _passage(text: str, reference: str = "Lampiran") -> Passage:
    return Passage(uuid.uuid4(), DECREE, "Keputusan Gubernur Aceh Nomor 500.15.14.1/1489/2025 tentang Penetapan "
                   "Upah Minimum Sektoral Provinsi Aceh Tahun 2026", reference, (reference,), "lampiran", text, 1.0, {},
                   "search")


def test_a_numbered_table_is_its_header_and_its_rows():
    [unit] = passage_units(TABLE)
    assert unit.kind == "table" and unit.omitted == 0
    assert unit.text.startswith("NO SEKTOR KODE KBLI UPAH MINIMUM SEKTORAL PROVINSI TAHUN 2026 SKALA USAHA: 1 ")
    assert [item.split()[0] for item in unit.items] == ["1", "2", "3", "4", "5"]
    assert unit.items[2] == "3 Pertambangan Batu Bara 05100 4.061.791 Menengah, Besar"


def test_numbered_lines_without_a_header_stay_prose_and_a_gap_in_the_numbers_ends_the_table():
    assert [u.kind for u in passage_units("1 Perkebunan Buah Kelapa Sawit 01262 3.987.940 Menengah, Besar\n"
                                          "2 Industri Minyak Kelapa Sawit 10431 3.987.940 Menengah, Besar")] == ["sentence"]
    [table, *rest] = passage_units("No NOMOR SKPA Keterangan\n1 01/Renja-Disdik/2025 Dinas Pendidikan Aceh\n"
                                   "2 02/Renja-Dinkes/2025 Dinas Kesehatan Aceh\n"
                                   "7 Anggaran ini dilaksanakan oleh setiap SKPA sesuai dengan ketentuan.")
    assert len(table.items) == 2 and [u.kind for u in rest] == ["sentence"]
    # A line that merely starts with "No." is prose unless row 1 follows it.
    assert [u.text for u in passage_units("No. 5 Tahun 2020 tentang Retribusi Daerah tetap berlaku.\n"
                                          "2 orang anggota dipilih oleh rapat paripurna.")] == [
        "No. 5 Tahun 2020 tentang Retribusi Daerah tetap berlaku. 2 orang anggota dipilih oleh rapat paripurna."]


def test_a_figure_asked_opens_with_a_row_and_quotes_the_rows_under_their_header():
    # The row the question's words name leads ("pertambangan batu bara"); among rows named alike, the bundled e5
    # chooses (opener.by_meaning).
    passage = _passage(TABLE)
    draft = synthesise("Berapa upah minimum sektoral 2026 untuk pertambangan batu bara?", [passage])
    assert not draft.no_answer
    # The row opens as its label and its amount, not as printed ("3 Pertambangan … 05100 4.061.791 Menengah, Besar").
    assert draft.claims[0].text == "Pertambangan Batu Bara: 4.061.791."
    quoted = [c.text for c in draft.claims[1:]]
    assert quoted[0].startswith("NO SEKTOR KODE KBLI") and any(t.startswith("3 Pertambangan Batu Bara") for t in quoted)
    assert not any("MUZAKIR" in t for t in quoted)


def test_a_figure_the_best_unit_lacks_comes_from_the_same_decrees_table():
    # "UMSP" is the diktum's word, not the table's: the bundled model ranks the diktum (no amount) far above the
    # decree's appendix table, outside the keep margin. The table, another passage of the same document, still
    # joins the answer, where before the answer was declined for want of a figure.
    glossary = {"UMSP": "upah minimum sektoral provinsi"}         # the glossary's reading: a wage, so an amount
    read = read_question("Berapa UMSP Aceh 2026 untuk pertambangan emas?",
                         expansions=lambda text: {k: v for k, v in glossary.items() if k in text})
    units = candidates(read, [_passage(SECTORS, "Diktum KEEMPAT"), _passage(TABLE)], None)
    far = 1.0 + KEEP_MARGIN
    ranked = sorted((replace(u, score=far if u.text.startswith("KEEMPAT") else 0.0) for u in units),
                    key=lambda u: -u.score)
    chosen = [unit for unit, _ in select(read, ranked)]
    assert {unit.kind for unit in chosen} == {"sentence", "table"}
    assert read.focus.satisfied_by(" ".join(unit.text for unit in chosen))
    # A unit of another document is never taken so.
    other = replace(ranked[-1], passage=replace(ranked[-1].passage, document_id=uuid.uuid4()))
    assert [unit.kind for unit, _ in select(read, [*ranked[:-1], other])] == ["sentence"]


def test_the_row_the_first_ask_names_in_the_laws_words_leads():
    # "coal" is "batu bara" in the glossary: that row leads, whatever the model says of the rows (the tests' hashing
    # vectors keep reading order). A second ask's words name no row: the first ask's "oil palm" row still leads.
    glossary = {"coal": "batubara batu bara", "palm oil": "kelapa sawit"}
    expansions = lambda text: {k: v for k, v in glossary.items() if k in text.lower()}   # noqa: E731
    draft = synthesise("What is the 2026 sectoral minimum wage in Aceh for coal mining?", [_passage(TABLE)],
                       expansions=expansions)
    assert draft.claims[0].text == "Pertambangan Batu Bara: 4.061.791."
    draft = synthesise("What is Aceh's 2026 sectoral minimum wage for palm oil processing, and is it the same for coal "
                       "mining?", [_passage(TABLE)], expansions=expansions)
    assert draft.claims[0].text.endswith("Kelapa Sawit: 3.987.940.")
