"""The one JSONL reader of the evaluation sets (retrieval's, the answer harness's, the quality files)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Callable, TypeVar

Row = TypeVar("Row")


def jsonl_read(path: Path, parse: Callable[[dict, int], Row], *, what: str = "row") -> list[Row]:
    """``parse(row, line_number)`` of every non-blank line, in order.

    A line that is not JSON, or that ``parse`` refuses (ValueError, KeyError,
    TypeError), is a ValueError naming the file, the line and ``what`` it should be.
    """
    rows = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(parse(json.loads(line), number))
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{path}:{number}: not a {what} ({exc})") from exc
    return rows
