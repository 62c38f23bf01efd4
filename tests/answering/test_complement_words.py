"""A word a passage names only as its complement ("Penerimaan Negara Bukan Pajak", "non-Muslim") is not the word a
question asks: the unit ranker does not count it as carried (answering/text.py ``complement_stems``)."""
from __future__ import annotations

from answering.extractive.candidates import candidates
from answering.extractive.question import read_question
from answering.text import complement_stems
from tests.answering.test_embedded_opener import passage


def test_a_word_named_only_as_a_complement():
    assert complement_stems("Wajib Bayar Penerimaan Negara Bukan Pajak dikenakan denda.") == {"pajak"}
    assert complement_stems("pelaku yang beragama bukan Islam; pegawai non-PNS") >= {"islam", "pns"}


def test_a_word_also_named_outright_is_no_complement():
    assert complement_stems("pajak daerah dan Penerimaan Negara Bukan Pajak") == set()
    assert complement_stems("Setiap orang wajib membayar pajak.") == set()


NON_TAX = passage("(2) Dalam hal terjadi keterlambatan pembayaran Penerimaan Negara Bukan Pajak yang Terutang, Wajib Bayar "
                  "dikenakan sanksi administrasi berupa denda sebesar 2% (dua persen) per bulan.",
                  title="Peraturan Pemerintah Contoh tentang Penerimaan Negara Bukan Pajak",
                  reference="Peraturan Pemerintah Contoh Nomor 9 Tahun 2009 Pasal 6")
VEHICLE_TAX = passage("(3) Wajib pajak yang terlambat membayar pajak dikenakan sanksi administratif berupa denda "
                      "sebesar 1% (satu persen) per bulan.",
                      title="Peraturan Gubernur Contoh tentang Pajak Kendaraan Bermotor",
                      reference="Peraturan Gubernur Contoh Nomor 4 Tahun 2025 Pasal 9")


def _overlaps(question: str) -> dict[str, float]:
    units = candidates(read_question(question), [NON_TAX, VEHICLE_TAX], None)
    return {"non-tax" if "Bukan Pajak" in c.text else "tax": c.overlap for c in units}


def test_the_unit_naming_the_tax_only_as_its_complement_carries_less_of_the_question():
    # Both fines are for paying late and share "denda" and "bayar"; only the tax's rule carries "pajak".
    overlaps = _overlaps("berapa denda kalau telat bayar pajak?")
    assert overlaps["non-tax"] < overlaps["tax"]


def test_a_question_that_names_the_complement_finds_it_carried():
    overlaps = _overlaps("berapa denda keterlambatan pembayaran penerimaan negara bukan pajak?")
    assert overlaps["non-tax"] > overlaps["tax"]
