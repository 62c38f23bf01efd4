"""Schemathesis in the suite: a bounded run over every route of a real server; any 5xx fails it."""
from __future__ import annotations

import re
import subprocess
import sys

import httpx
import pytest

from tests.conftest import ROOT, TEST_API_KEY

pytestmark = pytest.mark.slow

def test_a_bounded_schemathesis_run_finds_no_server_error(live_server_factory, transactional_db):
    live_server = live_server_factory()
    # Given the real server on the test database, when scripts/fuzz.py (what `make fuzz` runs) fuzzes it
    # with a few examples per route and phase (~3,000 cases, about a minute on two shared cores),
    run = subprocess.run([sys.executable, "scripts/fuzz.py", "--url", live_server.url, "--api-key", TEST_API_KEY,
                          "--max-examples", "5", "--seed", "33"],
                         cwd=ROOT, capture_output=True, text=True, timeout=600)
    # then no request produced a 5xx (Schemathesis's status) and the server logged no traceback
    # (the live_server fixture asserts the log at session end).
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert re.search(r"(\d+) generated, \1 passed", run.stdout), run.stdout[-3000:]


def test_the_duplicate_member_that_once_answered_500_is_a_409_on_the_real_server(live_server_factory, transactional_db):
    live_server = live_server_factory()
    headers = {"X-API-Key": TEST_API_KEY, "X-User-Subject": "ana"}
    workspace_id = httpx.post(f"{live_server.url}/workspaces", json={"name": "w"}, headers=headers).json()["workspace_id"]
    response = httpx.post(f"{live_server.url}/workspaces/{workspace_id}/members",
                          json={"subject": "ana", "role": "partner"}, headers=headers)
    assert response.status_code == 409 and response.json()["code"] == "workspace_member_conflict"
