"""The selection refusals the seed lists among /query's loop-level reasons, against real uvicorn servers.

``source_out_of_scope``: the question names a regulation the chat's selection excludes (it is indexed and
readable outside the selection; nothing it names is inside). ``source_scope_unavailable``: the selection holds
readable documents, but reading them failed this turn. Both are 200 refusals with fixed text and no
citations, on /query, /query/v2 and their streams (docs/api.md "Refusal reasons").
"""
from __future__ import annotations

import httpx
import pytest

from tests.answering.seed_contract import KEY, modelled, scripted  # noqa: F401  (fixtures)
from tests.conftest import purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
PPID = ("PPID wajib memberikan pemberitahuan tertulis atas permohonan informasi publik paling lambat "
        "10 (sepuluh) hari kerja sejak permohonan diterima.")
NAMING_PPID = "Berapa hari PPID wajib memberi pemberitahuan tertulis menurut Peraturan Gubernur Aceh Nomor 5 Tahun 2020?"
ROUTES = ["/query", "/query/v2"]


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        zakat = make_document(title="Qanun Aceh Nomor 10 Tahun 2018 tentang Baitul Mal", chunks=[ZAKAT],
                              collection="JDIH")
        ppid = make_document(title="Peraturan Gubernur Aceh Nomor 5 Tahun 2020 tentang Pejabat Pengelola Informasi "
                                   "dan Dokumentasi", chunks=[PPID], collection="PPID")
    yield {"zakat": str(zakat.id), "ppid": str(ppid.id)}
    with django_db_blocker.unblock():
        purge_committed_corpus()


@pytest.fixture(scope="module")
def server(live_server_factory, corpus):
    return live_server_factory()


@pytest.fixture
def model(scripted):
    from tests.answering.scripted_model import allowing_guard, careful_agent, supporting_judge

    scripted.calls.clear()
    scripted.scripts.update(agent=careful_agent, judge=supporting_judge, framing=None, guard=allowing_guard)
    return scripted


def post(server, path, **body):
    return httpx.post(server.url + path, json=body, headers=KEY, timeout=60)


def assert_refusal(body: dict, reason: str, starts: str) -> None:
    assert (body["fallback_used"], body["fallback_reason"], body["citations"]) == (True, reason, [])
    assert body["answer"].startswith(starts) and body["grounding_rate"] is None
    assert body.get("claims", []) == [] and body.get("claim_map", []) == []


# -- source_out_of_scope -------------------------------------------------------------------------


@pytest.mark.parametrize("selection", [{"document_ids": "zakat"}, {"collection_ids": ["JDIH"]}])
@pytest.mark.parametrize("route", ROUTES)
def test_a_named_regulation_outside_the_selection_is_source_out_of_scope(modelled, model, corpus, route, selection):
    scope = {key: [corpus[value]] if key == "document_ids" else value for key, value in selection.items()}
    response = post(modelled, route, query=NAMING_PPID, **scope)
    assert response.status_code == 200, response.text
    assert_refusal(response.json(), "source_out_of_scope", "Maaf, peraturan yang Anda sebut tidak termasuk")
    assert model.bodies("agent") == []   # decided before any tool or model call


@pytest.mark.parametrize("route", ROUTES)
def test_the_refusal_streams_with_no_tool_frame(server, corpus, route):
    response, frames = stream(server.url + route + "/stream", {"query": NAMING_PPID, "document_ids": [corpus["zakat"]]},
                              KEY)
    assert response.status_code == 200
    names = [name for name, _ in frames]
    assert "tool.started" not in names and "citation" not in names and names[-1] == "done"
    final = dict(frames)["faithfulness" if route == "/query" else "annotations"]
    assert final["fallback_reason"] == "source_out_of_scope"


@pytest.mark.parametrize("body", [
    {"query": NAMING_PPID},                                       # no selection
    {"query": NAMING_PPID, "collection_ids": ["PPID"]},           # the regulation is selected
    {"query": "Kapan muzakki wajib membayar zakat menurut Peraturan Gubernur Aceh Nomor 99 Tahun 2031?",
     "collection_ids": ["JDIH"]},                                 # named, but indexed nowhere
])
def test_a_named_regulation_the_selection_holds_or_nobody_has_is_not_refused_for_scope(server, corpus, body):
    for route in ROUTES:
        response = post(server, route, **body)
        assert response.status_code == 200, response.text
        assert response.json()["fallback_reason"] != "source_out_of_scope"


# -- source_scope_unavailable --------------------------------------------------------------------


@pytest.fixture(scope="module")
def unreadable(live_server_factory, corpus):
    """The selection is indexed and visible, but every read fails: the embedder is down."""
    with FakeModelServer(lambda path, body: (500, {"error": "down"})) as fake:
        yield live_server_factory(ACEH_RAG_EMBEDDING__BACKEND="openai", ACEH_RAG_EMBEDDING__BASE_URL=fake.url,
                                  ACEH_RAG_EMBEDDING__MODEL="broken-31")


@pytest.mark.parametrize("selection", [{"document_ids": "zakat"}, {"collection_ids": ["JDIH"]}])
@pytest.mark.parametrize("route", ROUTES)
def test_a_selection_that_cannot_be_read_now_is_source_scope_unavailable(unreadable, corpus, route, selection):
    scope = {key: [corpus[value]] if key == "document_ids" else value for key, value in selection.items()}
    response = post(unreadable, route, query="Ke mana muzakki wajib membayar zakat?", **scope)
    assert response.status_code == 200, response.text
    assert_refusal(response.json(), "source_scope_unavailable", "Maaf, sumber yang dipilih untuk percakapan ini")
    response, frames = stream(unreadable.url + route + "/stream",
                              {"query": "Ke mana muzakki wajib membayar zakat?", **scope}, KEY)
    finished = [data for name, data in frames if name == "tool.finished"]
    assert finished and finished[0]["ok"] is False
    final = dict(frames)["faithfulness" if route == "/query" else "annotations"]
    assert final["fallback_reason"] == "source_scope_unavailable" and frames[-1][0] == "done"


def test_without_a_selection_a_failed_read_keeps_the_routes_error(unreadable, corpus):
    assert post(unreadable, "/query", query="Ke mana muzakki wajib membayar zakat?").status_code == 502
    assert post(unreadable, "/query/v2", query="Ke mana muzakki wajib membayar zakat?").status_code == 404
