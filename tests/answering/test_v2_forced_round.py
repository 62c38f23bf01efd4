"""/query/v2's forced tool round on a follow-up, and where its agent_output_limit applies (issue #19).

Seed (query-v2, fallback reasons): agent_output_limit is "on /query/v2 only when a follow-up's
re-asked forced tool round reaches its output ceiling; the could-not-answer-in-time notice is
published". Elsewhere on v2 a round cut at its ceiling is malformed output: regenerated once,
then unparseable_completion; it is never published. /query keeps agent_output_limit for every
round (tests/answering/test_model_agent.py). Against the real model-backed server of the v2
contract tests, with the scripted model reading what the server really sent.
"""
from __future__ import annotations

import json
import uuid

import pytest

from answering.llm.agent import SEARCH_FIRST
from answering.notices import REFUSAL_NOTICES
from tests.answering.scripted_model import completion, shown_passages, tool_call
from tests.answering.seed_contract import (  # noqa: F401  (fixtures)
    QUESTION, ZAKAT, corpus, model, modelled, post, scripted,
)

pytestmark = pytest.mark.django_db
FOLLOW_UP = "Kalau terlambat, apa akibatnya?"
CUT = json.dumps({"segments": [{"text": ZAKAT, "kind": "fact", "cites": ["P1"], "layout": "paragraph"}]})[:40]


def searched(body) -> bool:
    return any(m["role"] == "tool" for m in body["messages"])


def reasked(body) -> bool:
    return any(m["role"] == "user" and m["content"] == SEARCH_FIRST["id"] for m in body["messages"])


def answer_from_first_passage(body):
    label, _ = shown_passages(body)[0]
    return completion(json.dumps({"segments": [{"text": ZAKAT, "kind": "fact", "cites": [label],
                                                "layout": "paragraph"}]}))


def searching_agent(body):
    if "tools" in body and not searched(body):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"})])
    return answer_from_first_passage(body)


def first_turn(server, model, headers):
    model.scripts.update(agent=searching_agent)
    body = post(server, "/query/v2", headers, query=QUESTION).json()
    assert body["fallback_used"] is False, body
    return body


def agent_bodies_since(model, start: int) -> list[dict]:
    return [b for kind, b in model.calls[start:] if kind == "agent"]


def test_a_follow_up_opens_with_a_required_tool_round_and_a_first_turn_does_not(modelled, model, corpus):
    headers = {"X-User-Subject": f"forced-{uuid.uuid4().hex[:6]}"}
    mark = len(model.calls)
    first = first_turn(modelled, model, headers)
    assert [b.get("tool_choice") for b in agent_bodies_since(model, mark)][0] is None
    mark = len(model.calls)
    later = post(modelled, "/query/v2", headers, query=FOLLOW_UP, conversation_id=first["conversation_id"]).json()
    assert later["fallback_used"] is False, later
    rounds = agent_bodies_since(model, mark)
    assert rounds[0]["tool_choice"] == "required" and "tools" in rounds[0]
    assert all("tool_choice" not in b for b in rounds[1:])      # only the opening round is forced


def test_a_forced_round_answered_without_a_search_is_reasked_once(modelled, model, corpus):
    headers = {"X-User-Subject": f"reask-{uuid.uuid4().hex[:6]}"}
    first = first_turn(modelled, model, headers)

    def from_memory_first(body):
        if body.get("tool_choice") == "required" and not reasked(body):
            return completion(json.dumps({"segments": [{"text": "Seperti jawaban sebelumnya.", "kind": "framing",
                                                        "cites": [], "layout": "paragraph"}]}))
        return searching_agent(body)

    model.scripts.update(agent=from_memory_first)
    mark = len(model.calls)
    later = post(modelled, "/query/v2", headers, query=FOLLOW_UP, conversation_id=first["conversation_id"]).json()
    rounds = agent_bodies_since(model, mark)
    assert [b.get("tool_choice") for b in rounds[:2]] == ["required", "required"]
    assert reasked(rounds[1]) and not reasked(rounds[0])
    # The re-asked round searched, so the answer is the verified one, not the answer from memory.
    assert later["fallback_used"] is False and [c["verdict"] for c in later["claims"]] == ["supported"], later


def test_a_reasked_forced_round_cut_at_its_ceiling_publishes_the_could_not_answer_in_time_notice(
        modelled, model, corpus):
    headers = {"X-User-Subject": f"cut-{uuid.uuid4().hex[:6]}"}
    first = first_turn(modelled, model, headers)

    def runaway(body):
        if body.get("tool_choice") == "required":
            return completion('{"segments": [{"text": "' + "zakat " * 40, finish="length")
        return searching_agent(body)

    model.scripts.update(agent=runaway)
    mark = len(model.calls)
    response = post(modelled, "/query/v2", headers, query=FOLLOW_UP, conversation_id=first["conversation_id"])
    assert response.status_code == 200
    body = response.json()
    assert (body["fallback_used"], body["fallback_reason"], body["claims"]) == (True, "agent_output_limit", [])
    assert body["answer"] == REFUSAL_NOTICES["could_not_answer_in_time"]["id"]
    rounds = agent_bodies_since(model, mark)
    assert len(rounds) == 2 and reasked(rounds[1])           # cut once, re-asked, cut again: stopped
    assert [kind for kind, _ in model.calls[mark:]].count("judge") == 0


def test_a_first_turn_answer_cut_at_its_ceiling_is_regenerated_not_agent_output_limit(modelled, model, corpus):
    cuts = {"left": 1}

    def cut_once(body):
        if "tools" in body and not searched(body):
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"})])
        if cuts["left"]:
            cuts["left"] -= 1
            return completion(CUT, finish="length")
        return answer_from_first_passage(body)

    model.scripts.update(agent=cut_once)
    body = post(modelled, "/query/v2", query=QUESTION).json()
    assert body["fallback_used"] is False and body["fallback_reason"] is None, body
    assert [c["verdict"] for c in body["claims"]] == ["supported"]
    assert CUT not in body["answer"]


def test_a_first_turn_answer_cut_twice_is_unparseable_completion(modelled, model, corpus):
    def always_cut(body):
        if "tools" in body and not searched(body):
            return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": "zakat"})])
        # Even a cut text that would parse is never published.
        return completion(json.dumps({"segments": [{"text": "Zakat dibayar ke mana saja.", "kind": "fact",
                                                    "cites": ["P1"], "layout": "paragraph"}]}), finish="length")

    model.scripts.update(agent=always_cut)
    body = post(modelled, "/query/v2", query=QUESTION).json()
    assert (body["fallback_used"], body["fallback_reason"], body["claims"]) == (True, "unparseable_completion", [])
    assert "Zakat dibayar ke mana saja" not in body["answer"]
