"""Reads of the workbook catalogue, always through the documents' access predicate."""
from __future__ import annotations

import uuid

from kernel.principal import Principal
from livedata.models import Workbook
from retrieval.facade.documents import Scope, document_ids_visible_subquery


def workbooks_visible(*, principal: Principal, scope: Scope | None = None):
    visible = document_ids_visible_subquery(principal=principal, scope=scope)
    return (Workbook.objects.select_related("document", "document__collection")
            .prefetch_related("sheets").filter(document_id__in=visible).order_by("-document__indexed_at"))


def workbook_get_visible(*, principal: Principal, workbook_id: str, scope: Scope | None = None) -> Workbook | None:
    """A workbook by ``<document-id>`` or ``spreadsheet:<document-id>``; None when unknown or not visible."""
    raw = str(workbook_id).strip().removeprefix("spreadsheet:")
    try:
        document_id = uuid.UUID(raw)
    except ValueError:
        return None
    return workbooks_visible(principal=principal, scope=scope).filter(document_id=document_id).first()
