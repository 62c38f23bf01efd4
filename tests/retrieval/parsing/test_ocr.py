"""OCR of scanned PDF pages (retrieval/parsing/ocr.py) on small scans made from text written here
(scripts/make_test_scans.py): a straight page, a page turned 90 degrees, a skewed page with speckle noise,
a PDF that mixes a text-layer page with a scanned one, and a gazette page in two columns."""
from pathlib import Path

import pytest

from retrieval.parsing import ExtractionError, extract_bytes, parse_document
from retrieval.parsing.ocr import OcrOptions, _lines, _two_columns
from retrieval.parsing.ocr_repair import drop_running_lines, repair_structure
from tests.retrieval.ocr_marks import needs_ocr

SCANS = Path(__file__).parent / "scans"


@pytest.fixture(scope="module")
def scan():
    return extract_bytes((SCANS / "scan.pdf").read_bytes(), "scan.pdf", OcrOptions())


def page_of(extracted, needle: str) -> int:
    offset = extracted.text.index(needle)
    return max(number for number, start in enumerate(extracted.page_starts, 1) if start <= offset)


@needs_ocr
def test_a_scan_is_read_page_by_page_turned_and_noisy_pages_included(scan):
    assert scan.extraction == "ocr" and [page for page, _ in scan.ocr_pages] == [1, 2, 3]
    assert all(confidence >= 80 for _, confidence in scan.ocr_pages), scan.ocr_pages
    for needle, page in [("paling lambat 14 (empat belas)", 1), ("Rp2.500 (dua ribu lima ratus rupiah)", 2),
                         ("menjawab pengaduan paling lambat 7 (tujuh) hari kerja", 3)]:
        assert " ".join(scan.text.split()).count(needle) == 1, needle
        assert page_of(scan, needle.split()[0] if page != 3 else "menjawab pengaduan") == page


@needs_ocr
def test_the_legal_structure_survives_ocr(scan):
    parsed = parse_document(scan, max_chars=1500, min_chars=50, title_hint="scan")
    articles = {chunk.section_path[-1]: chunk for chunk in parsed.chunks
                if chunk.section_path and chunk.section_path[-1].startswith("Pasal ")}
    assert {"Pasal 1", "Pasal 2", "Pasal 3", "Pasal 4"} <= set(articles), sorted(articles)
    assert articles["Pasal 3"].section_path == ("BAB II", "Pasal 3")
    assert articles["Pasal 3"].page_number == 2 and articles["Pasal 4"].page_number == 3
    assert parsed.identity.number == "7" and parsed.identity.year == 2024


@needs_ocr
def test_a_mixed_pdf_reads_only_its_scanned_page():
    extracted = extract_bytes((SCANS / "mixed.pdf").read_bytes(), "mixed.pdf", OcrOptions())
    assert extracted.extraction == "mixed"
    assert [page for page, _ in extracted.ocr_pages] == [2]
    assert "Pasal 1" in extracted.text and "Pasal 4" in extracted.text


@needs_ocr
def test_two_columns_are_read_left_then_right():
    extracted = extract_bytes((SCANS / "columns.pdf").read_bytes(), "columns.pdf", OcrOptions())
    text = " ".join(extracted.text.split())
    order = [text.index(needle) for needle in ("RETRIBUSI", "Pasal 5", "setiap bulan.", "Pasal 6",
                                               "tagihan bulan berjalan.", "Pasal 7", "Pasal 8", "Peraturan Bupati.")]
    assert order == sorted(order), text
    parsed = parse_document(extracted, max_chars=1500, min_chars=50, title_hint="columns")
    articles = {chunk.section_path[-1]: " ".join(chunk.text.split()) for chunk in parsed.chunks
                if chunk.section_path and chunk.section_path[-1].startswith("Pasal ")}
    assert sorted(articles) == ["Pasal 5", "Pasal 6", "Pasal 7", "Pasal 8"]
    assert "denda sebesar 2 (dua) persen dari tagihan bulan berjalan" in articles["Pasal 6"]
    assert "kas daerah" not in articles["Pasal 6"] and "kas daerah" in articles["Pasal 7"]


def _render(name: str, index: int = 0):
    import pypdfium2

    document = pypdfium2.PdfDocument((SCANS / name).read_bytes())
    try:
        return document[index].render(scale=150 / 72, grayscale=True).to_pil()
    finally:
        document.close()


def test_a_page_in_two_columns_is_told_from_a_page_in_one():
    assert _two_columns(_render("columns.pdf"))
    assert not _two_columns(_render("scan.pdf", 0)) and not _two_columns(_render("scan.pdf", 2))


def test_hanging_labels_that_tesseract_reads_as_a_column_go_back_to_their_lines():
    # Given Tesseract's word table for "(1) Setiap orang / berhak. / (2) Pemerintah wajib" where the labels
    # came out as a block of their own (block 1), read before the text (block 2)
    words = [("(1)", 1, 1, 100, 100), ("(2)", 1, 2, 100, 200),
             ("Setiap", 2, 1, 160, 100), ("orang", 2, 1, 300, 100), ("berhak.", 2, 2, 160, 150),
             ("Pemerintah", 2, 3, 160, 200), ("wajib", 2, 3, 400, 200)]
    data = {"text": [w[0] for w in words], "conf": [95] * len(words), "block_num": [w[1] for w in words],
            "par_num": [1] * len(words), "line_num": [w[2] for w in words], "left": [w[3] for w in words],
            "top": [w[4] for w in words], "width": [40] * len(words), "height": [30] * len(words)}
    text, confidence = _lines(data)
    assert text == "(1) Setiap orang\nberhak.\n(2) Pemerintah wajib" and confidence == 95


@needs_ocr
def test_a_scan_beyond_the_page_limit_is_refused():
    with pytest.raises(ExtractionError, match="needs OCR on 3 pages, more than the limit of 2"):
        extract_bytes((SCANS / "scan.pdf").read_bytes(), "scan.pdf", OcrOptions(max_pages=2))


def test_without_ocr_a_scan_is_refused_as_before():
    with pytest.raises(ExtractionError, match=r"^PDF has no extractable text layer \(scanned document\?\)$"):
        extract_bytes((SCANS / "scan.pdf").read_bytes(), "scan.pdf")


def test_a_missing_language_model_refuses_with_the_reason():
    with pytest.raises(ExtractionError) as raised:
        extract_bytes((SCANS / "scan.pdf").read_bytes(), "scan.pdf", OcrOptions(languages="ind+xyz"))
    assert str(raised.value).startswith("PDF has no extractable text layer (scanned document?); OCR unavailable:")


def test_ocr_faults_that_break_structure_are_repaired():
    text = "BAB Il\nKETENTUAN\nPasal l\n(l) Setiap kewe-\nnangan daerah\nPasal I\nPasal 1l\nPasal l0A\nBAB 1V\nPasal 5"
    assert repair_structure(text) == ("BAB II\nKETENTUAN\nPasal 1\n(1) Setiap kewenangan daerah\nPasal I\n"
                                      "Pasal 11\nPasal 10A\nBAB IV\nPasal 5")
    assert repair_structure("Sinar-\nX dan BAB 3") == "Sinar-\nX dan BAB 3"  # capital after a hyphen: kept


def test_a_list_item_read_with_a_comma_gets_its_semicolon_back():
    # Debian's ind model has no ";": Tesseract reads the semicolon closing a list item as a comma
    text = ("meliputi:\na. identitas Nasabah,\nb. lokasi usaha, dan\n(2) profil Nasabah, atau\n3. Nasabah.\n"
            "Rp100.000.000,00 (seratus juta\nrupiah), lalu\nbiaya, jasa, dan\nharga")
    listed = "a. modal;\nb. Simpanan, dan\nCc. pinjaman.\nB. Dasar\nC. Ruang Lingkup"
    assert repair_structure(listed) == "a. modal;\nb. Simpanan; dan\nc. pinjaman.\nB. Dasar\nC. Ruang Lingkup"
    assert repair_structure(text) == (
        "meliputi:\na. identitas Nasabah;\nb. lokasi usaha; dan\n(2) profil Nasabah; atau\n"
        "3. Nasabah.\nRp100.000.000,00 (seratus juta\nrupiah), lalu\nbiaya, jasa, dan\nharga")


def test_running_headers_and_page_numbers_are_dropped():
    pages = ["PRESIDEN REPUBLIK INDONESIA\nPasal 1\nisi satu\n- 2 -",
             "PRESIDEN REPUBLIK INDONESIA\nPasal 2\nisi dua\n- 3 -",
             "PRESIDEN REPUBLIK INDONESIA\nPasal 3\nisi tiga\nHalaman 4 dari 9"]
    assert drop_running_lines(pages) == ["Pasal 1\nisi satu", "Pasal 2\nisi dua", "Pasal 3\nisi tiga"]


def test_a_page_number_tesseract_garbled_is_dropped_from_the_page_edge():
    # "- 2 -" read "2:2 YA", "- 3 -" read "«3" (the scanned circular's pages 2 and 3)
    pages = ["2:2 YA\nsegera memastikan kehandalan", "«3\nBadan Pengawas Tenaga Nuklir",
             "(4) Setiap pemohon\nmengisi formulir", "isi halaman lima\nTahun 2019 YA"]
    assert drop_running_lines(pages, [2, 3, 4, 5]) == [
        "segera memastikan kehandalan", "Badan Pengawas Tenaga Nuklir",
        "(4) Setiap pemohon\nmengisi formulir", "isi halaman lima\nTahun 2019 YA"]   # an ayat and a year are kept


@needs_ocr
def test_labels_standing_in_the_margin_are_read_and_open_the_parts_they_label():
    # Given a circular letter's page whose bold part labels and item numbers stand left of the text column,
    # which Tesseract's one-column reading drops ("B. Dasar" came out "Dasar")
    extracted = extract_bytes((SCANS / "circular.pdf").read_bytes(), "circular.pdf", OcrOptions())
    lines = [line for line in extracted.text.splitlines() if line.strip()]
    assert [line.split()[0] for line in lines] == ["B.", "1.", "C.", "Surat", "D.", "1.", "2."]
    assert "C. Ruang Lingkup" in lines and "D. Isi Edaran" in lines


def test_a_blank_line_tesseract_put_inside_a_sentence_goes():
    # A block break inside "… sebagaimana dimaksud pada angka 1" split the sentence into two paragraphs
    text = "Uji Kesesuaian sebagaimana\n\ndimaksud pada angka 1\n\nBahwa dengan\nmeliputi\n\na. satu\nTahun\n\n2018"
    assert repair_structure(text) == ("Uji Kesesuaian sebagaimana\ndimaksud pada angka 1\n\nBahwa dengan\n"
                                      "meliputi\n\na. satu\nTahun\n\n2018")     # a new sentence, a list item, a number: kept
