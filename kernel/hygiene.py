"""Input hygiene at the edge: no NUL or other C0 control characters in any input string.

PostgreSQL text cannot hold NUL, and no question, title, id or parameter of
this API needs a control character other than tab, newline and carriage
return. One rule serves every request schema (``PlainTextModel``, the base of
``StrictSchema`` and of the public chat body) and every query and form
parameter (``ControlCharacterMiddleware``): a 422 in FastAPI's shape.
"""
from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from pydantic import BaseModel, field_validator
from pydantic_core import PydanticCustomError

from kernel.error_table import error_response
from kernel.errors import RequestInvalid

CONTROL_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
ERROR_TYPE = "string_control_characters"
MESSAGE = "String should not contain NUL or other control characters"
# The HTML pages keep Django's own handling.
EXEMPT_PREFIXES = ("/admin", "/static/")
FORM_TYPES = ("multipart/form-data", "application/x-www-form-urlencoded")


def has_control_characters(value: Any) -> bool:
    """True when ``value`` or any string nested in it (keys included) holds a forbidden character."""
    if isinstance(value, str):
        return CONTROL_CHARACTERS.search(value) is not None
    if isinstance(value, dict):
        return any(has_control_characters(k) or has_control_characters(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(has_control_characters(item) for item in value)
    return False


class PlainTextModel(BaseModel):
    """Every field of a request model rejects control characters (before type coercion)."""

    @field_validator("*", mode="before")
    @classmethod
    def reject_control_characters(cls, value: Any) -> Any:
        if has_control_characters(value):
            raise PydanticCustomError(ERROR_TYPE, MESSAGE)
        return value


def control_character_errors(source: str, params) -> list[dict]:
    """FastAPI-shaped 422 items for the parameters of a ``QueryDict`` that hold control characters."""
    errors = []
    for name, values in params.lists():
        for value in values:
            if has_control_characters(value) or has_control_characters(name):
                errors.append({"type": ERROR_TYPE, "loc": [source, name], "msg": MESSAGE, "input": value})
    return errors


class ControlCharacterMiddleware:
    """Query-string and form parameters of every route but the HTML pages."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path.startswith(EXEMPT_PREFIXES):
            errors = control_character_errors("query", request.GET)
            if request.method == "POST" and request.content_type in FORM_TYPES:
                try:
                    errors += control_character_errors("form", request.POST)
                except MultiPartParserError:
                    pass  # a malformed envelope is the route's own 4xx to give
            if errors:
                return error_response(RequestInvalid(), errors)
        return self.get_response(request)
