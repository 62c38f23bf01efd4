"""The additive document fields: ``legal_status``, ``legal_status_basis``, ``relations``."""
from __future__ import annotations

from .selectors import LegalStatus, RelationView


def relation_out(view: RelationView) -> dict:
    return {
        "direction": view.direction,
        "relation": view.relation,
        "document_id": str(view.document_id) if view.document_id else None,
        "identity": view.identity,
        "title": view.title,
        "pasal": view.clause_reference or None,
        "articles": list(view.articles),
        "date": view.date,
    }


def legal_status_fields(status: LegalStatus) -> dict:
    return {
        "legal_status": status.status,
        "legal_status_basis": status.basis,
        "relations": [relation_out(view) for view in status.relations],
    }
