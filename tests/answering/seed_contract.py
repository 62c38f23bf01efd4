"""Shared data and servers of the seed-contract tests of issue #19 (imported by each test module).

Each importing module gets its own committed corpus (module scope) and shares the session's servers.
"""
from __future__ import annotations

import json
import re

import httpx
import pytest

from tests.answering.scripted_model import allowing_guard, careful_agent, completion, supporting_judge
from tests.answering.test_query_v2_contract import modelled, scripted  # noqa: F401 (shared fixtures)
from tests.conftest import TEST_API_KEY, purge_committed_corpus

KEY = {"X-API-Key": TEST_API_KEY}
ZAKAT = "Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh paling lambat akhir tahun berjalan."
PPID = ("PPID wajib memberikan pemberitahuan tertulis atas permohonan informasi publik paling lambat "
        "10 (sepuluh) hari kerja sejak permohonan diterima.")
QUESTION = "Ke mana muzakki wajib membayar zakat?"
NOTHING_READABLE = "The tools that ran returned nothing readable for this question"


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    from tests.factories import make_document

    with django_db_blocker.unblock():
        zakat = make_document(title="Qanun Baitul Mal", chunks=[ZAKAT])
        ppid = make_document(title="Pergub PPID", chunks=[PPID])
    yield {"zakat": str(zakat.id), "ppid": str(ppid.id)}
    with django_db_blocker.unblock():
        purge_committed_corpus()


@pytest.fixture(scope="module")
def server(live_server_factory, corpus):
    return live_server_factory()


def post(server, path, headers=None, **body):
    return httpx.post(server.url + path, json=body, headers={**KEY, **(headers or {})}, timeout=60)


def stored_assistant(server, body, headers=None) -> dict:
    conversation = httpx.get(f"{server.url}/conversations/{body['conversation_id']}",
                             headers={**KEY, **(headers or {})}, timeout=30).json()
    return conversation["messages"][-1]


@pytest.fixture
def model(scripted):
    scripted.calls.clear()
    scripted.scripts.update(agent=careful_agent, judge=supporting_judge, framing=None, guard=allowing_guard)
    return scripted




def verdicts(reject: str):
    def judge(body):
        text = body["messages"][-1]["content"]
        return completion(json.dumps({"verdicts": [
            {"item": int(n), "verdict": "unsupported" if reject in statement else "supported"}
            for n, statement in re.findall(r"^Item (\d+)\nStatement: (.*)$", text, re.M)]}))
    return judge
