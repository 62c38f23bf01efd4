"""Which articles a chunk covers, from its section path and legal reference.

Small neighbouring articles are merged into one chunk whose reference names a
range ("... Pasal 3-4"); its section path names only the first article.
"""
from __future__ import annotations

import re
from typing import Iterable

_RANGE = re.compile(r"\bPasal\s+(\d+)([A-Z]?)(?:\s*[-–]\s*(\d+)([A-Z]?))?", re.IGNORECASE)
_ROMAN = re.compile(r"\bPasal\s+([IVXL]+)\b")


def covered_articles(section_path: Iterable[str], legal_reference: str | None) -> set[str]:
    """Article identifiers ("8", "12A", "I") a chunk holds."""
    covered: set[str] = set()
    text = " | ".join([*section_path, legal_reference or ""])
    for match in _RANGE.finditer(text):
        first, suffix, last, last_suffix = match.groups()
        covered.add(f"{first}{suffix.upper()}")
        if last:
            covered.add(f"{last}{last_suffix.upper()}")
            if not suffix and not last_suffix and int(last) - int(first) <= 50:
                covered.update(str(n) for n in range(int(first), int(last) + 1))
    covered.update(match.group(1) for match in _ROMAN.finditer(text))
    return covered
