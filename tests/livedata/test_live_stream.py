"""Tool reads on the wire: /query/stream passage and citation frames, and the public chat's cards.

A real uvicorn server reads a committed workbook and a loopback CKAN portal.
"""
from __future__ import annotations

import httpx
import pytest

from tests.answering.scripted_model import ScriptedModel, completion, shown_passages, tool_call
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.livedata.files import POPULATION, xlsx_bytes
from tests.livedata.portals import FakePortal, ckan_handler
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
QUESTION = "Berapa jumlah penduduk Aceh Besar tahun 2023?"


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document
    from tests.livedata.helpers import ingest_workbook

    with django_db_blocker.unblock():
        make_document(title="Qanun Aceh tentang Administrasi Kependudukan", chunks=[
            "Dinas mencatat jumlah penduduk setiap kabupaten dan kota dan melaporkan data kependudukan setiap semester."])
        workbook = ingest_workbook(xlsx_bytes({"Penduduk": POPULATION}), "Jumlah Penduduk Kabupaten Kota 2023.xlsx",
                                   collection_name="SatuData Aceh")
    yield str(workbook)
    with django_db_blocker.unblock():
        purge_committed_corpus()


@pytest.fixture(scope="module")
def portal():
    with FakePortal(ckan_handler) as fake:
        yield fake


@pytest.fixture(scope="module")
def server(live_server_factory, corpus, portal):
    return live_server_factory(ACEH_RAG_OPENDATA__PORTALS=portal.url, ACEH_RAG_PUBLIC_CHAT__IP_RATE_LIMIT="1000",
                               ACEH_RAG_PUBLIC_CHAT__VISITOR_RATE_LIMIT="1000")


def test_query_stream_carries_tool_progress_citation_and_passage_frames(server, corpus):
    response, frames = stream(server.url + "/query/stream", {"query": QUESTION}, KEY)
    assert response.status_code == 200
    names = [name for name, _ in frames]
    started = [data for name, data in frames if name == "tool.started" and data["tool"] == "workbook_rows"]
    assert started and started[0]["arguments"]["workbook_id"] == f"spreadsheet:{corpus}"
    assert names.index("tool.started") < names.index("message.start")
    (citation,) = [data for name, data in frames if name == "citation" and data["kind"] == "tool"]
    (passage,) = [data for name, data in frames if name == "passage" and data["kind"] == "tool"]
    assert set(passage) == {"kind", "text", "tool", "source_url", "citation", "citation_key"}
    assert passage["citation"] == citation and passage["tool"] == "workbook_rows" and passage["source_url"] is None
    assert passage["citation_key"] == f"tool:{citation['call']}"
    assert "Jumlah Penduduk: 422132" in passage["text"]
    assert citation["source_id"] == f"spreadsheet:{corpus}" and citation["source_name"] == "SatuData Aceh"
    answer = "".join(data["text"] for name, data in frames if name == "answer.delta")
    assert "422132" in answer and names[-1] == "done"


def test_the_public_chat_numbers_tool_sources_and_shows_them_as_cards(server, portal):
    response = httpx.post(server.url + "/api/public/rag/chat", json={
        "message": "Berapa persentase penduduk miskin Pidie tahun 2024?", "stream": False}, timeout=60)
    assert response.status_code == 200, response.text
    done = response.json()
    (number,) = [i for i, s in enumerate(done["sources"], start=1) if s["kind"] == "tool"]
    assert f"[{number}]" in done["reply"] and "[tool:" not in done["reply"] and "18.51" in done["reply"]
    (card,) = done["cards"]
    assert card == {"type": "source", "number": number, "tool": "opendata_search",
                    "title": "Persentase Penduduk Miskin Menurut Kabupaten/Kota — Persentase Penduduk Miskin 2023-2024",
                    "source": "Bappeda Aceh", "period": None,
                    "url": f"{portal.url}/dataset/persentase-penduduk-miskin-menurut-kabupaten-kota",
                    "read_at": card["read_at"]}
    assert done["sql"] is None


def test_v2_answers_a_figure_question_with_a_tool_citation(server, corpus):
    response = httpx.post(server.url + "/query/v2", json={"query": QUESTION}, headers=KEY, timeout=60)
    assert response.status_code == 200, response.text
    body = response.json()
    tools = [c for c in body["citations"] if c["kind"] == "tool"]
    assert tools and tools[0]["source_id"] == f"spreadsheet:{corpus}"
    assert "422132" in body["answer"]


SQL = "SELECT kabupaten, jumlah FROM statistik.penduduk WHERE kabupaten = 'Pidie' AND tahun = 2023"


def sql_agent(body: dict):
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("sql_query", {"query": SQL})])
    label, text = next((key, text) for key, text in shown_passages(body) if "jumlah:" in text)
    return completion(f"Menurut data statistik: {text.splitlines()[1]} [{label}].")


def test_the_public_chat_reports_the_executed_sql_and_its_card(live_server_factory, corpus, source):
    model = ScriptedModel(agent=sql_agent)
    with FakeModelServer(model) as fake:
        server = live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted",
                                     ACEH_RAG_SQL__DATABASE_URL=source, ACEH_RAG_SQL__SCHEMAS="statistik")
        response = httpx.post(server.url + "/api/public/rag/chat", json={
            "message": "Berapa jumlah penduduk Pidie 2023?", "stream": False}, timeout=60)
    assert response.status_code == 200, response.text
    done = response.json()
    offered = {tool["function"]["name"] for tool in model.bodies("agent")[0]["tools"]}
    assert "sql_query" in offered
    assert done["sql"] == SQL and "kabupaten: Pidie | jumlah: 448209" in done["reply"]
    (card,) = done["cards"]
    assert card["tool"] == "sql_query" and card["source"] == "acehrag_sqltool" and card["read_at"]
    assert "[1]" in done["reply"] and "[P" not in done["reply"]
