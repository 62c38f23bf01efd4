"""Workspace, notebook and MCP-source routes: roles, 404 for non-members, saved sources, uploads."""
from __future__ import annotations

import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.factories import make_document
from workspaces.services import mcp_source_add

pytestmark = pytest.mark.django_db

QANUN = "QANUN ACEH NOMOR 41 TAHUN 2026\nTENTANG PELAYANAN TERPADU\n\nPasal 1\nPelayanan terpadu satu pintu dibuka setiap hari kerja.\n"


def as_user(api_client, subject: str | None, **claims):
    """Requests carry the trusted identity headers of ``subject``."""
    headers = {"HTTP_X_USER_SUBJECT": subject} if subject else {}
    headers.update({f"HTTP_X_USER_{k.upper()}": str(v) for k, v in claims.items()})

    class Caller:
        def get(self, path):
            return api_client.get(path, **headers)

        def post(self, path, body=None, **kwargs):
            if "data" in kwargs:
                return api_client.post(path, data=kwargs["data"], **headers)
            return api_client.post(path, body or {}, content_type="application/json", **headers)

        def put(self, path, body):
            return api_client.put(path, body, content_type="application/json", **headers)

        def delete(self, path):
            return api_client.delete(path, **headers)

    return Caller()


@pytest.fixture
def team(api_client):
    owner, partner, viewer, stranger = (as_user(api_client, s) for s in ("ana", "budi", "cut", "dedi"))
    created = owner.post("/workspaces", {"name": "Bappeda"})
    workspace_id = created.json()["workspace_id"]
    assert owner.post(f"/workspaces/{workspace_id}/members", {"subject": "budi", "role": "partner"}).status_code == 201
    assert owner.post(f"/workspaces/{workspace_id}/members", {"subject": "cut", "role": "viewer"}).status_code == 201
    return {"id": workspace_id, "owner": owner, "partner": partner, "viewer": viewer, "stranger": stranger,
            "created": created, "client": api_client}


def test_a_new_workspace_is_owned_and_starts_with_the_whole_corpus(team):
    assert team["created"].status_code == 201
    assert team["created"].json() == {
        "workspace_id": team["id"], "name": "Bappeda", "role": "owner",
        "sources": {"whole_corpus": True, "collection_ids": [], "document_ids": [], "mcp_source_ids": []},
    }
    mine = team["partner"].get("/workspaces").json()
    assert [(w["workspace_id"], w["role"]) for w in mine] == [(team["id"], "partner")]
    detail = team["viewer"].get(f"/workspaces/{team['id']}").json()
    assert detail["role"] == "viewer"
    assert {m["subject"]: m["role"] for m in detail["members"]} == {"ana": "owner", "budi": "partner", "cut": "viewer"}


def test_non_members_never_learn_a_workspace_exists(team):
    unknown = uuid.uuid4()
    for path in (f"/workspaces/{team['id']}", f"/workspaces/{unknown}"):
        response = team["stranger"].get(path)
        assert response.status_code == 404 and "not found" in response.json()["detail"]
    assert team["stranger"].put(f"/workspaces/{team['id']}/sources", {"whole_corpus": False}).status_code == 404
    assert team["stranger"].post(f"/workspaces/{team['id']}/conversations").status_code == 404
    assert team["stranger"].get(f"/workspaces/{team['id']}/documents").status_code == 404
    assert team["stranger"].get("/workspaces").json() == []


def test_roles_decide_who_manages_members_and_sources(team):
    workspace = f"/workspaces/{team['id']}"
    assert team["partner"].post(f"{workspace}/members", {"subject": "eka", "role": "viewer"}).status_code == 403
    assert team["viewer"].delete(f"{workspace}/members/budi").status_code == 403
    viewer_put = team["viewer"].put(f"{workspace}/sources", {"whole_corpus": False})
    assert viewer_put.status_code == 403
    saved = team["partner"].put(f"{workspace}/sources", {"whole_corpus": False, "collection_ids": [" JDIH ", "JDIH"],
                                                         "mcp_source_ids": ["portal"]})
    assert saved.status_code == 200
    assert saved.json() == {"whole_corpus": False, "collection_ids": ["JDIH"], "document_ids": [], "mcp_source_ids": ["portal"]}
    assert team["viewer"].get(workspace).json()["sources"] == saved.json()
    assert team["owner"].delete(f"{workspace}/members/budi").status_code == 204
    assert team["partner"].get(workspace).status_code == 404
    # The owner's own membership is not removable through the members route.
    assert team["owner"].delete(f"{workspace}/members/ana").status_code == 404


def test_a_bad_role_or_missing_subject_is_refused(team, api_client):
    response = team["owner"].post(f"/workspaces/{team['id']}/members", {"subject": "eka", "role": "owner"})
    assert response.status_code == 422 and response.json()["detail"][0]["loc"][-1] == "role"
    anonymous = as_user(api_client, None)
    for response in (anonymous.post("/workspaces", {"name": "x"}), anonymous.get("/notebooks")):
        assert response.status_code == 403 and "trusted user subject" in response.json()["detail"]


def test_viewers_cannot_start_a_chat_but_partners_can(team):
    assert team["viewer"].post(f"/workspaces/{team['id']}/conversations").status_code == 403
    chat = team["partner"].post(f"/workspaces/{team['id']}/conversations", {"title": "Anggaran"})
    assert chat.status_code == 201
    assert chat.json()["metadata"] == {"mode": "workspace", "workspace_id": team["id"]}


def test_workspace_uploads_are_members_only_and_keep_document_access(team, django_capture_on_commit_callbacks):
    upload = {"file": SimpleUploadedFile("qanun-41.txt", QANUN.encode())}
    with django_capture_on_commit_callbacks(execute=True):
        accepted = team["partner"].post(f"/workspaces/{team['id']}/documents", data=upload)
    assert accepted.status_code == 202
    restricted = make_document(chunks=["Rencana kerja rahasia bidang keuangan."], title="Nota Rahasia",
                               org_unit="Keuangan", workspace_id=uuid.UUID(team["id"]))
    listed = team["viewer"].get(f"/workspaces/{team['id']}/documents").json()
    assert [(d["title"], d["status"]) for d in listed] == [("Qanun Aceh Nomor 41 Tahun 2026 tentang Pelayanan Terpadu", "indexed")]
    document_id = listed[0]["document_id"]
    # Members see the upload everywhere; people outside the workspace never do.
    assert team["viewer"].get(f"/documents/{document_id}").status_code == 200
    assert team["stranger"].get(f"/documents/{document_id}").status_code == 404
    assert team["stranger"].get("/documents").json()["count"] == 0
    # Document access still applies inside the workspace: the Keuangan-only note needs that unit.
    finance = as_user(team["client"], "cut", unit="Keuangan")
    titles = {d["title"] for d in finance.get(f"/workspaces/{team['id']}/documents").json()}
    assert titles == {"Qanun Aceh Nomor 41 Tahun 2026 tentang Pelayanan Terpadu", restricted.title}


def test_viewer_uploads_are_refused(team):
    upload = {"file": SimpleUploadedFile("qanun-41.txt", QANUN.encode())}
    assert team["viewer"].post(f"/workspaces/{team['id']}/documents", data=upload).status_code == 403


def test_notebooks_are_personal(api_client):
    ana, budi = as_user(api_client, "ana"), as_user(api_client, "budi")
    created = ana.post("/notebooks", {"name": "Catatan pajak"})
    assert created.status_code == 201
    notebook_id = created.json()["notebook_id"]
    assert created.json()["sources"]["whole_corpus"] is True
    assert budi.get(f"/notebooks/{notebook_id}").status_code == 404
    assert budi.put(f"/notebooks/{notebook_id}/sources", {"whole_corpus": False}).status_code == 404
    saved = ana.put(f"/notebooks/{notebook_id}/sources", {"whole_corpus": False})
    assert saved.json()["whole_corpus"] is False
    chat = ana.post(f"/notebooks/{notebook_id}/conversations")
    assert chat.status_code == 201 and chat.json()["metadata"]["notebook_id"] == notebook_id
    assert [n["notebook_id"] for n in ana.get("/notebooks").json()] == [notebook_id]


def test_mcp_sources_list_hides_governed_sources_from_unverified_callers(api_client, settings):
    from dataclasses import replace

    mcp_source_add(source_id="portal", name="Portal Aceh", url="http://127.0.0.1:1/mcp", headers={"Authorization": "Bearer s3cret"})
    mcp_source_add(source_id="internal", name="Internal", url="http://127.0.0.1:1/mcp", governed=True)
    verified = as_user(api_client, "ana").get("/mcp-sources").json()
    assert [s["id"] for s in verified] == ["internal", "portal"]
    assert "s3cret" not in str(verified)
    settings.ACEH_RAG = replace(settings.ACEH_RAG, auth=replace(settings.ACEH_RAG.auth, trust_identity_headers=False))
    unverified = as_user(api_client, "ana").get("/mcp-sources").json()
    assert [s["id"] for s in unverified] == ["portal"]


def test_search_shows_a_workspace_upload_to_members_who_may_see_it_only(team):
    workspace_id = uuid.UUID(team["id"])
    make_document(chunks=["Laporan realisasi retribusi parkir triwulan ketiga."], title="Nota Parkir", workspace_id=workspace_id)
    make_document(chunks=["Laporan realisasi retribusi parkir rahasia bidang keuangan."], title="Nota Parkir Rahasia",
                  org_unit="Keuangan", workspace_id=workspace_id)

    def titles(caller):
        response = team["client"].post("/search", {"query": "retribusi parkir", "mode": "lexical"},
                                       content_type="application/json", **caller)
        assert response.status_code == 200
        return {r["citation"]["document_title"] for r in response.json()["results"]}

    assert titles({"HTTP_X_USER_SUBJECT": "dedi"}) == set()
    assert titles({"HTTP_X_USER_SUBJECT": "cut"}) == {"Nota Parkir"}
    assert titles({"HTTP_X_USER_SUBJECT": "cut", "HTTP_X_USER_UNIT": "Keuangan"}) == {"Nota Parkir", "Nota Parkir Rahasia"}


def test_adding_an_existing_member_sets_their_role_and_the_owner_is_a_conflict(team):
    members = f"/workspaces/{team['id']}/members"
    again = team["owner"].post(members, {"subject": "budi", "role": "partner"})
    assert again.status_code == 201 and again.json() == {"subject": "budi", "role": "partner"}
    changed = team["owner"].post(members, {"subject": "budi", "role": "viewer"})
    assert changed.status_code == 201 and changed.json() == {"subject": "budi", "role": "viewer"}
    owner_self = team["owner"].post(members, {"subject": "ana", "role": "partner"})
    assert owner_self.status_code == 409 and owner_self.json()["code"] == "workspace_member_conflict"
    detail = team["viewer"].get(f"/workspaces/{team['id']}").json()
    assert {m["subject"]: m["role"] for m in detail["members"]} == {"ana": "owner", "budi": "viewer", "cut": "viewer"}
