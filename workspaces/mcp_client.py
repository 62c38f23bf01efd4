"""Calling tools on registered MCP sources with the official ``mcp`` SDK, 2.x (streamable HTTP).

mcp 2 takes headers and timeouts on an ``httpx2.AsyncClient`` handed to ``streamable_http_client``
(a fork of httpx that the SDK now speaks; its errors are ``httpx2`` errors) and names fields in
snake_case (``is_error``, ``input_schema``).

Tool output is untrusted text: it is length-bounded here and delimited/escaped
wherever a model reads it (answering.llm.evidence). A source that is
unreachable, times out or reports a tool error raises ``McpUnavailable``.
"""
from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from datetime import datetime, timezone

import httpx2
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.types import TextContent

from kernel.outbound import OutboundRefused, declared_size_check, outbound_url_check, redirect_check

MAX_RESULT_CHARS = 4000          # one tool result as a passage
MAX_RESULTS = 5                  # text blocks kept from one call
URL_PATTERN = re.compile(r"https?://[^\s<>\"')\]]+")


class McpUnavailable(Exception):
    """The source could not answer: unreachable, timed out, or the tool failed."""


@dataclass(frozen=True)
class McpEndpoint:
    """What a call needs to know about a source (a frozen copy of the admin's row)."""

    source_id: str
    name: str
    url: str
    headers: tuple[tuple[str, str], ...]
    timeout_seconds: float
    visibility: str
    tools: tuple[str, ...]
    search_tool: str


@dataclass(frozen=True)
class McpResult:
    """One text block a tool returned, with the URL it names (if any) and when it was read."""

    source_id: str
    source_name: str
    tool: str
    text: str
    source_url: str | None
    read_at: str


def _bounded(text: str) -> str:
    text = text.replace("\x00", "").strip()
    return text if len(text) <= MAX_RESULT_CHARS else text[:MAX_RESULT_CHARS].rstrip() + " …"


def _http_client(endpoint: McpEndpoint) -> httpx2.AsyncClient:
    """Every request the SDK sends passes the outbound guard first (the source's host, a checked address),
    and an answer that declares more than the outbound size bound is refused before it is read. A streamed
    answer without a length is bounded by the source's timeout and ``MAX_RESULT_CHARS``."""
    host = outbound_url_check(endpoint.url)

    async def guard(request) -> None:
        await asyncio.to_thread(redirect_check, host, str(request.url))

    async def bounded(response) -> None:
        declared_size_check(response.headers.get("Content-Length", ""))

    return httpx2.AsyncClient(headers=dict(endpoint.headers), timeout=httpx2.Timeout(endpoint.timeout_seconds),
                              follow_redirects=False, event_hooks={"request": [guard], "response": [bounded]})


async def _call(endpoint: McpEndpoint, tool: str, arguments: dict) -> list[McpResult]:
    async with _http_client(endpoint) as http, streamable_http_client(endpoint.url, http_client=http) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            outcome = await session.call_tool(tool, arguments)
    if outcome.is_error:
        raise McpUnavailable(f"{endpoint.source_id}: tool {tool} reported an error")
    read_at = datetime.now(timezone.utc).isoformat(timespec="seconds")
    results = []
    for block in outcome.content:
        if isinstance(block, TextContent) and block.text.strip():
            text = _bounded(block.text)
            url = URL_PATTERN.search(text)
            results.append(McpResult(endpoint.source_id, endpoint.name, tool, text,
                                     url.group(0).rstrip(".,;") if url else None, read_at))
    return results[:MAX_RESULTS]


async def _schemas(endpoint: McpEndpoint) -> dict[str, dict]:
    async with _http_client(endpoint) as http, streamable_http_client(endpoint.url, http_client=http) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()
    return {tool.name: {"description": (tool.description or "")[:500], "parameters": tool.input_schema}
            for tool in listed.tools if tool.name in endpoint.tools}


def mcp_tool_schemas(endpoint: McpEndpoint) -> dict[str, dict]:
    """The allowed tools' descriptions and input schemas as the server lists them."""
    return _guarded(endpoint, _schemas(endpoint))


def _guarded(endpoint: McpEndpoint, work):
    async def bounded():
        return await asyncio.wait_for(work, timeout=endpoint.timeout_seconds)

    try:
        return asyncio.run(bounded())
    except McpUnavailable:
        raise
    except OutboundRefused as exc:
        raise McpUnavailable(f"{endpoint.source_id}: {exc.message}") from exc
    except ExceptionGroup as group:
        refused = group.subgroup(OutboundRefused)     # raised by the guard inside the SDK's task group
        if refused is None:
            raise McpUnavailable(f"{endpoint.source_id}: unreachable (ExceptionGroup)") from group
        first = refused.exceptions[0]
        while isinstance(first, ExceptionGroup):
            first = first.exceptions[0]
        raise McpUnavailable(f"{endpoint.source_id}: {first.message}") from group
    except (asyncio.TimeoutError, TimeoutError) as exc:
        raise McpUnavailable(f"{endpoint.source_id}: timed out after {endpoint.timeout_seconds:g} s") from exc
    except (httpx2.HTTPError, OSError, ExceptionGroup) as exc:
        raise McpUnavailable(f"{endpoint.source_id}: unreachable ({type(exc).__name__})") from exc
    except Exception as exc:  # the SDK raises McpError and others for a broken session
        raise McpUnavailable(f"{endpoint.source_id}: {type(exc).__name__}") from exc


def mcp_tool_call(endpoint: McpEndpoint, tool: str, arguments: dict) -> list[McpResult]:
    """Call one allowed tool and return its text results; ``McpUnavailable`` on any failure.

    Runs its own event loop: answer pipelines run in a worker thread with none.
    """
    if tool not in endpoint.tools:
        raise McpUnavailable(f"{endpoint.source_id}: tool {tool} is not allowed")

    return _guarded(endpoint, _call(endpoint, tool, arguments))
