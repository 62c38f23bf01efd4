"""The artifacts of one turn: what the agent's ``create_artifact`` tool or the deterministic path produced,
bounded, and attached only to a published answer (seed: a format refusal creates and attaches nothing).

Bounds per turn: at most ``MAX_PER_TURN`` files of at most ``MAX_BYTES`` each, titles of at most
``MAX_TITLE`` characters. An artifact's content is never evidence: the tool's reply to the agent says only
that it was made, and no passage, citation or grounding frame comes from it.
"""
from __future__ import annotations

import re
import threading
import uuid
from dataclasses import dataclass

from answering.artifacts.formats import CSV, DOCX, EXTENSIONS, FORMATS, XLSX, csv_bytes, docx_bytes, xlsx_bytes

MAX_PER_TURN = 3
MAX_BYTES = 256 * 1024
MAX_TITLE = 120
MAX_ROWS = 2000
_LABEL = re.compile(r"\s?\[(chunk:[0-9a-f-]{36}|tool:call_\d+|P\d+)\]")

CREATE_ARTIFACT = {
    "type": "function",
    "function": {
        "name": "create_artifact",
        "description": "Create a file for the user from what your answer says: a table as \"csv\" or \"xlsx\" "
                       "(rows, the first one the header), or a note as \"docx\" (text, paragraphs separated by a "
                       "blank line). At most 3 files of 256 KB per answer. The file is attached to your answer "
                       "only if the answer is published; it is not a source: never cite it.",
        "parameters": {
            "type": "object",
            "properties": {
                "title": {"type": "string", "description": "A short title, also the file name."},
                "format": {"type": "string", "enum": ["csv", "xlsx", "docx"]},
                "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string"}}},
                "text": {"type": "string"},
            },
            "required": ["title", "format"],
        },
    },
}


class ArtifactRefused(ValueError):
    """The request cannot become a file (its text says why, for the agent)."""


@dataclass(frozen=True)
class ArtifactDraft:
    id: uuid.UUID
    title: str
    media_type: str
    content: bytes

    @property
    def size(self) -> int:
        return len(self.content)

    @property
    def filename(self) -> str:
        stem = re.sub(r"[^\w\- ]+", "", self.title, flags=re.UNICODE).strip().replace(" ", "-")[:100] or "artifact"
        return f"{stem}.{EXTENSIONS[self.media_type]}"

    def summary(self) -> dict:
        """The artifact as the answer, the stream and the stored message list it."""
        return {"id": str(self.id), "title": self.title, "media_type": self.media_type, "size": self.size,
                "url": f"/artifacts/{self.id}"}


def _title(value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ArtifactRefused("create_artifact needs a non-empty \"title\".")
    return " ".join(value.split())[:MAX_TITLE]


def _rows(value) -> list[list[str]]:
    if not isinstance(value, list) or not value or not all(isinstance(row, list) for row in value):
        raise ArtifactRefused("a table needs \"rows\": a list of rows, each a list of strings.")
    if len(value) > MAX_ROWS:
        raise ArtifactRefused(f"a table may have at most {MAX_ROWS} rows.")
    return [[str(cell) for cell in row] for row in value]


def artifact_draft(arguments: dict) -> ArtifactDraft:
    """The file ``create_artifact`` asks for; raises ``ArtifactRefused``."""
    title = _title(arguments.get("title"))
    kind = arguments.get("format")
    if kind not in FORMATS:
        raise ArtifactRefused("\"format\" must be \"csv\", \"xlsx\" or \"docx\".")
    if kind == "docx":
        text = arguments.get("text")
        if not isinstance(text, str) or not text.strip():
            raise ArtifactRefused("a docx note needs a non-empty \"text\".")
        content = docx_bytes(title, [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()])
    else:
        rows = _rows(arguments.get("rows"))
        content = csv_bytes(rows) if kind == "csv" else xlsx_bytes(rows, title)
    return ArtifactDraft(uuid.uuid4(), title, FORMATS[kind], content)


class ArtifactBox:
    """The files one turn created, in order; safe for a round's concurrent tool calls."""

    def __init__(self) -> None:
        self._drafts: list[ArtifactDraft] = []
        self._lock = threading.Lock()

    @property
    def drafts(self) -> tuple[ArtifactDraft, ...]:
        return tuple(self._drafts)

    def add(self, draft: ArtifactDraft) -> None:
        if draft.size > MAX_BYTES:
            raise ArtifactRefused(f"the file is {draft.size} bytes; at most {MAX_BYTES} are allowed.")
        with self._lock:
            if len(self._drafts) >= MAX_PER_TURN:
                raise ArtifactRefused(f"at most {MAX_PER_TURN} files may be created per answer.")
            self._drafts.append(draft)


def table_rows(claims) -> list[list[str]]:
    """The rows of a table answer: claims kept whole as ``a | b | c`` rows (the embedded answerer's layout)."""
    return [[cell.strip() for cell in claim.text.rstrip(".").split(" | ")] for claim in claims if " | " in claim.text]


def deterministic_artifact(*, question: str, answer: str, claims, citations: list[dict]) -> ArtifactDraft:
    """What the embedded answerer can serve honestly: a table answer as CSV, any other answer as a DOCX note of
    its published text and its numbered sources."""
    title = " ".join(question.split())[:MAX_TITLE]
    rows = table_rows(claims)
    if len(rows) >= 2:
        return ArtifactDraft(uuid.uuid4(), title, CSV, csv_bytes(rows))
    numbers = {f"chunk:{c['chunk_id']}" if c.get("kind") == "chunk" else f"tool:{c.get('call')}": n
               for n, c in enumerate(citations, start=1)}
    text = _LABEL.sub(lambda m: f" [{numbers[m.group(1)]}]" if m.group(1) in numbers else "", answer)
    sources = [f"[{n}] {c.get('document_title') or ''}"
               + (f", {c['legal_reference']}" if c.get("legal_reference") else "")
               + (f", hlm. {c['page_number']}" if c.get("page_number") else "") for n, c in enumerate(citations, 1)]
    paragraphs = [p.strip() for p in text.split("\n\n") if p.strip()] + (["Sumber:", *sources] if sources else [])
    return ArtifactDraft(uuid.uuid4(), title, DOCX, docx_bytes(title, paragraphs))


__all__ = ["CREATE_ARTIFACT", "ArtifactBox", "ArtifactDraft", "ArtifactRefused", "XLSX", "artifact_draft",
           "deterministic_artifact"]
