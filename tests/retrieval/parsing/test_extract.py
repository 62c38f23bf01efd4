"""Text extraction: normalisation, formats, refusals, corpus PDFs."""
from __future__ import annotations

import io
from pathlib import Path

import pytest

from tests.conftest import corpus_path

from retrieval.parsing import SUPPORTED_EXTENSIONS, ExtractionError, extract_bytes, extract_file, sniff_format



def _fpdf():
    return __import__("fpdf")


def _pdf(pages: list[str]) -> bytes:
    fpdf = _fpdf()
    pdf = fpdf.FPDF()
    pdf.set_font("Helvetica", size=11)
    for body in pages:
        pdf.add_page()
        if body:
            pdf.multi_cell(0, 6, body)
    return bytes(pdf.output())


PASAL_TEXT = (
    "Pasal 1\nDalam Peraturan Gubernur ini yang dimaksud dengan Pemerintah Aceh adalah unsur penyelenggara "
    "pemerintahan Aceh yang terdiri atas Gubernur dan perangkat Aceh sesuai dengan ketentuan yang berlaku."
)


# --------------------------------------------------------------------------- plain text


def test_supported_extensions():
    assert SUPPORTED_EXTENSIONS == frozenset({".pdf", ".txt", ".md", ".html", ".htm", ".docx"})


def test_text_is_normalised():
    raw = "\ufeffQANUN ACEH  \r\nNOMOR 1 TAHUN 2024\t\r\n\r\n\r\n\r\nTENTANG\rCafe\u0301\u00a0Aceh\u200b\n\n\n"
    extracted = extract_bytes(raw.encode("utf-8"), "qanun.txt")
    assert extracted.format == "text"
    assert extracted.page_starts == (0,)
    assert extracted.text == "QANUN ACEH\nNOMOR 1 TAHUN 2024\n\nTENTANG\nCafé Aceh"
    assert "\u0301" not in extracted.text  # NFC composed


def test_a_date_read_with_look_alike_letters_gets_its_digits_back():
    # What broken fonts and scans leave in gazette text layers: the day and year of a date, one character each.
    raw = ("Disahkan di Jakarta pada tanggal L7 Oktober 2O22.\nDiundangkan pada tanggal 3 Maret 2Ol9 dan "
           "berlaku sejak 17 Agustus l94S; dibahas bulan Juni 2OI9. Mei Ikan Juli 20l.")
    text = extract_bytes(raw.encode("utf-8"), "uu.txt").text
    assert text == ("Disahkan di Jakarta pada tanggal 17 Oktober 2022.\nDiundangkan pada tanggal 3 Maret 2019 dan "
                    "berlaku sejak 17 Agustus 1945; dibahas bulan Juni 2019. Mei Ikan Juli 20l.")
    assert len(text) == len(raw)     # one character for one: chunk offsets into the text hold


def test_a_word_a_line_break_split_is_whole_again_and_indonesian_hyphens_stay():
    raw = ("Sebagai-\nmana dimaksud sebagaimana pada ayat (1) sebagaimana diatur; Penyelenggara-an "
           "penyelenggaraan dan penyelenggaraan; mela-lui melalui.\n"
           "Peraturan perundang-\nundangan, undang-undang, sebesar-besarnya, tukar-menukar, terus-menerus, "
           "antar-Daerah antardaerah antardaerah.")
    text = extract_bytes(raw.encode("utf-8"), "qanun.txt").text
    assert text == ("Sebagaimana dimaksud sebagaimana pada ayat (1) sebagaimana diatur; Penyelenggaraan "
                    # written whole once only: the document does not show "melalui" is one word
                    "penyelenggaraan dan penyelenggaraan; mela-lui melalui.\n"
                    "Peraturan perundang-\nundangan, undang-undang, sebesar-besarnya, tukar-menukar, terus-menerus, "
                    "antar-Daerah antardaerah antardaerah.")


def test_the_pages_of_a_pdf_share_one_vocabulary_for_split_words():
    # The split is on page 1, the whole word only on page 2.
    pages = [f"{PASAL_TEXT}\nKetentuan sebagai-mana dimaksud.", f"{PASAL_TEXT}\nsebagaimana dan sebagaimana"]
    extracted = extract_bytes(_pdf(pages), "pergub.pdf")
    assert "Ketentuan sebagaimana dimaksud." in extracted.text


def test_markdown_is_text_and_kept_as_written():
    md = "# Judul\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"
    extracted = extract_bytes(md.encode(), "catatan.md")
    assert extracted.format == "text"
    assert extracted.text == md.strip()


def test_cp1252_fallback_only_for_plausible_text():
    legacy = "Pergub tentang Pemberdayaan Masyarakat di Banda Aceh – edisi “revisi” café".encode("cp1252")
    assert extract_bytes(legacy, "lama.txt").text.endswith("“revisi” café")
    garbage = bytes(range(128, 256)) * 20
    with pytest.raises(ExtractionError, match="not valid UTF-8"):
        extract_bytes(garbage, "rusak.txt")
    with pytest.raises(ExtractionError, match="binary"):
        extract_bytes(b"abc\x00\x00def" * 10, "biner.txt")


@pytest.mark.parametrize("payload", [b"", b"   \n\t  \r\n"])
def test_empty_and_whitespace_files_are_refused(payload):
    with pytest.raises(ExtractionError) as info:
        extract_bytes(payload, "kosong.txt")
    assert str(info.value) == "File is empty"


def test_unknown_type_is_refused_with_one_line_reason():
    with pytest.raises(ExtractionError) as info:
        extract_bytes(b"some spreadsheet bytes", "anggaran.xlsx")
    reason = str(info.value)
    assert reason.startswith("Unsupported file type .xlsx")
    assert "\n" not in reason
    with pytest.raises(ExtractionError, match="Unsupported file type"):
        extract_bytes(b"no extension at all", "README")


def test_extract_file_reads_from_disk(tmp_path):
    path = tmp_path / "qanun.txt"
    path.write_text("QANUN ACEH\nNOMOR 1 TAHUN 2024\n", encoding="utf-8")
    assert extract_file(path).text == "QANUN ACEH\nNOMOR 1 TAHUN 2024"
    with pytest.raises(ExtractionError, match="Cannot read file"):
        extract_file(tmp_path / "missing.txt")


# --------------------------------------------------------------------------- PDF


def test_pdf_pages_are_joined_with_blank_line_and_recorded():
    data = _pdf(["QANUN ACEH\nNOMOR 1 TAHUN 2024", PASAL_TEXT, "Pasal 2\nQanun ini mulai berlaku pada tanggal diundangkan."])
    extracted = extract_bytes(data, "qanun.pdf")
    assert extracted.format == "pdf"
    text, starts = extracted.text, extracted.page_starts
    assert len(starts) == 3 and starts[0] == 0
    assert text[starts[1]:].startswith("Pasal 1\n")
    assert text[starts[2]:].startswith("Pasal 2\n")
    assert text[: starts[1]].endswith("2024\n\n")
    assert "\n\n\n" not in text and not any(line != line.rstrip() for line in text.split("\n"))


def test_pdfminer_fallback_when_pypdf_fails(monkeypatch):
    from retrieval.parsing import pdf as extract_module

    def broken(_data):
        raise ValueError("simulated pypdf failure")

    monkeypatch.setattr(extract_module, "_pdf_pages_pypdf", broken)
    extracted = extract_bytes(_pdf(["QANUN ACEH\nNOMOR 1 TAHUN 2024", PASAL_TEXT]), "qanun.pdf")
    assert len(extracted.page_starts) == 2
    assert "Pasal 1" in extracted.text[extracted.page_starts[1]:]
    assert extracted.text.startswith("QANUN ACEH")


def test_pdf_magic_wins_over_a_wrong_extension():
    data = _pdf([PASAL_TEXT])
    assert sniff_format(data, "salah.txt") == "pdf"
    assert extract_bytes(data, "salah.txt").format == "pdf"


def test_corrupt_pdf_is_refused():
    with pytest.raises(ExtractionError, match="corrupt|unreadable|no pages"):
        extract_bytes(b"%PDF-1.7\n1 0 obj << /Type /Catalog >>\ngarbage garbage\n%%EOF", "rusak.pdf")
    with pytest.raises(ExtractionError, match="Not a valid PDF"):
        extract_bytes(b"this is not a pdf at all", "palsu.pdf")


def test_encrypted_pdf_is_refused():
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(io.BytesIO(_pdf([PASAL_TEXT]))).pages:
        writer.add_page(page)
    writer.encrypt(user_password="rahasia", owner_password="rahasia")
    buf = io.BytesIO()
    writer.write(buf)
    with pytest.raises(ExtractionError, match="encrypted"):
        extract_bytes(buf.getvalue(), "rahasia.pdf")


def test_pdf_without_text_layer_is_refused():
    with pytest.raises(ExtractionError) as info:
        extract_bytes(_pdf(["", "", ""]), "pindai.pdf")
    assert str(info.value) == "PDF has no extractable text layer (scanned document?)"


# --------------------------------------------------------------------------- HTML


HTML = """<!DOCTYPE html>
<html><head><title>Judul Tab</title><style>body { color: red }</style>
<script>var pasal = "Pasal 99";</script></head>
<body>
<nav><a href="/">Beranda</a> | <a href="/ppid">PPID</a></nav>
<h1>Qanun Aceh Nomor 1 Tahun 2024</h1>
<p>Tentang   Transparansi
   Anggaran.</p>
<h2>Tabel Alokasi</h2>
<table>
  <tr><th>No</th><th>Kabupaten</th><th>Alokasi</th></tr>
  <tr><td>1</td><td>Aceh Besar</td><td>Rp 10.000</td></tr>
  <tr><td>2</td><td>Pidie</td><td>Rp 8.000</td></tr>
</table>
<div>Catatan: <b>angka</b> sementara.<br>Sumber: BPKA</div>
<script>alert(1)</script>
</body></html>"""


def test_html_extraction():
    extracted = extract_bytes(HTML.encode("utf-8"), "halaman.html")
    assert extracted.format == "html"
    assert extracted.page_starts == (0,)
    assert extracted.text.split("\n") == [
        "# Qanun Aceh Nomor 1 Tahun 2024",
        "Tentang Transparansi Anggaran.",
        "## Tabel Alokasi",
        "No | Kabupaten | Alokasi",
        "1 | Aceh Besar | Rp 10.000",
        "2 | Pidie | Rp 8.000",
        "Catatan: angka sementara.",
        "Sumber: BPKA",
    ]
    assert "Pasal 99" not in extracted.text and "Beranda" not in extracted.text and "Judul Tab" not in extracted.text


def test_html_sniffed_without_extension_and_htm():
    assert extract_bytes(HTML.encode(), "index.htm").format == "html"
    assert extract_bytes(HTML.encode(), "download").format == "html"


# --------------------------------------------------------------------------- DOCX


def _docx_bytes() -> bytes:
    import docx

    document = docx.Document()
    document.add_heading("Keputusan Gubernur Aceh Nomor 300.2/1446/2025", level=1)
    document.add_paragraph("KESATU : Menetapkan status keadaan tanggap darurat bencana.")
    table = document.add_table(rows=3, cols=3)
    for r, row in enumerate([["No", "Kabupaten", "Status"], ["1", "Aceh Utara", "Darurat"], ["2", "Bireuen", "Siaga"]]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.add_paragraph("KEDUA : Keputusan ini mulai berlaku pada tanggal ditetapkan.")
    buf = io.BytesIO()
    document.save(buf)
    return buf.getvalue()


def test_docx_paragraphs_and_tables_in_body_order():
    data = _docx_bytes()
    extracted = extract_bytes(data, "kepgub.docx")
    assert extracted.format == "docx"
    assert extracted.text.split("\n") == [
        "# Keputusan Gubernur Aceh Nomor 300.2/1446/2025",
        "KESATU : Menetapkan status keadaan tanggap darurat bencana.",
        "No | Kabupaten | Status",
        "1 | Aceh Utara | Darurat",
        "2 | Bireuen | Siaga",
        "KEDUA : Keputusan ini mulai berlaku pada tanggal ditetapkan.",
    ]
    assert sniff_format(data, "tanpa-ekstensi") == "docx"


def test_corrupt_docx_is_refused():
    with pytest.raises(ExtractionError, match="Not a valid DOCX"):
        extract_bytes(b"plain text pretending", "laporan.docx")
    buf = io.BytesIO()
    import zipfile

    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("hello.txt", "not a word document")
    with pytest.raises(ExtractionError, match="Corrupt DOCX"):
        extract_bytes(buf.getvalue(), "laporan.docx")
    with pytest.raises(ExtractionError, match="Unsupported file type"):
        extract_bytes(buf.getvalue(), "arsip.zip")


# --------------------------------------------------------------------------- corpus PDFs


def _corpus_pdf_dir() -> Path:
    return corpus_path("pdf")


@pytest.mark.corpus
def test_hard_corpus_pdfs_are_refused_with_reasons():
    hard = _corpus_pdf_dir() / "hard"
    reasons = {}
    for path in sorted(hard.glob("*.pdf")):
        with pytest.raises(ExtractionError) as info:
            extract_file(path)
        reasons[path.name] = str(info.value)
    assert len(reasons) == 3
    scans = [name for name, reason in reasons.items() if "no extractable text layer" in reason]
    garbage = [name for name, reason in reasons.items() if "broken font encodings" in reason]
    assert scans == ["se-bapeten-1904-2019-hasil-pindai.pdf"]
    assert len(garbage) == 2


@pytest.mark.corpus
@pytest.mark.parametrize(
    "name",
    [
        "pojk-1-pojk-05-2016-investasi-surat-berharga-negara-bagi-lembaga-jasa-keuangan-nonbank.pdf",
        "pp-43-2006-perizinan-reaktor-nuklir.pdf",
        "uu-10-1997-ketenaganukliran.pdf",
        "perpres-60-2019-kebijakan-dan-strategi-nasional-keselamatan-nuklir-dan-radiasi.pdf",
    ],
)
def test_good_corpus_pdfs_are_accepted(name):
    extracted = extract_file(_corpus_pdf_dir() / name)
    assert extracted.format == "pdf"
    assert len(extracted.page_starts) > 1
    assert "Pasal 1" in extracted.text


# A junk text layer like the one over perpres-60-2019's scanned appendix: neither words, numbers nor codes.
JUNK_PAGE = " ".join(["bn -xF C) q? d! ;6 li .*o. a^(Ud r6 H= .r(=5(dtrO aa(Ed c.=r-dcgd ErOdOJ:r+i L'r bOvgE"] * 6)


def test_a_garbage_page_that_ocr_did_not_read_is_left_out_and_named():
    data = _pdf(["QANUN ACEH\nNOMOR 1 TAHUN 2024", PASAL_TEXT, JUNK_PAGE])
    extracted = extract_bytes(data, "qanun.pdf")
    assert extracted.unreadable_pages == (3,)
    assert len(extracted.page_starts) == 3                 # page numbers still line up
    assert "Pasal 1" in extracted.text and "dtrO" not in extracted.text
    # A readable document keeps all its pages.
    assert extract_bytes(_pdf(["QANUN ACEH", PASAL_TEXT]), "qanun.pdf").unreadable_pages == ()


@pytest.mark.corpus
def test_perpres_60_2019_appendix_junk_is_left_out_without_ocr():
    extracted = extract_file(_corpus_pdf_dir() / "perpres-60-2019-kebijakan-dan-strategi-nasional-keselamatan-nuklir-"
                                                 "dan-radiasi.pdf")
    assert len(extracted.unreadable_pages) >= 10
    assert "Pasal 1" in extracted.text and "5(dtrO" not in extracted.text
