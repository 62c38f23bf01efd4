"""The agent's tools: definitions in the chat-completions format, and argument checks.

The work itself is the pipeline's (real retrieval with tool.started /
tool.finished frames and within-answer arm reuse); this module only says what
the model may call and turns its arguments into a call or a refusal.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Callable

from answering.llm.agent import ToolResult
from answering.types import Passage
from kernel.errors import RetrievalFailed

MAX_QUERY_CHARS = 200
# A failed read is not stored; the agent may search again while its deadline lasts (seed).
SEARCH_FAILED = "Error: this search could not be completed ({reason}). You may search again, or answer with what you have."

SEARCH_DOCUMENTS = {
    "type": "function",
    "function": {
        "name": "search_documents",
        "description": "Hybrid (semantic + keyword) search over the indexed regulations and documents the user may "
                       "read. Use one to four distinctive terms per search; send several focused searches rather "
                       "than one long sentence. Returns labelled passages (P1, P2, …) with their document identity.",
        "parameters": {
            "type": "object",
            "properties": {"query": {"type": "string", "description": "One to four distinctive terms."}},
            "required": ["query"],
        },
    },
}
CORPUS_FACTS = {
    "type": "function",
    "function": {
        "name": "corpus_facts",
        "description": "Exact counts of indexed documents the user may read, optionally filtered by instrument type "
                       "(e.g. \"Qanun Aceh\", \"Peraturan Gubernur Aceh\"), year and a literal title substring, "
                       "and grouped by instrument_type or year.",
        "parameters": {
            "type": "object",
            "properties": {
                "instrument_type": {"type": "string"},
                "year": {"type": "string", "description": "Four digits, e.g. \"2014\"."},
                "title_contains": {"type": "string"},
                "group_by": {"type": "string", "enum": ["instrument_type", "year"]},
            },
        },
    },
}

SEARCH_IN_DOCUMENT = {
    "type": "function",
    "function": {
        "name": "search_in_document",
        "description": "Search inside one document that an earlier search for this question returned. The first "
                       "line says how many of its passages contain every term, so \"does this regulation say X?\" "
                       "takes one call.",
        "parameters": {
            "type": "object",
            "properties": {"document_id": {"type": "string"}, "query": {"type": "string"}},
            "required": ["document_id", "query"],
        },
    },
}


@dataclass(frozen=True)
class ExternalTool:
    """A tool of another server (an MCP source) offered to the agent under a namespaced name."""

    definition: dict
    run: Callable[[dict], ToolResult]

    @property
    def name(self) -> str:
        return self.definition["function"]["name"]


@dataclass
class CorpusTools:
    search: Callable[[str], tuple[list[Passage], str | None]]
    facts: Callable[..., dict]
    # /query/v2 only: (document_id, query) -> ToolResult, refusing documents no search returned.
    search_in_document: Callable[[str, str], ToolResult] | None = None
    # False in an MCP-only chat: no document, sheet or portal tool is offered.
    documents: bool = True
    external: tuple[ExternalTool, ...] = ()

    def definitions(self) -> list[dict]:
        corpus = [SEARCH_DOCUMENTS, CORPUS_FACTS] + ([SEARCH_IN_DOCUMENT] if self.search_in_document else [])
        return (corpus if self.documents else []) + [tool.definition for tool in self.external]

    def call(self, name: str, arguments: dict) -> ToolResult:
        external = next((tool for tool in self.external if tool.name == name), None)
        if external:
            return external.run(arguments)
        if not self.documents:
            return ToolResult(text=f"Error: there is no tool named {name!r}.")
        if name == "search_documents":
            query = arguments.get("query")
            if not isinstance(query, str) or not query.strip():
                return ToolResult(text="Error: search_documents needs a non-empty \"query\" string.")
            try:
                passages, tier = self.search(query.strip()[:MAX_QUERY_CHARS])
            except RetrievalFailed as exc:
                return ToolResult(text=SEARCH_FAILED.format(reason=exc.message))
            return ToolResult(passages=passages, tier=tier)
        if name == "corpus_facts":
            return ToolResult(text=self._facts(arguments))
        if name == "search_in_document" and self.search_in_document:
            document_id, query = arguments.get("document_id"), arguments.get("query")
            if not (isinstance(document_id, str) and isinstance(query, str) and query.strip()):
                return ToolResult(text="Error: search_in_document needs \"document_id\" and a non-empty \"query\".")
            try:
                return self.search_in_document(document_id.strip(), query.strip()[:MAX_QUERY_CHARS])
            except RetrievalFailed as exc:
                return ToolResult(text=SEARCH_FAILED.format(reason=exc.message))
        return ToolResult(text=f"Error: there is no tool named {name!r}.")

    def _facts(self, arguments: dict) -> str:
        year = arguments.get("year")
        if year is not None and not re.fullmatch(r"\d{4}", str(year).strip()):
            return "Error: \"year\" must be four digits, e.g. \"2014\"."
        group_by = arguments.get("group_by")
        if group_by not in (None, "instrument_type", "year"):
            return "Error: \"group_by\" must be \"instrument_type\" or \"year\"."
        facts = self.facts(
            instrument_type=_text(arguments.get("instrument_type")), year=int(year) if year is not None else None,
            title_contains=_text(arguments.get("title_contains")), group_by=group_by,
        )
        return "Indexed documents you may read (exact counts): " + json.dumps(facts, ensure_ascii=False)


def _text(value) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None
