"""The figures ``eval_answers --set quality`` prints, per part of the split (see measures.py)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from answering.evaluation.quality import QualityRecord


@dataclass(frozen=True)
class Figure:
    name: str
    hits: int
    total: int

    @property
    def share(self) -> float | None:
        return self.hits / self.total if self.total else None

    def line(self) -> str:
        share = f"{self.share:.2f}" if self.total else "-"
        return f"{self.name:<58} {share:>5}  ({self.hits}/{self.total})"


def _figure(name: str, rows: list[QualityRecord], test: Callable[[QualityRecord], bool]) -> Figure:
    return Figure(name, sum(1 for r in rows if test(r)), len(rows))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))] if ordered else float("nan")


def figures(records: list[QualityRecord]) -> list[Figure]:
    singles = [r for r in records if r.set == "questions"]
    declinable = [r for r in records if not r.answerable]
    first = [r for r in singles if r.verdicts.get("first_sentence")]
    followups = [r for r in records if r.set == "conversations" and r.turn and r.independent is False and r.answerable]
    independent = [r for r in records if r.set == "conversations" and r.turn and r.independent]
    held = [r for r in singles if r.verdicts.get("read_gold_evidence")]
    published = lambda r: r.decision == "published"  # noqa: E731
    rows = [
        _figure("answerable questions published", singles, published),
        _figure("unanswerable and off-topic declined", declinable, lambda r: not published(r)),
        _figure("answer text carries the gold evidence", singles, lambda r: r.verdicts["answer_gold_evidence"]),
        _figure("first sentence carries the figure/date/name/yes-no", first,
                lambda r: published(r) and all(r.verdicts["first_sentence"].values())),
        _figure("follow-ups answered from the right document", followups,
                lambda r: published(r) and r.verdicts["gold_document_cited"]),
        _figure("independent questions carried nothing over", independent, lambda r: not r.verdicts.get("carried")),
        _figure("gold document cited (answerable questions)", singles, lambda r: r.verdicts["gold_document_cited"]),
        _figure("cited passages carry the gold evidence", singles, lambda r: r.verdicts["cited_gold_evidence"]),
        _figure("passages read carry the gold evidence", singles, lambda r: r.verdicts["read_gold_evidence"]),
        _figure("declined although the passages read carried it", held, lambda r: not published(r)),
    ]
    for style in ("formal", "colloquial", "english"):
        styled = [r for r in singles if style in r.styles]
        if styled:
            rows.append(_figure(f"  published, {style}", styled, published))
    return rows


def summary_lines(records: list[QualityRecord], title: str) -> list[str]:
    ms = [r.ms for r in records]
    lines = [f"{title} ({len(records)} answers)"]
    lines += ["  " + f.line() for f in figures(records)]
    lines.append(f"  latency p50 {percentile(ms, 0.5):.0f} ms  p95 {percentile(ms, 0.95):.0f} ms")
    return lines
