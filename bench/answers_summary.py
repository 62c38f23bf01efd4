"""Print eval_answers' summary from saved ``--json`` records (one or more files).

Run: .venv/bin/python bench/answers_summary.py bench/results/after_answerable.jsonl ...
"""
from __future__ import annotations

import json
import sys

import os

from _setup import ROOT


def main() -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")
    import django

    django.setup()   # no database is opened: the records are read from the files
    from answering.evaluation import EvalRecord, summary_lines

    records = [EvalRecord(**json.loads(line)) for path in sys.argv[1:] for line in open(path) if line.strip()]
    print("\n".join(summary_lines(records)))


if __name__ == "__main__":
    main()
