"""Two runs of ``eval_answers --records`` side by side: each figure before and after, and which answers changed.

The protocol (docs/quality.md) is built in: an answer of a held-out part (``split`` "validation": the shared
sets' validation part, or a fresh set's unread half) is counted when it changes, never shown, because its
misses are not read. Fit answers are shown with their decision and verdicts before and after.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from answering.evaluation.quality import QualityRecord
from answering.evaluation.report import figures

HELD_OUT = "validation"


@dataclass(frozen=True)
class Change:
    before: QualityRecord
    after: QualityRecord

    def lines(self, width: int = 200) -> list[str]:
        return [f"--- {self.before.id} turn {self.before.turn} [{self.before.kind}]: {verdict(self.before)} -> "
                f"{verdict(self.after)}",
                f"Q: {self.before.query}",
                f"before: {self.before.answer[:width]!r}",
                f"after:  {self.after.answer[:width]!r}"]


def read_records(path: Path) -> list[QualityRecord]:
    """The records one ``eval_answers --records`` run wrote."""
    return [QualityRecord(**json.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def figure_pairs(before: list[QualityRecord], after: list[QualityRecord]) -> list[tuple[str, str, str]]:
    """Each figure's name with its hits/total before and after ("-" where one run has no such figure: a style
    row is printed only for a run that holds that style)."""
    old, new = ({f.name: f"{f.hits}/{f.total}" for f in figures(run)} for run in (before, after))
    return [(name, old.get(name, "-"), new.get(name, "-")) for name in dict.fromkeys([*old, *new])]


def verdict(record: QualityRecord) -> str:
    """What a reader judges of one answer: published or declined, the gold evidence carried, the first sentence."""
    first = record.verdicts.get("first_sentence")
    said = [record.decision]
    if record.answerable:
        said.append("evidence" if record.verdicts.get("answer_gold_evidence") else "no evidence")
    if first:
        said.append("first sentence " + ("right" if all(first.values()) else "wrong"))
    return ", ".join(said)


def changes(before: list[QualityRecord], after: list[QualityRecord]) -> tuple[list[Change], int]:
    """The fit answers whose verdict or text changed, and how many held-out answers changed (only counted)."""
    earlier = {(r.id, r.turn): r for r in before}
    shown, held_out = [], 0
    for record in after:
        old = earlier.get((record.id, record.turn))
        if old is None or (verdict(old), old.answer) == (verdict(record), record.answer):
            continue
        if record.split == HELD_OUT:
            held_out += 1
        else:
            shown.append(Change(old, record))
    return shown, held_out
