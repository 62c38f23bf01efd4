"""Reads of documents by other apps, each through the access predicate: facts, legal status, workspace
uploads, scopes, and the citation object of a tool read (one serialiser for every citation)."""
from retrieval.access import Scope, document_scope_q, visible_documents_q
from retrieval.citations import restriction_fields, tool_citation
from retrieval.relations.selectors import (
    LegalStatus, RelationView, extending_documents, legal_statuses, named_status, replaced_documents,
)
from retrieval.selectors import (
    document_count_in_scope,
    document_facts,
    document_ids_visible_subquery,
    document_ids_in_sources,
    indexed_embedding_models,
    workspace_documents_visible,
    workspace_ingestions_pending,
    workspace_upload_page,
)

__all__ = [
    "LegalStatus", "RelationView", "Scope", "document_count_in_scope", "document_facts", "document_ids_in_sources",
    "document_ids_visible_subquery", "extending_documents",
    "document_scope_q", "indexed_embedding_models", "legal_statuses", "named_status", "replaced_documents",
    "restriction_fields", "tool_citation",
    "visible_documents_q", "workspace_documents_visible", "workspace_ingestions_pending", "workspace_upload_page",
]
