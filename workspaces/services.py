"""Writes: workspaces, members, notebooks, saved source sets, chats, MCP sources."""
from __future__ import annotations

import uuid

from django.db import transaction

from conversations.facade import conversation_create
from kernel.errors import Forbidden, NotFound
from workspaces.models import McpSource, Notebook, SavedSources, Workspace, WorkspaceMember


class WorkspaceDenied(Forbidden):
    """The caller's role may not do this."""

    code = "workspace_denied"


class SubjectRequired(Forbidden):
    """The key is valid but no person is named: workspaces and notebooks belong to people."""

    code = "subject_required"


class WorkspaceNotFound(NotFound):
    """A workspace, notebook or member the caller cannot see (unknown and foreign look alike)."""

    code = "workspace_not_found"


@transaction.atomic
def workspace_create(*, name: str, owner: str) -> Workspace:
    workspace = Workspace.objects.create(name=name, created_by=owner)
    WorkspaceMember.objects.create(workspace=workspace, subject=owner, role=WorkspaceMember.Role.OWNER)
    return workspace


def member_put(*, workspace: Workspace, actor_role: str, subject: str, role: str) -> WorkspaceMember:
    """Add a member or change their role (owner only); the owner's own membership cannot be changed here."""
    if actor_role != WorkspaceMember.Role.OWNER:
        raise WorkspaceDenied("Only the workspace owner can manage members")
    member, _ = WorkspaceMember.objects.exclude(role=WorkspaceMember.Role.OWNER).update_or_create(
        workspace=workspace, subject=subject, defaults={"role": role})
    return member


def member_remove(*, workspace: Workspace, actor_role: str, subject: str) -> bool:
    if actor_role != WorkspaceMember.Role.OWNER:
        raise WorkspaceDenied("Only the workspace owner can manage members")
    deleted, _ = (WorkspaceMember.objects.filter(workspace=workspace, subject=subject)
                  .exclude(role=WorkspaceMember.Role.OWNER).delete())
    return bool(deleted)


def sources_replace(*, holder: SavedSources, whole_corpus: bool, collection_ids: list[str],
                    document_ids: list[uuid.UUID], mcp_source_ids: list[str]) -> SavedSources:
    """Replace a saved source set (the caller's right to do so is checked by the route)."""
    holder.whole_corpus = whole_corpus
    holder.collection_ids = list(dict.fromkeys(c.strip() for c in collection_ids if c.strip()))
    holder.document_ids = [str(d) for d in dict.fromkeys(document_ids)]
    holder.mcp_source_ids = list(dict.fromkeys(m.strip() for m in mcp_source_ids if m.strip()))
    holder.save(update_fields=["whole_corpus", "collection_ids", "document_ids", "mcp_source_ids"])
    return holder


def workspace_conversation_create(*, workspace: Workspace, actor_role: str, owner: str, title: str | None):
    if actor_role == WorkspaceMember.Role.VIEWER:
        raise WorkspaceDenied("A Viewer cannot ask in this workspace")
    return conversation_create(owner=owner, title=title, workspace_id=workspace.id,
                               metadata={"mode": "workspace", "workspace_id": str(workspace.id)})


def notebook_create(*, name: str, owner: str) -> Notebook:
    return Notebook.objects.create(name=name, owner=owner)


def notebook_conversation_create(*, notebook: Notebook, owner: str, title: str | None):
    return conversation_create(owner=owner, title=title, notebook_id=notebook.id,
                               metadata={"mode": "notebook", "notebook_id": str(notebook.id)})


def mcp_source_add(*, source_id: str, name: str, url: str, governed: bool = False, headers: dict | None = None,
                   search_tool: str = "search", allowed_tools: list[str] | None = None,
                   timeout_seconds: float = 10.0) -> McpSource:
    source, _ = McpSource.objects.update_or_create(id=source_id, defaults={
        "name": name, "url": url, "headers": headers or {}, "search_tool": search_tool,
        "visibility": McpSource.Visibility.GOVERNED if governed else McpSource.Visibility.PUBLIC,
        "allowed_tools": allowed_tools or [], "timeout_seconds": timeout_seconds, "enabled": True,
    })
    return source


def mcp_source_remove(*, source_id: str) -> bool:
    deleted, _ = McpSource.objects.filter(id=source_id).delete()
    return bool(deleted)
