"""Storing documents, for other apps: ingestion values, registered file types, versioned storage, uploads.

``livedata`` registers its workbook type here and stores each workbook as a
document version through ``document_version_store``, the same rule (and
source lock) text documents are stored by.
"""
from retrieval.formats import FormatHandler, format_register
from retrieval.ingest_values import IngestOptions, IngestOutcome, IngestProgress
from retrieval.services import sample_corpus_ingest_if_empty
from retrieval.uploads import document_upload_accept, upload_requester
from retrieval.versions import StoredVersion, content_hash, document_version_reuse, document_version_store

__all__ = [
    "FormatHandler", "IngestOptions", "IngestOutcome", "IngestProgress", "StoredVersion", "content_hash",
    "document_upload_accept", "document_version_reuse", "document_version_store", "format_register",
    "sample_corpus_ingest_if_empty", "upload_requester",
]
