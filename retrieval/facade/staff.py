"""Operator reads for the staff workbench behind the admin site: values, not rows, and no principal
(the admin site sees every document, as the document admin does)."""
from retrieval.selectors import IngestionFailure, collection_ids, document_titles_staff, ingestion_failures_staff

__all__ = ["IngestionFailure", "collection_ids", "document_titles_staff", "ingestion_failures_staff"]
