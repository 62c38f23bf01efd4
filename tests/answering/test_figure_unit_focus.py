"""A figure question that names its unit ("berapa hari") is answered by that unit's figure, not any number."""
from __future__ import annotations

import uuid

import pytest

from answering.extractive.focus import focus_bonus, question_focus
from answering.extractive.synthesis import synthesise
from answering.types import Passage
from tests.factories import make_document

DAYS = ("PPID wajib memberikan pemberitahuan tertulis atas permohonan informasi publik paling lambat "
        "10 (sepuluh) hari kerja sejak permohonan diterima.")
COUNT = ("Sepanjang tahun 2025 PPID menerima 595 permohonan informasi publik, naik 18,1% dibandingkan "
         "tahun sebelumnya yang berjumlah 504 permohonan.")


def test_the_asked_unit_ranks_its_figure_above_other_numbers():
    focus = question_focus("Berapa hari PPID wajib menjawab permohonan informasi publik?")
    assert focus.kind == "figure" and focus.term_stems == frozenset({"hari"})
    assert focus_bonus(focus, DAYS, closing=False) > focus_bonus(focus, COUNT, closing=False)
    # "berapa lama" asks for a duration in any of its units; a bare "berapa" keeps every number alike.
    assert "tahun" in question_focus("brp lama masa jabatan gubernur?").term_stems
    plain = question_focus("berapa anggota komisi informasi?")
    assert plain.term_stems == frozenset() and focus_bonus(plain, COUNT, closing=False) == focus_bonus(plain, DAYS, closing=False)


def test_a_sum_of_money_asked_is_answered_by_an_amount_not_by_any_number():
    fee = question_focus("berapa tarif retribusi pasar per hari?")
    amount = "Tarif retribusi pelayanan pasar sebesar Rp2.000,00 (dua ribu rupiah) per hari."
    assert fee.kind == "figure" and not fee.satisfied_by(DAYS) and fee.satisfied_by(amount)
    assert focus_bonus(fee, amount, closing=False) > focus_bonus(fee, DAYS, closing=False)
    # A budget table states its sums without "Rp"; an age is asked in years.
    assert question_focus("berapa belanja pegawai?").satisfied_by("5.1 | Belanja Pegawai | 2.874.319.506.750")
    assert question_focus("anak umur brp yang bisa dapat beasiswa?").term_stems == frozenset({"tahun"})


def test_a_numeral_in_an_idiom_states_no_figure():
    # "how big is …" asks for a figure of no named unit: "salah satu solusi" (one of the solutions) is not one.
    focus = question_focus("How big is Aceh's special autonomy fund?")
    assert focus.kind == "figure" and focus.term_stems == frozenset()
    assert not focus.satisfied_by("Respon Pemerintah melahirkan salah satu solusi politik bagi persoalan Aceh.")
    assert not focus.satisfied_by("Aceh merupakan satu kesatuan masyarakat hukum.")
    assert focus.satisfied_by("Besarnya setara dengan 2% plafon Dana Alokasi Umum nasional.")
    assert focus.satisfied_by("Dana itu berlaku untuk satu tahun anggaran.")


@pytest.mark.django_db
def test_the_answer_to_berapa_hari_opens_with_the_days(api_client):
    make_document(title="Laporan Statistik Permohonan Informasi Publik 2025", chunks=[COUNT])
    make_document(title="Peraturan Layanan Informasi Publik", chunks=[DAYS])
    response = api_client.post("/query", data={"query": "Berapa hari PPID wajib menjawab permohonan informasi publik?"},
                               content_type="application/json")
    body = response.json()
    assert response.status_code == 200 and body["fallback_reason"] is None, body
    assert "10 (sepuluh) hari" in body["answer"].split("\n\n")[0] + body["answer"][:400]
    assert body["citations"][0]["document_title"] == "Peraturan Layanan Informasi Publik"


def test_an_english_question_naming_a_sum_of_money_asks_for_an_amount():
    wage = question_focus("What is the provincial minimum wage for plantation workers?")
    scope = "Upah minimum berlaku bagi pekerja dengan masa kerja kurang dari 1 (satu) tahun."
    row = "1 Perkebunan Buah Kelapa Sawit 01262 3.987.940 Menengah, Besar"
    assert wage.kind == "figure" and not wage.satisfied_by(scope) and wage.satisfied_by(row)
    # How long, how many or how old is not a sum, whatever else the question names; an Indonesian "berapa" is read
    # by its own unit word as before (a sectoral wage's table row prints its sum without "Rp": any number will do).
    assert question_focus("How many years is the special autonomy fund paid?").term_stems == frozenset()
    assert question_focus("Upah minimum sektoral sawit berapa?").term_stems == frozenset()


def test_a_quantity_the_question_states_is_not_the_figure_it_asks_for():
    # "baru kerja 6 bulan dapet THR brp rupiah?": a clause repeating "6 bulan" states no sum; "1 bulan upah" does.
    focus = question_focus("Karyawan swasta yang baru kerja 6 bulan dapet THR brp rupiah?")
    assert focus.given == (("6", "bulan"),)
    assert not focus.satisfied_by("Dalam hal jangka waktu 6 (enam) bulan sejak surat peringatan pertama terlampaui")
    assert focus.satisfied_by("THR Keagamaan diberikan sebesar 1 (satu) bulan upah.")
    unit_less = question_focus("Karyawan yang baru kerja 6 bulan dapet THR berapa?")
    assert not unit_less.satisfied_by("Dalam hal jangka waktu 6 (enam) bulan sejak surat peringatan pertama")
    # Asked for days, a clause that repeats the given months but also states days answers.
    leave = question_focus("Berapa hari cuti tahunan setelah bekerja 12 bulan?")
    assert not leave.satisfied_by("setelah bekerja selama 12 (dua belas) bulan secara terus menerus")
    assert leave.satisfied_by("sekurang-kurangnya 12 (dua belas) hari kerja setelah bekerja selama 12 bulan")


def test_an_english_wage_question_opens_with_the_amount_not_with_a_scope_clause_s_number():
    from answering.extractive.synthesis import synthesise
    from tests.answering.test_embedded_opener import passage

    scope = passage("KEEMPAT : Upah minimum sektoral berlaku bagi pekerja/buruh lajang sektor perkebunan kelapa sawit "
                    "dengan masa kerja kurang dari 1 (satu) tahun.")
    table = passage("1 Perkebunan Buah Kelapa Sawit 01262 3.987.940 Menengah, Besar",
                    reference="Lampiran Keputusan Contoh Nomor 7 Tahun 2025")
    draft = synthesise("What is the sectoral minimum wage for oil palm plantation workers?", [scope, table])
    assert not draft.no_answer
    assert "3.987.940" in draft.claims[0].text


def test_an_indonesian_yes_no_question_naming_a_cost_keeps_every_number_alike():
    focus = question_focus("Apakah anak yatim berusia 22 tahun masih bisa menerima bantuan biaya pendidikan?")
    assert focus.term_stems == frozenset()


@pytest.mark.django_db
def test_an_abbreviated_wage_asks_for_an_amount_read_in_the_glossarys_words():
    from answering.extractive.focus import MONEY_ASKED
    from answering.extractive.question import read_question
    from retrieval.facade.language import glossary_expansions
    from retrieval.models import GlossaryEntry

    question = "UMP aceh 2026 brp sih? udh ditetapin blm"
    GlossaryEntry.objects.filter(phrase__iexact="UMP").delete()
    # Without the glossary's reading "UMP" is no money word, and "brp sih" names no unit: any number would do,
    assert read_question(question, expansions=glossary_expansions).focus.term_stems == frozenset()
    # with it the question asks what "upah minimum provinsi" asks: an amount (the cache sees the edit).
    GlossaryEntry.objects.create(phrase="UMP", expansion="upah minimum provinsi", kind=GlossaryEntry.Kind.ABBREVIATION)
    read = read_question(question, expansions=glossary_expansions)
    assert read.focus.kind == "figure" and read.focus.term_stems == frozenset({MONEY_ASKED})
    wage = "Menetapkan Upah Minimum Provinsi (UMP) Aceh Tahun 2026 sebesar Rp3.932.552,00."
    scope = "UMP Aceh Tahun 2026 berlaku bagi pekerja/buruh lajang dengan masa kerja kurang dari 1 (satu) tahun."
    assert read.focus.satisfied_by(wage) and not read.focus.satisfied_by(scope)


def test_the_answer_to_an_abbreviated_wage_opens_with_the_amount_when_the_glossary_is_given():
    import uuid

    from answering.extractive.synthesis import synthesise
    from answering.types import Passage

    decree = Passage(uuid.uuid4(), uuid.uuid4(), "Keputusan Gubernur Contoh tentang Upah Minimum Provinsi Tahun 2026",
                     "Keputusan Gubernur Contoh Diktum KESATU-KEEMPAT", ("Diktum",), "body",
                     "KESATU : UMP Tahun 2026 berlaku bagi pekerja/buruh lajang dengan masa kerja kurang dari 1 (satu) "
                     "tahun.\nKEDUA : Menetapkan Upah Minimum Provinsi (UMP) Tahun 2026 sebesar Rp3.932.552,00.", 1.0, {})
    question = "UMP 2026 brp sih?"
    glossary = {"UMP": "upah minimum provinsi", "brp": "berapa"}
    read = synthesise(question, [decree], expansions=lambda text: {k: v for k, v in glossary.items() if k in text})
    assert not read.no_answer and "Rp3.932.552,00" in read.claims[0].text


def test_a_share_of_another_sum_answers_a_sum_asked_and_a_registration_number_does_not():
    """"berapa batas atas uang persediaan?" is answered by "1/12 (satu per dua belas) dari belanja …": a share of
    another sum is an amount; a decree's registration number before "dari" is not."""
    limit = question_focus("Sebelum APBA ditetapkan, berapa batas atas uang persediaan untuk setiap SKPA?")
    share = "Batas atas jumlah UP untuk setiap SKPA sebesar 1/12 (satu per duabelas) dari belanja barang dan jasa."
    assert limit.kind == "figure" and limit.satisfied_by(share)
    assert limit.satisfied_by("Kuorum rapat paling sedikit sepertiga dari jumlah anggota.")
    assert not limit.satisfied_by("Sesuai Keputusan Gubernur Nomor 500.15.14.1/1488/2025 dari Gubernur Aceh.")
    assert not limit.satisfied_by("UP diberikan untuk menampung kebutuhan mendesak setiap bulan.")
    # A share of what the question asks about is a part of the sum asked, not the sum.
    total = question_focus("Berapa total belanja dalam APBA Tahun Anggaran 2025?")
    assert not total.satisfied_by("Batas atas UP sebesar 1/12 (satu per duabelas) dari belanja barang dan jasa.")
    assert total.satisfied_by("Total belanja sebesar Rp11.000.000.000.000,00.")
    passage = Passage(uuid.uuid4(), uuid.uuid4(), "Peraturan Contoh Nomor 31 Tahun 2025 tentang Uang Persediaan",
                      "Peraturan Contoh Nomor 31 Tahun 2025 Pasal 5", ("Pasal 5",), "body",
                      f"Pasal 5\n(1) {share}\n(2) UP diberikan untuk menampung kebutuhan mendesak setiap bulan.", 1.0, {})
    draft = synthesise("Berapa batas atas uang persediaan untuk setiap SKPA?", [passage])
    assert not draft.no_answer
    assert draft.claims[0].text.startswith("Batas atas jumlah UP untuk setiap SKPA sebesar 1/12")
