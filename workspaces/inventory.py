"""corpus_inventory: what a chat may answer from, with the workspace upload block (seed: "Workspace upload inventory").

Exact uploaded / selected / unselected counts and bounded, neutralised title
lists: at most 200 uploads on the page, 20 titles per list, 120 characters per
title, a 1,200-character budget per list, and the omitted count stated.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass

from django.db.models import Q

from kernel.principal import Principal
from retrieval.facade.documents import Scope, document_scope_q
from retrieval.facade.documents import document_count_in_scope, workspace_upload_page
from workspaces.selectors import principal_with_memberships

PAGE_UPLOADS = 200
LIST_TITLES = 20
TITLE_CHARS = 120
LIST_BUDGET = 1200
# Upload-state questions only: "dokumen apa saja yang sudah saya unggah?", "berapa dokumen yang tersedia?".
# A question about what a regulation requires ("dokumen apa saja yang wajib dilampirkan") is not one.
INVENTORY_QUESTION = re.compile(
    r"\b(di\s?unggah|unggahan|mengunggah|unggah|upload(ed|s)?)\b"
    r"|\b(dokumen|berkas|file|sumber)\s+apa\s+saja\s+yang\s+(tersedia|ada|terindeks|bisa\s+(saya\s+)?(pakai|tanyakan))\b"
    r"|\bberapa\s+(banyak\s+)?(dokumen|berkas|file)\s+(yang\s+)?(tersedia|ada|terindeks)\b"
    r"|\b(which|what|how\s+many)\s+documents\s+(are|do\s+you\s+have|can)\b", re.I)


def asks_for_inventory(question: str) -> bool:
    return bool(INVENTORY_QUESTION.search(question))


def neutralised(title: str) -> str:
    """A title as inert text: no markup, links or line breaks; at most 120 characters."""
    text = re.sub(r"[\x00-\x1f\x7f`*_#<>\[\]{}|\\]", " ", title)
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1].rstrip() + "…"


def bounded_list(titles: list[str], total: int) -> tuple[list[str], int]:
    """Up to 20 titles within the 1,200-character bullet budget; the rest are counted as omitted."""
    shown, used = [], 0
    for title in titles[:LIST_TITLES]:
        bullet = f"- {neutralised(title)}\n"
        if used + len(bullet) > LIST_BUDGET:
            break
        shown.append(neutralised(title))
        used += len(bullet)
    return shown, total - len(shown)


@dataclass(frozen=True)
class UploadBlock:
    uploaded: int
    selected: int
    unselected: int
    selected_titles: tuple[str, ...]
    unselected_titles: tuple[str, ...]
    selected_omitted: int
    unselected_omitted: int


@dataclass(frozen=True)
class Inventory:
    documents_in_scope: int
    workspace: UploadBlock | None

    def text(self, language: str = "id") -> str:
        """The inventory as sentences a reader (and the gate) can check against this tool read."""
        lines = []
        block = self.workspace
        if block:
            if language == "en":
                lines.append(f"This workspace has {block.uploaded} indexed uploads: {block.selected} selected as "
                             f"sources and {block.unselected} not selected.")
            else:
                lines.append(f"Workspace ini memiliki {block.uploaded} dokumen unggahan yang terindeks: "
                             f"{block.selected} dipilih sebagai sumber dan {block.unselected} tidak dipilih.")
            for label, titles, omitted in (("dipilih" if language != "en" else "selected", block.selected_titles, block.selected_omitted),
                                           ("tidak dipilih" if language != "en" else "not selected", block.unselected_titles, block.unselected_omitted)):
                if titles:
                    more = (f" ({omitted} lainnya tidak ditampilkan)" if language != "en" else f" ({omitted} more not shown)") if omitted else ""
                    lines.append(f"Unggahan {label}: " + "; ".join(titles) + more + "." if language != "en"
                                 else f"Uploads {label}: " + "; ".join(titles) + more + ".")
        if language == "en":
            lines.append(f"The sources this chat may answer from hold {self.documents_in_scope} indexed documents.")
        else:
            lines.append(f"Sumber yang dapat dipakai untuk menjawab di percakapan ini memuat {self.documents_in_scope} dokumen terindeks.")
        return "\n".join(lines)


def corpus_inventory(*, principal: Principal, scope: Scope, workspace_id: uuid.UUID | None) -> Inventory:
    """The accessible answer scope's size, plus the workspace's upload block for a workspace chat."""
    principal = principal_with_memberships(principal)
    block = None
    if workspace_id:
        selected = _selected_q(scope)
        uploaded, chosen, page = workspace_upload_page(principal=principal, workspace_id=workspace_id,
                                                       selected=selected, page=PAGE_UPLOADS)
        picked, picked_omitted = bounded_list([t for t, s in page if s], chosen)
        others, others_omitted = bounded_list([t for t, s in page if not s], uploaded - chosen)
        block = UploadBlock(uploaded, chosen, uploaded - chosen, tuple(picked), tuple(others), picked_omitted, others_omitted)
    return Inventory(document_count_in_scope(principal=principal, scope=scope), block)


def _selected_q(scope: Scope) -> Q | None:
    """Uploads inside the answer scope are selected; an unrestricted scope selects every upload."""
    return document_scope_q(scope) if (scope.collection_ids or scope.document_ids) else None
