"""Choose the unit scorer's semantic constants on the training part of ../shared/quality/ (a fit, not a measure).

For each (SEMANTIC_WEIGHT, SEMANTIC_CENTRE) of a small grid, the training questions run through /query and the
script prints how many answers carry the gold evidence and how many open with the asked figure/date/name/yes-no.
The chosen pair is frozen in answering/extractive/candidates.py by hand (its docstring says so).

Run against a database holding the real corpus:
    ACEH_RAG_DATA_DIR=/path/to/real-corpus-data .venv/bin/python bench/fit_units.py [--weights 0,3,6,10]
"""
from __future__ import annotations

import argparse

from _setup import django_setup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weights", default="0,3,6,10")
    parser.add_argument("--centres", default="0.78,0.80,0.82,0.84")
    args = parser.parse_args()
    django_setup()
    from answering.evaluation.quality import run_single
    from answering.evaluation.report import figures
    from answering.extractive import candidates
    from retrieval.quality import in_part, read_rows

    rows = in_part(read_rows("questions"), "train")
    print(f"{len(rows)} training questions")
    for weight in [float(w) for w in args.weights.split(",")]:
        for centre in [float(c) for c in args.centres.split(",")] if weight else [0.0]:
            candidates.SEMANTIC_WEIGHT, candidates.SEMANTIC_CENTRE = weight, centre
            records = [run_single(row, "questions", route="query", collection=None) for row in rows]
            shown = {f.name: f for f in figures(records)}
            print(f"weight {weight:4.1f} centre {centre:.2f}  " + "  ".join(
                f"{name.split(' ')[0]}-{name.split(' ')[1]} {shown[name].hits}/{shown[name].total}" for name in (
                    "answerable questions published", "answer text carries the gold evidence",
                    "first sentence carries the figure/date/name/yes-no")))


if __name__ == "__main__":
    main()
