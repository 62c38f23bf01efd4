"""corpus_inventory: the seed's exact counts and bounds, one snapshot, access, and the answer that cites it."""
from __future__ import annotations

import uuid

import httpx
import pytest

from kernel.principal import Principal
from retrieval.access import Scope
from retrieval.models import Document
from tests.conftest import TEST_API_KEY, purge_committed_corpus
from tests.factories import make_document
from workspaces.inventory import LIST_BUDGET, TITLE_CHARS, bounded_list, corpus_inventory, neutralised

pytestmark = pytest.mark.django_db
ANA = Principal(subject="ana", verified=True)


def uploads(workspace_id: uuid.UUID, titles: list[str], **access) -> list[Document]:
    return [make_document(chunks=[f"Isi dokumen {t}."], title=t, workspace_id=workspace_id, **access) for t in titles]


@pytest.fixture
def workspace():
    from workspaces.services import workspace_create

    return workspace_create(name="Bappeda", owner="ana")


def test_eleven_uploads_one_selected_is_eleven_one_ten(workspace):
    docs = uploads(workspace.id, [f"Laporan Kinerja Triwulan {i:02d}" for i in range(1, 12)])
    make_document(chunks=["Dokumen korpus umum."], title="Qanun Umum")   # not an upload: never in the block
    inventory = corpus_inventory(principal=ANA, scope=Scope(document_ids=(docs[4].id,)), workspace_id=workspace.id)
    block = inventory.workspace
    assert (block.uploaded, block.selected, block.unselected) == (11, 1, 10)
    assert block.selected_titles == ("Laporan Kinerja Triwulan 05",)
    assert len(block.unselected_titles) == 10 and block.unselected_omitted == 0
    assert inventory.documents_in_scope == 1
    text = inventory.text("id")
    assert "11 dokumen unggahan yang terindeks: 1 dipilih sebagai sumber dan 10 tidak dipilih" in text


def test_a_whole_corpus_set_selects_every_upload_and_counts_the_whole_scope(workspace):
    uploads(workspace.id, ["Nota A", "Nota B"])
    make_document(chunks=["Dokumen korpus umum."], title="Qanun Umum")
    inventory = corpus_inventory(principal=ANA, scope=Scope(), workspace_id=workspace.id)
    assert (inventory.workspace.uploaded, inventory.workspace.selected, inventory.workspace.unselected) == (2, 2, 0)
    assert inventory.documents_in_scope == 3


def test_outside_a_workspace_there_is_no_upload_block(workspace):
    uploads(workspace.id, ["Nota A"])
    inventory = corpus_inventory(principal=ANA, scope=Scope(), workspace_id=None)
    assert inventory.workspace is None and "Workspace" not in inventory.text()


def test_failed_and_ingesting_files_and_restricted_uploads_are_excluded(workspace):
    docs = uploads(workspace.id, ["Nota A", "Nota B", "Nota C"])
    Document.objects.filter(pk=docs[1].pk).update(status=Document.Status.FAILED)
    Document.objects.filter(pk=docs[2].pk).update(status=Document.Status.INGESTING)
    uploads(workspace.id, ["Nota Keuangan Rahasia"], org_unit="Keuangan")
    block = corpus_inventory(principal=ANA, scope=Scope(), workspace_id=workspace.id).workspace
    assert (block.uploaded, block.selected_titles) == (1, ("Nota A",))
    finance = Principal(subject="ana", unit="Keuangan", verified=True)
    assert corpus_inventory(principal=finance, scope=Scope(), workspace_id=workspace.id).workspace.uploaded == 2


def test_titles_are_neutralised_and_lists_bounded():
    assert neutralised("Nota [klik](http://x.y/z)\n<b>tebal</b> `kode`") == "Nota klik ( b tebal /b kode"
    assert len(neutralised("x" * 500)) == TITLE_CHARS
    shown, omitted = bounded_list([f"Dokumen {i}" for i in range(30)], 30)
    assert len(shown) == 20 and omitted == 10
    long_titles = ["T" * 200 for _ in range(20)]
    shown, omitted = bounded_list(long_titles, 205)
    assert sum(len(f"- {t}\n") for t in shown) <= LIST_BUDGET and len(shown) == 9 and omitted == 205 - 9


def test_two_hundred_and_five_uploads_keep_exact_counts_beyond_the_page(workspace):
    docs = uploads(workspace.id, [f"Surat Edaran {i:03d}" for i in range(205)])
    block = corpus_inventory(principal=ANA, scope=Scope(document_ids=tuple(d.id for d in docs[:3])),
                             workspace_id=workspace.id).workspace
    assert (block.uploaded, block.selected, block.unselected) == (205, 3, 202)
    assert len(block.unselected_titles) == 20 and block.unselected_omitted == 182
    assert "(182 lainnya tidak ditampilkan)" in corpus_inventory(
        principal=ANA, scope=Scope(document_ids=tuple(d.id for d in docs[:3])), workspace_id=workspace.id).text("id")


@pytest.fixture(scope="module")
def inventory_world(django_db_setup, django_db_blocker):
    from workspaces.models import Workspace
    from workspaces.services import sources_replace, workspace_create

    with django_db_blocker.unblock():
        workspace = workspace_create(name="Inventaris", owner="ana")
        docs = uploads(workspace.id, [f"Laporan Kinerja Triwulan {i:02d}" for i in range(1, 12)], collection="INV")
        make_document(chunks=["Dokumen korpus umum tentang pelayanan publik."], title="Qanun Umum", collection="INV")
        sources_replace(holder=workspace, whole_corpus=False, collection_ids=[], document_ids=[docs[0].id], mcp_source_ids=[])
        yield {"workspace": str(workspace.id)}
        Workspace.objects.all().delete()
        purge_committed_corpus()


def test_the_upload_question_is_answered_from_the_inventory_with_a_tool_citation(live_server_factory, inventory_world):
    server = live_server_factory()
    headers = {"X-API-Key": TEST_API_KEY, "X-User-Subject": "ana"}
    chat = httpx.post(f"{server.url}/workspaces/{inventory_world['workspace']}/conversations", json={}, headers=headers).json()["id"]
    response = httpx.post(server.url + "/query", json={"query": "Dokumen apa saja yang sudah saya unggah di workspace ini?",
                                                        "conversation_id": chat}, headers=headers, timeout=60)
    body = response.json()
    assert response.status_code == 200 and body["fallback_used"] is False, body
    assert "11 dokumen unggahan" in body["answer"] and "10 tidak dipilih" in body["answer"]
    assert [c["tool"] for c in body["citations"]] == ["corpus_inventory"]


@pytest.mark.parametrize("route", ["/query", "/query/v2"])
def test_the_inventory_answer_shows_the_bounded_title_lists(live_server_factory, inventory_world, route):
    server = live_server_factory()
    headers = {"X-API-Key": TEST_API_KEY, "X-User-Subject": "ana"}
    chat = httpx.post(f"{server.url}/workspaces/{inventory_world['workspace']}/conversations", json={},
                      headers=headers).json()["id"]
    response = httpx.post(server.url + route, json={"query": "Dokumen apa saja yang sudah saya unggah di workspace ini?",
                                                    "conversation_id": chat}, headers=headers, timeout=60)
    body = response.json()
    assert response.status_code == 200 and body["fallback_used"] is False, body
    assert "11 dokumen unggahan" in body["answer"]
    # The selected upload and the ten others, by their neutralised titles.
    assert "Laporan Kinerja Triwulan 01" in body["answer"], body["answer"]
    assert all(f"Laporan Kinerja Triwulan {i:02d}" in body["answer"] for i in range(2, 12))
    assert [c["tool"] for c in body["citations"]] == ["corpus_inventory"]


@pytest.mark.parametrize("question", ["Berapa dokumen yang tersedia?", "Dokumen apa saja yang tersedia?"])
@pytest.mark.parametrize("route", ["/query", "/query/v2"])
def test_outside_a_workspace_the_source_inventory_answers(live_server_factory, inventory_world, route, question):
    server = live_server_factory()
    response = httpx.post(server.url + route, json={"query": question},
                          headers={"X-API-Key": TEST_API_KEY, "X-User-Subject": "budi"}, timeout=60)
    body = response.json()
    assert response.status_code == 200 and body["fallback_used"] is False, body
    assert "dokumen terindeks" in body["answer"] and "Workspace" not in body["answer"]
    assert [c["tool"] for c in body["citations"]] == ["corpus_inventory"]
