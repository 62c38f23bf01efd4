"""Which sources govern one answer (seed: "Saved sources, an empty set, and MCP").

A workspace or notebook chat answers from its saved source set, intersected
with the caller's access; a request's ``collection_ids``/``document_ids``
narrow it and never widen it. An explicitly empty set answers from the
selected MCP sources alone, or is refused (``SourceSelectionEmpty``). Governed MCP sources are
withheld under a source boundary (any collection or document scope).
"""
from __future__ import annotations

import uuid
from dataclasses import dataclass

from kernel.principal import Principal
from kernel.errors import BadRequest, Forbidden
from conversations.facade import ConversationNotFound, conversation_container
from retrieval.facade.documents import Scope
from retrieval.facade.documents import document_ids_in_sources
from workspaces.mcp_client import McpEndpoint
from workspaces.models import SavedSources, WorkspaceMember
from workspaces.selectors import mcp_endpoints, principal_with_memberships, notebook_get_for, workspace_get_for

NOTHING = Scope(document_ids=(uuid.UUID(int=0),))   # a scope no document matches
SAVED_DOCUMENTS_GONE = {
    "id": "Catatan: dokumen yang tersimpan sebagai sumber tidak lagi tersedia; jawaban ini hanya dari sumber MCP.",
    "en": "Note: the saved source documents are no longer available; this answer comes from MCP sources only.",
}
NO_SOURCES = {"workspace": "This workspace has no sources. Add documents or an MCP source under Sources, then ask again.",
              "notebook": "This notebook has no sources. Add documents or an MCP source under Sources, then ask again."}
NO_USABLE_MCP = "None of the selected MCP sources can be used, and this chat has no other sources."


class ViewerCannotAsk(Forbidden):
    """A Viewer of a workspace asked in its chat."""

    code = "viewer_cannot_ask"


class SourceSelectionEmpty(BadRequest):
    """The chat's saved sources are explicitly empty and no selected MCP source can answer."""

    code = "source_selection_empty"


@dataclass(frozen=True)
class AnswerSources:
    scope: Scope
    mcp: tuple[McpEndpoint, ...] = ()
    mcp_only: bool = False
    note: dict | None = None                       # fixed note by language, shown with the answer
    conversation_owner: str | None = None          # a workspace chat's owner when a member asks
    container: str | None = None                   # "workspace" | "notebook" | None
    workspace_id: uuid.UUID | None = None
    save_mcp_selection: tuple[str, ...] | None = None


def _selection(ids: list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i.strip() for i in ids or () if i and i.strip()))


def _narrow(saved: Scope, request: Scope) -> Scope:
    """The request narrows the saved scope; an empty intersection matches nothing."""
    collections = saved.collection_ids
    if request.collection_ids:
        collections = tuple(c for c in request.collection_ids if not collections or c in collections)
        if not collections:
            return NOTHING
    documents = saved.document_ids
    if request.document_ids:
        documents = tuple(d for d in request.document_ids if not documents or d in documents)
        if not documents:
            return NOTHING
    return Scope(collection_ids=collections, document_ids=documents)


def _saved_scope(holder: SavedSources, principal: Principal) -> Scope | None:
    """The saved set as a scope: None for the whole corpus, NOTHING when nothing resolves."""
    if holder.whole_corpus:
        return None
    collections = _selection(holder.collection_ids)
    documents = tuple(uuid.UUID(str(d)) for d in holder.document_ids or ())
    if not collections and not documents:
        return Scope()          # explicitly empty; the caller tells it apart by ``_is_empty``
    if collections and not documents:
        return Scope(collection_ids=collections)
    resolved = document_ids_in_sources(principal=principal, collection_ids=collections, document_ids=documents)
    return Scope(document_ids=resolved) if resolved else NOTHING


def _is_empty(holder: SavedSources) -> bool:
    return not holder.whole_corpus and not holder.collection_ids and not holder.document_ids


def answer_sources_resolve(*, principal: Principal, owner: str, conversation_id: uuid.UUID | None, scope: Scope,
                           mcp_source_ids: list[str] | None, mcp_given: bool) -> AnswerSources:
    principal = principal_with_memberships(principal)
    container = conversation_container(conversation_id=conversation_id) if conversation_id else None
    holder, kind, conversation_owner = None, None, None
    if container and container.workspace_id:
        found = workspace_get_for(workspace_id=container.workspace_id, subject=owner)
        if found is None:
            raise ConversationNotFound(conversation_id)   # not a member: the chat's existence is not revealed
        holder, role = found
        if role == WorkspaceMember.Role.VIEWER:
            raise ViewerCannotAsk("A Viewer cannot ask in this workspace chat")
        kind, conversation_owner = "workspace", container.owner
    elif container and container.notebook_id and container.owner == owner:
        holder, kind = notebook_get_for(notebook_id=container.notebook_id, owner=owner), "notebook"

    if mcp_given and mcp_source_ids is not None:
        selected = _selection(mcp_source_ids)
    elif container and container.mcp_source_ids is not None:
        selected = container.mcp_source_ids
    else:
        selected = _selection(holder.mcp_source_ids) if holder else ()
    # A selection the request carries is the chat's from now on, also on the turn that creates the chat
    # (seed: "A follow-up may omit mcp_source_ids; the conversation's saved MCP selection applies").
    save = _selection(mcp_source_ids) if (mcp_given and mcp_source_ids is not None) else None

    saved = _saved_scope(holder, principal) if holder else None
    # A source boundary is a document/collection scope; an explicitly empty set is none.
    boundary = (saved is not None and not _is_empty(holder)) or bool(scope.collection_ids or scope.document_ids)
    endpoints = tuple(e for e in mcp_endpoints(principal=principal, source_ids=selected)
                      if not (boundary and e.visibility == "governed"))
    common = {"conversation_owner": conversation_owner, "container": kind, "save_mcp_selection": save,
              "workspace_id": container.workspace_id if kind == "workspace" else None}

    if holder is not None and _is_empty(holder):
        if endpoints:
            return AnswerSources(scope=NOTHING, mcp=endpoints, mcp_only=True, **common)
        raise SourceSelectionEmpty(NO_USABLE_MCP if selected else NO_SOURCES[kind])
    if saved is NOTHING and endpoints:
        return AnswerSources(scope=NOTHING, mcp=endpoints, mcp_only=True, note=SAVED_DOCUMENTS_GONE, **common)
    governed_scope = _narrow(saved, scope) if saved is not None else scope
    return AnswerSources(scope=governed_scope, mcp=endpoints, **common)
