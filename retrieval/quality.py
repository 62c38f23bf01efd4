"""The development question sets of ``../shared/quality/`` and their one fixed split.

Readers who never saw the code wrote three files there: answerable questions
with gold passages (``questions.jsonl``), unanswerable and off-topic ones
(``unanswerable.jsonl``) and conversations with follow-ups
(``conversations.jsonl``). Each row (a conversation as a whole) belongs to the
training part or the validation part, decided once by a keyed hash of its id:
the split never changes when rows are added, and no code chooses it. Tuning
reads the training part; the validation part is measured and its misses are
not read.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from kernel.jsonl import jsonl_read

SPLIT_SEED = "aceh-rag-quality-split-2026"
TRAIN_SHARE = 0.6
PARTS = ("train", "validation", "all")
FILES = {"questions": "questions.jsonl", "unanswerable": "unanswerable.jsonl", "conversations": "conversations.jsonl"}
_DICTUM = re.compile(r"\bdiktum\s+(?P<name>[a-z]+(?:\s+belas)?)", re.I)
_PASAL = re.compile(r"\bpasal\s+(?P<name>[0-9]+[a-z]?|[IVXL]+)\b", re.I)


def quality_dir() -> Path:
    return Path(settings.BASE_DIR).parent / "shared" / "quality"


def split_of(row_id: str) -> str:
    """"train" or "validation", fixed by the seed and the row's id alone."""
    digest = hashlib.sha256(f"{SPLIT_SEED}:{row_id}".encode()).digest()
    return "train" if int.from_bytes(digest[:8], "big") / 2 ** 64 < TRAIN_SHARE else "validation"


@dataclass(frozen=True)
class Gold:
    """One place that states the answer."""

    file: str                     # under ../shared/corpus/, e.g. "txt/uu-14-2008-….txt"
    pasal: str | None             # "22", "KESATU", or None for a whole-document place (Lampiran, Penjelasan)
    evidence: str

    @property
    def document(self) -> str:
        """The file's stem: how a stored document's source key names it."""
        return Path(self.file).stem


def article_label(pasal: str | None) -> str | None:
    """"Pasal 22 ayat (1)" -> "22"; "Diktum KESATU" -> "KESATU"; "Lampiran" -> None."""
    if not pasal:
        return None
    if match := _DICTUM.search(pasal):
        return match.group("name").upper()
    if match := _PASAL.search(pasal):
        return match.group("name").upper()
    return None


def gold_places(relevant: list[dict]) -> tuple[Gold, ...]:
    return tuple(Gold(str(r["file"]), article_label(r.get("pasal")), str(r.get("evidence") or "")) for r in relevant)


def _with_split(row: dict, number: int) -> dict:
    row["split"] = split_of(str(row["id"]))
    return row


def read_rows(name: str, directory: Path | None = None) -> list[dict]:
    """The rows of one quality file, each with its ``split``; a malformed line is a ValueError naming it."""
    return jsonl_read((directory or quality_dir()) / FILES[name], _with_split, what="quality row")


def in_part(rows: list[dict], part: str) -> list[dict]:
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}: choose from {', '.join(PARTS)}")
    return rows if part == "all" else [row for row in rows if row["split"] == part]
