"""The committed corpus and the real server shared by the public chat tests."""
from __future__ import annotations

from dataclasses import dataclass

import httpx
import pytest

PARTNER_ORIGIN = "https://partner.example"
# Generous limits: every test request comes from 127.0.0.1; the limits have their own server.
PUBLIC_ENV = {
    "ACEH_RAG_PUBLIC_CHAT__ALLOWED_ORIGINS": PARTNER_ORIGIN,
    "ACEH_RAG_PUBLIC_CHAT__IP_RATE_LIMIT": "1000",
    "ACEH_RAG_PUBLIC_CHAT__VISITOR_RATE_LIMIT": "1000",
}
SAMPLE_RESTRICTED = "pergub-aceh-28-2025-pengembangan-kompetensi-pns-jalur-pendidikan.txt"


@dataclass(frozen=True)
class Restricted:
    """A document an anonymous visitor must never read, and a question that targets it."""

    document_id: str
    question: str
    secret: str


@dataclass(frozen=True)
class Corpus:
    documents: dict[str, str]          # source name → document id (sample corpus)
    restricted: dict[str, Restricted]  # restriction → document


@pytest.fixture(scope="package")
def corpus(django_db_setup, django_db_blocker) -> Corpus:
    """The sample corpus plus one document per restriction, committed for server processes."""
    from retrieval.services import sample_corpus_ingest
    from tests.conftest import corpus_statistics_refresh, purge_committed_corpus
    from tests.factories import make_document

    with django_db_blocker.unblock():
        outcomes = sample_corpus_ingest()
        assert all(o.status == "ingested" for o in outcomes), outcomes
        documents = {o.source_name: str(o.document_id) for o in outcomes}
        confidential = make_document(
            title="Nota Dinas Kode Brankas Arsip Sekretariat Daerah", confidential=True,
            chunks=["Kode pembuka brankas arsip rahasia Sekretariat Daerah Aceh adalah KRIPTON-4412 "
                    "dan hanya boleh diketahui pejabat yang berwenang."])
        unit = make_document(
            title="Catatan Internal Anggaran Cadangan Pelabuhan Ulee Lheue", org_unit="Bappeda",
            chunks=["Anggaran cadangan proyek Pelabuhan Ulee Lheue ditetapkan dengan kode catatan BAPPEDA-7788 "
                    "sebesar Rp 987.654.321 untuk keadaan darurat."])
        level = make_document(
            title="Daftar Tunjangan Khusus Pejabat Eselon", min_level=4,
            chunks=["Tunjangan khusus pejabat eselon dibayarkan dengan kode tunjangan TUNJ-5521 "
                    "setiap triwulan kepada pejabat tingkat empat."])
        restricted = {
            "confidential": Restricted(str(confidential.id), "Apa kode pembuka brankas arsip rahasia Sekretariat Daerah Aceh?",
                                       "KRIPTON-4412"),
            "owning_org_unit": Restricted(str(unit.id), "Berapa anggaran cadangan proyek Pelabuhan Ulee Lheue?",
                                          "BAPPEDA-7788"),
            "min_position_level": Restricted(str(level.id), "Apa kode tunjangan khusus pejabat eselon?", "TUNJ-5521"),
            "sample_restricted": Restricted(
                documents[SAMPLE_RESTRICTED],
                "Siapa yang mengeluarkan surat izin testing melanjutkan pendidikan bagi PNS penerima beasiswa tugas belajar?",
                "surat izin testing melanjutkan Pendidikan"),
        }
        corpus_statistics_refresh()
    yield Corpus(documents=documents, restricted=restricted)
    with django_db_blocker.unblock():
        from memory.models import Memory

        Memory.objects.filter(owner__startswith="public:").delete()
        purge_committed_corpus()


@pytest.fixture(scope="package")
def server(live_server_factory, corpus):
    """The public chat on a real uvicorn server, with a partner origin allowed."""
    started = live_server_factory(**PUBLIC_ENV)
    if httpx.get(started.url + "/widget.js", timeout=10).status_code != 200:
        pytest.fail('The public routes are not wired: acehrag/urls.py needs path("", include("answering.public.urls")) '
                    'before path("", api.urls)')
    return started
