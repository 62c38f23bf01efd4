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
from retrieval.facade.language import type_prefixes
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
                       "and grouped by instrument_type, year or signatory. Signatory groups keep the signing role "
                       "(\"Pj. Gubernur Aceh\" apart from \"Gubernur Aceh\") and come with the roster's coverage; "
                       "when some names are unreadable their counts are lower bounds, and with none readable the "
                       "roster is unavailable.",
        "parameters": {
            "type": "object",
            "properties": {
                "instrument_type": {"type": "string"},
                "year": {"type": "string", "description": "Four digits, e.g. \"2014\"."},
                "title_contains": {"type": "string"},
                "group_by": {"type": "string", "enum": ["instrument_type", "year", "signatory"]},
                "operation": {"type": "string", "enum": ["count", "list", "compare"],
                              "description": "With signatory groups: list/compare also name each group's documents."},
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
        if isinstance(year, bool) or (year is not None and not re.fullmatch(r"\d{4}", str(year).strip())):
            return "Error: \"year\" must be four digits, e.g. \"2014\"."
        request = facts_request(arguments)
        if isinstance(request, str):
            return request
        group_by, operation = request
        filters = {"instrument_type": display_type(_text(arguments.get("instrument_type"))),
                   "year": int(str(year).strip()) if year is not None else None,
                   "title_contains": _text(arguments.get("title_contains")), "group_by": group_by}
        if group_by == "signatory":
            filters["operation"] = operation
        facts = self.facts(**filters)
        roster = facts.get("roster")
        if roster and roster["status"] == "unavailable":
            heading = ("Indexed documents you may read (exact count); the signatory roster is unavailable: "
                       "no document carries a readable officer name")
        elif roster and roster["lower_bound"]:
            heading = ("Indexed documents you may read (exact count); signatory counts are lower bounds: "
                       "some signature blocks carry no readable officer name")
        else:
            heading = "Indexed documents you may read (exact counts)"
        return heading + ": " + json.dumps(facts, ensure_ascii=False)


SIGNATORY_WORDS = {"signatory", "signatories", "signer", "signers", "signed_by", "signing_officer", "penandatangan"}
FACT_OPERATIONS = ("count", "list", "compare")
_SIGNATORY_OPERATION = re.compile(
    r"(?P<a>count|list|compare)[_\s-]+(?:of[_\s-]+)?(?P<w>\w+)|(?P<w2>\w+)[_\s-]+(?P<b>count|list|compare)")


def facts_request(arguments: dict) -> tuple[str | None, str] | str:
    """(group_by, operation) of a corpus_facts call, or an error text.

    A signatory request in any of its spellings (group_by "signatory"/"signer", operation
    "count_signatories"/"compare_signers", or operation with field "signatory") becomes the one
    role-preserving signatory grouping.
    """
    group_by = _text(arguments.get("group_by"))
    operation = (_text(arguments.get("operation")) or "count").lower()
    field = (_text(arguments.get("field")) or "").lower()
    if group_by and group_by.lower() in SIGNATORY_WORDS:
        group_by = "signatory"
    combined = _SIGNATORY_OPERATION.fullmatch(operation)
    if combined and (combined.group("w") or combined.group("w2")) in SIGNATORY_WORDS:
        operation, group_by = combined.group("a") or combined.group("b"), "signatory"
    if field in SIGNATORY_WORDS:
        group_by = "signatory"
    if operation not in FACT_OPERATIONS:
        return "Error: \"operation\" must be \"count\", \"list\" or \"compare\"."
    if group_by not in (None, "instrument_type", "year", "signatory"):
        return "Error: \"group_by\" must be \"instrument_type\", \"year\" or \"signatory\"."
    return group_by, operation


def display_type(value: str | None) -> str | None:
    """A written type in its display form ("pergub aceh" → "Peraturan Gubernur Aceh"); unknown ones as given."""
    if value is None:
        return None
    prefixes = type_prefixes(value)
    return prefixes[0] if prefixes else value


def _text(value) -> str | None:
    return value.strip() if isinstance(value, str) and value.strip() else None
