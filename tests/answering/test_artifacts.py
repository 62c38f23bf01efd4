"""Artifacts (seed: query-search-api; issue #31): offer_artifacts on /query and /query/stream, the
create_artifact tool on the model path, the deterministic DOCX note, GET /artifacts/{id} with the
conversation's ownership, against real servers and the scripted model."""
from __future__ import annotations

import csv
import io
import json
import re
import zipfile

import httpx
import pytest

from answering.artifacts.formats import CSV, DOCX
from answering.models import Artifact
from tests.answering.scripted_model import ScriptedModel, completion, first_sentence, shown_passages, tool_call
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.http_fakes import FakeModelServer
from tests.sse_client import stream

pytestmark = pytest.mark.django_db

ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
QUESTION = "Ke mana muzakki wajib membayar zakat?"
ROWS = [["Jenis", "Tarif"], ["Zakat profesi", "2,5 persen"], ["=cmd|' /C calc'!A0", "formula"]]


def headers(subject: str = "ana") -> dict:
    return {"X-API-Key": TEST_API_KEY, "X-User-Subject": subject}


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        make_document(title="Qanun Baitul Mal", chunks=[ZAKAT])
    yield
    with django_db_blocker.unblock():
        purge_committed_corpus()


def ask(server, route="/query", subject="ana", **body):
    response = httpx.post(server.url + route, json={"query": QUESTION, **body}, headers=headers(subject), timeout=60)
    assert response.status_code == 200, response.text
    return response.json()


def download(server, artifact: dict, subject="ana") -> httpx.Response:
    return httpx.get(server.url + artifact["url"], headers=headers(subject), timeout=30)


def stored_message(server, body, subject="ana") -> dict:
    return httpx.get(f"{server.url}/conversations/{body['conversation_id']}", headers=headers(subject),
                     timeout=30).json()["messages"][-1]


# -- the deterministic path ---------------------------------------------------------------------


def test_a_published_answer_comes_with_its_docx_note_only_for_its_owner(live_server_factory, corpus):
    server = live_server_factory()
    body = ask(server, offer_artifacts=True)
    assert body["fallback_used"] is False
    [artifact] = body["artifacts"]
    assert set(artifact) == {"id", "title", "media_type", "size", "url"}
    assert artifact["media_type"] == DOCX and artifact["url"] == f"/artifacts/{artifact['id']}"
    response = download(server, artifact)
    assert response.status_code == 200 and response.headers["content-type"] == DOCX
    assert len(response.content) == artifact["size"] and "attachment" in response.headers["content-disposition"]
    document = zipfile.ZipFile(io.BytesIO(response.content)).read("word/document.xml").decode()
    assert "Baitul Mal Aceh" in document and "Sumber:" in document and "Qanun Baitul Mal" in document
    assert "[chunk:" not in document and "[1]" in document
    # Owned like the message: another subject (and an unknown id) is 404, never 403.
    assert download(server, artifact, subject="budi").status_code == 404
    assert httpx.get(server.url + "/artifacts/42", headers=headers(), timeout=30).status_code == 422
    assert stored_message(server, body)["metadata"]["artifacts"] == body["artifacts"]


def test_without_the_offer_nothing_changes(live_server_factory, corpus):
    body = ask(live_server_factory())
    assert "artifacts" not in body and "artifacts" not in stored_message(live_server_factory(), body)["metadata"]


def test_a_refusal_attaches_nothing(live_server_factory, corpus):
    body = ask(live_server_factory(), offer_artifacts=True, query="Berapa jumlah kapal nelayan di Simeulue tahun 2031?")
    assert body["fallback_used"] is True and body["artifacts"] == []
    assert not Artifact.objects.filter(message_id=body["message_id"]).exists()


def test_the_stream_announces_the_artifact_before_done(live_server_factory, corpus):
    server = live_server_factory()
    response, frames = stream(server.url + "/query/stream", {"query": QUESTION, "offer_artifacts": True}, headers())
    names = [name for name, _ in frames]
    assert names[-3:] == ["faithfulness", "artifact", "done"]
    artifact = dict(frames)["artifact"]
    assert download(server, artifact).status_code == 200


def test_query_v2_still_accepts_only_false(live_server_factory, corpus):
    response = httpx.post(live_server_factory().url + "/query/v2", json={"query": QUESTION, "offer_artifacts": True},
                          headers=headers(), timeout=30)
    assert response.status_code == 422


# -- the model path: create_artifact ------------------------------------------------------------


def artifact_agent(calls: list[dict], answer: str | None = None):
    """Searches, asks for ``calls`` create_artifact files, then answers citing the first passage."""
    def agent(body):
        tool_messages = [m for m in body["messages"] if m["role"] == "tool"]
        offered = [t["function"]["name"] for t in body.get("tools", [])]
        if "tools" in body and not tool_messages:
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"})])
        if "tools" in body and len(tool_messages) == 1 and calls and "create_artifact" in offered:
            return completion(None, finish="tool_calls", tool_calls=[
                tool_call("create_artifact", arguments, f"call_art_{n}") for n, arguments in enumerate(calls)])
        if answer is not None:
            return completion(answer)
        label, text = shown_passages(body)[0]
        return completion(f"{first_sentence(text)} [{label}].")
    return agent


@pytest.fixture(scope="module")
def scripted():
    model = ScriptedModel()
    with FakeModelServer(model) as fake:
        model.url = fake.url
        yield model


@pytest.fixture
def modelled(live_server_factory, corpus, scripted):
    scripted.calls.clear()
    return live_server_factory(ACEH_RAG_LLM__BASE_URL=scripted.url, ACEH_RAG_LLM__MODEL="scripted",
                               ACEH_RAG_LLM__MAX_RETRIES="0")


SECRET_TITLE = "Tabel Tarif Rahasia Argumen"


def test_create_artifact_makes_a_csv_whose_tool_frames_show_only_call_tool_ok_ms(modelled, scripted):
    scripted.scripts["agent"] = artifact_agent([{"title": SECRET_TITLE, "format": "csv", "rows": ROWS}])
    response, frames = stream(modelled.url + "/query/stream", {"query": QUESTION, "offer_artifacts": True}, headers())
    assert response.status_code == 200
    started = [data for name, data in frames if name == "tool.started" and data["tool"] == "create_artifact"]
    finished = [data for name, data in frames if name == "tool.finished" and data["tool"] == "create_artifact"]
    assert [set(d) for d in started] == [{"call", "tool"}]
    assert [set(d) for d in finished] == [{"call", "tool", "ok", "ms"}] and finished[0]["ok"] is True
    trace = dict(frames)["trace"]["tools"]
    assert [set(t) for t in trace if t["tool"] == "create_artifact"] == [{"call", "tool", "ok", "ms"}]
    # Never grounding: no passage or citation from the file, and its content is nowhere in the frames but its own.
    assert all(data.get("tool") != "create_artifact" for name, data in frames if name in ("passage", "citation"))
    everything_but_artifact = json.dumps([f for f in frames if f[0] != "artifact"])
    assert "2,5 persen" not in everything_but_artifact and SECRET_TITLE not in everything_but_artifact
    artifact = dict(frames)["artifact"]
    assert artifact["media_type"] == CSV and artifact["title"] == SECRET_TITLE
    content = download(modelled, artifact).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(content)))
    assert rows[:2] == ROWS[:2] and rows[2][0].startswith("'=")     # a formula is kept as text
    answer = "".join(data["text"] for name, data in frames if name == "answer.delta")
    assert re.search(r"\[chunk:[0-9a-f-]{36}\]", answer)


def test_saved_audit_withholds_the_arguments_too(modelled, scripted):
    scripted.scripts["agent"] = artifact_agent([{"title": SECRET_TITLE, "format": "docx", "text": "Catatan rahasia."}])
    body = ask(modelled, offer_artifacts=True, include_provenance=True)
    [artifact] = body["artifacts"]
    assert artifact["media_type"] == DOCX
    audits = [entry for entry in body["tool_call_audit"] if entry["tool"] == "create_artifact"]
    assert [set(entry) for entry in audits] == [{"call", "tool", "ok", "ms"}]
    stored = stored_message(modelled, body)
    saved = [e for e in stored["metadata"]["synthesis"]["tool_call_audit"] if e["tool"] == "create_artifact"]
    assert [set(entry) for entry in saved] == [{"call", "tool", "ok", "ms"}]
    assert "Catatan rahasia" not in json.dumps(stored) and stored["metadata"]["artifacts"] == body["artifacts"]


def test_a_format_refusal_creates_and_attaches_nothing(modelled, scripted):
    scripted.scripts["agent"] = artifact_agent([{"title": "Tabel", "format": "csv", "rows": ROWS}],
                                               answer='{"not": "prose"}')
    body = ask(modelled, offer_artifacts=True)
    assert (body["fallback_used"], body["fallback_reason"], body["artifacts"]) == (True, "unparseable_completion", [])
    assert stored_message(modelled, body)["metadata"]["artifacts"] == []
    assert not Artifact.objects.filter(message_id=body["message_id"]).exists()
    # The tool did run (ok), but nothing it made outlives the refused turn.
    assert any(kind == "agent" and "create_artifact" in json.dumps(b.get("messages")) for kind, b in scripted.calls)


def test_at_most_three_files_a_turn_and_bad_requests_are_refused_to_the_agent(modelled, scripted):
    good = {"title": "Tabel", "format": "csv", "rows": ROWS}
    scripted.scripts["agent"] = artifact_agent([good, {"title": "X", "format": "pdf", "text": "x"}, good, good, good])
    response, frames = stream(modelled.url + "/query/stream", {"query": QUESTION, "offer_artifacts": True}, headers())
    oks = [data["ok"] for name, data in frames if name == "tool.finished" and data["tool"] == "create_artifact"]
    # A round's calls may run at once: which good call finds the limit reached is not fixed, the counts are.
    assert sorted(oks) == [False, False, True, True, True]
    assert len([name for name, _ in frames if name == "artifact"]) == 3
    replies = [m["content"] for m in scripted.bodies("agent")[-1]["messages"] if m["role"] == "tool"]
    assert any("\"format\" must be" in r for r in replies) and any("at most 3 files" in r for r in replies)


def test_the_tool_is_offered_only_when_the_client_offers_artifacts(modelled, scripted):
    scripted.scripts["agent"] = artifact_agent([])
    ask(modelled)
    assert all("create_artifact" not in json.dumps(b.get("tools", [])) for b in scripted.bodies("agent"))
    ask(modelled, offer_artifacts=True)
    assert any("create_artifact" in json.dumps(b.get("tools", [])) for b in scripted.bodies("agent"))


# -- the files themselves -----------------------------------------------------------------------


def test_a_table_answer_becomes_a_csv_and_other_answers_a_docx_note():
    from answering.artifacts.drafts import deterministic_artifact
    from answering.types import Claim

    table = deterministic_artifact(question="Berapa iuran per kelas?", answer="…", citations=[], claims=[
        Claim("3 | Kelas I | 650.000", ("chunk:a",)), Claim("5 | Kelas III | 225.000.", ("chunk:a",))])
    assert table.media_type == CSV and table.filename == "Berapa-iuran-per-kelas.csv"
    assert list(csv.reader(io.StringIO(table.content.decode("utf-8-sig")))) == [
        ["3", "Kelas I", "650.000"], ["5", "Kelas III", "225.000"]]
    note = deterministic_artifact(question="Ke mana zakat dibayar?", answer="Ke Baitul Mal.", citations=[],
                                  claims=[Claim("Ke Baitul Mal.", ("chunk:a",))])
    assert note.media_type == DOCX and b"word/document.xml" in note.content


def test_an_xlsx_reads_back_with_its_rows_and_formulas_as_text():
    from openpyxl import load_workbook

    from answering.artifacts.drafts import artifact_draft

    draft = artifact_draft({"title": "Tarif: 2026?", "format": "xlsx", "rows": ROWS})
    sheet = load_workbook(io.BytesIO(draft.content)).active
    values = [[cell.value for cell in row] for row in sheet.iter_rows()]
    assert values[:2] == ROWS[:2] and values[2][0].startswith("'=") and sheet.title == "Tarif  2026 "
