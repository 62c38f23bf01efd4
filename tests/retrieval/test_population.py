"""Whose rule: a private employee's question is answered from the labour law, a civil servant's from the civil
service's regulations, whichever of them the legs ranked first."""
from __future__ import annotations

import pytest

from kernel.principal import Principal
from retrieval.search import chunk_search
from retrieval.search.population import CIVIL, PRIVATE, asked_population, document_regime
from tests.factories import make_document

ADMIN = Principal(subject="admin", role="admin", verified=True)

# The civil-service regulation says "cuti tahunan" in every article, the labour law once: the legs rank it first.
CIVIL_PASAL = [
    "PNS yang telah bekerja paling kurang 1 tahun secara terus menerus berhak atas cuti tahunan.",
    "Lamanya hak atas cuti tahunan PNS adalah 12 hari kerja; cuti tahunan diberikan secara tertulis.",
    "Hak atas cuti tahunan PNS yang tidak digunakan dapat digunakan dalam tahun berikutnya sebagai cuti tahunan.",
    "Cuti tahunan PNS dapat ditangguhkan penggunaannya oleh pejabat yang berwenang memberikan cuti tahunan.",
    "PNS yang menggunakan hak atas cuti tahunan mengajukan permintaan cuti tahunan kepada pejabat.",
]
LABOUR_PASAL = [
    "Pengusaha wajib memberi waktu istirahat dan cuti kepada pekerja/buruh.",
    "Cuti tahunan sekurang-kurangnya 12 hari kerja setelah pekerja/buruh bekerja selama 12 bulan.",
    "Pekerja/buruh perempuan berhak memperoleh istirahat melahirkan; pengusaha wajib membayar upahnya.",
    "Pengusaha dilarang membayar upah pekerja/buruh lebih rendah dari upah minimum.",
    "Pekerja/buruh yang sakit tetap dibayar upahnya oleh pengusaha.",
]
CIVIL_TITLE = "Peraturan Pemerintah Nomor 11 Tahun 2017 tentang Manajemen Pegawai Negeri Sipil"
LABOUR_TITLE = "Undang-Undang Nomor 13 Tahun 2003 tentang Ketenagakerjaan"


@pytest.mark.parametrize("question,population", [
    ("berapa hari cuti tahunan buat pekerja swasta?", PRIVATE),
    ("istri sy kerja di toko, cuti lahiran brp lama?", PRIVATE),
    ("Can my employer cut my wage below the minimum?", PRIVATE),
    ("cuti tahunan PNS berapa hari?", CIVIL),
    ("How many days of annual leave does a civil servant get?", CIVIL),
    ("Can government employees join an election campaign?", CIVIL),
    ("PNS boleh punya perusahaan sendiri gak?", None),       # both named: neither decides
    ("berapa hari cuti tahunan?", None),
    ("wasnya apa?", None),                                   # "asn" inside a word is not ASN
    ("Does the data protection law cover my private messages?", None),
    ("Do private sector workers get maternity leave?", PRIVATE),
])
def test_the_question_names_whose_rule_it_asks(question, population):
    assert asked_population(question) == population


def test_a_document_speaks_of_the_regime_it_mentions_far_more_than_the_other():
    assert document_regime(" ".join(CIVIL_PASAL)) == CIVIL
    assert document_regime(" ".join(LABOUR_PASAL)) == PRIVATE
    assert document_regime("Pemerintah Aceh menetapkan qanun.") == ""
    # Both regimes, neither dominant (the Aceh governance law): none.
    assert document_regime(" ".join(CIVIL_PASAL + LABOUR_PASAL)) == ""
    # Two mentions are not a regime, nor are a few among many other words (a law's civil-service investigators).
    assert document_regime("PNS dan PNS.") == ""
    assert document_regime(" ".join(CIVIL_PASAL) + " lingkungan hidup" * 2000) == ""


@pytest.mark.django_db
def test_a_private_employees_question_gets_the_labour_law_first_and_a_civil_servants_the_civil_service_rules():
    civil = make_document(title=CIVIL_TITLE, chunks=CIVIL_PASAL)
    labour = make_document(title=LABOUR_TITLE, chunks=LABOUR_PASAL)
    # Ingestion read and stored each one's regime.
    assert (civil.regime, labour.regime) == (CIVIL, PRIVATE)

    def documents(question):
        outcome = chunk_search(question, top_k=4, principal=ADMIN)
        assert ("population" in outcome.stages) == (asked_population(question) is not None)
        return [hit.chunk.document_id for hit in outcome.hits]

    # Without a population named, the regulation that says "cuti tahunan" most leads.
    assert documents("berapa hari cuti tahunan?")[0] == civil.id
    private = documents("berapa hari cuti tahunan buat pekerja swasta?")
    assert private[:2] == [labour.id, labour.id]
    assert documents("cuti tahunan PNS berapa hari?")[0] == civil.id


@pytest.mark.django_db
def test_a_named_regulation_keeps_its_place_whatever_the_population():
    civil = make_document(title=CIVIL_TITLE, chunks=CIVIL_PASAL)
    make_document(title=LABOUR_TITLE, chunks=LABOUR_PASAL)
    hits = chunk_search("PP 11 tahun 2017 cuti tahunan untuk karyawan swasta?", top_k=3, principal=ADMIN).hits
    assert hits[0].chunk.document_id == civil.id


@pytest.mark.django_db
def test_the_migration_reads_a_stored_documents_regime_as_ingestion_does():
    from importlib import import_module

    from django.apps import apps

    from retrieval.models import Document

    civil = make_document(title=CIVIL_TITLE, chunks=CIVIL_PASAL)
    neutral = make_document(title="Qanun Aceh Nomor 5 Tahun 2020 tentang Pemeliharaan Kerbau",
                            chunks=["Setiap pemilik kerbau wajib mendaftarkan kerbau kepada keuchik gampong."])
    # Documents stored before the column: none has a regime.
    Document.objects.update(regime="")
    import_module("retrieval.migrations.0025_document_regime").fill(apps, None)
    assert Document.objects.get(pk=civil.pk).regime == CIVIL
    assert Document.objects.get(pk=neutral.pk).regime == ""
