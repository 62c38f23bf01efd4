"""Request and response bodies of the workspace, notebook and MCP-source routes."""
from __future__ import annotations

import uuid
from typing import Literal

from ninja import Schema
from pydantic import Field

from kernel.schemas import StrictSchema


class SourcesIn(StrictSchema):
    whole_corpus: bool = Field(description="Answer from every document the caller may see")
    collection_ids: list[str] = Field(default_factory=list, description="Collections of the saved set")
    document_ids: list[uuid.UUID] = Field(default_factory=list, description="Documents of the saved set")
    mcp_source_ids: list[str] = Field(default_factory=list, description="MCP sources (GET /mcp-sources)")


class SourcesOut(Schema):
    whole_corpus: bool
    collection_ids: list[str]
    document_ids: list[str]
    mcp_source_ids: list[str]


class NameIn(StrictSchema):
    name: str = Field(min_length=1, max_length=200)


class ConversationIn(StrictSchema):
    title: str | None = Field(None, min_length=1, max_length=300)


class MemberIn(StrictSchema):
    subject: str = Field(min_length=1, max_length=256)
    role: Literal["partner", "viewer"]


class MemberOut(Schema):
    subject: str
    role: str


class WorkspaceOut(Schema):
    workspace_id: str
    name: str
    role: str = Field(description="The caller's role: owner, partner or viewer")
    sources: SourcesOut


class WorkspaceDetail(WorkspaceOut):
    members: list[MemberOut]


class NotebookOut(Schema):
    notebook_id: str
    name: str
    sources: SourcesOut


class WorkspaceDocumentOut(Schema):
    document_id: str | None
    ingestion_id: str | None
    title: str
    status: str = Field(description="indexed, or queued/running/failed for the caller's own pending uploads")
    chunk_count: int


class McpSourceOut(Schema):
    id: str
    name: str
    visibility: str
    tools: list[str]
