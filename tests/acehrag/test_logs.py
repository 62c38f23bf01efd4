"""Structured logs: JSON lines from a real server, with trace ids and no identity or question text."""
from __future__ import annotations

import io
import json
import logging
import re

import httpx
import pytest

from kernel.telemetry.logs import formatter, resolved_format
from tests.conftest import TEST_API_KEY

pytestmark = pytest.mark.django_db

QUESTION = "Berapa lama Badan Publik wajib menjawab permintaan informasi menurut Undang-Undang Nomor 14 Tahun 2008?"
SUBJECT = "pegawai.rahasia@aceh.example"



def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.startswith("{")]


def test_a_request_logs_one_json_line_with_its_trace_and_no_identity(live_server_factory, corpus):
    server = live_server_factory(ACEH_RAG_LOG_LEVEL="INFO", ACEH_RAG_LOG_FORMAT="json")
    headers = {"X-API-Key": TEST_API_KEY, "X-User-Subject": SUBJECT}
    body = httpx.post(server.url + "/query", json={"query": QUESTION}, headers=headers, timeout=60).json()
    other = httpx.post(server.url + "/query", json={"query": QUESTION}, headers={"X-API-Key": TEST_API_KEY,
                                                                                 "X-User-Subject": "someone.else"}, timeout=60)
    assert other.status_code == 200
    lines = json_lines(server.log_text())
    access = [line for line in lines if line.get("logger") == "acehrag.access" and line.get("route") == "/query"]
    mine = next(line for line in access if line["trace_id"] == body["trace_id"])
    assert (mine["event"], mine["method"], mine["status"], mine["level"]) == ("request", "POST", 200, "info")
    assert 0 < mine["duration_ms"] < 60_000 and re.fullmatch(r"[0-9a-f]{16}", mine["span_id"])
    assert re.fullmatch(r"[0-9a-f]{16}", mine["subject_hash"])
    theirs = next(line for line in access if line["trace_id"] == other.json()["trace_id"])
    assert theirs["subject_hash"] != mine["subject_hash"]  # a pseudonym per subject
    text = server.log_text()
    assert SUBJECT not in text and QUESTION not in text and "menjawab permintaan informasi" not in text


def test_the_console_format_is_for_terminals_and_json_otherwise():
    class Terminal(io.StringIO):
        def isatty(self):
            return True

    assert resolved_format("auto", Terminal()) == "console"
    assert resolved_format("auto", io.StringIO()) == "json"
    assert resolved_format("json", Terminal()) == "json"
    record = logging.LogRecord("acehrag.access", logging.INFO, __file__, 1, "request", None, None)
    record.route = "/query"
    rendered = json.loads(formatter("json").format(record))
    assert rendered["event"] == "request" and rendered["route"] == "/query" and rendered["level"] == "info"
    assert "trace_id" not in rendered  # no span is current here
    console = formatter("console").format(record)
    assert "request" in console and "route" in console and not console.startswith("{")
