"""Grep the real corpus for each unanswerable question's `grep` pattern: every one must match nothing.

Run: .venv/bin/python bench/check_unanswerable.py [bench/answers_unanswerable.jsonl]
Patterns are Python regular expressions, multi-line, case-insensitive unless
they say otherwise with (?-i:...); a match means the question's stated reason
does not hold and the question must be rewritten.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from _setup import CORPUS, ROOT


def main() -> int:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "bench/answers_unanswerable.jsonl"
    texts = {f.name: f.read_text(errors="replace") for f in sorted((CORPUS / "txt").glob("*.txt"))}
    failures = 0
    for line in path.read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        pattern = re.compile(row["grep"], re.I | re.M)
        hits = [name for name, text in texts.items() if pattern.search(text)]
        failures += bool(hits)
        print(f"{row['id']:>4} {'ok' if not hits else 'MATCHES ' + ', '.join(hits[:3]):<12} {row['question']}")
    print(f"{len(texts)} corpus files; {failures} question(s) whose reason does not hold")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
