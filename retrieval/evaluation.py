"""Retrieval quality harness: Recall@1/5/10, MRR@10, nDCG@10 per mode and per kind, plus BM25.

A question's labels name a document (a substring of its title, source file
name or legal citation) and optionally an article (``pasal``). Each label is
one relevant unit: it is found at the first rank whose chunk belongs to that
document (and article, when given). Recall@k is the share of questions with
at least one label found in the top k (ranx's ``hit_rate@k``); MRR@10 and
nDCG@10 are ranx's too, over the ranks where labels are first found.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

from kernel.jsonl import jsonl_read
from kernel.principal import Principal
from retrieval.access import Scope, chunks_visible, visible_documents_q
from retrieval.models import Chunk, Document
from retrieval.quality import gold_places, split_of
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
    kind: str = "other"
    split: str | None = None       # "train" | "validation" for the shared sets' rows (retrieval.quality)
    styles: tuple[str, ...] = ()   # a row's style tags: "formal", "colloquial", "english", "figure", …
    twin: str | None = None        # the twin group: formal, colloquial and English wordings of one question


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
    kind: str = "all"
    # Per question (same order as the set): first relevant rank, or None.
    firsts: tuple[int | None, ...] = ()
    tops: tuple[tuple[str, ...], ...] = field(default=(), repr=False)
    # Per question: the ranks at which its labels were first found (what a subset's figures are computed from).
    found: tuple[tuple[int, ...], ...] = field(default=(), repr=False)


def _question(row: dict, number: int) -> Question:
    if "file" in (row["relevant"] or [{}])[0]:
        # ../shared/quality/ rows: the gold file's stem names the document, "Pasal 22 ayat (1)" the article
        labels = tuple(Label(g.document, g.pasal) for g in gold_places(row["relevant"]))
    else:
        labels = tuple(Label(str(l["document"]), str(l["pasal"]) if l.get("pasal") else None)
                       for l in row["relevant"])
    if not labels:
        raise ValueError("no relevant label")
    styles = row.get("style") or ()
    return Question(row["query"], labels, str(row.get("kind") or "other"),
                    split_of(str(row["id"])) if "id" in row else None,
                    styles=(styles,) if isinstance(styles, str) else tuple(str(style) for style in styles),
                    twin=str(row["twin"]) if row.get("twin") else None)


def load_questions(path: Path) -> list[Question]:
    return jsonl_read(path, _question, what="question line")


def _document_key(document: Document) -> str:
    citation = " ".join(str(part) for part in (document.instrument_type, "Nomor", document.number, "Tahun", document.year) if part)
    return " | ".join([document.title, document.source_name, document.source_key, citation]).lower()


DICTUMS = (
    "KESATU", "KEDUA", "KETIGA", "KEEMPAT", "KELIMA", "KEENAM", "KETUJUH", "KEDELAPAN", "KESEMBILAN", "KESEPULUH",
    "KESEBELAS", "KEDUA BELAS", "KETIGA BELAS", "KEEMPAT BELAS", "KELIMA BELAS",
)
_DICTUM_RANGE = re.compile(r"Diktum\s+([A-Z]+(?: BELAS)?)(?:\s*[-–]\s*([A-Z]+(?: BELAS)?))?")


def dictums_in_range(reference: str) -> set[str]:
    """A merged decree chunk "... Diktum KESATU-KEEMPAT" holds KEDUA and KETIGA too."""
    held: set[str] = set()
    for match in _DICTUM_RANGE.finditer(reference):
        first, last = match.group(1), match.group(2) or match.group(1)
        if first in DICTUMS and last in DICTUMS:
            held.update(DICTUMS[DICTUMS.index(first): DICTUMS.index(last) + 1])
    return held


def ranked_chunk(chunk: Chunk) -> RankedChunk:
    articles = covered_articles(chunk.section_path, chunk.legal_reference)
    # Dictums (KESATU, KEDUA) and other non-Pasal headings count by name.
    articles |= {part.upper() for part in chunk.section_path if not part.lower().startswith(("pasal", "bab", "bagian", "paragraf"))}
    articles |= dictums_in_range(chunk.legal_reference or "")
    return RankedChunk(_document_key(chunk.document), frozenset(articles))


def gold_documents_missing(names: Iterable[str], scope: Scope) -> list[str]:
    """The gold documents (``Label.document``, ``Gold.document``, a bench row's ``source``) that no document
    visible in ``scope`` matches (``label_matches``'s rule): their questions cannot be answered from the
    index, and the figures would blame the search or the answer for it."""
    documents = Document.objects.filter(visible_documents_q(EVALUATOR, scope)).only(
        "title", "source_name", "source_key", "instrument_type", "number", "year")
    keys = [_document_key(document) for document in documents]
    wanted = dict.fromkeys(name for name in names if name)
    return [name for name in wanted if not any(name.lower() in key for key in keys)]


def gold_missing_warning(names: Iterable[str], scope: Scope) -> str | None:
    """The one-line warning both evaluation commands print when gold documents are not indexed, or None."""
    missing = gold_documents_missing(names, scope)
    if not missing:
        return None
    shown = "; ".join(missing[:10]) + (f"; … ({len(missing) - 10} more)" if len(missing) > 10 else "")
    return (f"warning: {len(missing)} labelled document(s) are not indexed here, so their questions count as "
            f"misses: {shown}")


def label_matches(label: Label, item: RankedChunk) -> bool:
    if label.document.lower() not in item.document_key:
        return False
    return label.pasal is None or label.pasal.upper() in item.articles


def _measures(found: list[list[int]], total: list[int], k: int) -> dict[str, float]:
    """ranx's hit_rate@1/5/10, mrr@k and ndcg@k; ``found`` holds each question's ranks of first-found labels."""
    from ranx import Qrels, Run, evaluate as ranx_evaluate

    qrels, run = {}, {}
    for number, (ranks, labels) in enumerate(zip(found, total)):
        qid = f"q{number}"
        qrels[qid] = {f"label{index}": 1 for index in range(labels)}
        # Every rank holds an entry (a non-relevant filler unless a label was first found there).
        by_rank = {rank: f"label{index}" for index, rank in enumerate(ranks)}
        run[qid] = {by_rank.get(rank, f"rank{rank}"): float(k + 1 - rank) for rank in range(1, k + 1)}
    metrics = [f"hit_rate@{cut}" for cut in CUTOFFS] + [f"mrr@{k}", f"ndcg@{k}"]
    return ranx_evaluate(Qrels(qrels), Run(run), metrics, make_comparable=True)


def _found_ranks(question: Question, ranking: Sequence[RankedChunk], k: int) -> list[int]:
    found: dict[int, int] = {}
    for rank, item in enumerate(ranking[:k], start=1):
        for index, label in enumerate(question.labels):
            if index not in found and label_matches(label, item):
                found[index] = rank
    return [found[index] for index in sorted(found)]


def _scores(name: str, kind: str, questions, found, tops, k: int) -> Scores:
    measures = _measures([sorted(ranks) for ranks in found], [len(q.labels) for q in questions], k)
    return Scores(
        name=name, kind=kind, questions=len(questions),
        recall={cut: float(measures[f"hit_rate@{cut}"]) for cut in CUTOFFS},
        mrr=float(measures[f"mrr@{k}"]), ndcg=float(measures[f"ndcg@{k}"]),
        firsts=tuple(min(ranks) if ranks else None for ranks in found), tops=tuple(tops),
        found=tuple(tuple(ranks) for ranks in found),
    )


def subset_scores(overall: Scores, questions: list[Question], indexes: Sequence[int], kind: str, k: int = 10) -> Scores:
    """``overall``'s figures over the questions at ``indexes`` only, labelled ``kind``."""
    return _scores(overall.name, kind, [questions[i] for i in indexes], [overall.found[i] for i in indexes],
                   [overall.tops[i] for i in indexes], k)


def evaluate(
    name: str, questions: list[Question], rank: Callable[[str], Sequence[RankedChunk]], k: int = 10
) -> tuple[Scores, list[Scores]]:
    """Figures over the whole set and per question kind (kinds in first-seen order)."""
    if not questions:
        raise ValueError("no questions to evaluate")
    found, tops = [], []
    for question in questions:
        ranking = rank(question.query)
        found.append(_found_ranks(question, ranking, k))
        tops.append(tuple(item.document_key.split(" | ")[0] + (f" Pasal {min(item.articles)}" if item.articles else "") for item in ranking[:3]))
    by_kind: dict[str, list[int]] = defaultdict(list)
    for index, question in enumerate(questions):
        by_kind[question.kind].append(index)
    kinds = [
        _scores(name, kind, [questions[i] for i in indexes], [found[i] for i in indexes], [tops[i] for i in indexes], k)
        for kind, indexes in by_kind.items()
    ]
    return _scores(name, "all", questions, found, tops, k), kinds


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


def format_table(rows: list[Scores], *, by_kind: bool = False, column: str = "kind") -> str:
    first = f"{column:<14} " if by_kind else ""
    header = f"{first}{'mode':<14} {'R@1':>6} {'R@5':>6} {'R@10':>6} {'MRR@10':>7} {'nDCG@10':>8} {'n':>4}"
    lines = [header, "-" * len(header)]
    for row in rows:
        kind = f"{row.kind:<14} " if by_kind else ""
        lines.append(
            f"{kind}{row.name:<14} {row.recall[1]:>6.3f} {row.recall[5]:>6.3f} {row.recall[10]:>6.3f} "
            f"{row.mrr:>7.3f} {row.ndcg:>8.3f} {row.questions:>4}"
        )
    return "\n".join(lines)


def as_json(row: Scores) -> dict:
    return {"mode": row.name, "kind": row.kind, "questions": row.questions, "mrr@10": row.mrr, "ndcg@10": row.ndcg,
            **{f"recall@{cut}": value for cut, value in row.recall.items()}}
