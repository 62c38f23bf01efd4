"""A decree's attachment printed after the signature and the distribution list with no "LAMPIRAN" heading is the
attachment, not the closing block: the answer step never quotes a closing block unasked, so facts set out there
("WS Tamiang-Langsa meliputi 4 Kabupaten/Kota …") were out of every answer's reach."""
from __future__ import annotations

import pytest

from retrieval.parsing import ExtractedText, extract_file, parse_document
from tests.conftest import corpus_path

DECREE = """KEPUTUSAN GUBERNUR ACEH
NOMOR 600.1.4/152/2026
TENTANG
PENETAPAN RENCANA ALOKASI AIR TAHUNAN WILAYAH SUNGAI CONTOH

GUBERNUR ACEH,

Menimbang : a. bahwa perlu menetapkan rencana alokasi air tahunan;

MEMUTUSKAN:
Menetapkan :
KESATU : Menetapkan Rencana Alokasi Air Tahunan sebagaimana tercantum dalam Lampiran.
KEDUA : Keputusan Gubernur ini mulai berlaku pada tanggal ditetapkan.

Ditetapkan di Banda Aceh
pada tanggal 29 Januari 2026
GUBERNUR ACEH,
{signer}

SALINAN - dari Keputusan ini disampaikan kepada:
1. Kepala Bappeda Aceh;
2. Kepala Dinas Pengairan Aceh.

A. Latar Belakang
Rencana alokasi air disusun dengan memperhatikan ketersediaan air pada musim hujan dan musim kemarau.

B. Ruang Lingkup Wilayah
Wilayah Sungai Contoh meliputi 4 (empat) Kabupaten/Kota dan mempunyai 17 (tujuh belas) Daerah Aliran Sungai.
"""


def _chunks(text: str):
    return parse_document(ExtractedText(text=text, page_starts=(0,), format="text"), min_chars=0).chunks


def _where(chunks, words: str):
    return next(c for c in chunks if words in c.text)


def test_an_attachment_after_the_distribution_list_is_the_lampiran():
    chunks = _chunks(DECREE.format(signer="MUZAKIR MANAF"))
    basin = _where(chunks, "17 (tujuh belas) Daerah Aliran Sungai")
    assert basin.section_path[0] == "Lampiran"
    assert basin.legal_reference.startswith("Lampiran")
    signature = _where(chunks, "Ditetapkan di Banda Aceh")
    assert signature.section_path == ("Penutup",)
    assert "Latar Belakang" not in signature.text


@pytest.mark.parametrize("signer", ["A. Hamid Zein", "H. Abdullah Puteh"])
def test_a_signers_initial_opens_no_attachment(signer):
    text = DECREE.format(signer=signer).split("SALINAN")[0]
    signature = _where(_chunks(text), signer)
    assert signature.section_path == ("Penutup",)


@pytest.mark.corpus
def test_the_real_river_basin_decree_keeps_its_attachment_apart():
    path = corpus_path("txt/kepgub-aceh-600-1-4-152-2026-penetapan-rencana-alokasi-air-tahunan-wilayah-sungai-tamiang.txt")
    chunks = parse_document(extract_file(path)).chunks
    basin = _where(chunks, "Daerah Aliran Sungai (DAS)")
    assert basin.section_path[0] == "Lampiran"
    assert all(c.section_path != ("Penutup",) for c in chunks if "Latar Belakang" in c.text)
