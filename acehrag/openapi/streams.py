"""The Server-Sent Events routes: event catalogue, order, and an example stream."""
from __future__ import annotations

import json

CONVERSATION = "3f0c2a8e-1b7d-4c55-9a1e-6d2b8f4e7a10"
MESSAGE = "8d1e6f3a-5c2b-4a9e-b7d0-1f2e3a4b5c6d"
DOCUMENT = "0b9a8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d"
CHUNK = "c4d3e2f1-a0b9-4c8d-8e7f-6a5b4c3d2e1f"

FRAME_FORMAT = ("Each event is `event: <name>` then `data: <one-line JSON>` and a blank line. Parse in wire order; "
                "there are no heartbeats. Use `curl -N` (or fetch() + ReadableStream: EventSource cannot send the "
                "API key). Setup failures (400/401/404/409/413/422/502) are JSON errors before the stream starts; "
                "a failure after it started is a terminal `error` event instead of `done`.")

V1_EVENTS = """| event | data | when |
| --- | --- | --- |
| `tool.started` / `tool.finished` | `{"call", "tool"}`, finished adds `ok`, `ms` | while tools run, before `message.start` (model path) |
| `message.start` | `{"conversation_id", "message_id"}` | once; keep the ids to continue the conversation |
| `trace` | `{"tools": [...], "completed": true}` | after `message.start` |
| `citation` | the shared citation object | zero or more, in label order |
| `passage` | `{"kind": "chunk", "chunk_id", "text", "source_type", "score", "citation_key"}` | zero or more, only when the guard passes |
| `answer.delta` | `{"text"}` | zero or more; concatenated they are the answer |
| `faithfulness` | `{"dropped", "claims_supported", "claims_total", "grounding_rate", "fallback_used", "fallback_reason"}` | after the deltas |
| `guard.blocked` | `{"reason"}` | instead of passages, deltas and faithfulness when the policy guard blocks |
| `done` | `{"finish_reason": "stop" or "guard_blocked", "history_truncated", "history_exchanges_in_view"}` | terminal |
| `error` | `{"code", "message"}` (codes `query_failed`, `http_<status>`) | terminal failure after the stream started |

Order: `tool.*`* → `message.start` → `trace` → `citation`* → (`passage`* → `answer.delta`* → `faithfulness` | `guard.blocked`) → `done`.
The answer is buffered and guarded first: no unapproved text is ever streamed."""

V2_EVENTS = """| event | data | when |
| --- | --- | --- |
| `tool.started` / `tool.finished` | `{"call", "tool"}`, finished adds `ok`, `ms` | while tools run, before `message.start` (model path) |
| `message.start` | `{"conversation_id", "message_id", "schema": "annotate-v2"}` | once; check `schema` |
| `trace` | `{"tools": [...], "completed": true}` | after `message.start` |
| `citation` | the shared citation object plus `citation_key` | zero or more |
| `passage` | `{"kind": "chunk", "chunk_id", "citation_key", "text", "source_type", "score"}` | zero or more, only when the guard passes |
| `annotations` | the faithfulness counts (incl. `verification`, `grounding`), `fallback_used`, `fallback_reason`, `claims` and `framing` with offsets, without text | before any text |
| `answer.delta` | `{"text"}` | concatenated exactly to the answer the offsets index |
| `guard.blocked` | `{"reason"}` | instead of passages, annotations and deltas |
| `done` | `{"finish_reason", "history_truncated", "history_exchanges_in_view"}` | terminal |
| `error` | `{"code", "message"}` | terminal failure after the stream started |

Order: `tool.*`* → `message.start` → `trace` → `citation`* → (`passage`* → `annotations` → `answer.delta`* | `guard.blocked`) → `done`.
No annotations frame received means render the whole answer as "belum diverifikasi"."""

CITATION = {"kind": "chunk", "document_id": DOCUMENT,
            "document_title": "Undang-Undang Nomor 14 Tahun 2008 tentang Keterbukaan Informasi Publik",
            "chunk_id": CHUNK, "chunk_ordinal": 29, "page_number": 10, "section_path": ["BAB VI", "Pasal 22"],
            "legal_reference": "Undang-Undang Nomor 14 Tahun 2008 Pasal 22 ayat (7)-(9)", "char_start": 23897,
            "char_end": 25265}
PASSAGE = {"kind": "chunk", "text": "(7) Paling lambat 10 (sepuluh) hari kerja ...", "chunk_id": CHUNK,
           "source_type": "document", "score": 0.031, "citation_key": "P1"}
ANSWER_TEXT = "Badan Publik wajib menyampaikan pemberitahuan tertulis paling lambat 10 (sepuluh) hari kerja sejak diterimanya permintaan."
DONE = {"finish_reason": "stop", "history_truncated": False, "history_exchanges_in_view": 0}
GROUNDING = {"claims_supported": 1, "claims_total": 1, "grounding_rate": 1.0}


def _frames(*frames: tuple[str, dict]) -> str:
    return "".join(f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n" for name, data in frames)


V1_EXAMPLE = _frames(
    ("message.start", {"conversation_id": CONVERSATION, "message_id": MESSAGE}),
    ("trace", {"tools": [{"call": "c1", "tool": "search_documents", "ok": True, "ms": 41,
                          "arguments": {"query": "jangka waktu menjawab permintaan informasi"}}], "completed": True}),
    ("citation", CITATION),
    ("passage", PASSAGE),
    ("answer.delta", {"text": ANSWER_TEXT[:44]}),
    ("answer.delta", {"text": f"{ANSWER_TEXT[44:-1]} [chunk:{CHUNK}]."}),
    ("faithfulness", {"dropped": 0, **GROUNDING, "fallback_used": False, "fallback_reason": None}),
    ("done", DONE),
)
V2_EXAMPLE = _frames(
    ("message.start", {"conversation_id": CONVERSATION, "message_id": MESSAGE, "schema": "annotate-v2"}),
    ("trace", {"tools": [], "completed": True}),
    ("citation", {**CITATION, "citation_key": "P1"}),
    ("passage", PASSAGE),
    ("annotations", {
        "mechanism": "annotate-v2", "judge_status": "complete", "framing_check": "skipped", "claims_total": 1,
        "supported": 1, "unsupported": 0, "unverified": 0, "uncited": 0, "invalid_citation": 0,
        "from_conversation": 0, "framing_total": 0, "unlocated_total": 0, "verification": "full",
        "grounding": GROUNDING, "fallback_used": False, "fallback_reason": None,
        "claims": [{"start": 0, "end": len(ANSWER_TEXT), "start_utf16": 0, "end_utf16": len(ANSWER_TEXT),
                    "kind": "fact", "layout": "paragraph", "citation_keys": ["P1"], "verdict": "supported",
                    "unverified_reason": None, "invalid_citation_keys": []}],
        "framing": []}),
    ("answer.delta", {"text": ANSWER_TEXT}),
    ("done", DONE),
)

STREAMS = {
    "/query/stream": (V1_EVENTS, V1_EXAMPLE),
    "/query/v2/stream": (V2_EVENTS, V2_EXAMPLE),
}


def event_stream_response(description: str, example: str) -> dict:
    return {"description": description,
            "headers": {"Cache-Control": {"schema": {"type": "string"}, "description": "no-cache, no-transform"},
                        "X-Accel-Buffering": {"schema": {"type": "string"}, "description": "no"}},
            "content": {"text/event-stream": {"schema": {"type": "string", "description": "SSE frames"},
                                              "example": example}}}


def describe_streams(schema: dict) -> None:
    for path, (catalogue, example) in STREAMS.items():
        operation = schema["paths"][path]["post"]
        operation["description"] = f"{FRAME_FORMAT}\n\n{catalogue}"
        operation["responses"]["200"] = event_stream_response("The event stream (see the catalogue above).", example)
