"""MCP sources as evidence: each selected source's search tool is called with the question.

Every call is a real step (tool.started / tool.finished frames, the trace). Each
text block a tool returns becomes a tool passage with a kind "tool" citation;
the gate judges it like any passage. Tool text is untrusted: the MCP client
bounds it, and a model only ever reads it inside an escaped passage block.
"""
from __future__ import annotations

import uuid
from typing import Callable

from answering.llm.agent import ToolResult
from answering.llm.tools import ExternalTool
from answering.types import Passage
from retrieval.facade.documents import tool_citation
from workspaces.facade import corpus_inventory
from workspaces.facade import McpEndpoint, McpResult, McpUnavailable, mcp_tool_call, mcp_tool_schemas


class McpSourcesFailed(Exception):
    """The answer needed MCP evidence (an MCP-only chat) and no selected source answered."""


def tool_name(endpoint: McpEndpoint, tool: str) -> str:
    """Tools are namespaced by source, so two sources' ``search`` stay apart."""
    return f"mcp.{endpoint.source_id}.{tool}"


def tool_read_passage(*, text: str, tool: str, call: str, index: int, title: str, source_id: str,
                      source_url: str | None = None, read_at: str | None = None) -> Passage:
    """A tool read as a passage: a kind "tool" citation (tool + call, null document/chunk ids).

    ``chunk_id``/``document_id`` are a per-read id used only inside the answer (de-duplication, the
    v2 progress rule); the label is ``tool:<call>`` (``tool:<call>.<n>`` for a call's later blocks).
    """
    read_id = uuid.uuid5(uuid.NAMESPACE_URL, f"{source_id}:{call}:{index}")
    citation = tool_citation(tool=tool, call=call, document_title=title, source_title=title, source_name=title,
                             source_id=source_id, source_url=source_url)
    if read_at:
        citation["read_at"] = read_at
    return Passage(chunk_id=read_id, document_id=read_id, document_title=title, legal_reference=None, section_path=(),
                   kind="tool", text=text, score=1.0, citation=citation, origin="tool",
                   key=f"tool:{call}" if index == 0 else f"tool:{call}.{index}")


def tool_passage(result: McpResult, endpoint: McpEndpoint, call: str, index: int) -> Passage:
    return tool_read_passage(text=result.text, tool=tool_name(endpoint, result.tool), call=call, index=index,
                             title=endpoint.name, source_id=f"mcp:{endpoint.source_id}", source_url=result.source_url,
                             read_at=result.read_at)


def inventory_passage(run_tool: Callable, *, principal, scope, workspace_id, language: str) -> Passage:
    """``corpus_inventory`` as one real step whose text is the passage the answer cites.

    ``run_tool(tool, arguments, work, summarise)`` returns ``(value, call id)`` (``StepRecorder.run``).
    """
    inventory, call = run_tool(
        "corpus_inventory", {"workspace": bool(workspace_id)},
        lambda: corpus_inventory(principal=principal, scope=scope, workspace_id=workspace_id),
        summarise=lambda inv: {"documents": inv.documents_in_scope,
                               **({"uploaded": inv.workspace.uploaded, "selected": inv.workspace.selected}
                                  if inv.workspace else {})})
    return tool_read_passage(text=inventory.text(language), tool="corpus_inventory", call=call, index=0,
                             title="Inventaris sumber" if language != "en" else "Source inventory",
                             source_id="corpus_inventory")


class McpReader:
    """Reads the selected MCP sources through the answer's step recorder (``StepRecorder.run``)."""

    def __init__(self, run_tool: Callable):
        self._run_tool = run_tool

    def passages(self, question: str, endpoints: tuple[McpEndpoint, ...], *, required: bool) -> list[Passage]:
        passages: list[Passage] = []
        answered = 0
        for endpoint in endpoints:
            arguments = {"query": question}
            try:
                results, call = self._run_tool(
                    tool_name(endpoint, endpoint.search_tool), arguments,
                    lambda endpoint=endpoint, arguments=arguments: mcp_tool_call(endpoint, endpoint.search_tool, arguments),
                    summarise=lambda results: {"results": len(results)})
            except McpUnavailable:
                continue
            answered += 1
            passages += [tool_passage(r, endpoint, call, i) for i, r in enumerate(results)]
        if required and not answered:
            raise McpSourcesFailed()
        return passages

    def agent_tools(self, endpoints: tuple[McpEndpoint, ...]) -> tuple[ExternalTool, ...]:
        """Each source's allowed tools, with the schemas the server lists; an unreachable source offers none."""
        tools = []
        for endpoint in endpoints:
            try:
                schemas = mcp_tool_schemas(endpoint)
            except McpUnavailable:
                continue
            for tool, schema in schemas.items():
                definition = {"type": "function", "function": {
                    "name": f"mcp__{endpoint.source_id.replace('-', '_')}__{tool}"[:64],
                    "description": f"[{endpoint.name}, an external source] {schema['description']}",
                    "parameters": schema["parameters"] or {"type": "object", "properties": {}}}}
                tools.append(ExternalTool(definition, lambda arguments, e=endpoint, t=tool: self._agent_call(e, t, arguments)))
        return tuple(tools)

    def _agent_call(self, endpoint: McpEndpoint, tool: str, arguments: dict) -> ToolResult:
        try:
            results, call = self._run_tool(
                tool_name(endpoint, tool), arguments,
                lambda: mcp_tool_call(endpoint, tool, arguments if isinstance(arguments, dict) else {}),
                summarise=lambda results: {"results": len(results)})
        except McpUnavailable:
            return ToolResult(text=f"Error: the source {endpoint.name} is unavailable.")
        return ToolResult(passages=[tool_passage(r, endpoint, call, i) for i, r in enumerate(results)])
