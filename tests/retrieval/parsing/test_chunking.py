"""Legal structure, chunk boundaries and references of parse_document."""
from __future__ import annotations

import re


from retrieval.parsing import ExtractedText, extract_bytes, parse_document


QANUN = """QANUN ACEH
NOMOR 1 TAHUN 2024
TENTANG
TRANSPARANSI ANGGARAN

BISMILLAHIRRAHMANIRRAHIM

DENGAN NAMA ALLAH YANG MAHA PENGASIH LAGI MAHA PENYAYANG

ATAS RAHMAT ALLAH YANG MAHA KUASA

GUBERNUR ACEH,

Menimbang : a. bahwa pengelolaan keuangan Aceh harus dilaksanakan secara tertib, efisien, ekonomis, efektif, transparan, dan bertanggung jawab dengan memperhatikan asas keadilan dan kepatutan;
b. bahwa masyarakat berhak mengetahui rencana, pelaksanaan, dan pertanggungjawaban Anggaran Pendapatan dan Belanja Aceh sebagai wujud keterbukaan informasi publik;
c. bahwa berdasarkan pertimbangan sebagaimana dimaksud dalam huruf a dan huruf b, perlu membentuk Qanun Aceh tentang Transparansi Anggaran;

Mengingat : 1. Pasal 18 ayat (6) Undang-Undang Dasar Negara Republik Indonesia Tahun 1945;
2. Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh (Lembaran Negara Republik Indonesia Tahun 2006 Nomor 62, Tambahan Lembaran Negara Republik Indonesia Nomor 4633);
3. Undang-Undang Nomor 14 Tahun 2008 tentang Keterbukaan Informasi Publik (Lembaran Negara Republik Indonesia Tahun 2008 Nomor 61, Tambahan Lembaran Negara Republik Indonesia Nomor 4846);

Dengan Persetujuan Bersama
DEWAN PERWAKILAN RAKYAT ACEH
dan
GUBERNUR ACEH

MEMUTUSKAN:

Menetapkan : QANUN ACEH TENTANG TRANSPARANSI ANGGARAN.

BAB I
KETENTUAN UMUM

Pasal 1
Dalam Qanun ini yang dimaksud dengan:
1. Aceh adalah daerah provinsi yang merupakan kesatuan masyarakat hukum yang bersifat istimewa dan diberi kewenangan khusus untuk mengatur dan mengurus sendiri urusan pemerintahan.
2. Pemerintah Aceh adalah unsur penyelenggara pemerintahan Aceh yang terdiri atas Gubernur dan perangkat Aceh.
3. Gubernur adalah Kepala Pemerintah Aceh yang dipilih melalui suatu proses demokratis.
4. Anggaran Pendapatan dan Belanja Aceh yang selanjutnya disingkat APBA adalah rencana keuangan tahunan Pemerintahan Aceh yang ditetapkan dengan Qanun Aceh.
5. Satuan Kerja Perangkat Aceh yang selanjutnya disingkat SKPA adalah perangkat Pemerintah Aceh selaku pengguna anggaran.

BAB II
ASAS DAN TUJUAN

Pasal 2
Transparansi anggaran dilaksanakan berdasarkan asas:
a. keterbukaan;
b. akuntabilitas; dan
c. partisipasi.

Pasal 3
Transparansi anggaran bertujuan menjamin hak masyarakat untuk mengetahui rencana dan realisasi APBA.

BAB III
HAK DAN KEWAJIBAN

Bagian Kesatu
Hak Masyarakat

Pasal 4
(1) Setiap orang berhak memperoleh informasi mengenai rencana, pelaksanaan, dan pertanggungjawaban APBA.
(2) Hak sebagaimana dimaksud pada ayat (1) dilaksanakan sesuai dengan ketentuan peraturan perundang-undangan di bidang keterbukaan informasi publik.

Bagian Kedua
Kewajiban Pemerintah Aceh

Paragraf 1
Publikasi

Pasal 8
(1) Pemerintah Aceh wajib mempublikasikan ringkasan APBA, perubahan APBA, dan pertanggungjawaban pelaksanaan APBA melalui laman resmi Pemerintah Aceh, papan pengumuman di setiap SKPA, dan media massa cetak maupun elektronik yang mudah diakses oleh masyarakat paling lambat 30 (tiga puluh) hari setelah ditetapkan, termasuk rincian belanja per urusan dan per program.
(2) Publikasi sebagaimana dimaksud pada ayat (1) paling sedikit memuat pendapatan, belanja, dan pembiayaan Aceh.
(3) Informasi dalam publikasi sebagaimana dimaksud pada ayat (2) disajikan dalam bahasa Indonesia yang mudah dipahami.
(4) Ketentuan lebih lanjut mengenai tata cara publikasi sebagaimana dimaksud pada ayat (1), ayat (2), dan ayat (3) diatur dengan Peraturan Gubernur yang ditetapkan paling lambat 6 (enam) bulan sejak Qanun ini diundangkan, setelah berkonsultasi dengan Dewan Perwakilan Rakyat Aceh dan Komisi Informasi Aceh serta memperhatikan masukan masyarakat sipil.

Pasal 12A
(1) Informasi anggaran sebagaimana dimaksud dalam Pasal 8 wajib diperbarui setiap triwulan oleh SKPA yang membidangi pengelolaan keuangan Aceh.
(2) Pembaruan informasi sebagaimana dimaksud pada ayat (1) dilaporkan kepada Gubernur sebagaimana dimaksud dalam
Pasal 8
ayat (2) paling lambat tanggal 10 bulan berikutnya.

BAB IV
KETENTUAN PENUTUP

Pasal 13
Qanun ini mulai berlaku pada tanggal diundangkan.

Agar setiap orang mengetahuinya, memerintahkan pengundangan Qanun ini dengan penempatannya dalam Lembaran Aceh.

Ditetapkan di Banda Aceh
pada tanggal 25 Juli 2024
19 Muharram 1446

GUBERNUR ACEH,

ttd

MUZAKIR MANAF

Diundangkan di Banda Aceh
pada tanggal 26 Juli 2024
20 Muharram 1446

SEKRETARIS DAERAH ACEH,

ttd

M. NASIR

LEMBARAN ACEH TAHUN 2024 NOMOR 1

PENJELASAN
ATAS
QANUN ACEH
NOMOR 1 TAHUN 2024
TENTANG
TRANSPARANSI ANGGARAN

I. UMUM
Transparansi anggaran merupakan prasyarat tata kelola pemerintahan yang baik. Dengan keterbukaan informasi anggaran, masyarakat Aceh dapat ikut mengawasi penggunaan dana publik sehingga penyimpangan dapat dicegah sejak dini. Qanun ini mengatur hak masyarakat dan kewajiban Pemerintah Aceh dalam mempublikasikan informasi anggaran.

II. PASAL DEMI PASAL
Pasal 1
Cukup jelas.
Pasal 2
Cukup jelas.
Pasal 3
Cukup jelas.
Pasal 4
Cukup jelas.
Pasal 8
Ayat (1)
Yang dimaksud dengan "laman resmi" adalah situs web yang dikelola oleh Pemerintah Aceh dengan nama domain acehprov.go.id atau subdomainnya, yang dapat diakses publik tanpa biaya dan tanpa pendaftaran, serta dipelihara secara berkala oleh SKPA yang membidangi komunikasi dan informatika.
Ayat (2)
Cukup jelas.
Ayat (3)
Cukup jelas.
Ayat (4)
Cukup jelas.
Pasal 12A
Cukup jelas.
Pasal 13
Cukup jelas.

TAMBAHAN LEMBARAN ACEH NOMOR 101
"""

CITE = "Qanun Aceh Nomor 1 Tahun 2024"


def _doc(text: str, **kwargs):
    return parse_document(ExtractedText(text=text, page_starts=(0,), format="text"), **kwargs)


def _assert_offsets(text: str, doc) -> None:
    prev = 0
    for i, chunk in enumerate(doc.chunks):
        assert chunk.ordinal == i
        assert text[chunk.char_start:chunk.char_end] == chunk.text
        assert chunk.char_start >= prev
        assert not text[prev:chunk.char_start].strip()
        prev = chunk.char_end
    assert not text[prev:].strip()


def _by_ref(doc, ref: str):
    found = [c for c in doc.chunks if c.legal_reference == ref]
    assert found, f"no chunk with reference {ref!r}: {[c.legal_reference for c in doc.chunks]}"
    return found[0]


# --------------------------------------------------------------------------- regulation structure


def test_qanun_title_identity_and_offsets():
    doc = _doc(QANUN)
    assert doc.is_regulation
    assert doc.title == "Qanun Aceh Nomor 1 Tahun 2024 tentang Transparansi Anggaran"
    assert doc.identity.signatory == "MUZAKIR MANAF"
    _assert_offsets(QANUN, doc)


def test_bab_bagian_paragraf_pasal_paths():
    doc = _doc(QANUN)
    pasal8 = _by_ref(doc, f"{CITE} Pasal 8")
    assert pasal8.section_path == ("BAB III", "Bagian Kedua", "Paragraf 1", "Pasal 8")
    assert pasal8.kind == "body"
    # the structural headings above an article open that article's chunk
    assert pasal8.text.startswith("Bagian Kedua\nKewajiban Pemerintah Aceh\n\nParagraf 1\nPublikasi\n\nPasal 8\n(1)")
    pasal4 = _by_ref(doc, f"{CITE} Pasal 4")
    assert pasal4.section_path == ("BAB III", "Bagian Kesatu", "Pasal 4")
    assert pasal4.text.startswith("BAB III\nHAK DAN KEWAJIBAN\n\nBagian Kesatu\nHak Masyarakat\n\nPasal 4")
    pasal1 = _by_ref(doc, f"{CITE} Pasal 1")
    assert pasal1.section_path == ("BAB I", "Pasal 1")


def test_pasal_with_letter_suffix():
    doc = _doc(QANUN)
    chunk = _by_ref(doc, f"{CITE} Pasal 12A")
    assert chunk.section_path == ("BAB III", "Bagian Kedua", "Paragraf 1", "Pasal 12A")
    assert chunk.text.startswith("Pasal 12A\n(1) Informasi anggaran")


def test_a_zero_a_text_layer_read_as_the_letter_o_is_a_zero():
    # UU 27/2022's text layer prints "Pasal 7O" for Pasal 70: a question about Pasal 70 must find it.
    doc = _doc(QANUN.replace("Pasal 13\nQanun ini mulai", "Pasal 7O\nQanun ini mulai"))
    chunk = _by_ref(doc, f"{CITE} Pasal 70")
    assert chunk.section_path == ("BAB IV", "Pasal 70")
    assert _by_ref(doc, f"{CITE} Pasal 12A").section_path[-1] == "Pasal 12A"     # a real letter stays


def test_a_first_article_read_as_a_roman_one_is_pasal_1():
    # UU 27/2022's and Pergub Aceh 5/2025's text layers print "BAB I KETENTUAN UMUM Pasal I Dalam ... yang dimaksud
    # dengan:": the definitions article is Pasal 1, not an amending regulation's Pasal I.
    doc = _doc(QANUN.replace("\nPasal 1\n", "\nPasal I\n", 1))
    assert _by_ref(doc, f"{CITE} Pasal 1").section_path == ("BAB I", "Pasal 1")
    assert not [c for c in doc.chunks if "Pasal I" in c.section_path]


def test_a_chapter_title_wrapped_onto_a_lampiran_line_is_no_attachment():
    # Pergub Aceh 5/2025: "BAB III / PENGHITUNGAN … YANG BELUM TERCANTUM DALAM / LAMPIRAN PERATURAN MENTERI DALAM
    # NEGERI / Pasal 5": the third line ends the chapter's title; Pasal 5 and what follows are the body.
    doc = _doc(QANUN.replace("BAB II\nASAS DAN TUJUAN\n",
                             "BAB II\nASAS DAN TUJUAN YANG TERCANTUM DALAM\nLAMPIRAN PERATURAN MENTERI DALAM NEGERI\n", 1))
    assert _by_ref(doc, f"{CITE} Pasal 2-3").section_path == ("BAB II", "Pasal 2")
    assert not [c for c in doc.chunks if c.kind == "lampiran"]
    assert any(c.section_path == ("BAB IV", "Pasal 13") for c in doc.chunks)


def test_pasal_reference_mid_sentence_is_not_a_heading():
    doc = _doc(QANUN)
    chunk = _by_ref(doc, f"{CITE} Pasal 12A")
    # both the inline reference and the wrapped one ("... dalam\nPasal 8\nayat (2) ...") stay inside Pasal 12A
    assert "sebagaimana dimaksud dalam Pasal 8 wajib" in chunk.text
    assert "sebagaimana dimaksud dalam\nPasal 8\nayat (2) paling lambat" in chunk.text
    body_paths = [c.section_path for c in doc.chunks if c.kind == "body"]
    assert body_paths.count(("BAB III", "Bagian Kedua", "Paragraf 1", "Pasal 8")) == 1


def test_small_neighbouring_pasal_merge_with_range_reference():
    doc = _doc(QANUN)
    merged = _by_ref(doc, f"{CITE} Pasal 2-3")
    assert merged.section_path == ("BAB II", "Pasal 2")  # the first article's path
    assert "Pasal 2\n" in merged.text and "Pasal 3\n" in merged.text
    # no merge across BAB boundaries: Pasal 13 (BAB IV) stays alone although it is tiny
    alone = _by_ref(doc, f"{CITE} Pasal 13")
    assert alone.section_path == ("BAB IV", "Pasal 13") and len(alone.text) < 200
    # min_chars=0 disables merging
    refs = [c.legal_reference for c in _doc(QANUN, min_chars=0).chunks]
    assert f"{CITE} Pasal 2" in refs and f"{CITE} Pasal 3" in refs


def test_preamble_chunks():
    doc = _doc(QANUN)
    preamble = [c for c in doc.chunks if c.kind == "preamble"]
    assert preamble and preamble[0].ordinal == 0
    assert preamble[0].section_path[0] == "Pembukaan"
    joined = "\n".join(c.text for c in preamble)
    assert "Menimbang" in joined and "Mengingat" in joined and "Menetapkan : QANUN ACEH" in joined
    assert not any("Menimbang" in c.text for c in doc.chunks if c.kind != "preamble")
    assert all(c.legal_reference.startswith(CITE) for c in preamble)
    small = _doc(QANUN, max_chars=400, min_chars=50)
    menimbang = [c for c in small.chunks if c.section_path == ("Pembukaan", "Menimbang")]
    assert [c.legal_reference for c in menimbang] == [f"{CITE} Menimbang huruf a-b", f"{CITE} Menimbang huruf c"]


def test_closing_block_is_its_own_chunk():
    doc = _doc(QANUN)
    closing = [c for c in doc.chunks if c.kind == "closing"]
    first = closing[0]
    assert first.section_path == ("Penutup",)
    assert first.legal_reference == f"{CITE} Penutup"
    assert first.text.startswith("Agar setiap orang mengetahuinya")
    assert "Ditetapkan di Banda Aceh" in first.text and "MUZAKIR MANAF" in first.text
    assert first.text.endswith("LEMBARAN ACEH TAHUN 2024 NOMOR 1")
    pasal13 = _by_ref(doc, f"{CITE} Pasal 13")
    assert "Agar setiap orang" not in pasal13.text and "Ditetapkan" not in pasal13.text
    # the closing line after the Penjelasan is a closing chunk too
    assert closing[-1].text == "TAMBAHAN LEMBARAN ACEH NOMOR 101"


def test_penjelasan_paths_and_references():
    doc = _doc(QANUN, min_chars=0)
    umum = [c for c in doc.chunks if c.section_path == ("Penjelasan", "Umum")]
    assert len(umum) == 1 and umum[0].kind == "penjelasan"
    assert umum[0].legal_reference == f"Penjelasan Umum {CITE}"
    assert umum[0].text.startswith("PENJELASAN\nATAS\nQANUN ACEH") and "I. UMUM" in umum[0].text
    p8 = [c for c in doc.chunks if c.section_path == ("Penjelasan", "Pasal 8")]
    assert len(p8) == 1 and p8[0].legal_reference == f"Penjelasan {CITE} Pasal 8"
    assert p8[0].text.startswith("Pasal 8\nAyat (1)\nYang dimaksud dengan \"laman resmi\"")
    assert [c.section_path for c in doc.chunks if c.kind == "penjelasan"][-1] == ("Penjelasan", "Pasal 13")
    # default sizes merge the "Cukup jelas." entries into one range chunk
    merged = _doc(QANUN)
    assert f"Penjelasan {CITE} Pasal 1-13" in [c.legal_reference for c in merged.chunks]


def test_long_pasal_splits_at_ayat_boundaries_with_ranges():
    doc = _doc(QANUN, max_chars=450, min_chars=80)
    _assert_offsets(QANUN, doc)
    pieces = [c for c in doc.chunks if c.section_path[-1] == "Pasal 8" and c.kind == "body"]
    assert [c.legal_reference for c in pieces] == [
        f"{CITE} Pasal 8 ayat (1)",
        f"{CITE} Pasal 8 ayat (2)-(3)",
        f"{CITE} Pasal 8 ayat (4)",
    ]
    assert pieces[1].text.startswith("(2) Publikasi") and pieces[1].text.endswith("mudah dipahami.")
    assert pieces[0].text.startswith("Bagian Kedua") and pieces[0].text.endswith("per program.")
    assert pieces[2].text.startswith("(4) Ketentuan lebih lanjut")
    assert all(len(c.text) <= 450 for c in doc.chunks)
    # a first ayat that does not fit with its headings is cut inside, at a sentence or word boundary
    tight = [c for c in _doc(QANUN, max_chars=400, min_chars=80).chunks if c.section_path[-1] == "Pasal 8"]
    assert [c.legal_reference for c in tight][0] == f"{CITE} Pasal 8 ayat (1)"
    assert tight[1].legal_reference == f"{CITE} Pasal 8 ayat (1)-(3)"


def test_definition_article_splits_at_items_with_angka_reference():
    doc = _doc(QANUN, max_chars=400, min_chars=80)
    pieces = [c for c in doc.chunks if c.section_path == ("BAB I", "Pasal 1")]
    assert len(pieces) >= 2
    for piece in pieces:
        numbers = re.findall(r"(?m)^(\d+)\. ", piece.text)
        ref = piece.legal_reference
        assert ref.startswith(f"{CITE} Pasal 1 angka ")
        expected = numbers[0] if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"
        assert ref.endswith(f"angka {expected}")


def test_long_sentence_without_structure_never_splits_mid_word():
    body = " ".join(f"kata{i}" for i in range(400)) + "."
    text = f"QANUN ACEH\nNOMOR 2 TAHUN 2024\nTENTANG\nUJI\n\nPasal 1\n{body}\n\nPasal 2\nCukup.\n"
    doc = _doc(text, max_chars=300, min_chars=50)
    _assert_offsets(text, doc)
    for c in doc.chunks:
        assert len(c.text) <= 300
        assert c.char_start == 0 or text[c.char_start - 1].isspace()
        assert c.char_end == len(text) or text[c.char_end].isspace()


def test_single_unbreakable_word_is_the_only_oversized_chunk():
    word = "x" * 700
    text = f"QANUN ACEH\nNOMOR 3 TAHUN 2024\nTENTANG\nUJI\n\nPasal 1\nAwal kalimat {word} akhir kalimat.\n"
    doc = _doc(text, max_chars=300, min_chars=20)
    _assert_offsets(text, doc)
    oversized = [c for c in doc.chunks if len(c.text) > 300]
    assert [c.text for c in oversized] == [word]


# --------------------------------------------------------------------------- amendments

AMENDMENT = """GUBERNUR ACEH

PERATURAN GUBERNUR ACEH
NOMOR 16 TAHUN 2025

TENTANG

PERUBAHAN ATAS PERATURAN GUBERNUR ACEH NOMOR 23 TAHUN 2024
TENTANG BUDAYA KERJA APARATUR SIPIL NEGARA

DENGAN RAHMAT ALLAH YANG MAHA KUASA

GUBERNUR ACEH,

Menimbang : bahwa untuk meningkatkan kualitas pelaksanaan reformasi birokrasi perlu menetapkan Peraturan Gubernur tentang Perubahan atas Peraturan Gubernur Aceh Nomor 23 Tahun 2024;

Mengingat : 1. Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh;

MEMUTUSKAN:

Menetapkan : PERATURAN GUBERNUR TENTANG PERUBAHAN ATAS PERATURAN GUBERNUR ACEH NOMOR 23 TAHUN 2024 TENTANG BUDAYA KERJA APARATUR SIPIL NEGARA.

Pasal I

Beberapa ketentuan dalam Peraturan Gubernur Aceh Nomor 23 Tahun 2024 tentang Budaya Kerja Aparatur Sipil Negara (Berita Aceh Tahun 2024 Nomor 23) diubah sebagai berikut:

1. Ketentuan Pasal 5 diubah sehingga berbunyi sebagai berikut:

"Pasal 5
(1) Budaya kerja aparatur sipil negara di lingkungan Pemerintah Aceh dilaksanakan melalui nilai dasar berorientasi pelayanan, akuntabel, kompeten, harmonis, loyal, adaptif, dan kolaboratif.
(2) Nilai dasar sebagaimana dimaksud pada ayat (1) dijabarkan dalam kode etik dan kode perilaku."

2. Di antara Pasal 7 dan Pasal 8 disisipkan 1 (satu) pasal, yakni Pasal 7A sehingga berbunyi sebagai berikut:

Pasal 7A
Kepala SKPA melaporkan pelaksanaan budaya kerja kepada Gubernur melalui Sekretaris Daerah setiap 6 (enam) bulan sekali, paling lambat pada minggu pertama bulan berikutnya.

Pasal II

Peraturan Gubernur ini mulai berlaku pada tanggal diundangkan.

Agar setiap orang mengetahuinya, memerintahkan pengundangan Peraturan Gubernur ini dengan penempatannya dalam Berita Aceh.

Ditetapkan di Banda Aceh
pada tanggal 2 Juni 2025

GUBERNUR ACEH,

MUZAKIR MANAF
"""


def test_amendment_articles_nest_quoted_pasal():
    doc = _doc(AMENDMENT, min_chars=0)
    _assert_offsets(AMENDMENT, doc)
    cite = "Peraturan Gubernur Aceh Nomor 16 Tahun 2025"
    paths = [c.section_path for c in doc.chunks if c.kind == "body"]
    assert paths == [("Pasal I",), ("Pasal I", "Pasal 5"), ("Pasal I", "Pasal 7A"), ("Pasal II",)]
    p5 = _by_ref(doc, f"{cite} Pasal I (Pasal 5)")
    # the amendment instruction opens the nested article's chunk
    assert p5.text.startswith("1. Ketentuan Pasal 5 diubah sehingga berbunyi sebagai berikut:\n\n\"Pasal 5\n(1)")
    p7a = _by_ref(doc, f"{cite} Pasal I (Pasal 7A)")
    assert p7a.text.startswith("2. Di antara Pasal 7 dan Pasal 8 disisipkan")
    assert _by_ref(doc, f"{cite} Pasal II").text.startswith("Pasal II\n\nPeraturan Gubernur ini mulai berlaku")
    assert not any(c.section_path == ("Pasal 5",) for c in doc.chunks)


def test_amendment_nested_pasal_split_keeps_ayat_reference():
    doc = _doc(AMENDMENT, max_chars=200, min_chars=40)
    _assert_offsets(AMENDMENT, doc)
    refs = [c.legal_reference for c in doc.chunks if c.section_path == ("Pasal I", "Pasal 5")]
    assert "Peraturan Gubernur Aceh Nomor 16 Tahun 2025 Pasal I (Pasal 5 ayat (2))" in refs


def test_roman_article_without_amendment_is_a_plain_article():
    text = "QANUN ACEH\nNOMOR 4 TAHUN 2025\nTENTANG\nUJI\n\nPasal I\nQanun ini mengatur uji coba.\n\nPasal 2\nCukup.\n\nPasal 3\nSelesai.\n"
    doc = _doc(text, min_chars=0)
    # A plain article, no amendment's container; as the first article it is Pasal 1 a text layer read as a roman one.
    assert [c.section_path for c in doc.chunks if c.kind == "body"] == [("Pasal 1",), ("Pasal 2",), ("Pasal 3",)]


# --------------------------------------------------------------------------- dictums

KEPGUB = """GUBERNUR ACEH

KEPUTUSAN GUBERNUR ACEH
NOMOR 100.3.2/1180/2025

TENTANG

PENETAPAN PEDOMAN PELAKSANAAN REPARASI PENYELESAIAN NON YUDISIAL
PELANGGARAN HAK ASASI MANUSIA PADA MASA LALU DI ACEH

GUBERNUR ACEH,

Menimbang : a. bahwa untuk mewujudkan efektivitas dan efisiensi pelaksanaan pemberian reparasi kepada korban perlu ditetapkan pedoman;
b. bahwa berdasarkan pertimbangan sebagaimana dimaksud dalam huruf a, perlu menetapkan Keputusan Gubernur;

Mengingat : 1. Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh;
2. Qanun Aceh Nomor 17 Tahun 2013 tentang Komisi Kebenaran dan Rekonsiliasi Aceh;

MEMUTUSKAN:

Menetapkan :
KESATU : Menetapkan Pedoman Pelaksanaan Reparasi Penyelesaian Non Yudisial Pelanggaran Hak Asasi Manusia pada Masa Lalu di Aceh.

KEDUA : Pedoman sebagaimana dimaksud pada Diktum KESATU tercantum dalam Lampiran yang merupakan bagian tidak terpisahkan dari Keputusan Gubernur ini.

KETIGA : Keputusan Gubernur ini mulai berlaku pada tanggal ditetapkan.

Ditetapkan di Banda Aceh
pada tanggal, 29 September 2025

GUBERNUR ACEH,

MUZAKIR MANAF

LAMPIRAN
KEPUTUSAN GUBERNUR ACEH
NOMOR 100.3.2/1180/2025

A. KETENTUAN UMUM
Dalam pedoman ini yang dimaksud dengan reparasi adalah hak korban atas pemulihan.

B. PELAKSANAAN REPARASI
Reparasi dilaksanakan oleh Badan Reintegrasi Aceh bersama SKPA terkait.
"""


def test_kepgub_dictums_are_articles():
    doc = _doc(KEPGUB, min_chars=0)
    _assert_offsets(KEPGUB, doc)
    cite = "Keputusan Gubernur Aceh Nomor 100.3.2/1180/2025"
    dictums = [c for c in doc.chunks if c.kind == "body"]
    assert [c.section_path for c in dictums] == [("KESATU",), ("KEDUA",), ("KETIGA",)]
    assert [c.legal_reference for c in dictums] == [f"{cite} Diktum KESATU", f"{cite} Diktum KEDUA", f"{cite} Diktum KETIGA"]
    assert dictums[0].text.startswith("KESATU : Menetapkan Pedoman")
    closing = [c for c in doc.chunks if c.kind == "closing"]
    assert len(closing) == 1 and closing[0].text.startswith("Ditetapkan di Banda Aceh")
    lampiran = [c for c in doc.chunks if c.kind == "lampiran"]
    assert [c.section_path for c in lampiran] == [
        ("Lampiran",), ("Lampiran", "A. KETENTUAN UMUM"), ("Lampiran", "B. PELAKSANAAN REPARASI")]
    assert all(c.legal_reference == f"Lampiran {cite}" for c in lampiran)
    # with the default min_chars the small dictums merge into a range
    merged = _doc(KEPGUB)
    assert f"{cite} Diktum KESATU-KETIGA" in [c.legal_reference for c in merged.chunks]


# --------------------------------------------------------------------------- non-regulations

REPORT_MD = """# Laporan Layanan Informasi Publik PPID Aceh Tahun 2024

Laporan ini disusun oleh Pejabat Pengelola Informasi dan Dokumentasi (PPID) Utama Aceh.

## 1. Pendahuluan

Keterbukaan informasi publik merupakan amanat Undang-Undang Nomor 14 Tahun 2008. Sepanjang tahun 2024 PPID Utama menerima 412 permohonan informasi.

## 2. Rekapitulasi Permohonan

### 2.1 Permohonan per Saluran

Permohonan diterima melalui loket, surat elektronik, dan laman e-PPID.

### 2.2 Waktu Layanan

Rata-rata waktu layanan adalah 6 hari kerja.

## 3. Penutup

Demikian laporan ini disampaikan. Pasal 8 tidak relevan di sini.
"""


def test_non_regulation_falls_back_to_headings():
    doc = _doc(REPORT_MD, min_chars=0)
    _assert_offsets(REPORT_MD, doc)
    assert not doc.is_regulation
    assert doc.title == "Laporan Layanan Informasi Publik PPID Aceh Tahun 2024"
    assert {c.kind for c in doc.chunks} == {"text"}
    assert all(c.legal_reference is None for c in doc.chunks)
    paths = [c.section_path for c in doc.chunks]
    top = "Laporan Layanan Informasi Publik PPID Aceh Tahun 2024"
    assert paths == [
        (top,),
        (top, "1. Pendahuluan"),
        (top, "2. Rekapitulasi Permohonan", "2.1 Permohonan per Saluran"),
        (top, "2. Rekapitulasi Permohonan", "2.2 Waktu Layanan"),
        (top, "3. Penutup"),
    ]


def test_plain_text_numbered_headings_and_title_hint():
    text = (
        "1. PENDAHULUAN\nDokumen ini menjelaskan standar layanan informasi.\n\n"
        "2. RUANG LINGKUP\nStandar ini berlaku bagi seluruh SKPA.\n\n"
        "2.1 Layanan Daring\nPermohonan dapat diajukan secara daring.\n"
    )
    doc = _doc(text, min_chars=0, title_hint="standar-layanan")
    assert not doc.is_regulation
    assert doc.title == "1. PENDAHULUAN"
    assert [c.section_path for c in doc.chunks] == [
        ("1. PENDAHULUAN",), ("2. RUANG LINGKUP",), ("2. RUANG LINGKUP", "2.1 Layanan Daring")]
    paragraph = "Ini adalah paragraf panjang tanpa judul " * 10
    assert _doc(paragraph.strip(), title_hint="catatan-rapat").title == "catatan-rapat"


# --------------------------------------------------------------------------- tables


def _table_regulation(rows: int = 40) -> tuple[str, str]:
    header = "No | Kabupaten/Kota | Upah Minimum (Rp)"
    lines = [header] + [f"{i} | Kabupaten Contoh Nomor {i} | {3_000_000 + i * 1000:,}".replace(",", ".") for i in range(1, rows + 1)]
    text = (
        "KEPUTUSAN GUBERNUR ACEH\nNOMOR 500.15.14.1/1489/2025\nTENTANG\nPENETAPAN UPAH MINIMUM SEKTORAL\n\n"
        "GUBERNUR ACEH,\n\nMEMUTUSKAN:\n\nMenetapkan :\n"
        "KESATU : Menetapkan upah minimum sektoral kabupaten/kota sebagai berikut:\n"
        + "\n".join(lines)
        + "\n\nKEDUA : Keputusan Gubernur ini mulai berlaku pada tanggal ditetapkan.\n"
    )
    return text, header


def test_table_split_keeps_whole_rows_and_repeats_header():
    text, header = _table_regulation()
    doc = _doc(text, max_chars=300, min_chars=50)
    _assert_offsets(text, doc)
    table_start = text.index(header)
    table_end = text.index("\n\nKEDUA")
    inside = [c for c in doc.chunks if c.char_start < table_end and c.char_end > table_start]
    assert len(inside) >= 5
    for c in inside:
        assert len(c.text) <= 300
        if c.char_end < table_end:
            assert text[c.char_end] == "\n", "a chunk ended mid-row"
        if c.char_start > table_start:
            assert text[c.char_start - 1] == "\n", "a chunk started mid-row"
            assert c.table_header == header
        else:
            assert c.table_header is None
    assert any(header in c.text for c in inside)
    assert all(c.table_header is None for c in doc.chunks if c.char_start >= table_end)


def test_markdown_table_in_text_document():
    rows = "\n".join(f"| {i} | Gampong {i} | {i * 7} |" for i in range(1, 30))
    text = "# Data Gampong\n\n| No | Nama | Jumlah KK |\n|---|---|---|\n" + rows + "\n"
    doc = _doc(text, max_chars=250, min_chars=30)
    _assert_offsets(text, doc)
    continuations = [c for c in doc.chunks if c.table_header is not None]
    assert continuations and all(c.table_header == "| No | Nama | Jumlah KK |" for c in continuations)
    for c in doc.chunks:
        assert c.char_end == len(text) or text[c.char_end] == "\n"


# --------------------------------------------------------------------------- pages


def _three_page_pdf() -> bytes:
    fpdf = __import__("fpdf")
    pdf = fpdf.FPDF()
    pdf.set_font("Helvetica", size=11)
    pages = [
        "PERATURAN GUBERNUR ACEH\nNOMOR 7 TAHUN 2025\nTENTANG\nPERJALANAN DINAS\n\nGUBERNUR ACEH,\n\n"
        "Menimbang : bahwa perjalanan dinas perlu diatur dengan tertib dan akuntabel;\n\nMEMUTUSKAN:\n\n"
        "Menetapkan : PERATURAN GUBERNUR TENTANG PERJALANAN DINAS.",
        "Pasal 1\nPerjalanan dinas dilaksanakan berdasarkan surat tugas yang ditandatangani oleh pejabat yang berwenang.",
        "Pasal 2\nBiaya perjalanan dinas dibebankan pada anggaran SKPA yang bersangkutan sesuai dengan ketentuan.",
    ]
    for body in pages:
        pdf.add_page()
        pdf.multi_cell(0, 6, body)
    return bytes(pdf.output())


def test_page_numbers_from_multi_page_pdf():
    extracted = extract_bytes(_three_page_pdf(), "pergub-7-2025.pdf")
    assert extracted.format == "pdf"
    assert len(extracted.page_starts) == 3 and extracted.page_starts[0] == 0
    assert extracted.text[extracted.page_starts[1]:].startswith("Pasal 1")
    assert extracted.text[extracted.page_starts[2]:].startswith("Pasal 2")
    assert extracted.text[extracted.page_starts[1] - 2:extracted.page_starts[1]] == "\n\n"
    doc = parse_document(extracted, min_chars=0)
    pages = {c.section_path[-1]: c.page_number for c in doc.chunks}
    assert pages["Pasal 1"] == 2 and pages["Pasal 2"] == 3
    assert doc.chunks[0].page_number == 1
    assert doc.identity.citation() == "Peraturan Gubernur Aceh Nomor 7 Tahun 2025"


def test_page_number_is_none_without_page_starts():
    doc = parse_document(ExtractedText(text="Catatan singkat rapat.", page_starts=(), format="text"))
    assert [c.page_number for c in doc.chunks] == [None]


def test_html_regulation_end_to_end():
    html = (
        "<html><body><h1>QANUN ACEH NOMOR 2 TAHUN 2023 TENTANG PENGELOLAAN ZAKAT</h1>"
        "<p>GUBERNUR ACEH,</p><p>Menimbang : a. bahwa zakat wajib dikelola secara amanah;</p>"
        "<h2>BAB I</h2><h2>KETENTUAN UMUM</h2><h3>Pasal 1</h3><p>Dalam Qanun ini yang dimaksud dengan Baitul Mal adalah lembaga.</p>"
        "<h3>Pasal 2</h3><p>(1) Zakat dikelola Baitul Mal.</p><p>(2) Pengelolaan zakat diawasi.</p>"
        "<table><tr><th>Jenis</th><th>Nisab</th></tr><tr><td>Emas</td><td>85 gram</td></tr></table></body></html>"
    )
    extracted = extract_bytes(html.encode("utf-8"), "qanun-2-2023.html")
    doc = parse_document(extracted, min_chars=0)
    _assert_offsets(extracted.text, doc)
    assert doc.title == "Qanun Aceh Nomor 2 Tahun 2023 tentang Pengelolaan Zakat"
    body = [c for c in doc.chunks if c.kind == "body"]
    assert [c.section_path for c in body] == [("BAB I", "Pasal 1"), ("BAB I", "Pasal 2")]
    assert body[1].legal_reference == "Qanun Aceh Nomor 2 Tahun 2023 Pasal 2"
    assert body[1].text.endswith("Jenis | Nisab\nEmas | 85 gram")


CIRCULAR = """SURAT EDARAN KEPALA BADAN CONTOH
NOMOR 12/BC/VI/2021
TENTANG
MASA BERLAKU SERTIFIKAT KALIBRASI

A. Umum
Bahwa sertifikat kalibrasi alat ukur diperlukan agar hasil pengukuran dapat dipercaya.
B. Dasar
1. Undang-Undang Nomor 2 Tahun 1981 tentang Metrologi Legal;
C. Isi Edaran
1. Sertifikat kalibrasi berlaku sejak tanggal pengujian sampai dengan 2 (dua) tahun;
2. Sertifikat yang lebih baru membatalkan sertifikat yang lama.

Ditetapkan di Jakarta
pada tanggal 1 Juni 2021
KEPALA BADAN CONTOH,

NAMA PEJABAT
"""


def test_a_circular_letters_lettered_parts_are_its_body_not_its_preamble():
    # Given a circular letter: no Pasal, no dictum, no Menimbang; lettered parts, then a signature block
    doc = _doc(CIRCULAR, max_chars=400, min_chars=0)
    by_text = {c.text.split("\n")[0]: c for c in doc.chunks}
    # Then each lettered part is body under its own heading, cited by its letter, and the closing is found
    content = next(c for c in doc.chunks if "berlaku sejak tanggal pengujian" in c.text)
    assert (content.kind, content.section_path) == ("body", ("C. Isi Edaran",))
    assert content.legal_reference == "Surat Edaran Kepala Badan Contoh Nomor 12/BC/VI/2021 huruf C"
    assert by_text["A. Umum"].kind == "body" and by_text["Ditetapkan di Jakarta"].kind == "closing"
    assert doc.chunks[0].kind == "preamble" and "A. Umum" not in doc.chunks[0].text     # the title block stays one


# Junk OCR of a rotated appendix table, as Tesseract reads perpres-60-2019's.
JUNK_OCR = "\n".join("s o (d q) o Lq) 0\" U) co oN o co oN 01 C\\ ON r_r) No C.l s C.I N oNoN L o J(dq) L".split() * 3)


def test_junk_ocr_text_is_told_from_lists_tables_and_formulas():
    from retrieval.parsing.chunking import is_junk

    assert is_junk(JUNK_OCR)
    assert not is_junk(PASAL_JUNK_NEIGHBOUR)
    assert not is_junk("DAU Kab/Kota i = Bobot Kab/Kota i x DAU seluruh Kab/Kota. " * 6)
    assert not is_junk("\n".join(f"| {i} | Gampong {i} | {i * 7} |" for i in range(1, 30)))
    assert not is_junk("Fe-52 Mn-52m Fe-60 Co-60m Zn-69m Zn-69 Ge-68 Ga-68 Rb-83 Kr-83m Sr-90 Y-90 " * 3)


PASAL_JUNK_NEIGHBOUR = ("Pasal 3\nPengaturan Desa berasaskan:\na. rekognisi;\nb. subsidiaritas;\nc. keberagaman;\n"
                        "d. kebersamaan;\ne. kegotongroyongan;\nf. kekeluargaan;\ng. musyawarah;\nh. demokrasi;\n"
                        "i. kemandirian;\nj. partisipasi;\nk. kesetaraan;\nl. pemberdayaan; dan\nm. keberlanjutan.")
