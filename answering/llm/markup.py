"""Model prose is text, never markup: HTML in a completion is removed before anything parses it.

Clients render answers as Markdown (the widget) or as text; a model that
writes ``<script>``, ``<img onerror=…>`` or an ``<iframe>`` — by mistake, or
because a passage told it to — must not reach them as markup. Applied to
every agent completion before it is parsed, so the gate, the judge, the
guard and the stored answer all see the same, markup-free text. Markdown
(emphasis, lists, tables, links) stays Markdown; a link whose target would
run code keeps only its text.
"""
from __future__ import annotations

import re

# As a browser reads them: "<" directly followed by a tag name ("a < b" is text, "<b>" is a tag).
_NAME = r"[A-Za-z][^\s/<>]*"
# An element whose content is never prose: dropped whole, content included.
_CODE_ELEMENT = re.compile(r"<(script|style|iframe|object|embed|template|noscript|svg|math)\b[^>]*>.*?</\1\s*>", re.I | re.S)
_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
# A tag (opening, closing, self-closing, doctype, processing instruction); its text content stays.
# A Markdown autolink (<https://…>) is Markdown, not a tag, and is kept.
_AUTOLINK = r"<(?:https?|mailto):[^<>\s]*>"
_TAG = re.compile(rf"(?P<autolink>{_AUTOLINK})|</?{_NAME}(?:\s[^<>]*)?/?>|<![^<>]*>|<\?[^<>]*\?>", re.I)
# What is left of a tag the model did not close ("<img src=x onerror=…" at the end): shown, never parsed.
_TAG_OPENER = re.compile(rf"(?!{_AUTOLINK})<(?=[A-Za-z/!?])", re.I)
# A Markdown link or image whose target runs code keeps only its text.
_CODE_LINK = re.compile(r"!?\[([^\]]*)\]\(\s*<?\s*(?:javascript|vbscript|data):(?:[^()]|\([^()]*\))*\)", re.I)


def prose_text(content: str) -> str:
    """``content`` without HTML: code elements and comments dropped, other tags reduced to their text."""
    if "<" not in content and "](" not in content:
        return content
    text = _CODE_ELEMENT.sub("", content)
    text = _COMMENT.sub("", text)
    text = _TAG.sub(lambda m: m.group("autolink") or "", text)
    text = _TAG_OPENER.sub("&lt;", text)
    return _CODE_LINK.sub(lambda m: m.group(1), text)
