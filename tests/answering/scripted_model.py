"""A scripted OpenAI-compatible model for the answer tests.

It is served by ``FakeModelServer`` (a real HTTP server on loopback) and
answers each chat-completions request by its purpose — agent, judge, framing
check or guard, told apart by the system prompt the server really sends —
with the test's script for that purpose. The default agent behaves like a
careful model: it searches once, then answers citing the first label it was
shown, with a sentence copied from that passage. It obeys an injected
instruction only if one reaches it outside the untrusted passage blocks.
"""
from __future__ import annotations

import json
import re
import time
from typing import Callable

PASSAGE_BLOCK = re.compile(r"<passage [^>]*>.*?</passage>", re.S)
LABEL = re.compile(r'<passage key="(P\d+)"[^>]*>\n(.*?)\n</passage>', re.S)
INJECTION = re.compile(r"ignore previous instructions|abaikan instruksi sebelumnya", re.I)


def completion(content: str | None = None, *, finish: str = "stop", tool_calls: list[dict] | None = None,
               usage: dict | None = None) -> tuple[int, dict]:
    message: dict = {"role": "assistant", "content": content}
    if tool_calls:
        message["tool_calls"] = tool_calls
    return 200, {
        "id": "chatcmpl-test", "object": "chat.completion", "model": "scripted",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": usage or {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120},
    }


def tool_call(name: str, arguments: dict | str, call_id: str = "call_1") -> dict:
    raw = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": raw}}


def purpose(body: dict) -> str:
    system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
    if system.startswith("You are a strict faithfulness judge"):
        return "judge"
    if "framing segments" in system:
        return "framing"
    if "Government Policy Guard" in system:
        return "guard"
    if system.startswith("You check an answer that cites no passage label"):
        return "unlabelled_check"
    if system.startswith("You decide whether an answer's cited passages answer"):
        return "answerability"
    if system.startswith("You decide whether the user's new question is a follow-up"):
        return "followup"
    return "agent"


def shown_passages(body: dict) -> list[tuple[str, str]]:
    """(label, text) of every passage block the agent was shown so far."""
    found = []
    for message in body["messages"]:
        found += LABEL.findall(message.get("content") or "")
    return found


def outside_passages(body: dict) -> str:
    """Everything but the system prompt and the untrusted blocks: what could instruct the model."""
    return "\n".join(PASSAGE_BLOCK.sub("", m.get("content") or "") for m in body["messages"] if m["role"] != "system")


def first_sentence(text: str) -> str:
    sentence = re.split(r"(?<=[.;])\s", text.strip())[0].rstrip(".;")
    return re.sub(r"^\(\d+\)\s*", "", sentence)


def careful_agent(body: dict, query: str = "zakat") -> tuple[int, dict]:
    """Search once, then answer from the first passage shown, citing its label."""
    if INJECTION.search(outside_passages(body)):
        return completion("HACKED")
    if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
        return completion(None, finish="tool_calls", tool_calls=[tool_call("search_documents", {"query": query})])
    passages = shown_passages(body)
    if not passages:
        return completion("Informasi tersebut tidak ditemukan dalam dokumen yang tersedia.")
    label, text = passages[0]
    return completion(f"Berikut penjelasannya. {first_sentence(text)} [{label}].")


def supporting_judge(body: dict) -> tuple[int, dict]:
    items = re.findall(r"^Item (\d+)$", body["messages"][-1]["content"], re.M)
    return completion(json.dumps({"verdicts": [{"item": int(n), "verdict": "supported"} for n in items]}))


def judge_rejecting(marker: str) -> Callable[[dict], tuple[int, dict]]:
    """Support every item except those whose statement contains ``marker``."""
    def judge(body: dict) -> tuple[int, dict]:
        text = body["messages"][-1]["content"]
        verdicts = []
        for number, statement in re.findall(r"^Item (\d+)\nStatement: (.*)$", text, re.M):
            verdicts.append({"item": int(number), "verdict": "unsupported" if marker in statement else "supported"})
        return completion(json.dumps({"verdicts": verdicts}))
    return judge


def answering_judge(body: dict) -> tuple[int, dict]:
    return completion(json.dumps({"answers_question": True, "unmet": []}))


def factual_check(body: dict) -> tuple[int, dict]:
    return completion(json.dumps({"asserts_facts": True}))


def allowing_guard(body: dict) -> tuple[int, dict]:
    return completion(json.dumps({"blocked": False, "categories": []}))


class ScriptedModel:
    """``handler(path, body)`` for FakeModelServer, dispatching on the request's purpose."""

    def __init__(self, *, agent=careful_agent, judge=supporting_judge, framing=None, guard=allowing_guard,
                 answerability=answering_judge, unlabelled_check=factual_check, followup=None, delay: float = 0.0):
        self.scripts = {"agent": agent, "judge": judge, "framing": framing, "guard": guard,
                        "answerability": answerability, "unlabelled_check": unlabelled_check,
                        # No follow-up script: the judge call fails and the rule decides, as when it is down.
                        "followup": followup}
        self.delay = delay
        self.calls: list[tuple[str, dict]] = []

    def __call__(self, path: str, body: dict) -> tuple[int, object]:
        if path != "/v1/chat/completions":
            return 404, {"error": {"message": f"no route {path}"}}
        kind = purpose(body)
        self.calls.append((kind, body))
        if self.delay:
            time.sleep(self.delay)
        script = self.scripts[kind]
        if script is None:
            return 500, {"error": {"message": f"no script for {kind}"}}
        return script(body)

    def bodies(self, kind: str) -> list[dict]:
        return [body for k, body in self.calls if k == kind]
