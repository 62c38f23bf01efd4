"""The v2 answer as segments, and its Markdown rendering with exact offsets.

The agent writes its answer as an ordered list of segments (text, kind, cites,
layout). The server, not the agent, writes every character of layout, so each
segment's position in the rendered ``answer`` is known exactly:
``answer[span.start:span.end] == segment.text`` for every segment.

Rendering rules (blocks are separated by one blank line, ``"\\n\\n"``):

- ``paragraph``: starts a new paragraph block: ``text``.
- ``continue``: joins the previous segment's paragraph, heading or list item
  with one space. With nothing to join (first segment, or after a table) it
  starts a paragraph instead, because a table row is one segment.
- ``heading``: its own block: ``## text``.
- ``list_item``: ``- text`` on its own line; consecutive items (and their
  ``continue`` segments) form one list, one item per line.
- ``table_header``: a new table block: ``| a | b |`` then the delimiter row
  ``| --- | --- |`` (one ``---`` per ``|``-separated cell of the text).
- ``table_row``: ``| c | d |`` on the next line; it must follow a
  ``table_header`` or another ``table_row``.

A table segment's span covers its text verbatim between the outer pipes
(``| `` + ``a | b`` + `` |``): the inner pipes belong to the segment.
Everything the renderer writes around the texts (whitespace, ``## ``, ``- ``,
outer pipes, the delimiter row) is recorded as layout in ``Rendered``, so
``unlocated_total`` can tell the renderer's layout from text that no segment
owns, such as a notice appended after rendering.

Rendering lives in ``answering.v2.rendering``. ``parse_segments`` normalises what it accepts so the renderer stays in
control of layout: text is stripped and line breaks inside it become one
space; a heading loses leading ``#`` marks, a list item a leading bullet
(``-``, ``*``, ``•``), a table segment its outer pipes; duplicate cites are
dropped.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

LAYOUTS = ("paragraph", "heading", "list_item", "continue", "table_header", "table_row")
KINDS = ("fact", "framing")
TABLE_LAYOUTS = ("table_header", "table_row")
# Verdicts that let a segment into the text later turns see (framing that stayed framing has none).
VERIFIED_VERDICTS = frozenset({"supported", "from_conversation"})
UNVERIFIED_HISTORY_NOTE = (
    "[Catatan: tidak ada pernyataan dalam jawaban sebelumnya ini yang terverifikasi terhadap sumber. "
    "Jawaban itu dikutip utuh hanya agar diketahui apa yang dilihat pengguna; isinya bukan bukti.]"
)
# Citation labels written into the text ("[P1]", "[T2, P3]", "[chunk:…]"); they belong in cites.
_LABEL = re.compile(
    r"\[\s*(?:[A-Za-z]{1,3}\d{1,4}(?:\s*[,;]\s*[A-Za-z]{1,3}\d{1,4})*|(?:chunk|doc|memory|conversation)\b[^\]]*)\s*\]"
)
_LINE_BREAK = re.compile(r"\s*[\r\n]+\s*")
_HEADING_MARKS = re.compile(r"^#+\s*")
_BULLET = re.compile(r"^[-*•]\s+")
_CELL_SEPARATOR = re.compile(r"(?<!\\)\|")     # an escaped pipe (\|) stays inside its cell


class SegmentError(ValueError):
    """The agent's segments are malformed; the message says which one and why."""


@dataclass(frozen=True)
class Segment:
    text: str
    kind: str                           # "fact" | "framing"
    cites: tuple[str, ...] = ()         # citation keys as the agent was shown them ("P1", "memory")
    layout: str = "paragraph"


@dataclass(frozen=True)
class Span:
    """Where segment ``index`` sits in the answer: code points and UTF-16 units, end exclusive."""

    index: int
    start: int
    end: int
    start_utf16: int
    end_utf16: int

    def offsets(self) -> dict:
        return {"start": self.start, "end": self.end, "start_utf16": self.start_utf16, "end_utf16": self.end_utf16}


@dataclass(frozen=True)
class Rendered:
    answer: str
    spans: tuple[Span, ...]                     # one per segment, same order
    layout: tuple[tuple[int, int], ...] = ()    # [start, end) ranges the renderer wrote between texts

    @classmethod
    def plain(cls, text: str) -> "Rendered":
        """A refusal or notice: text with no segments, hence one unlocated run."""
        return cls(answer=text, spans=())

    def unlocated_total(self, answer: str | None = None) -> int:
        """Unlocated runs of ``answer`` (default: the rendered one; it may extend it, e.g. a notice)."""
        from answering.v2.rendering import unlocated_total

        return unlocated_total(self.answer if answer is None else answer, self.spans, self.layout)


# --- parsing ---------------------------------------------------------------------------------


def parse_segments(raw: object) -> tuple[Segment, ...]:
    """Validate the agent's output: a list of segment objects, ``{"segments": [...]}`` or its JSON."""
    if isinstance(raw, (str, bytes)):
        try:
            raw = json.loads(raw)
        except ValueError as error:
            raise SegmentError(f"segments are not valid JSON: {error}") from None
    if isinstance(raw, Mapping):
        if "segments" not in raw:
            raise SegmentError('expected a list of segments or an object with "segments"')
        raw = raw["segments"]
    if not isinstance(raw, list):
        raise SegmentError(f"segments must be a list, not {type(raw).__name__}")
    if not raw:
        raise SegmentError("segments must not be empty")
    segments = tuple(_parse_one(position, item) for position, item in enumerate(raw))
    check_structure(segments)
    return segments


def _parse_one(position: int, item: object) -> Segment:
    where = f"segment {position}"
    if not isinstance(item, Mapping):
        raise SegmentError(f"{where} must be an object, not {type(item).__name__}")
    kind, layout = item.get("kind"), item.get("layout", "paragraph")
    if kind not in KINDS:
        raise SegmentError(f"{where}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
    if layout not in LAYOUTS:
        raise SegmentError(f"{where}: layout must be one of {', '.join(LAYOUTS)}, not {layout!r}")
    text = item.get("text")
    if not isinstance(text, str):
        raise SegmentError(f"{where}: text must be a string")
    text = _normalise_text(text, layout)
    if not text:
        raise SegmentError(f"{where}: text is empty")
    if label := _LABEL.search(text):
        raise SegmentError(f"{where}: text contains a citation label {label.group(0)!r}; put keys in cites")
    return Segment(text=text, kind=kind, cites=_parse_cites(where, item.get("cites", ())), layout=layout)


def _normalise_text(text: str, layout: str) -> str:
    text = _LINE_BREAK.sub(" ", text.strip())
    if layout == "heading":
        text = _HEADING_MARKS.sub("", text)
    elif layout == "list_item":
        text = _BULLET.sub("", text)
    elif layout in TABLE_LAYOUTS:
        text = text.strip("|").strip()
    return text


def _parse_cites(where: str, cites: object) -> tuple[str, ...]:
    if cites is None:
        return ()
    if not isinstance(cites, (list, tuple)):
        raise SegmentError(f"{where}: cites must be a list of citation keys")
    keys: list[str] = []
    for key in cites:
        if not isinstance(key, str) or not key.strip():
            raise SegmentError(f"{where}: every cite must be a non-empty string, not {key!r}")
        if key.strip() not in keys:
            keys.append(key.strip())
    return tuple(keys)


def check_structure(segments: Sequence[Segment]) -> None:
    """Raise SegmentError for a table row that does not continue a table."""
    previous: Segment | None = None
    for position, segment in enumerate(segments):
        if segment.layout == "table_row" and (previous is None or previous.layout not in TABLE_LAYOUTS):
            raise SegmentError(f"segment {position}: table_row has no table_header before it")
        previous = segment
