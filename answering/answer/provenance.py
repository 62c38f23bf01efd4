"""What an answer says about its own sources and steps (seed: query-search-api, query-v2).

Every answer route returns ``tool`` and ``tool_executed``; the JSON routes add
``grounding`` and ``used_docs`` when asked with ``include_grounding``, and
``tool_call_audit`` and ``model_call_log`` with ``include_provenance``
(JSON-only: the streams already send passage and trace frames). The stored
assistant message keeps all of them under ``metadata.synthesis`` (the model
call log at the top level, where the trace view reads it). One function per
field serves the body, the stored metadata and the SSE passage frame.
"""
from __future__ import annotations

from collections import Counter

from answering.answer.contracts import AnswerCore
from answering.types import Passage, ToolCall

# The seed's name for the document-retrieval tool ("tool": "vector_search" in stored synthesis metadata):
# every read of the indexed corpus is one tool to a client, however many arms it ran.
DOCUMENT_RETRIEVAL = "vector_search"
DOCUMENT_STEPS = frozenset({
    "search_documents", "search_in_document", "count_all_terms", "corpus_facts", "resolve_regulation",
    "read_article", "read_closing", "read_definition", "read_enactment", "read_scope",
})


def tool_name(step: str) -> str:
    return DOCUMENT_RETRIEVAL if step in DOCUMENT_STEPS else step


def answer_tool(result: AnswerCore) -> str | None:
    """The tool whose reads ground the answer: the first cited source's, else the first tool that ran.

    ``vector_search`` for the indexed documents; a live-data or MCP tool's own
    name when its read is the source; null when no tool was selected (a
    question refused before retrieval, a fixed pre-tool refusal).
    """
    for passage in result.cited_passages:
        return passage.citation["tool"] if passage.citation.get("kind") == "tool" else DOCUMENT_RETRIEVAL
    for call in result.tool_calls:
        return tool_name(call.tool)
    return None


def answer_tool_executed(result: AnswerCore) -> bool:
    """Whether that tool ran to completion at least once in this answer."""
    tool = answer_tool(result)
    return tool is not None and any(call.ok and tool_name(call.tool) == tool for call in result.tool_calls)


def grounding_object(passage: Passage) -> dict:
    """One grounding object: the ``passage`` frame's data and the ``grounding`` array's items."""
    if passage.citation.get("kind") == "tool":
        return {"kind": "tool", "text": passage.text, "tool": passage.citation["tool"],
                "source_url": passage.citation.get("source_url"), "citation": passage.citation,
                "citation_key": passage.label}
    return {"kind": "chunk", "text": passage.text, "chunk_id": str(passage.chunk_id),
            "source_type": "document", "score": round(passage.score, 6), "citation_key": passage.label}


def used_docs(result: AnswerCore) -> list[str]:
    """The indexed documents the published answer cites (UUID strings, first-cited order)."""
    return list(dict.fromkeys(str(p.document_id) for p in result.cited_passages
                              if p.citation.get("kind") != "tool"))


def tool_call_audit(result: AnswerCore) -> list[dict]:
    """One entry per tool call; searches also carry the follow-up's documents when it carried some."""
    return [audit_entry(call, result.followup_document_ids) for call in result.tool_calls]


def audit_entry(call: ToolCall, followup_document_ids: tuple[str, ...]) -> dict:
    if call.private:
        return call.trace_frame()          # call, tool, ok, ms: no arguments or result (create_artifact)
    entry = {
        "call": call.call, "tool": call.tool,
        # No search query is rewritten: what was proposed is what ran (seed).
        "proposed_arguments": call.arguments, "executed_arguments": call.arguments,
        "ok": bool(call.ok), "ms": round(call.ms or 0.0, 1), "result": call.summary,
    }
    if call.tool == "search_documents" and followup_document_ids:
        entry["followup_document_ids"] = list(followup_document_ids)
    return entry


def dropped_claim_reasons(dropped_claims: list[dict]) -> dict[str, int]:
    """/query: how many dropped claims each reason removed (no claim text)."""
    return dict(Counter(claim["reason"] for claim in dropped_claims))


def tool_fields(result: AnswerCore) -> dict:
    return {"tool": answer_tool(result), "tool_executed": answer_tool_executed(result)}


def opt_in_fields(result: AnswerCore, *, include_grounding: bool, include_provenance: bool) -> dict:
    """The JSON body's opt-ins; absent unless asked."""
    fields: dict = {}
    if include_grounding:
        fields["grounding"] = [grounding_object(p) for p in result.cited_passages]
        fields["used_docs"] = used_docs(result)
    if include_provenance:
        fields["tool_call_audit"] = tool_call_audit(result)
        fields["model_call_log"] = list(result.model_calls)
    return fields


def stored_fields(result: AnswerCore) -> dict:
    """What the assistant message's ``metadata.synthesis`` keeps of the same fields; a context-budget refusal
    also keeps how the prompt was fitted (seed: ``synthesis.prompt_budget``)."""
    fields = {**tool_fields(result), "used_docs": used_docs(result), "tool_call_audit": tool_call_audit(result)}
    if result.fallback_reason == "context_budget_exhausted" and result.prompt_budget:
        fields["prompt_budget"] = result.prompt_budget
    return fields
