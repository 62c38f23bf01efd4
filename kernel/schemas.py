"""Request and error schemas every app's API shares."""
from __future__ import annotations

from ninja import Schema
from pydantic import ConfigDict, Field

from kernel.hygiene import PlainTextModel


class StrictSchema(PlainTextModel, Schema):
    """Unknown request fields are a 422, as the seeds (FastAPI) require; so are control characters."""

    model_config = ConfigDict(extra="forbid")


class ErrorOut(Schema):
    detail: str = Field(description="Human-readable reason, e.g. \"Invalid or missing API key\".")
    code: str = Field(description="Stable machine name of the error (e.g. \"invalid_api_key\", "
                                  "\"conversation_not_found\"): branch on it, not on `detail` (docs/errors.md).")
