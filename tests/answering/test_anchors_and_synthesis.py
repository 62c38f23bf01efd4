"""Named-regulation parsing, SSE deltas and the extractive synthesiser."""
import uuid

import pytest

from answering.extractive.anchors import asks_for_signatory, find_article, find_named_regulation
from answering.sse import answer_deltas
from answering.extractive.synthesis import synthesise
from answering.extractive.units import passage_units


def split_sentences(text: str) -> list[str]:
    return [unit.text for unit in passage_units(text)]
from answering.types import Passage


@pytest.mark.parametrize(
    "question,prefixes,number,year",
    [
        ("Apa isi Qanun Aceh Nomor 6 Tahun 2014?", ("Qanun Aceh",), "6", 2014),
        ("jelaskan qanun 6/2014", ("Qanun",), "6", 2014),
        ("Siapa yang menandatangani Pergub Aceh No. 60 Tahun 2013.", ("Peraturan Gubernur Aceh",), "60", 2013),
        ("Apa isi Peraturan Gubernur Aceh Nomor 12A Tahun 2020?", ("Peraturan Gubernur Aceh",), "12A", 2020),
        ("pasal 7 UU 11/2006 mengatur apa", ("Undang-Undang",), "11", 2006),
    ],
)
def test_named_regulations_are_recognised(question, prefixes, number, year):
    named = find_named_regulation(question)
    assert (named.type_prefixes, named.number, named.year) == (prefixes, number, year)


def test_no_named_regulation_in_an_ordinary_question():
    assert find_named_regulation("berapa anggaran pendidikan tahun 2024?") is None


def test_article_locators():
    assert find_article("Apa isi Pasal 12A ayat (2) Qanun 6/2014?").__dict__ == {"pasal": "12A", "ayat": "2", "angka": None}
    assert find_article("pasal 8") .pasal == "8"
    assert asks_for_signatory("Siapa yang menandatangani qanun ini?")
    assert not asks_for_signatory("Apa isi qanun ini?")


@pytest.mark.parametrize("answer", ["Satu dua tiga empat lima enam tujuh delapan.", "😀 emoji 𝒜 teks panjang sekali di sini ya", "x"])
def test_deltas_concatenate_exactly(answer):
    deltas = answer_deltas(answer)
    assert "".join(deltas) == answer and all(deltas)


def test_units_keep_table_rows_whole_and_drop_headings():
    text = "Pasal 8\n(1) Ringkasan anggaran disajikan dalam tabel berikut.\nKode | Uraian | Jumlah\n5.1 | Belanja Pegawai | 2.874.319.506.750\n(2) Tabel diumumkan di laman resmi pemerintah."
    assert split_sentences(text) == [
        "(1) Ringkasan anggaran disajikan dalam tabel berikut.",
        "5.1 | Belanja Pegawai | 2.874.319.506.750",
        "(2) Tabel diumumkan di laman resmi pemerintah.",
    ]


def test_a_circular_letters_lettered_part_heading_is_not_glued_to_its_first_sentence():
    text = ("C. Ruang Lingkup\nSurat Edaran ini berlaku bagi setiap laboratorium kalibrasi.\n"
            "D. Isi Edaran\nSertifikat kalibrasi berlaku paling lama dua tahun sejak pengujian.")
    assert [u.text for u in passage_units(text)] == [
        "Surat Edaran ini berlaku bagi setiap laboratorium kalibrasi.",
        "Sertifikat kalibrasi berlaku paling lama dua tahun sejak pengujian.",
    ]


def test_a_chapter_heading_a_pdf_ran_into_its_first_sentence_is_not_quoted():
    # UU 27/2022's OCR'd text: "BAB XIII LARANGAN …" (read "I,ARANGAN") and the next article's words on one line.
    text = ("BAB XIII I,ARANGAN DALAM PENGGUNAAN DATA PRIBADI Data Pribadi dilakukan melalui arbitrase atau pengadilan.\n"
            "BAB II ASAS DAN TUJUAN Pasal 2 Undang-Undang ini berlaku untuk Setiap Orang dan Badan Publik.")
    assert [u.text for u in passage_units(text)] == [
        "Data Pribadi dilakukan melalui arbitrase atau pengadilan.",
        "Pasal 2 Undang-Undang ini berlaku untuk Setiap Orang dan Badan Publik.",
    ]
    # A sentence that starts by naming chapters is prose.
    assert [u.text for u in passage_units("BAB II dan BAB III Qanun ini dicabut dan dinyatakan tidak berlaku.")] == [
        "BAB II dan BAB III Qanun ini dicabut dan dinyatakan tidak berlaku."]


def _passage(text: str, origin: str = "search") -> Passage:
    chunk_id = uuid.uuid4()
    return Passage(chunk_id, uuid.uuid4(), "Qanun Contoh", "Qanun Aceh Nomor 91 Tahun 2024 Pasal 8", ("Pasal 8",), "body",
                   text, 1.0, {}, origin)


def test_figure_questions_prefer_the_sentence_with_the_figure():
    passage = _passage("Belanja pegawai diatur tersendiri oleh gubernur.\n5.1 | Belanja Pegawai | 2.874.319.506.750")
    draft = synthesise("berapa belanja pegawai?", [passage])
    assert draft.claims[0].text == "5.1 | Belanja Pegawai | 2.874.319.506.750" or any("2.874" in c.text for c in draft.claims)
    assert all(c.citation_keys == (passage.label,) for c in draft.claims)


def test_nothing_relevant_gives_no_answer():
    draft = synthesise("berapa harga tiket pesawat ke Jakarta?", [_passage("Zakat dikelola Baitul Mal.")])
    assert draft.no_answer and not draft.claims


def test_an_english_yes_no_question_is_answered_yes_or_no_in_english():
    passage = _passage("PPID must announce the budget summary within 14 days.")
    draft = synthesise("Must the PPID announce the budget summary?", [passage])
    assert draft.language == "en" and draft.claims[0].text == "Yes. PPID must announce the budget summary within 14 days."
    assert draft.claims[0].citation_keys == (passage.label,)


def test_a_lead_in_keeps_its_list_and_orphan_items_are_not_quoted():
    passage = _passage(
        "c. penyiapan sarana dan prasarana pengelola dana abadi.\n"          # an orphan: its lead-in is elsewhere
        "(1) Pembentukan Dana Abadi Pendidikan dilakukan dengan tahapan:\n\na. persiapan;\nb. penilaian; dan\nc. penetapan.")
    draft = synthesise("Apa saja tahapan pembentukan Dana Abadi Pendidikan?", [passage])
    quoted = [(claim.layout, claim.text) for claim in draft.claims[1:]]
    assert quoted == [("paragraph", "(1) Pembentukan Dana Abadi Pendidikan dilakukan dengan tahapan:"),
                      ("list_item", "a. persiapan;"), ("list_item", "b. penilaian; dan"), ("list_item", "c. penetapan.")]
    # The opener says the list in one sentence; the regulation's text follows, item by item.
    assert draft.claims[0].text == "Pembentukan Dana Abadi Pendidikan dilakukan dengan tahapan: persiapan, penilaian, dan penetapan."
    assert draft.claims[1].heading == passage.legal_reference


def test_a_lead_in_without_its_list_is_not_quoted():
    assert split_sentences("(1) Pedoman NPAP terdiri atas:\n\nPasal 10\nHDAP ditetapkan sesuai ketentuan peraturan perundang-undangan.") == [
        "HDAP ditetapkan sesuai ketentuan peraturan perundang-undangan."]


def test_the_legal_basis_is_quoted_only_when_asked_for():
    preamble = Passage(uuid.uuid4(), uuid.uuid4(), "Peraturan Gubernur Aceh Nomor 25 Tahun 2025", None, (), "preamble",
                       "Mengingat : 1. Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh (Lembaran Negara "
                       "Republik Indonesia Tahun 2006 Nomor 62);\n2. Qanun Aceh Nomor 4 Tahun 2024 tentang Pajak Aceh "
                       "dan Retribusi Aceh (Lembaran Aceh Tahun 2024 Nomor 4);", 1.0, {}, "search")
    body = _passage("Pembebasan Pajak atas Kendaraan Bermotor berdasarkan Peraturan Gubernur ini berlaku sampai dengan 30 April 2026.")
    answer = synthesise("Pembebasan pajak kendaraan bermotor Aceh berlaku sampai kapan?", [preamble, body])
    assert answer.claims and not any("Lembaran" in c.text or "Mengingat" in c.text for c in answer.claims)
    assert "30 April 2026" in answer.claims[0].text
    basis = synthesise("Apa dasar hukum pembebasan pajak kendaraan bermotor Aceh?", [preamble, body])
    assert any("Qanun Aceh Nomor 4 Tahun 2024" in c.text for c in basis.claims)


def test_a_definition_question_answers_with_the_definition():
    passage = _passage("Dalam Peraturan Gubernur ini yang dimaksud dengan:\n1. Pajak Aceh adalah kontribusi wajib kepada Aceh.\n"
                       "2. Pajak Kendaraan Bermotor yang selanjutnya disingkat PKB adalah pajak atas kepemilikan dan/atau "
                       "penguasaan kendaraan bermotor.\n3. Gubernur adalah Kepala Pemerintahan Aceh.")
    draft = synthesise("Apa yang dimaksud dengan Pajak Kendaraan Bermotor?", [passage])
    assert [c.text for c in draft.claims] == [
        "Pajak Kendaraan Bermotor yang selanjutnya disingkat PKB adalah pajak atas kepemilikan dan/atau penguasaan "
        "kendaraan bermotor."]
    assert draft.framing == "" and draft.claims[0].citation_keys == (passage.label,)


def test_kapan_ditetapkan_answers_with_the_enactment_date_not_transitional_provisions():
    body = _passage("Pada saat Qanun ini mulai berlaku, permohonan yang sedang diproses tetap diselesaikan berdasarkan "
                    "ketentuan lama paling lama 6 (enam) bulan.")
    closing = Passage(uuid.uuid4(), uuid.uuid4(), "Qanun Contoh", "Qanun Aceh Nomor 91 Tahun 2024 Penutup", (), "closing",
                      "Ditetapkan di Banda Aceh\npada tanggal 12 Juni 2024\nGUBERNUR ACEH,\nttd\nAMIRUDDIN YUSUF", 1.0, {}, "closing")
    draft = synthesise("Kapan qanun ini ditetapkan?", [body, closing])
    assert draft.claims and all("12 Juni 2024" in c.text for c in draft.claims)


def test_a_parts_heading_with_its_title_is_layout_not_a_quotable_unit():
    text = ("Bagian Ketiga Penyelesaian Pengaduan oleh Penyelenggara\n(1) Penyelenggara wajib memeriksa pengaduan dari "
            "masyarakat.\nBagian keuntungan dibagi rata kepada seluruh anggota menurut ketentuan ini.")
    assert split_sentences(text) == ["(1) Penyelenggara wajib memeriksa pengaduan dari masyarakat.",
                                     "Bagian keuntungan dibagi rata kepada seluruh anggota menurut ketentuan ini."]
