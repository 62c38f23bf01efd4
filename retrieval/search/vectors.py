"""Vectors as pgvector literals."""
from __future__ import annotations

from typing import Sequence


def vector_literal(vector: Sequence[float]) -> str:
    return "[" + ",".join(f"{float(x):.7g}" for x in vector) + "]"
