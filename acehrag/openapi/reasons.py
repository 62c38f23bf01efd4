"""The reason table: every ``fallback_reason`` an answer route publishes, and when (seeds: query-search-api,
query-v2). The text of each refusal is fixed system copy (``answering.notices``), never a model's."""
from __future__ import annotations

# (reason, routes, when) in the order a partner meets them; a refusal has fallback_used: true and no citations
# unless the row says otherwise.
REASONS = (
    ("no_answer", "/query", "The documents do not answer the question (the notice may point to the nearest "
                            "evidence). On /query/v2 the same notice is framing, not a refusal."),
    ("partial_answer", "/query", "Opt-in (ACEH_RAG_SYNTHESIS__PARTIAL_ANSWERS_ENABLED): the verified part is "
                                 "published with an omitted-parts note; fallback_used: false."),
    ("coverage_incomplete", "/query", "Most of the draft's claims failed the faithfulness gate; the answer is "
                                      "withheld."),
    ("policy_blocked", "all", "The Government Policy Guard blocked the question or the answer."),
    ("source_scope_empty", "/query/v2", "A collection_ids or document_ids selection (or a saved source set) "
                                        "holds no indexed document the caller may read; fixed Indonesian text, "
                                        "before any tool or model call. /query answers 404 instead."),
    ("source_out_of_scope", "all", "The question names a regulation (type, number, year) that is indexed and "
                                   "readable outside the chat's selection (collection_ids, document_ids or the "
                                   "saved source set), and nothing it names is inside it; decided before any tool "
                                   "or model call. Add the regulation to the selection, or ask without one."),
    ("source_scope_unavailable", "all", "The selection holds readable indexed documents, but reading them failed "
                                        "this turn (the embedder or database failed, or a search hit its time "
                                        "bound). Retry later. Without a selection the same failure is 502 on "
                                        "/query and 404 nothing_readable on /query/v2."),
    ("mcp_source_unavailable", "all", "A selected MCP source could not be reached or failed."),
    ("context_budget_exhausted", "all", "The evidence does not fit the model's context window; checked: false "
                                        "(verification not reached)."),
    ("query_budget_exhausted", "all", "The answer's tool or model-call budget ran out."),
    ("model_timeout", "all", "The answer's time budget ran out."),
    ("agent_output_limit", "all", "An agent round reached its output-token ceiling (on /query/v2 only a "
                                  "follow-up's forced search round)."),
    ("unparseable_completion", "all", "The model's answer was still malformed after one regeneration."),
    ("empty_completion", "/query", "The model produced no answer."),
    ("unverified_no_claims", "/query", "The model's answer cited nothing and could not be verified."),
    ("unresolved_citation", "/query", "The model's answer cited labels that were not shown to it."),
)


def reason_table() -> str:
    rows = "\n".join(f"| `{reason}` | {routes} | {when} |" for reason, routes, when in REASONS)
    return ("**Refusal and notice reasons** (`fallback_reason`; null for a full answer; \"all\" = /query, "
            "/query/v2 and their streams)\n\n| reason | routes | when |\n| --- | --- | --- |\n" + rows)
