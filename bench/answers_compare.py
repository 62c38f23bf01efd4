"""Two ``eval_answers --records`` files of the same set, before and after a change: the figures side by side, then
the fit answers that changed (a held-out part's changes are only counted; answering/evaluation/compare.py).

Run: .venv/bin/python bench/answers_compare.py before.jsonl after.jsonl [--figures-only]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from _setup import ROOT


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--figures-only", action="store_true", help="Leave out the changed answers.")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")
    import django

    django.setup()   # no database is opened: the records are read from the files
    from answering.evaluation.compare import changes, figure_pairs, read_records

    before, after = read_records(args.before), read_records(args.after)
    for name, old, new in figure_pairs(before, after):
        print(f"{name:<58} {old:>7} {new:>7}{'  *' if old != new else ''}")
    shown, held_out = changes(before, after)
    print(f"\n{len(shown)} fit answers changed; {held_out} held-out answers changed (not shown)")
    if not args.figures_only:
        for change in shown:
            print("\n".join(change.lines()))


if __name__ == "__main__":
    main()
