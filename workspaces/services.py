"""Writes: workspaces, members, notebooks, saved source sets, chats, MCP sources."""
from __future__ import annotations

import uuid

from django.db import IntegrityError, transaction

from conversations.facade import conversation_create
from kernel.errors import Conflict, Forbidden, NotFound
from kernel.outbound import outbound_url_check
from workspaces.models import McpSource, Notebook, SavedSources, Workspace, WorkspaceMember


class WorkspaceDenied(Forbidden):
    """The caller's role may not do this."""

    code = "workspace_denied"


class SubjectRequired(Forbidden):
    """The key is valid but no person is named: workspaces and notebooks belong to people."""

    code = "subject_required"


class MemberConflict(Conflict):
    """The subject's membership cannot be set here: they own the workspace."""

    code = "workspace_member_conflict"


class WorkspaceNotFound(NotFound):
    """A workspace, notebook or member the caller cannot see (unknown and foreign look alike)."""

    code = "workspace_not_found"


@transaction.atomic
def workspace_create(*, name: str, owner: str) -> Workspace:
    workspace = Workspace.objects.create(name=name, created_by=owner)
    WorkspaceMember.objects.create(workspace=workspace, subject=owner, role=WorkspaceMember.Role.OWNER)
    return workspace


def member_put(*, workspace: Workspace, actor_role: str, subject: str, role: str) -> WorkspaceMember:
    """Add a member, or set an existing member's role (idempotent); the owner's membership is a 409.

    The unique constraint ``workspace_member_unique`` decides whether the
    subject is new: the insert runs in a savepoint and a violation turns into
    a role update, so two concurrent adds of one subject never reach a 500.
    """
    if actor_role != WorkspaceMember.Role.OWNER:
        raise WorkspaceDenied("Only the workspace owner can manage members")
    try:
        with transaction.atomic():
            return WorkspaceMember.objects.create(workspace=workspace, subject=subject, role=role)
    except IntegrityError as error:
        if _violated_constraint(error) != "workspace_member_unique":
            raise
    updated = (WorkspaceMember.objects.filter(workspace=workspace, subject=subject)
               .exclude(role=WorkspaceMember.Role.OWNER).update(role=role))
    if not updated:
        raise MemberConflict(f"{subject!r} owns this workspace; the owner's membership cannot be changed")
    return WorkspaceMember.objects.get(workspace=workspace, subject=subject)


def _violated_constraint(error: IntegrityError) -> str | None:
    """The constraint PostgreSQL names in the violation (psycopg's diagnostics), if any."""
    diag = getattr(error.__cause__, "diag", None)
    return getattr(diag, "constraint_name", None)


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
    """Register or replace a source; ``OutboundRefused`` (400) when its URL points where the server must not go."""
    outbound_url_check(url)
    source, _ = McpSource.objects.update_or_create(id=source_id, defaults={
        "name": name, "url": url, "headers": headers or {}, "search_tool": search_tool,
        "visibility": McpSource.Visibility.GOVERNED if governed else McpSource.Visibility.PUBLIC,
        "allowed_tools": allowed_tools or [], "timeout_seconds": timeout_seconds, "enabled": True,
    })
    return source


def mcp_source_remove(*, source_id: str) -> bool:
    deleted, _ = McpSource.objects.filter(id=source_id).delete()
    return bool(deleted)
