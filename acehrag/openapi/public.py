"""Routes outside ninja: the public chat (seed: public-chat-sse-protocol), health, the widget."""
from __future__ import annotations

import json

from acehrag.openapi.streams import CITATION, CONVERSATION, FRAME_FORMAT, event_stream_response

PUBLIC_ERROR = {
    "type": "object", "required": ["ok", "message", "code"],
    "properties": {
        "ok": {"type": "boolean", "const": False, "description": "Always false."},
        "message": {"type": "string", "description": "Human-readable reason, safe to show the visitor."},
        "code": {"type": "string", "description": "BAD_REQUEST, RATE_LIMITED, NOT_FOUND, FORBIDDEN, "
                                                  "UNSUPPORTED_MEDIA_TYPE, METHOD_NOT_ALLOWED, UPSTREAM_ERROR, "
                                                  "UNAVAILABLE, CANCELLED, INTERNAL_ERROR: the public column of "
                                                  "the one error table (docs/errors.md)."},
        "retryAfter": {"type": "integer", "description": "Seconds to wait (RATE_LIMITED only; also Retry-After)."},
    },
}
PUBLIC_DONE = {
    "type": "object",
    "required": ["ok", "reply", "conversationId", "visitorId", "sessionId", "sources", "route", "sql", "suggestions",
                 "cards", "projectName", "greeting"],
    "properties": {
        "ok": {"type": "boolean", "description": "true."},
        "reply": {"type": "string", "description": "The answer; [n] markers number the sources."},
        "conversationId": {"type": "string", "format": "uuid", "description": "Send it back to continue."},
        "visitorId": {"type": "string", "description": "The visitor id to keep."},
        "sessionId": {"type": "string", "description": "The session id to keep."},
        "sources": {"type": "array", "items": {"$ref": "#/components/schemas/Citation"},
                    "description": "Citation objects, in [n] order (unrestricted documents only)."},
        "route": {"type": "object", "description": '{"mode": "rag", "reason": …}.'},
        "sql": {"type": "null", "description": "Always null here."},
        "suggestions": {"type": "array", "items": {"type": "string"}, "description": "Follow-up questions."},
        "cards": {"type": "array", "items": {"type": "object"}, "description": "Always []."},
        "projectName": {"type": "string", "description": "ACEH_RAG_PUBLIC_CHAT__PROJECT_NAME."},
        "greeting": {"type": ["string", "null"], "description": "ACEH_RAG_PUBLIC_CHAT__GREETING."},
    },
}
PUBLIC_SOURCE = {
    "type": "object", "required": ["ok", "source", "text"],
    "properties": {"ok": {"type": "boolean", "description": "true."},
                   "source": {"$ref": "#/components/schemas/Citation", "description": "The citation object."},
                   "text": {"type": "string", "description": "The passage text."}},
}
DONE_EXAMPLE = {
    "ok": True, "reply": "Badan Publik wajib menyampaikan pemberitahuan tertulis paling lambat 10 (sepuluh) hari kerja [1].",
    "conversationId": CONVERSATION, "visitorId": "v-5f2a9c", "sessionId": "s-81d3e0", "sources": [CITATION],
    "route": {"mode": "rag", "reason": "answered"}, "sql": None,
    "suggestions": ["Apa isi Pasal 22 Undang-Undang Nomor 14 Tahun 2008?"], "cards": [],
    "projectName": "Aceh RAG", "greeting": None,
}
PUBLIC_EVENTS = """| event | data | when |
| --- | --- | --- |
| `start` | `{"ok": true}` | once, first |
| `phase` | `{"name"}`: `searching`, `reading`, `finalizing` (ignore unknown names) | zero or more, a status label only |
| `delta` | `{"text"}` | append to the reply bubble |
| `done` | the JSON response below (`ok`, `reply`, `conversationId`, …) | terminal on success |
| `error` | `{"ok": false, "message", "code"}` | terminal on failure |
| `cancelled` | `{"message": "client_disconnected"}` | the client went away |

Order: `start` → (`phase` | `delta`)* → `done` | `error`. Setup failures (400, 403, 404, 413, 415, 429) are JSON
error bodies with their status, before any event."""
STREAM_EXAMPLE = "".join(f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n" for name, data in (
    ("start", {"ok": True}), ("phase", {"name": "searching"}), ("phase", {"name": "reading"}),
    ("delta", {"text": "Badan Publik wajib menyampaikan pemberitahuan tertulis "}),
    ("delta", {"text": "paling lambat 10 (sepuluh) hari kerja [1]."}), ("phase", {"name": "finalizing"}),
    ("done", DONE_EXAMPLE)))


def _public_error(description: str, code: str, message: str) -> dict:
    return {"description": description, "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/PublicChatError"},
        "example": {"ok": False, "message": message, "code": code}}}}


def _chat_operation(request_schema: dict) -> dict:
    chat_200 = event_stream_response("stream: true → the event stream; otherwise the done payload as JSON.",
                                     STREAM_EXAMPLE)
    chat_200["content"]["application/json"] = {"schema": {"$ref": "#/components/schemas/PublicChatDone"},
                                               "example": DONE_EXAMPLE}
    return {
        "tags": ["public chat"], "operationId": "public_chat", "security": [],
        "summary": "Public chat answer (no API key), JSON or Server-Sent Events",
        "description": ("The widget's endpoint: answers only from unrestricted documents, rate-limited per visitor and "
                        "address; cross-origin only from ACEH_RAG_PUBLIC_CHAT__ALLOWED_ORIGINS.\n\n"
                        f"{FRAME_FORMAT.split(' Setup failures')[0]}\n\n{PUBLIC_EVENTS}"),
        "requestBody": {"required": True, "content": {"application/json": {
            "schema": request_schema, "example": {"message": "Berapa lama Badan Publik wajib menjawab permintaan informasi publik?",
                                                  "stream": True}}}},
        "responses": {
            "200": chat_200,
            "400": _public_error("Bad body or question.", "BAD_REQUEST", "message must not be empty"),
            "403": _public_error("The page's origin is not allowed.", "FORBIDDEN", "Origin not allowed"),
            "404": _public_error("Unknown conversationId, or the public chat is off.", "NOT_FOUND",
                                 "Percakapan tidak ditemukan"),
            "413": _public_error("Body over 64 KiB.", "BAD_REQUEST", "The request body is too large"),
            "415": _public_error("Not application/json.", "UNSUPPORTED_MEDIA_TYPE",
                                 "Send the question as application/json"),
            "429": _public_error("Rate limited; see Retry-After.", "RATE_LIMITED", "Too many questions; wait a moment"),
        },
    }


def _source_operation() -> dict:
    return {
        "tags": ["public chat"], "operationId": "public_source", "security": [],
        "summary": "A cited passage of an unrestricted document",
        "parameters": [{"name": "chunk_id", "in": "path", "required": True, "example": CITATION["chunk_id"],
                        "schema": {"type": "string", "format": "uuid"}, "description": "A source's chunk_id."}],
        "responses": {
            "200": {"description": "The passage.", "content": {"application/json": {
                "schema": {"$ref": "#/components/schemas/PublicSource"},
                "example": {"ok": True, "source": CITATION, "text": "(7) Paling lambat 10 (sepuluh) hari kerja ..."}}}},
            "404": _public_error("Unknown or restricted.", "NOT_FOUND", "Source not found"),
        },
    }


def _plain(summary: str, tag: str, media: str, example: object, schema: dict, description: str = "") -> dict:
    return {"get": {"tags": [tag], "summary": summary, "security": [], "description": description,
                    "operationId": summary.lower().replace(" ", "_")[:40],
                    "responses": {"200": {"description": "OK", "content": {media: {"schema": schema,
                                                                                   "example": example}}}}}}


def _feedback_operation() -> dict:
    body = {"type": "object", "required": ["visitorId", "conversationId", "turn", "rating"], "properties": {
        "visitorId": {"type": "string", "description": "The visitor id the chat's done payload returned."},
        "conversationId": {"type": "string", "format": "uuid", "description": "conversationId of that answer."},
        "turn": {"type": "integer", "minimum": 0, "description": "Zero-based answer of that conversation."},
        "rating": {"type": "string", "enum": ["up", "down"], "description": "Thumbs up or down."},
        "comment": {"type": "string", "maxLength": 2000, "description": "Optional comment (thumbs down)."}}}
    example = {"visitorId": "v-1b2c", "conversationId": CITATION["document_id"], "turn": 0, "rating": "down",
               "comment": "Jawabannya kurang lengkap."}
    saved = {"description": "Stored (201) or replaced (200).", "content": {"application/json": {
        "schema": {"type": "object", "properties": {"ok": {"type": "boolean"}, "rating": {"type": "string"},
                                                    "comment": {"type": "string"}}},
        "example": {"ok": True, "rating": "down", "comment": "Jawabannya kurang lengkap."}}}}
    return {
        "tags": ["public chat"], "operationId": "public_feedback", "security": [],
        "summary": "The widget's thumbs up/down on one answer (visitor-signed)",
        "requestBody": {"required": True, "content": {"application/json": {"schema": body, "example": example}}},
        "responses": {"201": saved, "200": saved,
                      "400": _public_error("Malformed body.", "BAD_REQUEST", "rating: Input should be 'up' or 'down'"),
                      "404": _public_error("Not this visitor's answer.", "NOT_FOUND", "Answer not found")},
    }


def _metrics_operation() -> dict:
    return {"get": {
        "tags": ["operations"], "operationId": "metrics", "security": [],   # its own bearer token, not the API key
        "summary": "Prometheus metrics of every process of the deployment",
        "description": "Needs Authorization: Bearer <ACEH_RAG_METRICS__TOKEN>; 404 while that token is unset.",
        "responses": {"200": {"description": "Prometheus text format.", "content": {"text/plain": {
                          "schema": {"type": "string"}, "example": "# TYPE acehrag_answers_total counter\n"}}},
                      "401": {"description": "Missing or wrong bearer token."},
                      "404": {"description": "Metrics are off (no token configured)."}},
    }}


def add_public_routes(schema: dict) -> None:
    from answering.facade import PublicChatIn

    request_schema = PublicChatIn.model_json_schema(by_alias=True)
    request_schema.pop("title", None)
    schema["components"]["schemas"].update(
        {"PublicChatError": PUBLIC_ERROR, "PublicChatDone": PUBLIC_DONE, "PublicSource": PUBLIC_SOURCE})
    readiness = {"type": "object", "properties": {"status": {"type": "string"}, "checks": {"type": "object"},
                                                  "failing": {"type": "array", "items": {"type": "string"}}}}
    schema["paths"].update({
        "/api/public/rag/chat": {"post": _chat_operation(request_schema)},
        "/api/public/rag/sources/{chunk_id}": {"get": _source_operation()},
        "/api/public/rag/feedback": {"post": _feedback_operation()},
        "/metrics": _metrics_operation(),
        "/healthz": _plain("Liveness", "operations", "application/json", {"status": "ok"},
                           {"type": "object", "properties": {"status": {"type": "string"}}}),
        "/readyz": _plain("Readiness", "operations", "application/json",
                          {"status": "ready", "checks": {"database": "ok", "migrations": "ok", "pgvector": "ok",
                                                         "embedder": "ok", "index_model": "ok"}}, readiness,
                          "200 when ready; 503 with checks and failing otherwise."),
        "/widget": _plain("Widget page", "public chat", "text/html", "<!doctype html>…", {"type": "string"},
                          "A page with the chat widget, as a partner site embeds it."),
        "/widget.js": _plain("Widget script", "public chat", "text/javascript", "(() => { … })();",
                             {"type": "string"}, 'Embed with <script src="https://<host>/widget.js" defer></script> '
                                                 '(data-lang="id|en", data-open="true").'),
    })
