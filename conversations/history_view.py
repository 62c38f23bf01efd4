"""What later turns may read of a stored /query/v2 answer (its ``metadata["v2_history"]``).

Conversations own the stored messages and their history window; the /query/v2 composer writes this view through it.
"""
from __future__ import annotations

from dataclasses import dataclass

HISTORY_VIEW_KEY = "v2_history"


@dataclass(frozen=True)
class HistoryView:
    text: str                          # only the verified segments
    document_ids: tuple[str, ...]      # the documents a supported claim cited


def history_view_metadata(text: str, document_ids: list[str]) -> dict:
    """The stored form (``AnnotatedAnswer.history_view``)."""
    return {"text": text, "document_ids": document_ids}


def history_view_read(metadata: dict | None) -> HistoryView | None:
    """The view stored with an assistant message; None for a /query answer (read its content)."""
    view = (metadata or {}).get(HISTORY_VIEW_KEY)
    if view is None:
        return None
    return HistoryView(text=view.get("text", ""), document_ids=tuple(view.get("document_ids") or ()))
