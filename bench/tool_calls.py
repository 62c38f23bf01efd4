"""A model round's tool calls one by one vs at once, over HTTP on the sample corpus.

Two real servers on the same benchmark database (the sample corpus) differ only
in ``ACEH_RAG_LLM__PARALLEL_TOOL_CALLS`` (1: one by one, the baseline; 3: at
once). A fake OpenAI-compatible model on loopback answers instantly: its agent
sends one round of three different searches taken from the sample questions
(plus, in the identical-arms case, the first one again), then answers citing the
first passage; the judge supports every claim. So the time measured is the
server's own: the searches, the gate and the persistence. Requests alternate
between the two servers so machine noise falls on both alike.

Run: .venv/bin/python bench/tool_calls.py [--answers 30]
"""
from __future__ import annotations

import argparse
import json
import re
import time

import httpx

from _fake_model import FakeChat, serve, system_prompt
from _setup import ROOT, django_setup, percentile
from answer import KEY, start_server

LABEL = re.compile(r'<passage key="(P\d+)"')


class FakeModel(FakeChat):
    searches: list[list[str]] = []

    def reply(self, body: dict) -> tuple[dict, str]:
        system = system_prompt(body)
        if system.startswith("You are a strict faithfulness judge"):
            items = re.findall(r"^Item (\d+)$", body["messages"][-1]["content"], re.M)
            return {"content": json.dumps({"verdicts": [{"item": int(n), "verdict": "supported"} for n in items]})}, "stop"
        if system.startswith("You decide whether an answer's cited passages answer"):
            return {"content": json.dumps({"answers_question": True, "unmet": []})}, "stop"
        if system.startswith("You check an answer that cites no passage label"):
            return {"content": json.dumps({"asserts_facts": True})}, "stop"
        if "tools" in body and not any(m["role"] == "tool" for m in body["messages"]):
            question = body["messages"][-1]["content"].rsplit("Question: ", 1)[-1]
            queries = FakeModel.searches[hash(question) % len(FakeModel.searches)]
            return {"content": None, "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {
                "name": "search_documents", "arguments": json.dumps({"query": q})}} for i, q in enumerate(queries)]}, \
                "tool_calls"
        labels = [label for m in body["messages"] for label in LABEL.findall(m.get("content") or "")]
        return {"content": f"Ketentuannya tercantum dalam dokumen [{labels[0]}]." if labels else "Tidak ditemukan."}, "stop"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--answers", type=int, default=30, help="answers per server and case")
    args = parser.parse_args()
    data_dir = ROOT / "var" / "bench"
    django_setup(data_dir="var/bench")
    from retrieval.models import Document
    from retrieval.services import sample_corpus_ingest

    if not Document.objects.exists():
        sample_corpus_ingest()
    questions = [json.loads(line)["query"] for line in
                 (ROOT / "retrieval/sample_corpus/questions.jsonl").read_text().splitlines() if line.strip()]
    model, model_url = serve(FakeModel)
    llm = {"ACEH_RAG_LLM__BASE_URL": model_url, "ACEH_RAG_LLM__MODEL": "bench", "ACEH_RAG_LLM__MAX_RETRIES": "0"}
    servers = {n: start_server(data_dir, ACEH_RAG_LLM__PARALLEL_TOOL_CALLS=str(n), **llm) for n in (1, 3)}
    client = httpx.Client(timeout=120, headers={"X-API-Key": KEY})
    try:
        for case, make in (("3 different searches", lambda i: questions[i:i + 3]),
                           ("3 different + 1 identical", lambda i: questions[i:i + 3] + questions[i:i + 1])):
            FakeModel.searches = [make(i) for i in range(0, len(questions) - 3, 3)]
            timings: dict[int, list[float]] = {1: [], 3: []}
            for n in (1, 3):   # warm-up: the embedder and the pools of each server
                client.post(servers[n][1] + "/query", json={"query": questions[0]})
            for i in range(args.answers):
                for n in ((1, 3) if i % 2 == 0 else (3, 1)):
                    started = time.perf_counter()
                    response = client.post(servers[n][1] + "/query", json={"query": questions[i % len(questions)]})
                    timings[n].append((time.perf_counter() - started) * 1000)
                    assert response.status_code == 200, response.text
            p50 = {n: percentile(t, 0.5) for n, t in timings.items()}
            p95 = {n: percentile(t, 0.95) for n, t in timings.items()}
            print(f"{case:28s} one by one p50 {p50[1]:6.1f} ms p95 {p95[1]:6.1f} ms | at once p50 {p50[3]:6.1f} ms "
                  f"p95 {p95[3]:6.1f} ms | at once / one by one p50 {p50[3] / p50[1]:.2f}  (n={args.answers} each)")
    finally:
        for process, _ in servers.values():
            process.terminate()
        model.shutdown()


if __name__ == "__main__":
    main()
