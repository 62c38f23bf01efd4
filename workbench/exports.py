"""Streaming CSV/JSON exports: conversations with messages and feedback; refused questions."""
from __future__ import annotations

import json
from typing import Iterator

from django.core.serializers.json import DjangoJSONEncoder

from conversations.facade import MessageExport, messages_export, refused_questions
from kernel.spreadsheet import csv_lines
from workbench.dashboard import Period

MESSAGE_COLUMNS = ["conversation_id", "owner", "route_family", "message_id", "position", "exchange_index", "role",
                   "content", "route", "fallback_reason", "grounding_rate", "latency_ms", "created_at",
                   "feedback_rating", "feedback_comment", "feedback_subject"]
REFUSED_COLUMNS = ["question", "times", "reasons"]
REFUSED_LIMIT = 10_000
CHUNK = 200


def _messages(period: Period) -> Iterator[MessageExport]:
    return messages_export(start=period.start, end=period.end, chunk_size=CHUNK)


def _message_row(message: MessageExport) -> dict:
    first = message.feedback[0] if message.feedback else None
    return {
        "conversation_id": str(message.conversation_id), "owner": message.owner, "route_family": message.route_family,
        "message_id": str(message.message_id), "position": message.position, "exchange_index": message.exchange_index,
        "role": message.role, "content": message.content, "route": message.route,
        "fallback_reason": message.fallback_reason, "grounding_rate": message.grounding_rate,
        "latency_ms": message.latency_ms, "created_at": message.created_at.isoformat(),
        "feedback_rating": first.rating if first else None, "feedback_comment": first.comment if first else None,
        "feedback_subject": first.subject if first else None,
    }


def refused_rows(period: Period) -> list[dict]:
    return [{"question": q, "times": n, "reasons": ";".join(reasons)}
            for q, n, reasons in refused_questions(start=period.start, end=period.end, limit=REFUSED_LIMIT)]


def json_conversations(period: Period) -> Iterator[str]:
    """``[{conversation..., "messages": [{..., "feedback": [...]}]}]`` streamed one conversation at a time."""
    yield "["
    current, first = None, True
    for message in _messages(period):
        if current != message.conversation_id:
            if current is not None:
                yield "]}"
            yield ("" if first else ",") + json.dumps({
                "id": str(message.conversation_id), "owner": message.owner, "title": message.title,
                "route_family": message.route_family, "created_at": message.conversation_created_at,
            }, cls=DjangoJSONEncoder)[:-1] + ', "messages": ['
            current, first, message_first = message.conversation_id, False, True
        row = _message_row(message)
        body = {key: row[key] for key in ("message_id", "position", "exchange_index", "role", "content", "route",
                                          "fallback_reason", "grounding_rate", "latency_ms", "created_at")}
        body["source_citations"] = message.source_citations
        body["feedback"] = [{"subject": f.subject, "rating": f.rating, "comment": f.comment,
                             "updated_at": f.updated_at.isoformat()} for f in message.feedback]
        yield ("" if message_first else ",") + json.dumps(body, cls=DjangoJSONEncoder, ensure_ascii=False)
        message_first = False
    if current is not None:
        yield "]}"
    yield "]"


def export_stream(kind: str, fmt: str, period: Period) -> Iterator[str]:
    if kind == "conversations":
        if fmt == "csv":
            return csv_lines(MESSAGE_COLUMNS, (_message_row(m) for m in _messages(period)))
        return json_conversations(period)
    rows = refused_rows(period)
    if fmt == "csv":
        return csv_lines(REFUSED_COLUMNS, rows)
    return iter([json.dumps(rows, ensure_ascii=False)])


__all__ = ["export_stream"]
