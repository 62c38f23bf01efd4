"""Request and response schemas other apps' routes share with retrieval's (one citation schema)."""
from retrieval.schemas import COLLECTION_IDS, DOCUMENT_IDS, Citation, IngestionAccepted

__all__ = ["COLLECTION_IDS", "DOCUMENT_IDS", "Citation", "IngestionAccepted"]
