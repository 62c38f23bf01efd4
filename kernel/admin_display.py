"""Display helpers shared by the admin screens: an excerpt that fits a list column, the whole on hover;
an answer's grounding as a badge."""
from __future__ import annotations

import re

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

# Passage labels and Markdown emphasis the answer text carries; a list column shows the words.
_MARKUP = re.compile(r"\s?\[(?:chunk|tool):[^\]]*\]|\*\*")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", re.S)


def bold_html(text: str) -> SafeString:
    """``text`` HTML-escaped, its Markdown ``**bold**`` pairs as ``<strong>``; a lone ``**`` stays as written.

    Escaping first leaves no markup of the text's own; the asterisks survive escaping unchanged."""
    return mark_safe(_BOLD.sub(r"<strong>\1</strong>", escape(text)))


def text_excerpt(text: str | None, limit: int) -> str:
    """``text`` on one line without labels or bold markers, cut at a word boundary to ``limit`` characters."""
    plain = " ".join(_MARKUP.sub("", text or "").split())
    if len(plain) <= limit:
        return plain
    return plain[:limit].rsplit(" ", 1)[0].rstrip(",;:") + " …"


def truncated(text: str | None, limit: int = 90) -> SafeString | str:
    """A list cell: the excerpt, with the whole text as its tooltip (``title``); "—" when empty."""
    whole = " ".join(_MARKUP.sub("", text or "").split())
    if not whole:
        return "—"
    return format_html('<span class="truncated" title="{}">{}</span>', whole, text_excerpt(whole, limit))


def grounding_badge(rate: float | None) -> SafeString:
    """An answer's grounding rate as a coloured badge ("not checked" when no claim was checked)."""
    if rate is None:
        return format_html('<span class="badge badge-none" title="No claim was checked">not checked</span>')
    level = "good" if rate >= 0.9 else "fair" if rate >= 0.5 else "poor"
    return format_html('<span class="badge badge-{}" title="Share of checked claims the cited passages support">'
                       'grounding {}</span>', level, f"{rate:.0%}")
