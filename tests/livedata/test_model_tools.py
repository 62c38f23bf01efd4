"""The model path: live-data tools offered with their schemas, called for real, cited as tool reads."""
from __future__ import annotations

import re

import pytest

from tests.answering.scripted_model import ScriptedModel, completion, shown_passages, tool_call
from tests.answering.test_model_agent import model_settings
from tests.factories import make_document
from tests.http_fakes import FakeModelServer
from tests.livedata.files import SPENDING, xlsx_bytes
from tests.livedata.helpers import ingest_workbook, live_settings

pytestmark = pytest.mark.django_db

QUESTION = "SKPA mana yang belanjanya paling besar menurut triwulan?"
WORKBOOK_TOOLS = {"workbook_describe", "workbook_peek", "workbook_rows", "workbook_compute"}


def workbook_agent(body: dict):
    """Find the workbook, compute per SKPA, answer citing the computed line."""
    results = [m["content"] for m in body["messages"] if m["role"] == "tool"]
    if "tools" in body and not results:
        return completion(None, finish="tool_calls", tool_calls=[tool_call("workbook_describe", {"query": "belanja"})])
    if "tools" in body and len(results) == 1:
        workbook_id = re.search(r"workbook_id (spreadsheet:[0-9a-f-]{36})", results[0]).group(1)
        return completion(None, finish="tool_calls", tool_calls=[tool_call("workbook_compute", {
            "workbook_id": workbook_id, "sheet": "Belanja", "aggregate": "sum", "column": "Realisasi",
            "group_by": ["SKPA"]}, call_id="call_2")])
    label, text = next((key, text) for key, text in shown_passages(body) if "sum Realisasi" in text)
    return completion(f"Belanja terbesar: {text.splitlines()[1]} [{label}].")


@pytest.fixture
def sources():
    document = make_document(title="Pergub Aceh tentang Pelaksanaan APBA", chunks=[
        "Setiap SKPA melaporkan realisasi belanja kepada Gubernur setiap triwulan."])
    workbook = ingest_workbook(xlsx_bytes({"Belanja": SPENDING}), "Realisasi Belanja SKPA 2024.xlsx")
    return document, workbook


def test_the_agent_reads_a_workbook_and_the_answer_cites_the_read(api_client, sources):
    _, workbook = sources
    model = ScriptedModel(agent=workbook_agent)
    with FakeModelServer(model) as fake, model_settings(fake.url), live_settings():
        response = api_client.post("/query", data={"query": QUESTION}, content_type="application/json")
    assert response.status_code == 200, response.content
    body = response.json()
    offered = {tool["function"]["name"] for tool in model.bodies("agent")[0]["tools"]}
    assert WORKBOOK_TOOLS <= offered and "sql_query" not in offered and "opendata_search" not in offered
    schema = next(t for t in model.bodies("agent")[0]["tools"] if t["function"]["name"] == "workbook_compute")
    assert schema["function"]["parameters"]["required"] == ["workbook_id", "aggregate"]
    assert "SKPA: Dinas Pendidikan | sum Realisasi: 430.75" in body["answer"]
    (citation,) = body["citations"]
    assert citation["kind"] == "tool" and citation["tool"] == "workbook_compute"
    assert citation["source_id"] == f"spreadsheet:{workbook}" and citation["period"] == "2024"
    assert body["claim_map"][0]["citations"][0]["kind"] == "tool"


def test_a_document_focus_offers_no_live_tool_to_the_model(api_client, sources):
    document, _ = sources
    model = ScriptedModel()
    with FakeModelServer(model) as fake, model_settings(fake.url), live_settings():
        response = api_client.post("/query", data={"query": QUESTION, "document_ids": [str(document.id)]},
                                   content_type="application/json")
    assert response.status_code == 200
    offered = {tool["function"]["name"] for tool in model.bodies("agent")[0]["tools"]}
    assert not offered & WORKBOOK_TOOLS
    assert all(c["kind"] == "chunk" for c in response.json()["citations"])


def test_workbook_tools_are_offered_only_when_a_workbook_is_visible(api_client):
    make_document(title="Pergub Aceh tentang Pelaksanaan APBA", chunks=["Setiap SKPA melaporkan realisasi belanja."])
    ingest_workbook(xlsx_bytes({"Belanja": SPENDING}), "Belanja Rahasia 2024.xlsx", confidential=True)
    model = ScriptedModel()
    with FakeModelServer(model) as fake, model_settings(fake.url), live_settings():
        response = api_client.post("/query", data={"query": QUESTION}, content_type="application/json")
    assert response.status_code == 200
    offered = {tool["function"]["name"] for tool in model.bodies("agent")[0]["tools"]}
    assert not offered & WORKBOOK_TOOLS and "search_documents" in offered

