"""Retrieval quality harness: Recall@1/5/10, MRR@10, nDCG@10 per mode, plus BM25.

A question's labels name a document (a substring of its title, source file
name or legal citation) and optionally an article (``pasal``). Each label is
one relevant unit: it is found at the first rank whose chunk belongs to that
document (and article, when given). Recall@k is the share of questions with
at least one label found in the top k.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from acehrag.auth import Principal
from retrieval.access import Scope, chunks_visible
from retrieval.models import Chunk, Document
from retrieval.references import covered_articles
from retrieval.search import chunk_search, query_terms

EVALUATOR = Principal(subject="eval", role="admin", verified=True)
CUTOFFS = (1, 5, 10)


@dataclass(frozen=True)
class Label:
    document: str
    pasal: str | None = None


@dataclass(frozen=True)
class Question:
    query: str
    labels: tuple[Label, ...]


@dataclass(frozen=True)
class RankedChunk:
    document_key: str              # lower-cased title + source name + citation
    articles: frozenset[str]       # articles the chunk covers ("8", "12A", "KESATU")


@dataclass(frozen=True)
class Scores:
    name: str
    recall: dict[int, float]
    mrr: float
    ndcg: float
    questions: int


def load_questions(path: Path) -> list[Question]:
    questions = []
    for number, line in enumerate(Path(path).read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            labels = tuple(Label(str(l["document"]), str(l["pasal"]) if l.get("pasal") else None) for l in row["relevant"])
            questions.append(Question(row["query"], labels))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a question line ({exc})") from exc
    return questions


def _document_key(document: Document) -> str:
    citation = " ".join(str(part) for part in (document.instrument_type, "Nomor", document.number, "Tahun", document.year) if part)
    return " | ".join([document.title, document.source_name, document.source_key, citation]).lower()


def ranked_chunk(chunk: Chunk) -> RankedChunk:
    articles = covered_articles(chunk.section_path, chunk.legal_reference)
    # Dictums (KESATU, KEDUA) and other non-Pasal headings count by name.
    articles |= {part.upper() for part in chunk.section_path if not part.lower().startswith(("pasal", "bab", "bagian", "paragraf"))}
    return RankedChunk(_document_key(chunk.document), frozenset(articles))


def label_matches(label: Label, item: RankedChunk) -> bool:
    if label.document.lower() not in item.document_key:
        return False
    return label.pasal is None or label.pasal.upper() in item.articles


def score_ranking(question: Question, ranking: Sequence[RankedChunk], k: int = 10) -> tuple[int | None, float]:
    """First relevant rank (1-based, None if none in top k) and nDCG@k."""
    found: set[int] = set()
    first = None
    dcg = 0.0
    for rank, item in enumerate(ranking[:k], start=1):
        for index, label in enumerate(question.labels):
            if index not in found and label_matches(label, item):
                found.add(index)
                dcg += 1.0 / math.log2(rank + 1)
                first = first or rank
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(question.labels), k) + 1))
    return first, (dcg / ideal if ideal else 0.0)


def evaluate(name: str, questions: list[Question], rank: Callable[[str], Sequence[RankedChunk]], k: int = 10) -> Scores:
    firsts, ndcgs = [], []
    for question in questions:
        first, ndcg = score_ranking(question, rank(question.query), k)
        firsts.append(first)
        ndcgs.append(ndcg)
    n = max(len(questions), 1)
    return Scores(
        name=name,
        recall={cut: sum(1 for f in firsts if f is not None and f <= cut) / n for cut in CUTOFFS},
        mrr=sum(1.0 / f for f in firsts if f is not None) / n,
        ndcg=sum(ndcgs) / n,
        questions=len(questions),
    )


def search_ranker(mode: str, scope: Scope, k: int) -> Callable[[str], list[RankedChunk]]:
    def rank(query: str) -> list[RankedChunk]:
        outcome = chunk_search(query, mode=mode, top_k=k, principal=EVALUATOR, scope=scope)
        return [ranked_chunk(hit.chunk) for hit in outcome.hits]

    return rank


def bm25_ranker(scope: Scope, k: int) -> Callable[[str], list[RankedChunk]]:
    """rank_bm25's Okapi BM25 over the same visible chunks and the same tokenizer."""
    from rank_bm25 import BM25Okapi

    chunks = list(
        chunks_visible(EVALUATOR, scope)
        .select_related("document").defer("embedding", "search_vector", "document__text").order_by("id")
    )
    items = [ranked_chunk(chunk) for chunk in chunks]
    corpus = [query_terms(f"{chunk.legal_reference or ''} {chunk.text}") or ["_"] for chunk in chunks]
    bm25 = BM25Okapi(corpus)

    def rank(query: str) -> list[RankedChunk]:
        scores = bm25.get_scores(query_terms(query))
        order = sorted(range(len(items)), key=lambda i: (-scores[i], i))[:k]
        return [items[i] for i in order if scores[i] > 0]

    return rank


def format_table(rows: list[Scores]) -> str:
    header = f"{'mode':<12} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR@10':>7} {'nDCG@10':>8} {'n':>4}"
    lines = [header, "-" * len(header)]
    for row in rows:
        lines.append(
            f"{row.name:<12} {row.recall[1]:>6.3f} {row.recall[5]:>6.3f} {row.recall[10]:>6.3f} "
            f"{row.mrr:>7.3f} {row.ndcg:>8.3f} {row.questions:>4}"
        )
    return "\n".join(lines)
