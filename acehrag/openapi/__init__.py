"""The OpenAPI document a partner integrates from.

django-ninja builds the paths and the component schemas from the routes and their
pydantic schemas (whose fields carry the seeds' descriptions). This package adds what
ninja cannot know: the security schemes (API key, partner JWT, X-User-* identity), the
real error bodies per status, a working example per route, the SSE event catalogues,
the public chat routes (plain Django views) and which answerer and embedder run.
"""
from __future__ import annotations

from acehrag.openapi import errors, examples, public, security, streams
from acehrag.openapi.info import describe_api


def enrich(schema: dict) -> dict:
    """Complete ninja's schema in place; returns it."""
    for _, _, operation in operations(schema):
        # ninja keys responses by int; the JSON document (and everything below) uses strings.
        operation["responses"] = {str(code): response for code, response in operation.get("responses", {}).items()}
    describe_api(schema)
    security.add_security(schema)
    errors.add_error_responses(schema)
    streams.describe_streams(schema)
    examples.add_examples(schema)
    # Last: these operations carry their own errors and examples (no API key, no FastAPI 422).
    public.add_public_routes(schema)
    return schema


def operations(schema: dict):
    """(path, method, operation) for every operation of the document."""
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            yield path, method, operation
