"""The seed's saved-sources table on every answer route, against a real uvicorn server and a real MCP server.

The MCP server is built with the official SDK (tests/workspaces/mcp_server.py) and
speaks streamable HTTP on loopback; nothing here is a mock.
"""
from __future__ import annotations

import socket
import subprocess
import sys
import time
import uuid

import httpx
import pytest

from tests.conftest import ROOT, TEST_API_KEY, _free_port, purge_committed_corpus
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

KEY = {"X-API-Key": TEST_API_KEY}
SIM_QUESTION = "Kapan layanan perpanjangan SIM keliling di Banda Aceh dibuka?"
ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
ROUTES = ["/query", "/query/v2"]


@pytest.fixture(scope="module")
def mcp_url():
    port = _free_port()
    process = subprocess.Popen([sys.executable, "-m", "tests.workspaces.mcp_server", str(port)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/mcp"
    process.terminate()
    process.wait(10)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker, mcp_url):
    """Committed data the server reads: a document, MCP sources, a workspace with three members."""
    from tests.factories import make_document
    from workspaces.models import WorkspaceMember
    from workspaces.services import mcp_source_add, member_put, workspace_create

    with django_db_blocker.unblock():
        zakat = make_document(chunks=[ZAKAT], title="Qanun Aceh Nomor 10 Tahun 2018 tentang Baitul Mal", collection="MCPT")
        mcp_source_add(source_id="portal", name="Portal Layanan Aceh", url=mcp_url)
        mcp_source_add(source_id="internal", name="Portal Internal", url=mcp_url, governed=True)
        mcp_source_add(source_id="down", name="Portal Mati", url="http://127.0.0.1:9/mcp", timeout_seconds=2)
        mcp_source_add(source_id="failing", name="Portal Rusak", url=mcp_url, search_tool="broken")
        workspace = workspace_create(name="Dinas Perhubungan", owner="ana")
        member_put(workspace=workspace, actor_role=WorkspaceMember.Role.OWNER, subject="budi", role="partner")
        member_put(workspace=workspace, actor_role=WorkspaceMember.Role.OWNER, subject="cut", role="viewer")
        yield {"zakat": str(zakat.id), "workspace": str(workspace.id)}
        from workspaces.models import McpSource, Workspace

        McpSource.objects.all().delete()
        Workspace.objects.all().delete()
        purge_committed_corpus()


@pytest.fixture(scope="module")
def server(live_server_factory, world):
    return live_server_factory()


def as_user(subject: str) -> dict:
    return {**KEY, "X-User-Subject": subject}


def call(server, path, body, subject="ana", method="post"):
    return httpx.request(method.upper(), server.url + path, json=body, headers=as_user(subject), timeout=60)


def set_sources(server, world, **sources):
    body = {"whole_corpus": False, "collection_ids": [], "document_ids": [], "mcp_source_ids": [], **sources}
    response = call(server, f"/workspaces/{world['workspace']}/sources", body, method="put")
    assert response.status_code == 200, response.text


def new_chat(server, world, subject="ana") -> str:
    response = call(server, f"/workspaces/{world['workspace']}/conversations", {}, subject=subject)
    assert response.status_code == 201, response.text
    return response.json()["id"]


def tool_names(body_or_frames) -> list[str]:
    return [data["tool"] for name, data in body_or_frames if name == "tool.started"]


@pytest.mark.parametrize("route", ROUTES)
def test_an_empty_set_with_an_mcp_source_answers_from_mcp_alone(server, world, route):
    set_sources(server, world)
    chat = new_chat(server, world)
    response = call(server, route, {"query": SIM_QUESTION, "conversation_id": chat, "mcp_source_ids": ["portal"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["fallback_used"] is False
    assert "Sabtu" in body["answer"]
    assert body["citations"] and {c["kind"] for c in body["citations"]} == {"tool"}
    citation = body["citations"][0]
    assert citation["tool"] == "mcp.portal.search" and citation["call"].startswith("call_")
    assert citation["document_id"] is None and citation["chunk_id"] is None
    assert citation["source_url"] == "https://portal.example.go.id/sim-keliling"
    assert citation["source_id"] == "mcp:portal" and citation["document_title"] == "Portal Layanan Aceh"


def test_the_mcp_only_stream_runs_no_document_search_and_sends_tool_passages(server, world):
    set_sources(server, world)
    chat = new_chat(server, world)
    response, frames = stream(server.url + "/query/stream", {"query": SIM_QUESTION, "conversation_id": chat,
                                                             "mcp_source_ids": ["portal"]}, as_user("ana"))
    assert response.status_code == 200
    # No document, sheet or portal tool, and no anchor retrieval: only the MCP call ran.
    assert tool_names(frames) == ["mcp.portal.search"]
    passages = [data for name, data in frames if name == "passage"]
    assert passages and passages[0]["kind"] == "tool" and passages[0]["tool"] == "mcp.portal.search"
    assert passages[0]["source_url"] == "https://portal.example.go.id/sim-keliling"
    assert passages[0]["citation"]["kind"] == "tool" and passages[0]["citation_key"].startswith("tool:")
    citations = [data for name, data in frames if name == "citation"]
    assert citations and citations[0]["call"] == passages[0]["citation"]["call"]


@pytest.mark.parametrize("mcp", [[], None, "omitted"])
def test_an_empty_set_without_mcp_is_400(server, world, mcp):
    set_sources(server, world)
    chat = new_chat(server, world)
    body = {"query": SIM_QUESTION, "conversation_id": chat}
    if mcp != "omitted":
        body["mcp_source_ids"] = mcp
    for route in ("/query", "/query/v2"):
        response = call(server, route, body)
        assert response.status_code == 400
        assert response.json()["detail"].startswith("This workspace has no sources")
    response, frames = stream(server.url + "/query/stream", body, as_user("ana"))
    assert response.status_code == 400 and frames == []


def test_an_unusable_selection_is_400_not_the_excluded_corpus(server, world):
    set_sources(server, world)
    chat = new_chat(server, world)
    response = call(server, "/query", {"query": "Kapan zakat dibayar?", "conversation_id": chat, "mcp_source_ids": ["nope"]})
    assert response.status_code == 400 and "MCP" in response.json()["detail"]


def test_a_saved_selection_carries_to_follow_ups_for_every_member(server, world):
    set_sources(server, world)
    chat = new_chat(server, world)
    first = call(server, "/query", {"query": SIM_QUESTION, "conversation_id": chat, "mcp_source_ids": ["portal"]})
    assert first.status_code == 200
    # The partner's follow-up omits mcp_source_ids: the chat's saved selection applies.
    follow = call(server, "/query", {"query": "Jam berapa layanan SIM keliling itu dibuka?", "conversation_id": chat},
                  subject="budi")
    assert follow.status_code == 200, follow.text
    assert {c["kind"] for c in follow.json()["citations"]} == {"tool"}
    # Clearing the selection leaves an empty set with nothing to answer from.
    cleared = call(server, "/query", {"query": SIM_QUESTION, "conversation_id": chat, "mcp_source_ids": []})
    assert cleared.status_code == 400


def test_viewers_may_not_ask_and_strangers_do_not_find_the_chat(server, world):
    set_sources(server, world, whole_corpus=True)
    chat = new_chat(server, world)
    for route in ("/query", "/query/v2"):
        viewer = call(server, route, {"query": "Kapan zakat dibayar?", "conversation_id": chat}, subject="cut")
        assert viewer.status_code == 403
        stranger = call(server, route, {"query": "Kapan zakat dibayar?", "conversation_id": chat}, subject="dedi")
        assert stranger.status_code == 404
    response, frames = stream(server.url + "/query/v2/stream", {"query": "Kapan zakat dibayar?", "conversation_id": chat,
                                                                "mcp_source_ids": ["portal"]}, as_user("cut"))
    assert response.status_code == 403 and frames == []


def test_saved_documents_gone_answers_from_mcp_with_the_fixed_note(server, world):
    set_sources(server, world, document_ids=[str(uuid.uuid4())])
    chat = new_chat(server, world)
    response = call(server, "/query", {"query": SIM_QUESTION, "conversation_id": chat, "mcp_source_ids": ["portal"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["answer"].startswith("Catatan: dokumen yang tersimpan sebagai sumber tidak lagi tersedia")
    assert {c["kind"] for c in body["citations"]} == {"tool"}


def test_saved_documents_gone_on_v2_the_note_leads_as_unchecked_framing(server, world):
    set_sources(server, world, document_ids=[str(uuid.uuid4())])
    chat = new_chat(server, world)
    response = call(server, "/query/v2", {"query": SIM_QUESTION, "conversation_id": chat, "mcp_source_ids": ["portal"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["fallback_used"] is False, body
    assert body["answer"].startswith("Catatan: dokumen yang tersimpan sebagai sumber tidak lagi tersedia")
    # The note is framing (segment 0), not a claim; the answer's claims cite the MCP tool.
    first = body["framing"][0]
    assert first["start"] == 0 and body["answer"][:first["end"]].startswith("Catatan: dokumen yang tersimpan")
    assert all(not claim["text"].startswith("Catatan") for claim in body["claims"])
    supported = [claim for claim in body["claims"] if claim["verdict"] == "supported"]
    assert supported and all(claim["citations"] for claim in supported)
    assert body["tool"] == "mcp.portal.search" and body["tool_executed"] is True


def test_a_document_scope_wins_and_a_public_source_adds_evidence(server, world):
    set_sources(server, world, document_ids=[world["zakat"]])
    chat = new_chat(server, world)
    question = "Kapan muzakki wajib membayar zakat melalui Baitul Mal Aceh?"
    response, frames = stream(server.url + "/query/stream", {"query": question, "conversation_id": chat,
                                                             "mcp_source_ids": ["portal", "internal"]}, as_user("ana"))
    assert response.status_code == 200
    names = tool_names(frames)
    # The governed source is withheld under the document boundary; the public one is called.
    assert "mcp.portal.search" in names and "mcp.internal.search" not in names
    assert "search_documents" in names
    citations = [data for name, data in frames if name == "citation"]
    assert any(c["kind"] == "chunk" and c["document_id"] == world["zakat"] for c in citations)


def test_a_governed_source_is_used_without_a_boundary(server, world):
    set_sources(server, world)
    chat = new_chat(server, world)
    response, frames = stream(server.url + "/query/stream", {"query": SIM_QUESTION, "conversation_id": chat,
                                                             "mcp_source_ids": ["internal"]}, as_user("ana"))
    assert response.status_code == 200 and tool_names(frames) == ["mcp.internal.search"]


@pytest.mark.parametrize("source", ["down", "failing"])
@pytest.mark.parametrize("route", ROUTES)
def test_an_unavailable_source_is_the_seed_refusal_never_a_500(server, world, source, route):
    set_sources(server, world)
    chat = new_chat(server, world)
    response = call(server, route, {"query": SIM_QUESTION, "conversation_id": chat, "mcp_source_ids": [source]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["fallback_used"] is True and body["fallback_reason"] == "mcp_source_unavailable"
    assert body["citations"] == [] and "MCP" in body["answer"]


def test_a_failing_call_is_a_finished_tool_frame_with_ok_false(server, world):
    set_sources(server, world)
    chat = new_chat(server, world)
    response, frames = stream(server.url + "/query/stream", {"query": SIM_QUESTION, "conversation_id": chat,
                                                             "mcp_source_ids": ["failing", "portal"]}, as_user("ana"))
    finished = {data["tool"]: data for name, data in frames if name == "tool.finished"}
    assert finished["mcp.failing.broken"]["ok"] is False
    assert finished["mcp.failing.broken"]["result"] == {"error": "mcp_source_unavailable"}
    assert finished["mcp.portal.search"]["ok"] is True
    assert dict(frames)["faithfulness"]["fallback_used"] is False


def test_an_ordinary_chat_may_add_a_public_source(server, world):
    response = call(server, "/query", {"query": SIM_QUESTION, "mcp_source_ids": ["portal"]}, subject="eka")
    assert response.status_code == 200
    kinds = {c["kind"] for c in response.json()["citations"]}
    assert "tool" in kinds


@pytest.mark.parametrize("route", ["/query", "/query/v2"])
def test_a_first_turn_selection_is_saved_for_a_follow_up_that_omits_it(server, world, route):
    """The seed: "A follow-up may omit mcp_source_ids; the conversation's saved MCP selection applies", also
    when the selection came with the turn that created the conversation."""
    first = call(server, route, {"query": SIM_QUESTION, "mcp_source_ids": ["portal"]}, subject="eka")
    assert first.status_code == 200, first.text
    chat = first.json()["conversation_id"]
    response, frames = stream(server.url + route + "/stream", {"query": "Jam berapa layanan SIM keliling itu dibuka?",
                                                               "conversation_id": chat}, as_user("eka"))
    assert response.status_code == 200
    assert "mcp.portal.search" in tool_names(frames)
    # A later turn that clears it is saved too: the next follow-up calls no MCP source.
    cleared = call(server, route, {"query": SIM_QUESTION, "conversation_id": chat, "mcp_source_ids": []}, subject="eka")
    assert cleared.status_code == 200, cleared.text
    response, frames = stream(server.url + route + "/stream", {"query": "Kapan zakat dibayar?", "conversation_id": chat},
                              as_user("eka"))
    assert response.status_code == 200 and not any(t.startswith("mcp.") for t in tool_names(frames))


def mcp_agent(body: dict):
    """A careful model in an MCP-only chat: call the source's search tool once, then answer from its passage."""
    from tests.answering.scripted_model import INJECTION, completion, first_sentence, outside_passages, shown_passages, tool_call

    if INJECTION.search(outside_passages(body)):
        return completion("HACKED")
    names = [tool["function"]["name"] for tool in body.get("tools", [])]
    if names and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[tool_call(names[0], {"query": "injeksi jadwal KTP keliling"})])
    passages = shown_passages(body)
    if not passages:
        return completion("Informasi tersebut tidak ditemukan dalam dokumen yang tersedia.")
    label, text = passages[-1]
    return completion(f"{first_sentence(text)} [{label}].")


def test_the_model_is_offered_only_the_mcp_tools_and_does_not_obey_their_text(live_server_factory, world):
    from tests.answering.scripted_model import ScriptedModel
    from tests.http_fakes import FakeModelServer

    model = ScriptedModel(agent=mcp_agent)
    with FakeModelServer(model) as fake:
        server = live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted")
        set_sources(server, world)
        chat = new_chat(server, world)
        response, frames = stream(server.url + "/query/stream", {"query": "Kapan jadwal layanan KTP keliling 2026?",
                                                                 "conversation_id": chat, "mcp_source_ids": ["portal"]},
                                  as_user("ana"))
    assert response.status_code == 200
    offered = [tool["function"]["name"] for tool in model.bodies("agent")[0]["tools"]]
    assert offered == ["mcp__portal__search"]
    answer = "".join(data["text"] for name, data in frames if name == "answer.delta")
    assert "HACKED" not in answer and "KTP keliling" in answer
    started = [data for name, data in frames if name == "tool.started"]
    assert [s["tool"] for s in started] == ["mcp.portal.search", "mcp.portal.search"]
    assert started[1]["arguments"] == {"query": "injeksi jadwal KTP keliling"}
    tool_passages = [data for name, data in frames if name == "passage"]
    assert tool_passages and all(p["kind"] == "tool" for p in tool_passages)


def test_a_tool_read_is_published_with_its_stable_label_on_the_model_path(live_server_factory, world):
    """One label format on /query (#31): a tool source's label is ``[tool:<call>]``, its citation's call."""
    import re

    from tests.answering.scripted_model import ScriptedModel
    from tests.http_fakes import FakeModelServer

    model = ScriptedModel(agent=mcp_agent)
    with FakeModelServer(model) as fake:
        server = live_server_factory(ACEH_RAG_LLM__BASE_URL=fake.url, ACEH_RAG_LLM__MODEL="scripted")
        set_sources(server, world)
        chat = new_chat(server, world)
        response = call(server, "/query", {"query": "Kapan jadwal layanan KTP keliling 2026?", "conversation_id": chat,
                                           "mcp_source_ids": ["portal"]})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["fallback_used"] is False, body
    labels = re.findall(r"\[(tool:call_\d+)\]", body["answer"])
    assert labels and not re.search(r"\[P\d+\]", body["answer"])
    assert set(labels) <= {f"tool:{c['call']}" for c in body["citations"] if c["kind"] == "tool"}
