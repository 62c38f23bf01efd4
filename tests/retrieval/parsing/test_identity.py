"""Identity card (type, number, year, subject, issuer, enactment, signatory)."""
from __future__ import annotations

import json
import re

import pytest

from tests.conftest import corpus_path

from retrieval.parsing import LegalIdentity, parse_identity


QANUN_HEAD = """QANUN ACEH
NOMOR 1 TAHUN 2024
TENTANG
TRANSPARANSI ANGGARAN

BISMILLAHIRRAHMANIRRAHIM

DENGAN NAMA ALLAH YANG MAHA PENGASIH LAGI MAHA PENYAYANG

ATAS RAHMAT ALLAH YANG MAHA KUASA

GUBERNUR ACEH,

Menimbang : a. bahwa pengelolaan anggaran Aceh harus dilaksanakan secara terbuka;
b. bahwa berdasarkan pertimbangan sebagaimana dimaksud dalam huruf a, perlu membentuk Qanun Aceh tentang Transparansi Anggaran;

Mengingat : 1. Undang-Undang Nomor 11 Tahun 2006 tentang Pemerintahan Aceh;

MEMUTUSKAN:

Menetapkan : QANUN ACEH TENTANG TRANSPARANSI ANGGARAN.

BAB I
KETENTUAN UMUM

Pasal 1
Qanun ini mulai berlaku pada tanggal diundangkan.

Ditetapkan di Banda Aceh
pada tanggal 25 Juli 2024
19 Muharram 1446

GUBERNUR ACEH,

ttd

MUZAKIR MANAF

Diundangkan di Banda Aceh
pada tanggal 26 Juli 2024

SEKRETARIS DAERAH ACEH,

M. NASIR

LEMBARAN ACEH TAHUN 2024 NOMOR 1
"""


def test_qanun_aceh_full_identity():
    ident = parse_identity(QANUN_HEAD)
    assert ident.instrument_type == "Qanun Aceh"
    assert ident.number == "1"
    assert ident.year == 2024
    assert ident.subject == "TRANSPARANSI ANGGARAN"
    assert ident.issuer == "Gubernur Aceh"
    assert ident.place_enacted == "Banda Aceh"
    assert ident.date_enacted == "25 Juli 2024"
    assert ident.signatory == "MUZAKIR MANAF"
    assert ident.citation() == "Qanun Aceh Nomor 1 Tahun 2024"
    assert ident.as_dict() == {
        "instrument_type": "Qanun Aceh",
        "number": "1",
        "year": 2024,
        "subject": "TRANSPARANSI ANGGARAN",
        "issuer": "Gubernur Aceh",
        "place_enacted": "Banda Aceh",
        "date_enacted": "25 Juli 2024",
        "signatory": "MUZAKIR MANAF",
    }


def test_pergub_number_60_multiline_subject():
    text = """GUBERNUR ACEH

PERATURAN GUBERNUR ACEH
NOMOR 60 TAHUN 2013

TENTANG

PEDOMAN PEMBERIAN HIBAH DAN BANTUAN SOSIAL
YANG BERSUMBER DARI ANGGARAN PENDAPATAN
DAN BELANJA ACEH

DENGAN RAHMAT ALLAH YANG MAHA KUASA

GUBERNUR ACEH,

Menimbang : bahwa untuk melaksanakan ketentuan Pasal 42 Qanun Aceh Nomor 1 Tahun 2008 perlu menetapkan Peraturan Gubernur;
"""
    ident = parse_identity(text)
    assert (ident.instrument_type, ident.number, ident.year) == ("Peraturan Gubernur Aceh", "60", 2013)
    assert ident.subject == (
        "PEDOMAN PEMBERIAN HIBAH DAN BANTUAN SOSIAL YANG BERSUMBER DARI ANGGARAN PENDAPATAN DAN BELANJA ACEH"
    )
    assert ident.issuer == "Gubernur Aceh"
    assert ident.citation() == "Peraturan Gubernur Aceh Nomor 60 Tahun 2013"
    assert ident.title() == (
        "Peraturan Gubernur Aceh Nomor 60 Tahun 2013 tentang Pedoman Pemberian Hibah dan Bantuan Sosial "
        "yang Bersumber dari Anggaran Pendapatan dan Belanja Aceh"
    )


def test_undang_undang_inline_heading_and_signature():
    text = (
        "UNDANG-UNDANG REPUBLIK INDONESIA NOMOR 11 TAHUN 2006 TENTANG PEMERINTAHAN ACEH\n"
        "DENGAN RAHMAT TUHAN YANG MAHA ESA PRESIDEN REPUBLIK INDONESIA,\n"
        "Menimbang :\na. bahwa sistem pemerintahan Negara Kesatuan Republik Indonesia mengakui satuan pemerintahan khusus;\n"
        "Pasal 273\nUndang-Undang ini mulai berlaku pada tanggal diundangkan.\n"
        "Agar setiap orang mengetahuinya, memerintahkan pengundangan Undang-Undang ini. Disahkan di Jakarta "
        "pada tanggal 1 Agustus 2006 ttd DR. H. SUSILO BAMBANG YUDHOYONO Diundangkan di Jakarta pada tanggal "
        "1 Agustus 2006 MENTERI HUKUM DAN HAK ASASI MANUSIA REPUBLIK INDONESIA, ttd HAMID AWALUDIN\n"
    )
    ident = parse_identity(text)
    assert (ident.instrument_type, ident.number, ident.year) == ("Undang-Undang", "11", 2006)
    assert ident.subject == "PEMERINTAHAN ACEH"
    assert ident.issuer == "Presiden Republik Indonesia"
    assert ident.place_enacted == "Jakarta"
    assert ident.date_enacted == "1 Agustus 2006"
    assert ident.signatory == "DR. H. SUSILO BAMBANG YUDHOYONO"


def test_peraturan_pemerintah_with_duplicated_heading():
    text = (
        "PERATURAN PEMERINTAH REPUBLIK INDONESIA PERATURAN PEMERINTAH REPUBLIK INDONESIA NOMOR 20 TAHUN 2007 "
        "TENTANG PARTAI POLITIK LOKAL DI ACEH\nDENGAN RAHMAT TUHAN YANG MAHA ESA\nMenimbang :\n bahwa ...\n"
    )
    ident = parse_identity(text)
    assert (ident.instrument_type, ident.number, ident.year) == ("Peraturan Pemerintah", "20", 2007)
    assert ident.subject == "PARTAI POLITIK LOKAL DI ACEH"
    assert ident.issuer == "Presiden Republik Indonesia"  # type default: no issuer line in the text
    assert ident.signatory is None and ident.date_enacted is None


def test_number_with_letter_suffix():
    text = "PERATURAN GUBERNUR ACEH\nNOMOR 12A TAHUN 2019\nTENTANG\nPERUBAHAN TARIF RETRIBUSI\n\nGUBERNUR ACEH,\n"
    ident = parse_identity(text)
    assert ident.number == "12A"
    assert ident.year == 2019
    assert ident.citation() == "Peraturan Gubernur Aceh Nomor 12A Tahun 2019"


def test_kepgub_number_with_dots_and_slashes():
    text = """GUBERNUR ACEH

KEPUTUSAN GUBERNUR ACEH
NOMOR 100.3.2 / 1180 / 2025

TENTANG

PENETAPAN PEDOMAN PELAKSANAAN REPARASI PENYELESAIAN NON YUDISIAL
PELANGGARAN HAK ASASI MANUSIA PADA MASA LALU DI ACEH

GUBERNUR ACEH,

Menimbang : a. bahwa untuk mewujudkan efektivitas pemberian reparasi;
"""
    ident = parse_identity(text)
    assert ident.instrument_type == "Keputusan Gubernur Aceh"
    assert ident.number == "100.3.2/1180/2025"
    assert ident.year == 2025
    assert ident.subject.startswith("PENETAPAN PEDOMAN PELAKSANAAN REPARASI") and ident.subject.endswith("DI ACEH")
    # the year is part of the number, so the citation does not repeat it
    assert ident.citation() == "Keputusan Gubernur Aceh Nomor 100.3.2/1180/2025"


def test_instruksi_and_pojk_numbers():
    ingub = parse_identity("GUBERNUR ACEH\nINSTRUKSI GUBERNUR ACEH\nNOMOR 03/INSTR/2025\nTENTANG\nGERAKAN ACEH BERWAKAF\n\nDalam rangka ...\n")
    assert (ingub.instrument_type, ingub.number, ingub.year) == ("Instruksi Gubernur Aceh", "03/INSTR/2025", 2025)
    assert ingub.subject == "GERAKAN ACEH BERWAKAF"
    pojk = parse_identity(
        "OTORITAS JASA KEUANGAN\nREPUBLIK INDONESIA\nPERATURAN OTORITAS JASA KEUANGAN\nNOMOR 1 /POJK.05/2016\n"
        "TENTANG\nINVESTASI SURAT BERHARGA NEGARA\nBAGI LEMBAGA JASA KEUANGAN NON-BANK\n\n"
        "DENGAN RAHMAT TUHAN YANG MAHA ESA\n\nDEWAN KOMISIONER OTORITAS JASA KEUANGAN,\n\nMenimbang : bahwa ...\n"
    )
    assert (pojk.instrument_type, pojk.number, pojk.year) == ("Peraturan Otoritas Jasa Keuangan", "1/POJK.05/2016", 2016)
    assert pojk.subject == "INVESTASI SURAT BERHARGA NEGARA BAGI LEMBAGA JASA KEUANGAN NON-BANK"
    assert pojk.issuer == "Dewan Komisioner Otoritas Jasa Keuangan"


def test_peraturan_menteri_and_badan_types():
    permen = parse_identity("PERATURAN MENTERI DALAM NEGERI REPUBLIK INDONESIA\nNOMOR 80 TAHUN 2015\nTENTANG\nPEMBENTUKAN PRODUK HUKUM DAERAH\n")
    assert permen.instrument_type == "Peraturan Menteri Dalam Negeri"
    assert (permen.number, permen.year) == ("80", 2015)
    perba = parse_identity("PERATURAN BADAN PENGAWAS TENAGA NUKLIR\nNOMOR 1 TAHUN 2022\nTENTANG\nPENATALAKSANAAN PERIZINAN BERUSAHA\n")
    assert perba.instrument_type == "Peraturan Badan Pengawas Tenaga Nuklir"


def test_ocr_slips_are_tolerated():
    text = "GUBERNUR ACEH\n\nPERATURAN GUBENUR ACEH\nNOMOR 03TAHUN 2025\n\nJENTANG\n\nPERJALANAN DINAS\nDENGAN RAHMAT ALLAH YANG MAHA KUASA\n"
    ident = parse_identity(text)
    assert (ident.instrument_type, ident.number, ident.year, ident.subject) == (
        "Peraturan Gubernur Aceh", "03", 2025, "PERJALANAN DINAS")
    pp = parse_identity("Menimbang Menimbang Mengingat PERATURAN PEMEzuNTAH REPUBLIK INDONESIA NOMOR 12 TAHUN 2OL9 TENTANG PENGELOLAAN KEUANGAN DAERAH\n")
    assert (pp.instrument_type, pp.number, pp.year) == ("Peraturan Pemerintah", "12", 2019)



def test_a_circular_letter_read_by_ocr_has_its_identity():
    # The first page of ../shared/corpus/pdf/hard/se-bapeten-1904-2019-hasil-pindai.pdf as Tesseract reads it
    # (the handwritten 1904 comes out 1901), then the same heading with the OCR's slips on an Aceh letter.
    scan = ("KEPALA BADAN PENGAWAS TENAGA NUKLIR\nREPUBLIK INDONESIA\n\nYth: 1. Deputi Perizinan dan Inspeksi\n"
            "2. Direktur Keteknikan dan Kesiapsiagaan Nuklir\n\nSURAT EDARAN KEPALA BADAN PENGAWAS TENAGA NUKLIR\n"
            "NOMOR 1901/PI 05/K/IX/2019\nTENTANG\nPERCEPATAN PELAKSANAAN EVALUASI HASIL UJI KESESUAIAN PESAWAT\n"
            "SINAR-X RADIOLOGI DIAGNOSTIK DAN INTERVENSIONAL\n\nA. Umum\nBahwa Peraturan Badan Pengawas Tenaga "
            "Nuklir Nomor 2 Tahun\n2018 tentang Uji Kesesuaian Pesawat Sinar-X\n")
    ident = parse_identity(scan)
    assert (ident.instrument_type, ident.number, ident.year) == (
        "Surat Edaran Kepala Badan Pengawas Tenaga Nuklir", "1901/PI 05/K/IX/2019", 2019)
    assert ident.title() == ("Surat Edaran Kepala Badan Pengawas Tenaga Nuklir Nomor 1901/PI 05/K/IX/2019 tentang "
                             "Percepatan Pelaksanaan Evaluasi Hasil Uji Kesesuaian Pesawat Sinar-X Radiologi "
                             "Diagnostik dan Intervensional")
    aceh = parse_identity("GUBERNUR ACEH\n\nSURAT EDARAN\nGUBERNUR ACEH\nN0MOR: 451/12345\nTAHUN 2O24\n\nTENTANG\n"
                          "PELAKSANAAN IBADAH RAMADHAN\n\nDalam rangka menyambut bulan suci Ramadhan ...\n")
    assert (aceh.instrument_type, aceh.number, aceh.year, aceh.subject) == (
        "Surat Edaran Gubernur Aceh", "451/12345", 2024, "PELAKSANAAN IBADAH RAMADHAN")
    assert parse_identity("Menurut Surat Edaran Gubernur Aceh Nomor 451/12345 tentang Ramadhan ...").instrument_type is None

def test_heading_recovered_from_penjelasan_title():
    text = (
        "a. bahwa perkembangan pembangunan di wilayah Propinsi Daerah Istimewa Aceh semakin meningkat;\n"
        "Pasal 8 Peraturan Pemerintah ini mulai berlaku pada tanggal diundangkan. PENJELASAN ATAS PERATURAN "
        "PEMERINTAH REPUBLIK INDONESIA NOMOR 5 TAHUN 1983 TENTANG PERUBAHAN BATAS WILAYAH KOTAMADYA DAERAH "
        "TINGKAT II BANDA ACEH I.UMUM. 1. Dengan Undang-undang Nomor 7 Drt Tahun 1956 ...\n"
    )
    ident = parse_identity(text)
    assert (ident.instrument_type, ident.number, ident.year) == ("Peraturan Pemerintah", "5", 1983)
    assert ident.subject == "PERUBAHAN BATAS WILAYAH KOTAMADYA DAERAH TINGKAT II BANDA ACEH"


def test_non_regulation_has_empty_identity():
    text = "# Laporan Layanan Informasi Publik PPID Aceh 2024\n\nLaporan ini merangkum permohonan informasi.\n"
    ident = parse_identity(text)
    assert ident == LegalIdentity()
    assert ident.citation() is None
    # a regulation mentioned mid-sentence is not the document's own identity
    assert parse_identity("Menurut Peraturan Gubernur Aceh Nomor 5 Tahun 2020 tentang PPID, laporan ...").instrument_type is None
    report = ("LAPORAN TAHUNAN PPID ACEH 2024\n\n" + "Ringkasan kegiatan layanan informasi publik. " * 10
              + "\nDASAR HUKUM\n1. PERATURAN GUBERNUR ACEH NOMOR 5 TAHUN 2020 TENTANG PPID\n")
    assert parse_identity(report).instrument_type is None


def test_markdown_heading_identity():
    ident = parse_identity("# Qanun Aceh Nomor 1 Tahun 2024 tentang Transparansi Anggaran\n\nMenimbang: ...\n")
    assert (ident.instrument_type, ident.number, ident.year) == ("Qanun Aceh", "1", 2024)
    assert ident.subject == "Transparansi Anggaran"


def test_citation_requires_type_and_number():
    assert LegalIdentity(instrument_type="Qanun Aceh", year=2024).citation() is None
    assert LegalIdentity(number="5", year=2024).citation() is None
    assert LegalIdentity(instrument_type="Qanun Aceh", number="5").citation() == "Qanun Aceh Nomor 5"


# --------------------------------------------------------------------------- corpus calibration

_MANIFEST_TYPES = {
    "UU": "Undang-Undang",
    "PP": "Peraturan Pemerintah",
    "Keputusan DPRA": "Keputusan Dewan Perwakilan Rakyat Aceh",
}


def _norm_number(value) -> str:
    return re.sub(r"\s+", "", str(value or "")).lstrip("0").upper()


@pytest.mark.corpus
def test_identity_agrees_with_corpus_manifest():
    manifest = corpus_path("manifest.jsonl")
    rows = [json.loads(line) for line in manifest.read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if r.get("kind") == "text" and r.get("jenis")]
    assert len(rows) >= 100
    agree = 0
    misses = []
    for row in rows:
        ident = parse_identity((manifest.parent / row["file"]).read_text(encoding="utf-8"))
        expected = (_MANIFEST_TYPES.get(row["jenis"], row["jenis"]), _norm_number(row["nomor"]), row["tahun"])
        got = (ident.instrument_type, _norm_number(ident.number), ident.year)
        if got == expected:
            agree += 1
        else:
            misses.append((row["file"], got, expected))
    assert agree / len(rows) >= 0.97, misses[:10]
