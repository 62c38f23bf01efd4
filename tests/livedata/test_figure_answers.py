"""Figure questions answered from a workbook, a CKAN dataset and BPS, with the seed's citation fields."""
from __future__ import annotations

import time

import pytest
from django.core.cache import cache

from answering.models import AnswerTrace
from tests.factories import make_document
from tests.livedata.files import POPULATION, SPENDING, xlsx_bytes
from tests.livedata.helpers import ingest_workbook, live_settings
from tests.livedata.portals import BPS_KEY, FakePortal, bps_handler, ckan_handler

pytestmark = pytest.mark.django_db

LIVE_TOOLS = {"workbook_rows", "workbook_compute", "workbook_peek", "workbook_describe", "opendata_search",
              "bps_indicator", "sql_query"}


@pytest.fixture(autouse=True)
def clear_cache():
    cache.clear()


@pytest.fixture
def regulation():
    return make_document(title="Qanun Aceh Nomor 9 Tahun 2019 tentang Administrasi Kependudukan", chunks=[
        "Dinas mencatat jumlah penduduk setiap kabupaten dan kota dan melaporkan data kependudukan setiap semester.",
        "Persentase penduduk miskin dihitung oleh Pemerintah Aceh bersama Badan Pusat Statistik setiap tahun.",
        # The documents' own figure: what answers when no live tool may (answers are published only when
        # the evidence meets the question's year and place).
        "Persentase penduduk miskin Aceh tahun 2024 tercatat sebesar 12,64 persen.",
    ])


def ask(client, question: str, **body):
    response = client.post("/query", data={"query": question, **body}, content_type="application/json")
    assert response.status_code == 200, response.content
    return response.json()


def steps(answer) -> list[dict]:
    return AnswerTrace.objects.get(id=answer["trace_id"]).steps


def tool_citations(answer) -> list[dict]:
    return [c for c in answer["citations"] if c["kind"] == "tool"]


def test_a_figure_question_is_answered_from_a_matching_workbook(api_client, regulation):
    workbook_id = ingest_workbook(xlsx_bytes({"Penduduk": POPULATION, "Belanja": SPENDING}),
                                  "Jumlah Penduduk Kabupaten Kota 2023.xlsx", collection_name="SatuData Aceh")
    with live_settings():
        answer = ask(api_client, "Berapa jumlah penduduk Aceh Besar tahun 2023?")
    assert "422132" in answer["answer"] and answer["fallback_used"] is False
    assert "matching rows" not in answer["answer"]  # the read's heading is not quoted as a claim
    (citation,) = tool_citations(answer)
    assert citation == {
        "kind": "tool", "tool": "workbook_rows", "call": citation["call"], "document_id": None, "chunk_id": None,
        "document_title": "Jumlah Penduduk Kabupaten Kota 2023", "source_title": "Jumlah Penduduk Kabupaten Kota 2023",
        "source_name": "SatuData Aceh", "source_id": f"spreadsheet:{workbook_id}", "period": "2023",
        "source_url": None, "read_at": citation["read_at"],
    }
    assert f"[tool:{citation['call']}]" in answer["answer"]
    assert any(c["citations"] and c["citations"][0]["kind"] == "tool" for c in answer["claim_map"])
    (read,) = [s for s in steps(answer) if s["step"] == "workbook_rows"]
    assert read["ok"] is True and read["rows"] == 1


def test_a_total_question_computes_over_the_workbook(api_client, regulation):
    ingest_workbook(xlsx_bytes({"Belanja": SPENDING}), "Realisasi Belanja SKPA 2024.xlsx")
    with live_settings():
        answer = ask(api_client, "Berapa total realisasi belanja Dinas Pendidikan?")
    (citation,) = tool_citations(answer)
    assert citation["tool"] == "workbook_compute" and citation["source_name"] == "Spreadsheet"
    assert citation["document_title"] == "Realisasi Belanja SKPA 2024" and citation["period"] == "2024"
    assert "430.75" in answer["answer"]  # 120.5 + 310.25


def test_a_document_focus_never_calls_the_live_tools(api_client, regulation):
    ingest_workbook(xlsx_bytes({"Penduduk": POPULATION}), "Jumlah Penduduk 2023.xlsx")
    with FakePortal(ckan_handler) as ckan, live_settings(portals=(ckan.url,)):
        answer = ask(api_client, "Berapa jumlah penduduk Aceh Besar tahun 2023?", document_ids=[str(regulation.id)])
    assert not tool_citations(answer)
    assert not LIVE_TOOLS & {s["step"] for s in steps(answer)}
    assert ckan.requests == []


def test_with_every_tool_disabled_the_documents_answer_and_nothing_is_called(api_client, regulation):
    ingest_workbook(xlsx_bytes({"Penduduk": POPULATION}), "Jumlah Penduduk 2023.xlsx")
    with FakePortal(ckan_handler) as ckan, FakePortal(bps_handler) as bps, \
            live_settings(workbooks=False, bps_url=bps.url + "/v1/api", bps_key=BPS_KEY, bps_enabled=False):
        answer = ask(api_client, "Berapa persentase penduduk miskin Aceh tahun 2024?")
    assert answer["fallback_used"] is False and answer["citations"]
    assert {c["kind"] for c in answer["citations"]} == {"chunk"}
    assert not LIVE_TOOLS & {s["step"] for s in steps(answer)}
    assert ckan.requests == [] and bps.requests == []


def test_a_figure_question_is_answered_from_a_ckan_dataset_and_cached(api_client, regulation):
    with FakePortal(ckan_handler) as ckan, live_settings(portals=(ckan.url,)):
        answer = ask(api_client, "Berapa persentase penduduk miskin Pidie tahun 2024?")
        calls = len(ckan.requests)
        again = ask(api_client, "Berapa persentase penduduk miskin Pidie tahun 2024?")
    assert "18.51" in answer["answer"]
    (citation,) = tool_citations(answer)
    assert citation["tool"] == "opendata_search"
    assert citation["source_title"] == ("Persentase Penduduk Miskin Menurut Kabupaten/Kota — "
                                        "Persentase Penduduk Miskin 2023-2024")
    assert citation["source_name"] == "Bappeda Aceh"
    assert citation["source_url"] == f"{ckan.url}/dataset/persentase-penduduk-miskin-menurut-kabupaten-kota"
    assert citation["source_id"].endswith("/resource/a1b2c3d4-0000-4000-8000-000000000001")
    assert citation["read_at"] and citation["document_id"] is None
    assert [path for path, _ in ckan.requests[:2]] == ["/api/3/action/package_search", "/api/3/action/datastore_search"]
    assert "19.32" not in answer["answer"]            # the 2023 row is not what was asked
    assert len(ckan.requests) == calls and "18.51" in again["answer"]   # the second answer read the cache


def test_a_failing_portal_gives_an_honest_note_and_the_documents_answer(api_client, regulation):
    with FakePortal(lambda path, query: (500, {"success": False})) as broken, \
            FakePortal(ckan_handler, delay=2.0) as slow, live_settings(portals=(broken.url, slow.url), timeout=0.5):
        started = time.monotonic()
        answer = ask(api_client, "Berapa persentase penduduk miskin Aceh tahun 2024?")
    assert time.monotonic() - started < 10
    assert not tool_citations(answer) and answer["citations"]
    (read,) = [s for s in steps(answer) if s["step"] == "opendata_search"]
    assert read["ok"] is False
    assert f"{broken.url} could not be read: HTTP 500" in read["note"]
    assert f"{slow.url} could not be read: timed out" in read["note"]
    assert "answered from the documents" in read["note"]


def test_bps_answers_when_enabled_and_keyed_and_is_never_called_otherwise(api_client, regulation):
    question = "Berapa tingkat pengangguran terbuka Aceh Besar tahun 2024?"
    with FakePortal(bps_handler) as bps:
        with live_settings(bps_url=bps.url + "/v1/api", bps_enabled=True, bps_key=None):
            unkeyed = ask(api_client, question)
        assert bps.requests == [] and not tool_citations(unkeyed)
        with live_settings(bps_url=bps.url + "/v1/api", bps_enabled=True, bps_key=BPS_KEY):
            answer = ask(api_client, question)
    assert "6.2" in answer["answer"] and "6.61" not in answer["answer"]
    (citation,) = tool_citations(answer)
    assert citation["tool"] == "bps_indicator" and citation["source_name"] == "BPS"
    assert citation["source_id"] == "bps:1100/var/529" and citation["period"] == "2024"
    assert BPS_KEY not in citation["source_url"]
    assert any("/list/model/data/lang/ind/domain/1100/var/529/" in path for path, _ in bps.requests)
