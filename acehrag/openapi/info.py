"""The document's title block: what the API is, how to call it, what this server runs."""
from __future__ import annotations

from acehrag.openapi.reasons import reason_table
from acehrag.runtime import runtime_summary

OVERVIEW = """Cited question answering over Aceh government regulations and public documents
(Qanun Aceh, Peraturan Gubernur Aceh, national laws, PPID publications).

**Authentication.** Every route except the public chat needs the API key header. Who the caller is
comes from a partner JWT in `Authorization: Bearer` (verified identity) or from the `X-User-Subject`,
`X-User-Role`, `X-User-Unit`, `X-User-Level` headers the partner's backend sets. Use **Authorize** to
fill them in; they are sent with "Try it out".

**Start here.** `POST /search` for ranked passages, `POST /query/v2` (the route to build on) or
`POST /query` for a cited answer, their `/stream` twins for Server-Sent Events, and
`conversation_id` from an answer to continue. Render the grounding badge from `grounding_rate`,
`claims_supported`, `claims_total`: "78% · 7/9 klaim", or "—" when `grounding_rate` is null.

Errors are JSON: `{"detail": "..."}`, and for a malformed body FastAPI's 422 list
`{"detail": [{"type", "loc", "msg", "input", "ctx"}]}`.

**Labels.** A `/query` answer carries the seed's `[chunk:<uuid>]` label after each claim on every path
(deterministic or model); a tool read's label is `[tool:<call>]`. Join a label to `citations` by `chunk_id`
(or `call`). `claim_map` keeps its `citation_key` as recorded (`P1`… on the model path). `/query/v2` answers
carry no labels: render from `claims[].start`/`end` and `claims[].citations`.

**Identifiers.** Conversation, message, document and chunk ids are UUID strings; memories keep integer ids.
The conversations seed's integer examples (`42`) predate that: a client that sends `42` as a
`conversation_id` (in a body or in `/conversations/{conversation_id}`) gets a 422."""


def describe_api(schema: dict) -> None:
    runtime = runtime_summary()
    schema["info"]["description"] = (
        f"{OVERVIEW}\n\n{reason_table()}\n\n**This server runs**\n\n- Answerer: {runtime.answerer}\n- Embedder: {runtime.embedder}\n")
