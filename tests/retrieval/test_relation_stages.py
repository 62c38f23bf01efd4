"""Named regulations on real texts: the amending item for an amended article, the amending clause for a status
question, the signature block for who signed, the Penjelasan when it is asked for (retrieval/search/clauses.py)."""
from __future__ import annotations

import pytest

from retrieval.ingest_values import IngestOptions
from retrieval.ingestion import document_ingest_bytes
from retrieval.evaluation import EVALUATOR
from retrieval.search import chunk_search
from tests.conftest import corpus_path

pytestmark = [pytest.mark.django_db, pytest.mark.corpus]

AMENDED = "txt/pp-19-2010-tata-cara-pelaksanaan-tugas-dan-wewenang-serta-kedudukan-keuangan-gubernur.txt"
AMENDING = "txt/pp-23-2011-perubahan-atas-peraturan-pemerintah-nomor-19-tahun-2010-tentang-tata-cara.txt"
EXPLAINED = "txt/uu-14-2008-keterbukaan-informasi-publik.txt"


def _ingest(*relatives: str) -> None:
    for relative in relatives:
        path = corpus_path(relative)
        outcome = document_ingest_bytes(data=path.read_bytes(), filename=path.name, source_key=f"test:{path.name}",
                                        options=IngestOptions(collection_id="JDIH"))
        assert outcome.status == "ingested", outcome


def _hits(question: str, top_k: int = 5):
    return chunk_search(question, mode="hybrid", top_k=top_k, principal=EVALUATOR).hits


def test_a_named_article_brings_the_item_that_rewrote_it():
    _ingest(AMENDED, AMENDING)
    outcome = chunk_search("Pasal 4 PP Nomor 19 Tahun 2010 mengatur apa?", mode="hybrid", top_k=8, principal=EVALUATOR)
    sources = [(hit.chunk.document.number, hit.chunk.section_path) for hit in outcome.hits]
    assert sources[0][0] == "19" and "Pasal 4" in sources[0][1]          # the article itself leads
    rewritten = [path for number, path in sources if number == "23"]
    assert rewritten and rewritten[0][:2] == ["Pasal I", "Pasal 4"]       # then its new wording
    assert "relations" in outcome.stages


@pytest.mark.parametrize("question", ["Apakah PP Nomor 19 Tahun 2010 masih berlaku atau sudah diubah?",
                                      "pp 19 thn 2010 msh berlaku gak?"])
def test_a_status_question_finds_the_amending_clause_first(question):
    _ingest(AMENDED, AMENDING)
    first = _hits(question)[0].chunk
    assert first.document.number == "23" and first.section_path[0] == "Pasal I"
    assert "Peraturan Pemerintah Nomor 19 Tahun 2010" in first.text


def test_without_the_amending_regulation_nothing_is_pinned_for_it():
    _ingest(AMENDED)
    outcome = chunk_search("Apakah PP Nomor 19 Tahun 2010 masih berlaku?", mode="hybrid", top_k=5, principal=EVALUATOR)
    assert "relations" not in outcome.stages and outcome.hits[0].chunk.document.number == "19"


def test_who_signed_reads_the_signature_block():
    _ingest(EXPLAINED)
    first = _hits("Siapa yang menandatangani UU Nomor 14 Tahun 2008?")[0].chunk
    assert "Disahkan di" in first.text or "Ditetapkan di" in first.text
    assert first.kind != "penjelasan"


def test_the_penjelasan_leads_only_when_it_is_asked_for():
    _ingest(EXPLAINED)
    asked = _hits("Apa penjelasan Pasal 26 UU Nomor 14 Tahun 2008?")[0].chunk
    assert asked.kind == "penjelasan" and "Pasal 26" in asked.section_path
    plain = _hits("Apa isi Pasal 26 UU Nomor 14 Tahun 2008?")[0].chunk
    assert plain.kind != "penjelasan" and "Pasal 26" in plain.section_path


def test_a_status_question_about_an_unindexed_regulation_finds_the_clause_revoking_it():
    _ingest("txt/pp-12-2019-pengelolaan-keuangan-daerah.txt")     # revokes PP 58/2005, which is not indexed
    outcome = chunk_search("Apakah PP Nomor 58 Tahun 2005 masih berlaku?", mode="hybrid", top_k=5, principal=EVALUATOR)
    first = outcome.hits[0].chunk
    assert first.document.number == "12" and "Nomor 58 Tahun 2005" in first.text and "dicabut" in first.text
    assert "relations" in outcome.stages


def test_two_copies_of_one_regulation_are_both_named():
    path = corpus_path(AMENDED)
    text = path.read_text()
    for name, body in (("pp-19-2010-a.txt", text), ("pp-19-2010-b.txt", text + "\n\nSalinan sesuai dengan aslinya.\n")):
        outcome = document_ingest_bytes(data=body.encode(), filename=name, source_key=f"test:{name}",
                                        options=IngestOptions(collection_id="JDIH"))
        assert outcome.status == "ingested", outcome
    outcome = chunk_search("PP Nomor 19 Tahun 2010 Pasal 4 tentang apa?", mode="hybrid", top_k=5, principal=EVALUATOR)
    assert {"named-article", "named-document"} <= set(outcome.stages)
    assert all("Pasal 4" in hit.chunk.section_path for hit in outcome.hits[:2])
