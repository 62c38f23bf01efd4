"""The quality harness's metrics, and the optional reranker over HTTP."""
from __future__ import annotations

import io
import json
from dataclasses import replace

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from retrieval.evaluation import Label, Question, RankedChunk, evaluate, label_matches
from tests.factories import make_document
from tests.http_fakes import FakeModelServer


def chunk(document: str, *articles: str) -> RankedChunk:
    return RankedChunk(document.lower(), frozenset(articles))


def test_label_matching_uses_document_and_article():
    assert label_matches(Label("Qanun Aceh Nomor 91"), chunk("Qanun Aceh Nomor 91 Tahun 2024", "8"))
    assert label_matches(Label("qanun aceh nomor 91", "8"), chunk("Qanun Aceh Nomor 91 Tahun 2024", "7", "8"))
    assert not label_matches(Label("Qanun Aceh Nomor 91", "80"), chunk("Qanun Aceh Nomor 91 Tahun 2024", "8"))
    assert label_matches(Label("kepgub", "KESATU"), chunk("kepgub-aceh-97", "KESATU"))


def test_first_rank_and_ndcg_by_hand():
    question = Question("q", (Label("doc-a", "1"), Label("doc-b")))
    ranking = [chunk("doc-x"), chunk("doc-a", "1"), chunk("doc-b"), chunk("doc-a", "1")]
    overall, kinds = evaluate("x", [question], lambda query: ranking)
    first, ndcg = overall.firsts[0], overall.ndcg
    assert first == 2 and overall.recall == {1: 0.0, 5: 1.0, 10: 1.0} and abs(overall.mrr - 0.5) < 1e-9
    # Gains at ranks 2 and 3; the ideal puts them at ranks 1 and 2.
    import math

    expected = (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert abs(ndcg - expected) < 1e-9


@pytest.mark.django_db
def test_eval_retrieval_prints_every_mode_and_bm25(tmp_path):
    make_document(title="Qanun Zakat", chunks=["Zakat profesi dibayar setiap bulan kepada Baitul Mal.", "Infak bersifat sukarela."])
    questions = tmp_path / "q.jsonl"
    questions.write_text(json.dumps({"query": "kapan zakat profesi dibayar", "relevant": [{"document": "Qanun Zakat", "pasal": "1"}]}) + "\n")
    out = io.StringIO()
    call_command("eval_retrieval", str(questions), stdout=out)
    table = out.getvalue().split("\n\n")[0].splitlines()[3:]
    rows = {line.split()[0]: line.split()[1:] for line in table}
    assert set(rows) == {"hybrid", "semantic", "lexical", "bm25"}
    assert rows["lexical"][0] == "1.000" and rows["bm25"][0] == "1.000"


@pytest.mark.django_db
def test_the_reranker_reorders_hybrid_candidates(api_client):
    make_document(chunks=["Zakat profesi dibayar setiap bulan.", "Zakat fitrah dibayar saat Ramadan.", "Zakat mal dihitung setahun."])

    def rerank(path, body):
        # Score the passage mentioning Ramadan highest, whatever the fusion said.
        return 200, [{"index": i, "score": 1.0 if "Ramadan" in text else 0.1} for i, text in enumerate(body["texts"])]

    with FakeModelServer(rerank) as fake:
        config = replace(settings.ACEH_RAG, retrieval=replace(settings.ACEH_RAG.retrieval, rerank_base_url=fake.url))
        with override_settings(ACEH_RAG=config):
            response = api_client.post("/search", data={"query": "zakat dibayar", "top_k": 3}, content_type="application/json")
    assert fake.requests and fake.requests[0][0] == "/rerank" and fake.requests[0][1]["query"] == "zakat dibayar"
    assert "Ramadan" in response.json()["results"][0]["text"]


@pytest.mark.django_db
def test_a_failing_reranker_is_502(api_client):
    make_document(chunks=["Zakat profesi dibayar setiap bulan."])
    with FakeModelServer(lambda path, body: (503, {"error": "busy"})) as fake:
        config = replace(settings.ACEH_RAG, retrieval=replace(settings.ACEH_RAG.retrieval, rerank_base_url=fake.url))
        with override_settings(ACEH_RAG=config):
            response = api_client.post("/search", data={"query": "zakat"}, content_type="application/json")
    assert response.status_code == 502
