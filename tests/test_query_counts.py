"""Hot paths read in a fixed number of queries, however many rows they serialise (no N+1).

Each bound is the count measured when it was written; a change that adds a
query per result, message or chunk breaks it.
"""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_document

pytestmark = pytest.mark.django_db

ANSWER = ("Pejabat Pengelola Informasi dan Dokumentasi wajib memberikan pemberitahuan tertulis atas permohonan "
          "informasi publik paling lambat 10 (sepuluh) hari kerja sejak permohonan diterima.")


# Measured 2026-12-01: hybrid search 14 (both arms, their statement timeouts, citations and legal
# status in bulk), semantic 7, lexical 7; a conversation read-back 2; the admin document page 8.
# The lexical leg reads one more statement when its all-words tier falls short and the any-word
# tier runs: which happens depends on the term statistics of the rest of the table (15 and 8 in a
# full-suite run), never on how many rows match.
SEARCH_MAX = {"hybrid": 15, "semantic": 7, "lexical": 8}
CONVERSATION_READ_MAX = 2
ADMIN_DOCUMENT_PAGE_MAX = 8


LAST_CAPTURED: list[str] = []


def queries_of(call) -> tuple[int, object]:
    with CaptureQueriesContext(connection) as captured:
        result = call()
    LAST_CAPTURED[:] = [q["sql"][:200] for q in captured.captured_queries]
    return len(captured), result


@pytest.mark.parametrize("mode", ["hybrid", "semantic", "lexical"])
def test_search_reads_a_fixed_number_of_queries(api_client, django_assert_max_num_queries, mode):
    # Given one matching document, the count of one search
    make_document(title="Qanun Retribusi Pasar 1", chunks=["Retribusi pasar dipungut setiap bulan."])
    body = {"query": "retribusi pasar", "top_k": 50, "mode": mode}
    post = lambda: api_client.post("/search", data=body, content_type="application/json")  # noqa: E731
    post()  # warm the per-process caches (lexeme statistics, embedder)
    one, response = queries_of(post)
    assert one <= SEARCH_MAX[mode], "\n".join(LAST_CAPTURED)
    assert response.status_code == 200 and len(response.json()["results"]) == 1
    # When eight more documents match
    for index in range(2, 10):
        make_document(title=f"Qanun Retribusi Pasar {index}", chunks=[f"Retribusi pasar ke-{index} dipungut."])
    # Then the search reads no more queries for nine results than for one
    with django_assert_max_num_queries(one):
        response = post()
    assert len(response.json()["results"]) == 9


def test_conversation_read_back_is_a_fixed_number_of_queries(api_client, django_assert_max_num_queries):
    make_document(chunks=[ANSWER])
    headers = {"HTTP_X_USER_SUBJECT": "reader"}
    first = api_client.post("/query", data={"query": "Berapa hari PPID wajib memberikan pemberitahuan tertulis?"},
                            content_type="application/json", **headers).json()
    conversation = first["conversation_id"]
    read = lambda: api_client.get(f"/conversations/{conversation}", **headers)  # noqa: E731
    one_turn, response = queries_of(read)
    assert one_turn <= CONVERSATION_READ_MAX
    assert len(response.json()["messages"]) == 2
    for _ in range(3):
        api_client.post("/query", data={"query": "Berapa hari kerja batasnya?", "conversation_id": conversation},
                        content_type="application/json", **headers)
    with django_assert_max_num_queries(one_turn):
        response = read()
    assert len(response.json()["messages"]) == 8


def test_admin_document_page_is_a_fixed_number_of_queries(admin_client, django_assert_max_num_queries):
    few = make_document(chunks=["Pasal 1 berlaku.", "Pasal 2 diumumkan."])
    many = make_document(chunks=[f"Pasal {n} berlaku sejak diundangkan." for n in range(1, 21)])
    baseline, response = queries_of(lambda: admin_client.get(f"/admin/retrieval/document/{few.id}/change/"))
    assert response.status_code == 200 and baseline <= ADMIN_DOCUMENT_PAGE_MAX
    with django_assert_max_num_queries(baseline):
        response = admin_client.get(f"/admin/retrieval/document/{many.id}/change/")
    assert response.status_code == 200
