"""Writes the small scans the OCR tests read (tests/retrieval/parsing/scans/), from text written here.

    python scripts/make_test_scans.py

Each page is typeset with fpdf2, rendered to a grey image with PDFium at 150 dpi, and saved back as
an image-only PDF page (no text layer): ``scan.pdf`` has a straight page, a page turned 90 degrees
and a page with speckle noise and a 1.5 degree skew; ``mixed.pdf`` has a text-layer page followed by
a scanned one; ``columns.pdf`` is a gazette page in two columns under a heading across both; ``circular.pdf`` is
a circular letter's page whose bold part labels ("B.", "C.") and hanging item numbers stand in the margin, left
of the text column. Deterministic (seeded noise), so the committed files can be regenerated.
"""
from __future__ import annotations

import io
import random
from pathlib import Path

import pypdfium2
from fpdf import FPDF
from PIL import Image

OUT = Path(__file__).resolve().parents[1] / "tests" / "retrieval" / "parsing" / "scans"
DPI = 150

PAGES = [
    """QANUN KABUPATEN CONTOH NOMOR 7 TAHUN 2024
TENTANG
PELAYANAN AIR BERSIH

BAB I
KETENTUAN UMUM

Pasal 1
Dalam Qanun ini yang dimaksud dengan:
1. Daerah adalah Kabupaten Contoh.
2. Bupati adalah Bupati Contoh.
3. Perusahaan Air adalah badan usaha milik daerah yang menyediakan air bersih.

Pasal 2
(1) Setiap penduduk berhak memperoleh air bersih yang layak.
(2) Perusahaan Air wajib memasang sambungan baru paling lambat 14 (empat belas) hari kerja sejak permohonan diterima.""",
    """BAB II
TARIF

Pasal 3
(1) Tarif air bersih ditetapkan oleh Bupati setiap tahun.
(2) Tarif untuk rumah tangga miskin paling tinggi Rp2.500 (dua ribu lima ratus rupiah) per meter kubik.""",
    """BAB III
PENGADUAN

Pasal 4
(1) Pelanggan dapat menyampaikan pengaduan secara tertulis atau lisan kepada Perusahaan Air.
(2) Perusahaan Air wajib menjawab pengaduan paling lambat 7 (tujuh) hari kerja.""",
]

# A gazette page: the heading across the page, then the articles in two columns, left then right.
COLUMNS_HEADING = """BERITA DAERAH KABUPATEN CONTOH
BAB IV
RETRIBUSI"""
COLUMNS = [
    """Pasal 5
(1) Retribusi air bersih dipungut setiap bulan oleh Perusahaan Air.
(2) Retribusi dibayar paling lambat tanggal 20 (dua puluh) setiap bulan.

Pasal 6
Pelanggan yang terlambat membayar dikenai denda sebesar 2 (dua) persen dari tagihan bulan berjalan.""",
    """Pasal 7
(1) Hasil retribusi disetor ke kas daerah paling lambat 1 (satu) hari kerja.
(2) Bupati melaporkan hasil retribusi kepada Dewan setiap semester.

Pasal 8
Ketentuan lebih lanjut mengenai tata cara pemungutan retribusi diatur dengan Peraturan Bupati.""",
]

# A circular letter's page: (label in the margin, bold?, text at the column).
CIRCULAR = [
    ("B.", True, "Dasar"),
    ("1.", False, "Undang-Undang Nomor 2 Tahun 1981 tentang Metrologi Legal;"),
    ("C.", True, "Ruang Lingkup"),
    ("", False, "Surat Edaran ini berlaku bagi setiap laboratorium kalibrasi."),
    ("D.", True, "Isi Edaran"),
    ("1.", False, "Sertifikat kalibrasi berlaku paling lama 2 (dua) tahun;"),
    ("2.", False, "Sertifikat yang lebih baru membatalkan sertifikat yang lama."),
]


def typeset(texts: list[str]) -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    for text in texts:
        pdf.add_page()
        pdf.set_font("Helvetica", size=12)
        pdf.set_xy(20, 20)
        pdf.multi_cell(170, 7, text)
    return bytes(pdf.output())


def rendered(pdf_bytes: bytes, index: int) -> Image.Image:
    document = pypdfium2.PdfDocument(pdf_bytes)
    try:
        return document[index].render(scale=DPI / 72, grayscale=True).to_pil().convert("L")
    finally:
        document.close()


def noisy(image: Image.Image, seed: int) -> Image.Image:
    rng = random.Random(seed)
    image = image.rotate(1.5, expand=False, fillcolor=255)
    pixels = image.load()
    width, height = image.size
    for _ in range(width * height // 150):
        pixels[rng.randrange(width), rng.randrange(height)] = rng.choice((0, 90, 200))
    return image


def image_pdf(images: list[Image.Image]) -> bytes:
    out = io.BytesIO()
    images[0].save(out, format="PDF", resolution=DPI, save_all=True, append_images=images[1:])
    return out.getvalue()


def columns_pdf() -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "B", size=12)
    pdf.set_xy(20, 20)
    pdf.multi_cell(170, 7, COLUMNS_HEADING, align="C")
    pdf.set_font("Helvetica", size=11)
    for left, text in zip((20, 112), COLUMNS):
        pdf.set_xy(left, 50)
        pdf.multi_cell(78, 6, text)
    return image_pdf([rendered(bytes(pdf.output()), 0)])


def circular_pdf() -> bytes:
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    y = 30
    for label, bold, text in CIRCULAR:
        pdf.set_font("Helvetica", "B" if bold else "", size=12)
        if label:
            pdf.set_xy(25 if bold else 40, y)
            pdf.cell(10, 7, label)
        pdf.set_xy(50, y)
        pdf.multi_cell(140, 7, text)
        y = pdf.get_y() + 4
    return image_pdf([rendered(bytes(pdf.output()), 0)])


def mixed_pdf() -> bytes:
    """Page 1 with a text layer (fpdf2), page 2 a scan (an image of typeset text)."""
    scan = rendered(typeset([PAGES[2]]), 0)
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", size=12)
    pdf.set_xy(20, 20)
    pdf.multi_cell(170, 7, PAGES[0])
    pdf.add_page()
    buffer = io.BytesIO()
    scan.save(buffer, format="PNG")
    pdf.image(buffer, x=0, y=0, w=210, h=297)
    return bytes(pdf.output())


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    typeset_pages = typeset(PAGES)
    straight = rendered(typeset_pages, 0)
    turned = rendered(typeset_pages, 1).rotate(90, expand=True)
    speckled = noisy(rendered(typeset_pages, 2), seed=7)
    (OUT / "scan.pdf").write_bytes(image_pdf([straight, turned, speckled]))
    (OUT / "mixed.pdf").write_bytes(mixed_pdf())
    (OUT / "columns.pdf").write_bytes(columns_pdf())
    (OUT / "circular.pdf").write_bytes(circular_pdf())
    for path in sorted(OUT.glob("*.pdf")):
        print(f"{path.relative_to(OUT.parents[3])}: {path.stat().st_size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
