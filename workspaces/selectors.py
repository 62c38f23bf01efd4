"""Reads: membership, a caller's workspaces and notebooks, selectable MCP sources."""
from __future__ import annotations

import uuid
from dataclasses import replace

from kernel.principal import Principal
from workspaces.mcp_client import McpEndpoint
from workspaces.models import McpSource, Notebook, Workspace, WorkspaceMember


def principal_with_memberships(principal: Principal) -> Principal:
    """The principal carrying its subject's workspace memberships (a lazy subquery: no query runs here).

    Retrieval's access predicate shows a workspace's uploads to its members by reading them off the principal.
    """
    if not principal.subject or principal.workspace_ids is not None:
        return principal
    return replace(principal, workspace_ids=WorkspaceMember.objects.filter(subject=principal.subject)
                   .values("workspace_id"))


def member_role(*, workspace_id: uuid.UUID, subject: str) -> str | None:
    return (WorkspaceMember.objects.filter(workspace_id=workspace_id, subject=subject)
            .values_list("role", flat=True).first())


def workspace_get_for(*, workspace_id: uuid.UUID, subject: str) -> tuple[Workspace, str] | None:
    """The workspace and the caller's role; None for non-members and unknown ids alike."""
    membership = (WorkspaceMember.objects.select_related("workspace")
                  .filter(workspace_id=workspace_id, subject=subject).first())
    return (membership.workspace, membership.role) if membership else None


def workspace_list_for(*, subject: str) -> list[tuple[Workspace, str]]:
    memberships = WorkspaceMember.objects.select_related("workspace").filter(subject=subject).order_by("workspace__name")
    return [(m.workspace, m.role) for m in memberships]


def workspace_members(*, workspace: Workspace) -> list[WorkspaceMember]:
    return list(workspace.members.order_by("subject"))


def notebook_get_for(*, notebook_id: uuid.UUID, owner: str) -> Notebook | None:
    return Notebook.objects.filter(id=notebook_id, owner=owner).first()


def notebook_list_for(*, owner: str) -> list[Notebook]:
    return list(Notebook.objects.filter(owner=owner).order_by("name", "id"))


def _may_select(source: McpSource, principal: Principal) -> bool:
    """Governed sources need a verified identity; public ones any caller."""
    return source.visibility == McpSource.Visibility.PUBLIC or principal.verified


def mcp_sources_selectable(*, principal: Principal) -> list[McpSource]:
    return [s for s in McpSource.objects.filter(enabled=True).order_by("id") if _may_select(s, principal)]


def endpoint_of(source: McpSource) -> McpEndpoint:
    return McpEndpoint(
        source_id=source.id, name=source.name, url=source.url,
        headers=tuple(sorted((str(k), str(v)) for k, v in (source.headers or {}).items())),
        timeout_seconds=source.timeout_seconds, visibility=source.visibility, tools=tuple(source.tool_names()),
        search_tool=source.search_tool,
    )


def mcp_endpoints(*, principal: Principal, source_ids: tuple[str, ...]) -> list[McpEndpoint]:
    """The selected sources this caller may use, in selection order; unknown or disabled ids drop out."""
    rows = {s.id: s for s in McpSource.objects.filter(id__in=source_ids, enabled=True)}
    return [endpoint_of(rows[i]) for i in source_ids if i in rows and _may_select(rows[i], principal)]
