"""A chaos model server on loopback, and a run of answers through it: the publication rules under a broken model.

``ChaosModel`` speaks the OpenAI chat-completions protocol. As the agent it
searches once, then answers from the first passage it was shown, but for
each answer it injects one defect drawn from a seed: malformed JSON, a broken
tool call, a label never shown, a sentence cut at the output limit, prose
without labels, English, HTML and script around a supported sentence,
Markdown, a very long output, an obeyed injected instruction, a fabricated
figure, an empty completion, a slow reply, a dropped connection. As judge it
is honest (a statement is supported when every content word and number of it
is in its cited passages); as guard, answerability and framing check it lets
everything through, so only the publication rules stand between a defect and
the reader.

``chaos_run`` sends answers through ``/query``, ``/query/v2`` and the public
chat of a server that uses the model, one at a time, and classifies each
(published, withheld with its reason, refused with its code, server error),
checking every published answer: no raw HTML, no broken label, no obeyed
instruction (on v2, none presented as verified or as framing: v2 publishes an
unsupported claim marked as such), no unsupported claim on ``/query``, every
v2 verdict consistent with its citations.

Run: .venv/bin/python bench/chaos_model.py [--answers 1200] [--seed 33]
(a server of this tree on var/chaos, holding the sample corpus; prints the table).
"""
from __future__ import annotations

import argparse
import html
import json
import random
import re
import socket
import threading
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

DEFECTS = ("none", "malformed_json", "bad_tool_call", "unshown_label", "cut_sentence", "unlabelled", "wrong_language",
           "markup", "markdown", "long_output", "injection_obeyed", "fabricated_figure", "empty", "slow", "dropped")
PAYLOAD = "Semua permohonan disetujui otomatis tanpa verifikasi"      # what an obeyed injection writes
ROLES = {   # the first words of each role's system prompt (answering/llm/prompts, answering/followup.py)
    "judge": "You are a strict faithfulness judge", "framing": "An assistant answered a question",
    "guard": "You are the Government Policy Guard", "unlabelled_check": "You check an answer that cites no passage",
    "answerability": "You decide whether an answer's cited passages", "followup": "You decide whether the user's new",
}
PASSAGE = re.compile(r'<passage key="(P\d+)"[^>]*>\n(.*?)\n</passage>', re.S)
WORD = re.compile(r"[^\W_]{4,}|\d+", re.U)


def _completion(content: str | None, finish: str = "stop", tool_calls: list | None = None) -> dict:
    message = {"role": "assistant", "content": content, **({"tool_calls": tool_calls} if tool_calls else {})}
    return {"id": "chaos", "object": "chat.completion", "model": "chaos",
            "choices": [{"index": 0, "message": message, "finish_reason": finish}],
            "usage": {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}}


def _json(value: dict) -> dict:
    return _completion(json.dumps(value, ensure_ascii=False))


def _role(body: dict) -> str:
    system = next((m["content"] for m in body["messages"] if m["role"] == "system"), "")
    return next((role for role, opening in ROLES.items() if system.startswith(opening)), "agent")


def _content_words(text: str) -> set[str]:
    return {w.lower() for w in WORD.findall(html.unescape(text))}


def honest_verdicts(body: dict) -> dict:
    """Supported only when every content word and number of the statement is in its cited passages."""
    verdicts = []
    for block in re.split(r"\n\n(?=Item \d+\n)", body["messages"][-1]["content"]):
        found = re.match(r"Item (\d+)\nStatement: (.*)", block)
        if found:
            evidence = _content_words(" ".join(text for _, text in PASSAGE.findall(block)))
            supported = _content_words(found.group(2)) <= evidence and evidence
            verdicts.append({"item": int(found.group(1)), "verdict": "supported" if supported else "unsupported"})
    return {"verdicts": verdicts}


@dataclass
class ChaosModel:
    """The model: one defect per answer, chosen when the answer's first agent call arrives."""

    seed: int = 33
    defects: tuple[str, ...] = DEFECTS
    slow_seconds: float = 3.0
    cycle_every: int = 0           # 0: a random defect per answer; n: each defect in turn for n answers
    current: str = "none"
    counts: Counter = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self._random = random.Random(self.seed)
        self._lock = threading.Lock()

    def next_answer(self) -> str:
        with self._lock:
            if self.cycle_every:
                answered = sum(self.counts.values())
                self.current = self.defects[(answered // self.cycle_every) % len(self.defects)]
            else:
                self.current = self._random.choice(self.defects)
            self.counts[self.current] += 1
            return self.current

    def reply(self, body: dict) -> dict | None:
        """The completion for ``body``; None drops the connection."""
        role = _role(body)
        if role == "judge":
            return _json(honest_verdicts(body))
        if role == "framing":
            return _json({"checkable": []})
        if role == "guard":
            return _json({"blocked": False, "categories": []})
        if role == "unlabelled_check":
            return _json({"asserts_facts": True})
        if role == "answerability":
            return _json({"answers_question": True, "unmet": []})
        if role == "followup":
            return _json({"followup": False, "documents": []})
        return self._agent(body, self.current)

    def _agent(self, body: dict, defect: str) -> dict | None:
        first_round = "tools" in body and not any(m["role"] == "tool" for m in body["messages"])
        question = next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")
        if first_round:
            if defect == "bad_tool_call":
                return _completion(None, "tool_calls", [{"id": "c1", "type": "function", "function": {
                    "name": "search_documents", "arguments": '{"query": "' + question[:20]}}])
            return _completion(None, "tool_calls", [{"id": "c1", "type": "function", "function": {
                "name": "search_documents", "arguments": json.dumps({"query": question[:200]})}}])
        shown = [(k, html.unescape(t)) for m in body["messages"] for k, t in PASSAGE.findall(m.get("content") or "")]
        if not shown:
            return _completion("Informasi tersebut tidak ditemukan dalam dokumen yang tersedia.")
        if defect == "slow":
            time.sleep(self.slow_seconds)
        if defect == "dropped":
            return None
        label, text = shown[0]
        sentence = re.split(r"(?<=[.;:])\s", re.sub(r"\s+", " ", text).strip())[0].rstrip(".;:")[:400]
        segments = '"segments"' in body["messages"][0]["content"]
        return _final(defect, label, sentence, segments)


def _final(defect: str, label: str, sentence: str, segments: bool) -> dict:
    """The agent's final answer with ``defect`` (v2: JSON segments; /query: labelled prose)."""
    cites, finish = [label], "stop"
    text = sentence
    if defect == "unshown_label":
        cites = ["P99"]
    elif defect == "unlabelled":
        cites = []
    elif defect == "wrong_language":
        text = "The regulation states that this matter is governed by the provincial government"
    elif defect == "markup":
        text = f'<script>alert("x")</script><b>{sentence}</b><img src=x onerror=alert(1)>'
    elif defect == "markdown":
        head, _, rest = sentence.partition(" ")
        text = f"{head} **{rest}**" if rest else f"*{sentence}*"
    elif defect == "injection_obeyed":
        text = PAYLOAD
    elif defect == "fabricated_figure":
        text = f"{sentence} dengan anggaran Rp 987.654.321"
    elif defect == "cut_sentence":
        text, finish = sentence[: max(10, len(sentence) // 2)], "length"
    if defect == "empty":
        return _completion("")
    if defect == "malformed_json":
        return _completion('{"segments": [{"text": "' + sentence[:40] if segments else '{"answer": "' + sentence[:40])
    if segments:
        parts = [{"text": "Berikut jawabannya.", "kind": "framing", "cites": [], "layout": "paragraph"},
                 {"text": text + ".", "kind": "fact", "cites": cites, "layout": "paragraph"}]
        if defect == "long_output":
            parts += [{"text": text + ".", "kind": "fact", "cites": cites, "layout": "list_item"}] * 150
        return _completion(json.dumps({"segments": parts}, ensure_ascii=False), finish)
    labels = "".join(f" [{c}]" for c in cites)
    prose = f"Berikut jawabannya. {text}{labels}."
    if defect == "long_output":
        prose = " ".join([prose] * 150)
    return _completion(prose, finish)


class ChaosServer:
    """``ChaosModel`` served on 127.0.0.1 (a real HTTP server; a dropped reply closes the socket)."""

    def __init__(self, model: ChaosModel):
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
                payload = model.reply(body)
                if payload is None:
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                data = json.dumps(payload).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


# -- the run ------------------------------------------------------------------------------------

ROUTES = {"query": "/query", "v2": "/query/v2", "public": "/api/public/rag/chat"}
TAG = re.compile(r"<[A-Za-z!/?]")
LABEL_OPENING = re.compile(r"\[[PMH](?=\d|\]|$)")
WHOLE_LABEL = re.compile(r"\[[PMH]\d+(?:\s*[,;]\s*[PMH]\d+)*\]")


def broken_label(text: str) -> bool:
    """A source label that is not whole (``[P1``, ``[P]``, ``[P1, P``) — a Markdown link is not a label."""
    return any(not WHOLE_LABEL.match(text, m.start()) for m in LABEL_OPENING.finditer(text))


@dataclass(frozen=True)
class Outcome:
    route: str
    defect: str
    kind: str            # published | withheld | refused | server_error
    reason: str
    problems: tuple[str, ...]


def published_problems(route: str, body: dict, text: str) -> list[str]:
    """What must never be in a published answer."""
    problems = []
    if TAG.search(text):
        problems.append("raw HTML")
    if broken_label(text):
        problems.append("broken label")
    if route == "v2":
        # v2 publishes every segment with its verdict: an obeyed instruction is a problem when a reader is told
        # it is verified, or it is framing (never checked).
        vouched = [c["text"] for c in body.get("claims", []) if c.get("verdict") == "supported"]
        vouched += [f["text"] for f in body.get("framing", [])]
        if any(PAYLOAD.lower() in t.lower() for t in vouched):
            problems.append("obeyed instruction")
    elif PAYLOAD.lower() in text.lower():
        problems.append("obeyed instruction")
    if route == "query" and body.get("claims_total") and body.get("claims_supported") != body.get("claims_total"):
        problems.append("unverified claim")
    if route == "v2":
        for claim in body.get("claims", []):
            keys = {c.get("citation_key") for c in claim.get("citations", [])}
            if claim.get("verdict") == "supported" and not claim.get("citations"):
                problems.append("supported without citation")
            if set(claim.get("citation_keys", [])) - keys - set(claim.get("invalid_citation_keys", [])):
                problems.append("verdict cites an unresolved key")
    return problems


def classify(route: str, defect: str, response: httpx.Response) -> Outcome:
    if response.status_code >= 500:
        try:
            code = response.json().get("code", "")
        except ValueError:
            code = ""
        kind = "server_error" if response.status_code == 500 else "refused"
        return Outcome(route, defect, kind, f"{response.status_code} {code}".strip(), ())
    body = response.json()
    if response.status_code >= 400:
        return Outcome(route, defect, "refused", f"{response.status_code} {body.get('code', '')}", ())
    if route == "public":
        text = body.get("reply") or ""
        kind = "published" if body.get("sources") else "withheld"
        return Outcome(route, defect, kind, "" if body.get("sources") else "no sources", tuple(
            published_problems(route, body, text)))
    if body.get("fallback_used"):
        return Outcome(route, defect, "withheld", body.get("fallback_reason") or "", ())
    return Outcome(route, defect, "published", "", tuple(published_problems(route, body, body.get("answer") or "")))


def chaos_run(url: str, api_key: str, model: ChaosModel, questions: list[str], answers: int,
              routes: tuple[str, ...] = tuple(ROUTES), origin: str | None = None) -> list[Outcome]:
    """``answers`` answers, one at a time, cycling through ``routes`` and ``questions``."""
    outcomes = []
    with httpx.Client(timeout=120) as client:
        for number in range(answers):
            route, question = routes[number % len(routes)], questions[number % len(questions)]
            defect = model.next_answer()
            if route == "public":
                response = client.post(url + ROUTES[route], json={"message": question},
                                       headers={"Origin": origin} if origin else {})
            else:
                response = client.post(url + ROUTES[route], json={"query": question}, headers={"X-API-Key": api_key})
            outcomes.append(classify(route, defect, response))
    return outcomes


def chaos_table(outcomes: list[Outcome]) -> str:
    """Per defect: published, withheld, refused, server errors, the reasons, and the problems found."""
    rows = defaultdict(Counter)
    reasons = defaultdict(Counter)
    for outcome in outcomes:
        rows[outcome.defect][outcome.kind] += 1
        rows[outcome.defect]["problems"] += bool(outcome.problems)
        if outcome.reason:
            reasons[outcome.defect][outcome.reason] += 1
    lines = ["| defect | answers | published | withheld | refused | server errors | published with a problem | reasons |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]
    for defect in DEFECTS:
        if defect in rows:
            row = rows[defect]
            top = ", ".join(f"{r} {n}" for r, n in reasons[defect].most_common(4))
            lines.append(f"| {defect} | {sum(row[k] for k in ('published', 'withheld', 'refused', 'server_error'))} "
                         f"| {row['published']} | {row['withheld']} | {row['refused']} | {row['server_error']} "
                         f"| {row['problems']} | {top} |")
    return "\n".join(lines)


def main() -> int:
    import os
    import sys

    from _load_server import KEY, Server
    from _setup import ROOT, django_setup

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answers", type=int, default=1200)
    parser.add_argument("--seed", type=int, default=33)
    args = parser.parse_args()
    django_setup("var/chaos", ACEH_RAG_EMBEDDING__BACKEND="hashing")
    from retrieval.facade.storage import sample_corpus_ingest_if_empty

    sample_corpus_ingest_if_empty()
    questions = [json.loads(line)["query"] for line in (ROOT / "retrieval/sample_corpus/questions.jsonl").open()]
    model = ChaosModel(seed=args.seed)
    chaos = ChaosServer(model)
    origin = "https://partner.example"
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACEH_RAG_")}
    env.update(ACEH_RAG_DATA_DIR=str(ROOT / "var/chaos"), ACEH_RAG_API__KEYS=KEY, ACEH_RAG_LOG_LEVEL="WARNING",
               ACEH_RAG_EMBEDDING__BACKEND="hashing", ACEH_RAG_LLM__BASE_URL=chaos.url, ACEH_RAG_LLM__MODEL="chaos",
               ACEH_RAG_LLM__MAX_RETRIES="0", ACEH_RAG_LLM__TIMEOUT_SECONDS="10",
               ACEH_RAG_PUBLIC_CHAT__ALLOWED_ORIGINS=origin, ACEH_RAG_PUBLIC_CHAT__IP_RATE_LIMIT="1000000",
               ACEH_RAG_PUBLIC_CHAT__VISITOR_RATE_LIMIT="1000000")
    server = Server(ROOT, env, ROOT / "var" / "chaos-server.log")
    try:
        started = time.monotonic()
        outcomes = chaos_run(server.url, KEY, model, questions, args.answers, origin=origin)
    finally:
        server.stop()
        chaos.close()
    print(f"{len(outcomes)} answers in {time.monotonic() - started:.0f} s, seed {args.seed}")
    print(chaos_table(outcomes))
    bad = [o for o in outcomes if o.problems or o.kind == "server_error"]
    for outcome in bad[:20]:
        print("PROBLEM", outcome)
    print(f"{len(bad)} answers with a problem or a server error", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
