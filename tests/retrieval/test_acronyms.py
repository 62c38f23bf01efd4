"""An acronym the corpus never writes is read as the phrase whose initials it spells (retrieval/search/acronyms.py)."""
from __future__ import annotations

import pytest

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.search import chunk_search
from retrieval.search.acronyms import acronym_phrases, document_acronyms, spelled_out
from tests.factories import make_document

ADMIN = Principal(subject="admin", role="admin", verified=True)
EVERYONE = visible_documents_q(ADMIN)
VILLAGE = ("Anggota Badan Permusyawaratan Desa dipilih secara demokratis. Masa keanggotaan Badan Permusyawaratan "
           "Desa selama 6 (enam) tahun. Badan Permusyawaratan Desa membahas Peraturan Desa.")
DATA = ("Pengendali Data Pribadi wajib melindungi data. Pengendali Data Pribadi wajib mencatat pemrosesan. "
        "Pengendali Data Pribadi menunjuk pejabat.")
REGIONS = ("Peraturan Daerah Provinsi ditetapkan gubernur. Peraturan Daerah Provinsi diundangkan. Peraturan Daerah "
           "Provinsi memuat sanksi. Peraturan Daerah Provinsi dievaluasi. Peraturan Daerah Provinsi dicabut.")


def test_a_documents_phrases_are_kept_by_their_initials():
    text = (f"{VILLAGE} Undang-Undang Dasar menjamin hak. Undang-Undang Dasar mengatur. Informasi dan Transaksi "
            "Elektronik diatur. Informasi dan Transaksi Elektronik dilindungi. Kantor Camat Lama hanya sekali.")
    found = document_acronyms(text)
    assert found["BPD"][:2] == ["Badan Permusyawaratan Desa", 3]
    assert found["UUD"][0] == "Undang-Undang Dasar"            # both halves of a hyphenated word
    assert found["ITE"][0] == "Informasi dan Transaksi Elektronik"   # a connective is no initial
    assert "KCL" not in found                                    # written once: a sentence's capitals, maybe
    assert not found["BPD"][2]                                   # not from the title


def test_a_title_phrase_stands_for_its_initials_and_is_marked():
    found = document_acronyms(DATA, "Undang-Undang Nomor 27 Tahun 2022 tentang Pelindungan Data Pribadi")
    assert found["PDP"] == ["Pelindungan Data Pribadi", 1, True]


@pytest.mark.django_db
def test_an_acronym_no_passage_writes_is_read_through_the_documents_phrases():
    make_document(text=f"Undang-Undang Nomor 6 Tahun 2014 tentang Desa\n\nPasal 56\n{VILLAGE}\n")
    make_document(text=f"Undang-Undang Nomor 27 Tahun 2022 tentang Pelindungan Data Pribadi\n\nPasal 1\n{DATA}\n")
    make_document(text=f"Undang-Undang Nomor 23 Tahun 2014 tentang Pemerintahan Daerah\n\nPasal 236\n{REGIONS} "
                       "PNS daerah dibina gubernur.\n")
    assert acronym_phrases("anggota BPD itu duduk brp taun?", EVERYONE) == {"BPD": "Badan Permusyawaratan Desa"}
    # An act's short name abbreviates its title; a bare acronym is the phrase the documents write most.
    assert acronym_phrases("UU PDP berlaku untuk siapa saja?", EVERYONE) == {"PDP": "Pelindungan Data Pribadi"}
    assert acronym_phrases("apa isi PDP?", EVERYONE) == {"PDP": "Peraturan Daerah Provinsi"}
    # A word the corpus writes is the text's to answer for, and an acronym nothing spells stays unread.
    assert acronym_phrases("gaji PNS dan THR berapa?", EVERYONE) == {}
    # Only the documents the caller may read are consulted.
    assert acronym_phrases("anggota BPD?", visible_documents_q(ADMIN, Scope(collection_ids=("LAIN",)))) == {}


@pytest.mark.django_db
def test_the_lexical_leg_searches_the_phrase_an_acronym_spells():
    village = make_document(text=f"Undang-Undang Nomor 6 Tahun 2014 tentang Desa\n\nPasal 56\n{VILLAGE}\n")
    make_document(chunks=["Masa jabatan kepala daerah 5 (lima) tahun dan dapat dipilih kembali."])
    # No passage holds "BPD": only its phrase matches.
    lexical = chunk_search("BPD", mode="lexical", top_k=1, principal=ADMIN)
    assert lexical.hits and lexical.hits[0].chunk.document_id == village.id


@pytest.mark.parametrize("word, spelled", [("P3K", "PPPK"), ("K3", "KKK"), ("P4GN", "PPPPGN"), ("B3", "BBB"),
                                           ("UMP", "UMP"), ("G20", "G20"), ("2024", "2024")])
def test_a_numeronym_is_its_letter_repeated(word, spelled):
    assert spelled_out(word) == spelled


SERVANTS = ("PPPK diangkat untuk jangka waktu paling singkat 1 (satu) tahun dan dapat diperpanjang. Masa perjanjian "
            "kerja PPPK ditetapkan sesuai kebutuhan.")
WASTE = ("Pengelolaan Bahan Berbahaya dan Beracun wajib dilakukan. Pengelolaan Bahan Berbahaya dan Beracun diawasi. "
         "Limbah Bahan Berbahaya dan Beracun dilarang dibuang.")


@pytest.mark.django_db
def test_a_numeronym_reads_as_the_short_form_the_corpus_writes_or_the_phrase_its_letters_spell():
    servants = make_document(text=f"Undang-Undang Nomor 5 Tahun 2014 tentang Aparatur Sipil Negara\n\nPasal 98\n{SERVANTS}\n")
    make_document(text=f"Undang-Undang Nomor 32 Tahun 2009 tentang Lingkungan Hidup\n\nPasal 59\n{WASTE}\n")
    make_document(chunks=["Kontrak kerja sama minyak dan gas bumi berjangka waktu paling lama 30 tahun dan dapat "
                          "diperpanjang."])
    assert acronym_phrases("kontrak P3K itu minimal brp lama?", EVERYONE) == {"P3K": "PPPK"}
    assert acronym_phrases("limbah B3 boleh dibuang ke sungai?", EVERYONE) == {"B3": "Bahan Berbahaya dan Beracun"}
    lexical = chunk_search("kontrak P3K", mode="lexical", top_k=1, principal=ADMIN)
    assert lexical.hits and lexical.hits[0].chunk.document_id == servants.id
