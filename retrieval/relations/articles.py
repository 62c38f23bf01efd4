"""The articles of a regulation's body, as the relation extractor reads them."""
from __future__ import annotations

import re
from dataclasses import dataclass

from retrieval.parsing.structure import regulation_sections

__all__ = ["Article", "body_articles"]


@dataclass(frozen=True)
class Article:
    start: int          # just after the heading line
    end: int
    label: str          # "6", "I", "KESATU"
    diktum: bool
    nested: bool        # an article quoted inside an amending "Pasal I"


_ARTICLE_HEAD_RE = re.compile(
    r"(?m)^[ \t#*]*(?P<q>[\"“”]?)\s*(?:Pasal|PASAL)\s+(?P<label>\d{1,4}\s?[A-Z]?|[IVXL]{1,6})[ \t]*\.?[ \t]*$"
    r"|^[ \t]*(?P<diktum>KESATU|PERTAMA|KEDUA|KETIGA|KEEMPAT|KELIMA|KEENAM|KETUJUH|KEDELAPAN|KESEMBILAN|KESEPULUH"
    r"|KESEBELAS|KEDUA\s?BELAS)[ \t]*:[ \t]*"
)
_BODY_END_RE = re.compile(r"(?m)^[ \t]*(?:Ditetapkan|Disahkan)\s+di\b|\bPENJELASAN\s+ATAS\b|(?<=[.] )(?:Ditetapkan|Disahkan)\s+di\s+[A-Z]")


def body_articles(text: str) -> list[Article]:
    """Articles and dicta between the preamble and the signature block.

    Articles come from the structure parser (which also finds headings inlined in a
    line); a stretch of the body it did not read as articles (``pergub-aceh-5-2025``: a
    "Lampiran" seen in the middle of the body) is cut at its heading lines instead, so
    the closing articles are still read."""
    sections = regulation_sections(text)
    first = next((s for s in sections if s.kind == "body"), None)
    if first is None:
        return []
    end_match = _BODY_END_RE.search(text, first.start)
    body_end = end_match.start() if end_match else len(text)
    labels = [s.label for s in sections if s.kind == "body" and s.ref_kind == "pasal" and s.label]
    roman = sum(1 for label in labels if re.fullmatch(r"[IVXL]+", label)) >= 2
    articles: list[Article] = []
    for section in sections:
        if section.end <= first.start or section.start >= body_end:
            continue
        end = min(section.end, body_end)
        if section.kind == "body" and section.ref_kind in ("pasal", "diktum") and section.label:
            head = _ARTICLE_HEAD_RE.search(text, section.start, min(end, section.start + 400))
            nested = section.container is not None and section.label != section.container
            articles.append(Article(head.end() if head else section.start, end, section.label,
                                     section.ref_kind == "diktum", nested))
        elif section.kind in ("lampiran", "body"):
            articles.extend(_cut_at_headings(text, section.start, end, roman))
    return articles


def _cut_at_headings(text: str, start: int, end: int, roman: bool) -> list[Article]:
    heads = list(_ARTICLE_HEAD_RE.finditer(text, start, end))
    out = []
    for i, head in enumerate(heads):
        label = " ".join((head.group("label") or head.group("diktum")).split())
        nested = bool(head.group("q")) or (roman and not re.fullmatch(r"[IVXL]+", label))
        out.append(Article(head.end(), heads[i + 1].start() if i + 1 < len(heads) else end, label,
                            bool(head.group("diktum")), nested))
    return out
