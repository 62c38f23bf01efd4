"""Error responses with the bodies the server really sends (seed: query-search-api, error table)."""
from __future__ import annotations

from kernel.error_table import family_code

ERROR_REF = {"$ref": "#/components/schemas/ErrorOut"}
VALIDATION_REF = {"$ref": "#/components/schemas/HTTPValidationError"}

VALIDATION_SCHEMAS = {
    "ValidationErrorItem": {
        "type": "object",
        "required": ["type", "loc", "msg", "input"],
        "properties": {
            "type": {"type": "string", "description": "Error type, e.g. missing, string_too_short, extra_forbidden, "
                                                      "uuid_parsing, json_invalid."},
            "loc": {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
                    "description": 'Where: starts with body, query or path, e.g. ["body", "top_k"].'},
            "msg": {"type": "string", "description": "Human-readable message."},
            "input": {"description": "The value that failed."},
            "ctx": {"type": "object", "description": 'Constraint context when there is one, e.g. {"gt": 0}.'},
        },
    },
    "HTTPValidationError": {
        "type": "object",
        "required": ["detail", "code"],
        "description": "FastAPI's 422 body: detail is always a list; code is validation_error.",
        "properties": {"detail": {"type": "array", "items": {"$ref": "#/components/schemas/ValidationErrorItem"},
                                  "description": "One item per problem."},
                       "code": {"type": "string", "description": "validation_error (docs/errors.md)."}},
    },
}

VALIDATION_EXAMPLE = {"detail": [{"type": "greater_than", "loc": ["body", "top_k"],
                                  "msg": "Input should be greater than 0", "input": 0, "ctx": {"gt": 0}}],
                      "code": "validation_error"}
UNAUTHORIZED_EXAMPLES = {
    "key": ("API key missing or wrong", "Invalid or missing API key", "invalid_api_key"),
    "principal_required": ("ACEH_RAG_AUTH__REQUIRE_PRINCIPAL=true and no subject", "Authenticated principal required",
                           "principal_invalid"),
    "principal_invalid": ("Malformed identity headers while a principal is required", "Invalid authenticated principal",
                          "principal_invalid"),
    "bearer": ("Bad partner JWT", "Invalid bearer token: Signature has expired", "principal_invalid"),
}

# (status) → (description, example detail); (path, status) overrides for route-specific meaning.
DEFAULTS = {
    400: ("The question is whitespace only.", "Query must not be empty"),
    403: ("A verified admin principal is required.", "Admin principal required"),
    404: ("Not found, or not visible to this caller (unknown and forbidden look the same).", "Not Found"),
    409: ("The conversation belongs to the other answer route family (/query vs /query/v2).",
          "Conversation 3f0c2a8e-1b7d-4c55-9a1e-6d2b8f4e7a10 belongs to another answer route"),
    413: ("Too large.", "File too large: 30000000 bytes (limit 26214400)"),
    415: ("Unsupported or mismatched file type.", "Unsupported file type .exe; expected one of .docx, .htm, .html, "
                                                   ".md, .pdf, .txt"),
    429: ("Rate limited; retry after the Retry-After header's seconds.", "Too many playground runs; retry later"),
    502: ("A model or embedding dependency failed, or a search hit its time bound.",
          "Model dependency failed: HTTP 500 from the model server"),
    503: ("The database is unavailable, or the server is at its answer capacity (retry after Retry-After).",
          "Service temporarily unavailable"),
}
ANSWER_404 = ("Unknown conversation_id (or another subject's), or no visible indexed content to answer from.",
              "Conversation 3f0c2a8e-1b7d-4c55-9a1e-6d2b8f4e7a10 not found")
ANSWER_V2_404 = ("Unknown conversation_id (or another subject's), no visible indexed content, or the tools that ran "
                 "returned nothing readable (including a search that failed or hit its time bound).",
                 "The tools that ran returned nothing readable for this question")
ANSWER_413 = ("The question (and history) cannot fit the answer context.",
              "The question is too long for the answer context (9000 > 8000 characters)")
OVERRIDES = {
    "/query": {404: ANSWER_404, 413: ANSWER_413},
    "/query/stream": {404: ANSWER_404, 413: ANSWER_413},
    "/query/v2": {404: ANSWER_V2_404, 413: ANSWER_413},
    "/query/v2/stream": {404: ANSWER_V2_404, 413: ANSWER_413},
    "/playground": {
        403: ("The caller is not a verified admin.", "Verified admin principal required"),
        404: ANSWER_404, 413: ANSWER_413,
        503: ("Verified identity is disabled (no trusted headers, no JWT key): the playground fails closed.",
              "The playground needs verified identity: configure a partner JWT key or trust identity headers"),
    },
    "/search": {502: ("The embedding (or rerank) dependency failed, or the search hit its time bound.",
                      "Embedding dependency failed: connection refused")},
    "/documents/{document_id}": {404: ("Unknown or not visible.", "Document 3f0c2a8e-1b7d-4c55-9a1e-6d2b8f4e7a10 not found")},
    "/ingestions/{ingestion_id}": {404: ("Unknown ingestion.", "Ingestion 3f0c2a8e-1b7d-4c55-9a1e-6d2b8f4e7a10 not found")},
    "/conversations/{conversation_id}": {
        404: ("Unknown or another subject's conversation.", "Conversation 3f0c2a8e-1b7d-4c55-9a1e-6d2b8f4e7a10 not found")},
    "/memories/{memory_id}": {404: ("Unknown or another subject's memory.", "Memory 42 not found")},
}


def _detail_response(description: str, detail: str, code: str) -> dict:
    return {"description": description,
            "content": {"application/json": {"schema": ERROR_REF, "example": {"detail": detail, "code": code}}}}


def unauthorized_response() -> dict:
    return {
        "description": "No or wrong API key, or identity required/malformed, or a bad partner JWT.",
        "content": {"application/json": {"schema": ERROR_REF, "examples": {
            name: {"summary": summary, "value": {"detail": detail, "code": code}}
            for name, (summary, detail, code) in UNAUTHORIZED_EXAMPLES.items()}}},
    }


def validation_response() -> dict:
    return {"description": "Request validation failed (also for malformed JSON): detail is a list.",
            "content": {"application/json": {"schema": VALIDATION_REF, "example": VALIDATION_EXAMPLE}}}


def add_error_responses(schema: dict) -> None:
    schema["components"]["schemas"].update(VALIDATION_SCHEMAS)
    for path, item in schema["paths"].items():
        for operation in item.values():
            responses = operation.setdefault("responses", {})
            if operation.get("security"):
                responses.setdefault("401", unauthorized_response())
            if operation.get("requestBody") or operation.get("parameters"):
                responses.setdefault("422", validation_response())
            for code, response in responses.items():
                status = int(code)
                if status in (401, 422) or status < 400:
                    continue
                known = OVERRIDES.get(path, {}).get(status) or DEFAULTS.get(status)
                content = response.get("content", {}).get("application/json", {})
                if known and content.get("schema") == ERROR_REF:
                    responses[code] = _detail_response(*known, family_code(status))
