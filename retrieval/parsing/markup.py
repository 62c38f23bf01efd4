"""HTML (BeautifulSoup, html.parser) and DOCX (python-docx) extraction.

Headings become markdown headings ("# Title"), tables one " | " row per line.
"""
from __future__ import annotations

import io
import re

from .text import ExtractedText, ExtractionError, normalise_text

__all__ = ["extract_docx", "extract_html"]

# --------------------------------------------------------------------------- HTML

_HTML_DROP = ("script", "style", "nav", "noscript", "template", "svg", "head", "iframe", "object", "form", "button")
_HTML_BLOCK = frozenset(
    """address article aside blockquote body center dd details dialog div dl dt fieldset figcaption figure
    footer header hgroup hr li main ol p pre section summary ul caption""".split()
)
_WS_RE = re.compile(r"\s+")


def _nesting_depth(root) -> int:
    """The deepest element below ``root``, walked with an explicit stack (a 100k-deep page recurses nothing)."""
    from bs4 import Tag

    deepest, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        stack.extend((child, depth + 1) for child in node.contents if isinstance(child, Tag))
    return deepest


def extract_html(data: bytes, *, max_depth: int = 512) -> ExtractedText:
    """Refuses a page nested deeper than ``max_depth`` elements (text is then walked recursively)."""
    from bs4 import BeautifulSoup

    try:
        soup = BeautifulSoup(data, "html.parser")
    except Exception as exc:
        raise ExtractionError(f"HTML could not be parsed ({type(exc).__name__})") from exc
    depth = _nesting_depth(soup)
    if depth > max_depth:
        raise ExtractionError(f"Refused: HTML nested {depth:,} elements deep (at most {max_depth:,})")
    for tag in soup.find_all(_HTML_DROP):
        tag.decompose()
    lines: list[str] = []
    buf: list[str] = []

    def flush() -> None:
        if buf:
            line = _WS_RE.sub(" ", "".join(buf)).strip()
            if line:
                lines.append(line)
            buf.clear()

    def walk(node) -> None:
        from bs4 import Comment, Declaration, Doctype, NavigableString, ProcessingInstruction, Tag

        for child in node.children:
            if isinstance(child, (Comment, Declaration, Doctype, ProcessingInstruction)):
                continue
            if isinstance(child, NavigableString):
                buf.append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            name = child.name.lower()
            if name in ("h1", "h2", "h3", "h4", "h5", "h6"):
                flush()
                title = _WS_RE.sub(" ", child.get_text(" ")).strip()
                if title:
                    lines.append("#" * int(name[1]) + " " + title)
            elif name == "table":
                flush()
                lines.extend(_html_table_rows(child))
            elif name == "br":
                flush()
            elif name == "pre":
                flush()
                for raw in child.get_text().splitlines():
                    if raw.strip():
                        lines.append(raw.rstrip())
            elif name in _HTML_BLOCK:
                flush()
                walk(child)
                flush()
            else:
                walk(child)

    walk(soup)
    flush()
    text = normalise_text("\n".join(lines))
    return ExtractedText(text=text, page_starts=(0,), format="html")


def _html_table_rows(table) -> list[str]:
    rows: list[str] = []
    for tr in table.find_all("tr"):
        if tr.find_parent("table") is not table:
            continue  # rows of nested tables are flattened into their cell
        cells = [
            _WS_RE.sub(" ", cell.get_text(" ")).strip().replace(" | ", " / ")
            for cell in tr.find_all(("td", "th"))
            if cell.find_parent("tr") is tr
        ]
        if any(cells):
            rows.append(" | ".join(cells))
    return rows


# --------------------------------------------------------------------------- DOCX


def extract_docx(data: bytes) -> ExtractedText:
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph

        document = docx.Document(io.BytesIO(data))
    except Exception as exc:
        raise ExtractionError(f"Corrupt DOCX file ({type(exc).__name__})") from exc

    lines: list[str] = []
    body = document.element.body
    for child in body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            para = Paragraph(child, document)
            text = para.text.strip()
            if not text:
                continue
            level = _docx_heading_level(para)
            lines.append(("#" * level + " " + _WS_RE.sub(" ", text)) if level else text)
        elif tag == "tbl":
            lines.extend(_docx_table_rows(Table(child, document)))
    text = normalise_text("\n".join(lines))
    return ExtractedText(text=text, page_starts=(0,), format="docx")


def _docx_heading_level(para) -> int:
    try:
        name = (para.style.name or "") if para.style is not None else ""
    except Exception:
        return 0
    if name == "Title":
        return 1
    match = re.match(r"Heading (\d)", name)
    return min(6, int(match.group(1))) if match else 0


def _docx_table_rows(table) -> list[str]:
    rows: list[str] = []
    for row in table.rows:
        cells: list[str] = []
        seen = set()
        for cell in row.cells:
            key = id(cell._tc)
            if key in seen:  # horizontally merged cells repeat the same element
                continue
            seen.add(key)
            cells.append(_WS_RE.sub(" ", cell.text).strip().replace(" | ", " / "))
        if any(cells):
            rows.append(" | ".join(cells))
    return rows
