"""A shouted subject reads in Indonesian title casing in the document's title; the source's letters stay in ``subject``."""
from __future__ import annotations

import pytest

from retrieval.parsing import parse_identity
from retrieval.parsing.title_case import subject_title_case

HEADING = """PERATURAN GUBERNUR ACEH
NOMOR 12 TAHUN 2025

TENTANG

PEMBEBASAN PAJAK ATAS KENDARAAN BERMOTOR

DENGAN RAHMAT ALLAH YANG MAHA KUASA

GUBERNUR ACEH,

Menimbang : bahwa untuk meringankan beban masyarakat perlu menetapkan Peraturan Gubernur;
"""


def test_a_shouted_subject_reads_in_title_case_in_the_title_only():
    identity = parse_identity(HEADING)
    assert identity.subject == "PEMBEBASAN PAJAK ATAS KENDARAAN BERMOTOR"
    assert identity.title() == "Peraturan Gubernur Aceh Nomor 12 Tahun 2025 tentang Pembebasan Pajak atas Kendaraan Bermotor"


@pytest.mark.parametrize(("shouted", "read"), [
    ("PERUBAHAN ATAS QANUN ACEH NOMOR 2 TAHUN 2012 TENTANG PAJAK ACEH",
     "Perubahan atas Qanun Aceh Nomor 2 Tahun 2012 tentang Pajak Aceh"),
    ("TUNJANGAN PNS DAN PPPK DI LINGKUNGAN PEMERINTAH ACEH (APBA)",
     "Tunjangan PNS dan PPPK di Lingkungan Pemerintah Aceh (APBA)"),
    ("PERUBAHAN BATAS WILAYAH KOTAMADYA DAERAH TINGKAT II BANDA ACEH",
     "Perubahan Batas Wilayah Kotamadya Daerah Tingkat II Banda Aceh"),
    ("INVESTASI SURAT BERHARGA NEGARA BAGI LEMBAGA JASA KEUANGAN NON-BANK",
     "Investasi Surat Berharga Negara bagi Lembaga Jasa Keuangan Non-Bank"),
    ("PENETAPAN UMP DAN BBNKB UNTUK RTH, SKPA DAN ASN", "Penetapan UMP dan BBNKB untuk RTH, SKPA dan ASN"),
    ("ATAS NAMA", "Atas Nama"),                                   # the first word is capitalised even when small
    ("Transparansi Anggaran di Aceh", "Transparansi Anggaran di Aceh"),  # already the document's own casing
    ("tata cara PPID", "tata cara PPID"),
])
def test_subject_title_case(shouted, read):
    assert subject_title_case(shouted) == read
