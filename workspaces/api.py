"""Workspace, notebook and MCP-source routes. Non-members get 404: a workspace's existence is never revealed."""
from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse
from ninja import File, Form, Router, Status
from ninja.files import UploadedFile

from kernel.principal import request_principal
from conversations.facade import conversation_summary
from conversations.facade import ConversationSummary
from retrieval.facade.storage import upload_requester
from retrieval.facade.storage import IngestOptions
from retrieval.facade.schemas import IngestionAccepted
from kernel.schemas import ErrorOut
from retrieval.facade.documents import workspace_documents_visible, workspace_ingestions_pending
from retrieval.facade.storage import document_upload_accept
from workspaces import schemas, selectors, services
from workspaces.models import WorkspaceMember

router = Router(tags=["workspaces"])
ERRORS = {403: ErrorOut, 404: ErrorOut}
EDITORS = (WorkspaceMember.Role.OWNER, WorkspaceMember.Role.PARTNER)


# The key is valid but no person is named: workspaces and notebooks belong to people.
SUBJECT_REQUIRED = "Workspaces and notebooks need a trusted user subject (X-User-Subject or a partner JWT)"


def _subject(request: HttpRequest) -> str:
    subject = request_principal(request).subject
    if not subject:
        raise services.SubjectRequired(SUBJECT_REQUIRED)
    return subject


def _workspace_out(workspace, role: str) -> dict:
    return {"workspace_id": str(workspace.id), "name": workspace.name, "role": role, "sources": workspace.sources()}


def _not_found(kind: str, object_id) -> services.WorkspaceNotFound:
    return services.WorkspaceNotFound(f"{kind} {object_id} not found")


@router.post("/workspaces", response={201: schemas.WorkspaceOut, **ERRORS}, summary="Create a shared workspace (you are its owner)")
def workspace_create(request: HttpRequest, payload: schemas.NameIn):
    workspace = services.workspace_create(name=payload.name.strip(), owner=_subject(request))
    return Status(201, _workspace_out(workspace, WorkspaceMember.Role.OWNER))


@router.get("/workspaces", response={200: list[schemas.WorkspaceOut], **ERRORS}, summary="The workspaces you belong to, with your role")
def workspace_list(request: HttpRequest):
    return [_workspace_out(w, role) for w, role in selectors.workspace_list_for(subject=_subject(request))]


@router.get("/workspaces/{workspace_id}", response={200: schemas.WorkspaceDetail, **ERRORS}, summary="One workspace you belong to")
def workspace_detail(request: HttpRequest, workspace_id: uuid.UUID):
    found = selectors.workspace_get_for(workspace_id=workspace_id, subject=_subject(request))
    if found is None:
        raise _not_found("Workspace", workspace_id)
    workspace, role = found
    members = [{"subject": m.subject, "role": m.role} for m in selectors.workspace_members(workspace=workspace)]
    return {**_workspace_out(workspace, role), "members": members}


@router.post("/workspaces/{workspace_id}/members", response={201: schemas.MemberOut, 409: ErrorOut, **ERRORS}, summary="Add a partner or viewer (owner only)")
def member_add(request: HttpRequest, workspace_id: uuid.UUID, payload: schemas.MemberIn):
    found = selectors.workspace_get_for(workspace_id=workspace_id, subject=_subject(request))
    if found is None:
        raise _not_found("Workspace", workspace_id)
    member = services.member_put(workspace=found[0], actor_role=found[1], subject=payload.subject.strip(), role=payload.role)
    return Status(201, {"subject": member.subject, "role": member.role})


@router.delete("/workspaces/{workspace_id}/members/{subject}", response={204: None, **ERRORS}, summary="Remove a member (owner only)")
def member_remove(request: HttpRequest, workspace_id: uuid.UUID, subject: str):
    found = selectors.workspace_get_for(workspace_id=workspace_id, subject=_subject(request))
    if found is None:
        raise _not_found("Workspace", workspace_id)
    removed = services.member_remove(workspace=found[0], actor_role=found[1], subject=subject)
    if not removed:
        raise _not_found("Member", subject)
    return HttpResponse(status=204)


@router.put("/workspaces/{workspace_id}/sources", response={200: schemas.SourcesOut, **ERRORS}, summary="Replace the saved source set (owner or partner)")
def workspace_sources(request: HttpRequest, workspace_id: uuid.UUID, payload: schemas.SourcesIn):
    found = selectors.workspace_get_for(workspace_id=workspace_id, subject=_subject(request))
    if found is None:
        raise _not_found("Workspace", workspace_id)
    if found[1] not in EDITORS:
        raise services.WorkspaceDenied("A Viewer cannot change the workspace's sources")
    return services.sources_replace(holder=found[0], **payload.dict()).sources()


@router.get("/workspaces/{workspace_id}/documents", response={200: list[schemas.WorkspaceDocumentOut], **ERRORS},
            summary="The workspace's uploads you may see, with status")
def workspace_documents(request: HttpRequest, workspace_id: uuid.UUID):
    subject = _subject(request)
    if selectors.workspace_get_for(workspace_id=workspace_id, subject=subject) is None:
        raise _not_found("Workspace", workspace_id)
    principal = request_principal(request)
    indexed = [{"document_id": str(d.id), "ingestion_id": None, "title": d.title, "status": d.status,
                "chunk_count": d.chunk_count} for d in workspace_documents_visible(principal=principal, workspace_id=workspace_id)]
    pending = [{"document_id": None, "ingestion_id": str(i.id), "title": i.title or i.source_name, "status": i.status,
                "chunk_count": 0} for i in workspace_ingestions_pending(workspace_id=workspace_id, requested_by=subject)]
    return pending + indexed


@router.post("/workspaces/{workspace_id}/documents", response={202: IngestionAccepted, 413: ErrorOut, 415: ErrorOut, 503: ErrorOut, **ERRORS},
             summary="Upload a file into the workspace (same rules as POST /documents)")
def workspace_upload(request: HttpRequest, workspace_id: uuid.UUID, file: UploadedFile = File(...),
                     title: str | None = Form(None, max_length=500), confidential: bool = Form(False),
                     owning_org_unit: str | None = Form(None, max_length=200),
                     min_position_level: int | None = Form(None, ge=0, le=1000)):
    found = selectors.workspace_get_for(workspace_id=workspace_id, subject=_subject(request))
    if found is None:
        raise _not_found("Workspace", workspace_id)
    if found[1] not in EDITORS:
        raise services.WorkspaceDenied("A Viewer cannot upload into this workspace")
    options = IngestOptions.build(collection_id=f"workspace-{workspace_id}", title=title, confidential=confidential,
                                  owning_org_unit=owning_org_unit, min_position_level=min_position_level,
                                  workspace_id=workspace_id)
    ingestion = document_upload_accept(file=file, options=options, requested_by=upload_requester(request))
    return Status(202, {"ingestion_id": str(ingestion.id), "status": "queued", "source_name": ingestion.source_name})


@router.post("/workspaces/{workspace_id}/conversations", response={201: ConversationSummary, **ERRORS}, summary="Start a chat of the workspace")
def workspace_conversation(request: HttpRequest, workspace_id: uuid.UUID, payload: schemas.ConversationIn | None = None):
    subject = _subject(request)
    found = selectors.workspace_get_for(workspace_id=workspace_id, subject=subject)
    if found is None:
        raise _not_found("Workspace", workspace_id)
    conversation = services.workspace_conversation_create(
        workspace=found[0], actor_role=found[1], owner=subject, title=payload.title if payload else None)
    return Status(201, conversation_summary(conversation))


def _notebook_out(notebook) -> dict:
    return {"notebook_id": str(notebook.id), "name": notebook.name, "sources": notebook.sources()}


@router.post("/notebooks", response={201: schemas.NotebookOut, **ERRORS}, summary="Create a personal notebook")
def notebook_create(request: HttpRequest, payload: schemas.NameIn):
    return Status(201, _notebook_out(services.notebook_create(name=payload.name.strip(), owner=_subject(request))))


@router.get("/notebooks", response={200: list[schemas.NotebookOut], **ERRORS}, summary="Your notebooks")
def notebook_list(request: HttpRequest):
    return [_notebook_out(n) for n in selectors.notebook_list_for(owner=_subject(request))]


@router.get("/notebooks/{notebook_id}", response={200: schemas.NotebookOut, **ERRORS}, summary="One of your notebooks")
def notebook_detail(request: HttpRequest, notebook_id: uuid.UUID):
    notebook = selectors.notebook_get_for(notebook_id=notebook_id, owner=_subject(request))
    if notebook is None:
        raise _not_found("Notebook", notebook_id)
    return _notebook_out(notebook)


@router.put("/notebooks/{notebook_id}/sources", response={200: schemas.SourcesOut, **ERRORS}, summary="Replace the notebook's saved source set")
def notebook_sources(request: HttpRequest, notebook_id: uuid.UUID, payload: schemas.SourcesIn):
    notebook = selectors.notebook_get_for(notebook_id=notebook_id, owner=_subject(request))
    if notebook is None:
        raise _not_found("Notebook", notebook_id)
    return services.sources_replace(holder=notebook, **payload.dict()).sources()


@router.post("/notebooks/{notebook_id}/conversations", response={201: ConversationSummary, **ERRORS}, summary="Start a chat of the notebook")
def notebook_conversation(request: HttpRequest, notebook_id: uuid.UUID, payload: schemas.ConversationIn | None = None):
    owner = _subject(request)
    notebook = selectors.notebook_get_for(notebook_id=notebook_id, owner=owner)
    if notebook is None:
        raise _not_found("Notebook", notebook_id)
    conversation = services.notebook_conversation_create(notebook=notebook, owner=owner, title=payload.title if payload else None)
    return Status(201, conversation_summary(conversation))


@router.get("/mcp-sources", response=list[schemas.McpSourceOut], summary="MCP sources you may select (mcp_source_ids)")
def mcp_source_list(request: HttpRequest):
    return [{"id": s.id, "name": s.name, "visibility": s.visibility, "tools": s.tool_names()}
            for s in selectors.mcp_sources_selectable(principal=request_principal(request))]
