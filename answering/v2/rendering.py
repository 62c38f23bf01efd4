"""Rendering v2 segments as Markdown with exact offsets, and the views read from a rendering
(the rules are in ``answering.v2.segments``' docstring)."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Iterable, Mapping, Sequence

from answering.v2.segments import (
    _CELL_SEPARATOR, TABLE_LAYOUTS, UNVERIFIED_HISTORY_NOTE, VERIFIED_VERDICTS, Rendered, Segment, Span,
    check_structure,
)


# --- rendering -------------------------------------------------------------------------------


def utf16_len(text: str) -> int:
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def utf16_index(text: str, index: int) -> int:
    """The UTF-16 code-unit position of code-point position ``index`` in ``text``."""
    return utf16_len(text[:index])


class _Writer:
    """Appends text while tracking both offset systems and which ranges are layout."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.position = 0
        self.position_utf16 = 0
        self.layout: list[tuple[int, int]] = []

    def write(self, text: str, *, is_layout: bool) -> tuple[int, int, int, int]:
        start, start_utf16 = self.position, self.position_utf16
        self.parts.append(text)
        self.position += len(text)
        self.position_utf16 += utf16_len(text)
        if is_layout and text:
            self.layout.append((start, self.position))
        return start, self.position, start_utf16, self.position_utf16


@dataclass(frozen=True)
class _Block:
    layout: str                 # "paragraph" | "heading" | "list_item" | "table"
    members: tuple[int, ...]    # segment indexes, in order


_BLOCK_LAYOUT = {"table_header": "table", "table_row": "table", "continue": "paragraph"}
_PREFIX = {"heading": "## ", "list_item": "- "}


def _blocks(segments: Sequence[Segment]) -> list[_Block]:
    """Group segments into blocks: a paragraph, a heading, a list item (with its continues), a table."""
    groups: list[tuple[str, list[int]]] = []
    for index, segment in enumerate(segments):
        open_block = groups[-1][0] if groups else None
        joins = (segment.layout == "continue" and open_block not in (None, "table")) or (
            segment.layout == "table_row" and open_block == "table"
        )
        if joins:
            groups[-1][1].append(index)
        else:
            groups.append((_BLOCK_LAYOUT.get(segment.layout, segment.layout), [index]))
    return [_Block(layout, tuple(members)) for layout, members in groups]


def render_segments(segments: Sequence[Segment]) -> Rendered:
    """Render the segments as Markdown (rules in the module docstring), with each segment's span."""
    check_structure(segments)
    writer = _Writer()
    spans: list[Span] = []
    blocks = _blocks(segments)
    for number, block in enumerate(blocks):
        for position, index in enumerate(block.members):
            segment = segments[index]
            if position:
                separator = "\n" if block.layout == "table" else " "
            elif number == 0:
                separator = ""
            elif block.layout == "list_item" == blocks[number - 1].layout:
                separator = "\n"
            else:
                separator = "\n\n"
            if block.layout == "table":
                prefix, suffix = "| ", " |"
                if segment.layout == "table_header":
                    suffix += "\n|" + " --- |" * len(_CELL_SEPARATOR.split(segment.text))
            else:
                prefix, suffix = ("" if position else _PREFIX.get(block.layout, "")), ""
            writer.write(separator + prefix, is_layout=True)
            spans.append(Span(index, *writer.write(segment.text, is_layout=False)))
            writer.write(suffix, is_layout=True)
    return Rendered(answer="".join(writer.parts), spans=tuple(spans), layout=tuple(writer.layout))


# --- what the answer leaves unowned ----------------------------------------------------------


def unlocated_total(answer: str, spans: Iterable[Span | tuple[int, int]], layout: Iterable[tuple[int, int]] = ()) -> int:
    """Runs of ``answer`` that no span covers and that are not renderer layout or bare whitespace.

    A refusal or notice with no spans is one run; a notice appended after the
    rendered text is one more.
    """
    covered = bytearray(len(answer))
    for item in (*spans, *layout):
        start, end = (item.start, item.end) if isinstance(item, Span) else item
        covered[start:end] = b"\x01" * (min(end, len(answer)) - start)
    runs = 0
    for match in re.finditer(r"\x00+", covered.decode("latin-1")):
        if answer[match.start():match.end()].strip():
            runs += 1
    return runs


# --- what later turns see --------------------------------------------------------------------


def verified_text(
    segments: Sequence[Segment], verdicts_by_index: Mapping[int, str], *, answer: str | None = None
) -> str:
    """The earlier answer as later turns may read it: supported, framing and conversation segments only.

    ``verdicts_by_index`` maps a claim's segment index to its verdict; a framing
    segment that stayed framing has no entry. A fact segment with no entry is
    left out (fail closed). When no segment is supported, the full answer
    (``answer``, default the rendering of ``segments``) is quoted after a note
    saying none of it was verified and it is not evidence.
    """
    if not any(verdicts_by_index.get(index) == "supported" for index in range(len(segments))):
        full = render_segments(segments).answer if answer is None else answer
        return f"{UNVERIFIED_HISTORY_NOTE}\n\n{full}" if full.strip() else UNVERIFIED_HISTORY_NOTE
    kept: list[Segment] = []
    dropped_before = False
    for index, segment in enumerate(segments):
        verdict = verdicts_by_index.get(index)
        if not (verdict in VERIFIED_VERDICTS or (verdict is None and segment.kind == "framing")):
            dropped_before = True
            continue
        # A segment that lost what it attached to (its sentence, its table) starts its own paragraph.
        orphaned = segment.layout in ("continue", "table_row") and (
            dropped_before or not kept or (segment.layout == "table_row" and kept[-1].layout not in TABLE_LAYOUTS)
        )
        kept.append(replace(segment, layout="paragraph") if orphaned else segment)
        dropped_before = False
    return render_segments(kept).answer


# --- what the judge sees around a segment ----------------------------------------------------


def segment_context(segments: Sequence[Segment], index: int) -> str:
    """What the reader sees around segment ``index``: its heading, its list's lead-in, its table header.

    Never the question. Empty when the segment stands alone.
    """
    blocks = _blocks(segments)
    own = next(number for number, block in enumerate(blocks) if index in block.members)
    lines = []
    heading = next((block for block in reversed(blocks[:own]) if block.layout == "heading"), None)
    if heading:
        lines.append(f"Heading: {_block_text(segments, heading)}")
    if blocks[own].layout == "list_item":
        first_item = own
        while first_item > 0 and blocks[first_item - 1].layout == "list_item":
            first_item -= 1
        if first_item > 0 and blocks[first_item - 1].layout == "paragraph":
            lines.append(f"List lead-in: {_block_text(segments, blocks[first_item - 1])}")
    if blocks[own].layout == "table" and index != blocks[own].members[0]:
        lines.append(f"Table header: {segments[blocks[own].members[0]].text}")
    return "\n".join(lines)


def _block_text(segments: Sequence[Segment], block: _Block) -> str:
    return " ".join(segments[index].text for index in block.members)
