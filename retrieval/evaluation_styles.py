"""Figures per question style and for twin groups, from an ``evaluate`` run's per-question ranks.

A row's ``style`` tags say how it is worded; three of them are wordings of the same need (formal
Indonesian, colloquial Indonesian, English), and a row counts in each of those it carries. Twin rows
(``twin``: a group id) are one question written in each of the three wordings with the same gold, so
the gap between a wording's R@5 and the formal twins' R@5 is what the wording alone costs.
"""
from __future__ import annotations

from dataclasses import dataclass

from retrieval.evaluation import Question, Scores, subset_scores

STYLES = ("formal", "colloquial", "english")
TWIN_CUTOFF = 5


def style_scores(overall: Scores, questions: list[Question], k: int = 10) -> list[Scores]:
    """``overall`` per style (its ``kind`` is the style), in STYLES order; styles no row carries are left out."""
    rows = []
    for style in STYLES:
        indexes = [i for i, question in enumerate(questions) if style in question.styles]
        if indexes:
            rows.append(subset_scores(overall, questions, indexes, style, k))
    return rows


@dataclass(frozen=True)
class TwinSummary:
    """One mode's figures over the twin rows."""

    mode: str
    groups: int
    styles: tuple[Scores, ...]        # per style over the twin rows, in STYLES order
    gaps: dict[str, float]            # style -> its R@5 minus the formal twins' R@5
    # style -> groups whose formal row is in the top 5 and whose row of that style is not
    lost: dict[str, int]


def twin_summary(overall: Scores, questions: list[Question], k: int = 10) -> TwinSummary | None:
    """The twin rows' figures per style and their gaps to formal; None when the set has no twin rows."""
    twins = [i for i, question in enumerate(questions) if question.twin]
    if not twins:
        return None
    by_style = {}
    for style in STYLES:
        indexes = [i for i in twins if style in questions[i].styles]
        if indexes:
            by_style[style] = subset_scores(overall, questions, indexes, style, k)
    hit = {(questions[i].twin, style): overall.firsts[i] is not None and overall.firsts[i] <= TWIN_CUTOFF
           for i in twins for style in questions[i].styles if style in STYLES}
    formal = by_style.get("formal")
    gaps, lost = {}, {}
    for style in STYLES[1:]:
        if formal is None or style not in by_style:
            continue
        gaps[style] = by_style[style].recall[TWIN_CUTOFF] - formal.recall[TWIN_CUTOFF]
        lost[style] = sum(1 for (group, tagged), found in hit.items()
                          if tagged == style and not found and hit.get((group, "formal")))
    return TwinSummary(overall.name, len({questions[i].twin for i in twins}), tuple(by_style.values()), gaps, lost)


def format_twins(summaries: list[TwinSummary]) -> str:
    header = (f"{'style':<14} {'mode':<14} {'R@5':>6} {'MRR@10':>7} {'n':>4} "
              f"{'gap R@5':>8} {'lost':>5}")
    lines = [header, "-" * len(header)]
    for style in STYLES:
        for summary in summaries:
            for row in summary.styles:
                if row.kind != style:
                    continue
                gap = f"{summary.gaps[style]:>+8.3f}" if style in summary.gaps else f"{'':>8}"
                lost = f"{summary.lost[style]:>5}" if style in summary.lost else f"{'':>5}"
                lines.append(f"{style:<14} {row.name:<14} {row.recall[TWIN_CUTOFF]:>6.3f} {row.mrr:>7.3f} "
                             f"{row.questions:>4} {gap} {lost}".rstrip())
    return "\n".join(lines)


def twins_json(summaries: list[TwinSummary]) -> dict:
    return {
        "groups": summaries[0].groups if summaries else 0,
        "modes": [
            {
                "mode": summary.mode,
                "styles": {row.kind: {"questions": row.questions, f"recall@{TWIN_CUTOFF}": row.recall[TWIN_CUTOFF],
                                      "mrr@10": row.mrr} for row in summary.styles},
                f"gap_recall@{TWIN_CUTOFF}": summary.gaps,
                "lost": summary.lost,
            }
            for summary in summaries
        ],
    }
