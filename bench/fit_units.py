"""Choose how near the best unit a quoted unit must be (synthesis.KEEP_MARGIN) on the training part of
../shared/quality/ (a fit, not a measure).

The unit ranker's weights are fitted by ``manage.py fit_answerability --units``; its scores are logits of a
softmax over a question's units, so KEEP_MARGIN = ln(k) quotes the units at least 1/k as likely as the best one
to state the answer. For each margin of a small grid the training questions run through /query and the script
prints how many answers carry the gold evidence and how many open with the asked figure/date/name/yes-no. The
chosen margin is frozen in answering/extractive/synthesis.py by hand (its comment says so).

Run against a database holding the real corpus:
    ACEH_RAG_DATA_DIR=/path/to/real-corpus-data .venv/bin/python bench/fit_units.py [--shares 2,4,8]
"""
from __future__ import annotations

import argparse
import math

from _setup import django_setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shares", default="2,4,8", help="k in KEEP_MARGIN = ln(k), comma-separated")
    args = parser.parse_args()
    django_setup()
    from answering.evaluation.quality import run_single
    from answering.evaluation.report import figures
    from answering.extractive import synthesis
    from retrieval.quality import in_part, read_rows

    rows = in_part(read_rows("questions"), "train")
    print(f"{len(rows)} training questions")
    for share in [float(k) for k in args.shares.split(",")]:
        synthesis.KEEP_MARGIN = math.log(share)
        records = [run_single(row, "questions", route="query", collection=None) for row in rows]
        shown = {f.name: f for f in figures(records)}
        print(f"KEEP_MARGIN ln({share:g})  " + "  ".join(
            f"{name.split(' ')[0]}-{name.split(' ')[1]} {shown[name].hits}/{shown[name].total}" for name in (
                "answerable questions published", "answer text carries the gold evidence",
                "first sentence carries the figure/date/name/yes-no")))


if __name__ == "__main__":
    main()
