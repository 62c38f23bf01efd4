"""Retrieval routes: POST /search and the document operations."""
from __future__ import annotations

import uuid

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Status, File, Form, Query, Router
from ninja.files import UploadedFile

from kernel.error_table import error_response
from kernel.errors import RequestInvalid
from kernel.limits import worker_thread_deprioritise
from kernel.principal import request_principal
from kernel.schemas import ErrorOut
from retrieval import schemas
from retrieval.access import Scope
from retrieval.citations import restriction_fields
from retrieval.errors import (
    AdminRequired,
    DocumentNotFound,
    IngestionNotFound,
    require_question,
)
from retrieval.ingestion import IngestOptions
from retrieval.relations.selectors import legal_status_for, legal_statuses
from retrieval.relations.serialise import legal_status_fields
from retrieval.search import chunk_search, search_failures
from retrieval.uploads import document_upload_accept, upload_requester
from retrieval.selectors import document_get_visible, document_list_visible, ingestion_get
from retrieval.services import document_delete

router = Router(tags=["retrieval"])

# Paging deeper than this is no browsing; it also keeps OFFSET inside bigint.
MAX_OFFSET = 1_000_000


@router.post(
    "/search",
    response={200: schemas.SearchResponse, 400: ErrorOut, 413: ErrorOut, 502: ErrorOut,
              503: ErrorOut},
    summary="Raw hybrid / semantic / lexical retrieval",
)
def search(request: HttpRequest, payload: schemas.SearchRequest):
    worker_thread_deprioritise()
    query = require_question(payload.query)
    scope = Scope.from_request(payload.collection_ids, payload.document_ids)
    with search_failures():
        outcome = chunk_search(query, mode=payload.mode, top_k=payload.top_k, principal=request_principal(request),
                               scope=scope)
    # JsonResponse, not the schema: citation fields that exist only for restricted
    # sources must survive serialisation (the schema documents the shape).
    return JsonResponse({
        "mode": outcome.mode,
        "results": [
            {
                "chunk_id": str(hit.chunk.id),
                "document_id": str(hit.chunk.document_id),
                "ordinal": hit.chunk.ordinal,
                "text": hit.chunk.text,
                "score": hit.score,
                "citation": hit.citation,
            }
            for hit in outcome.hits
        ],
    })


def _document_out(document, legal=None) -> dict:
    body = {
        "id": str(document.id),
        "title": document.title,
        "collection_id": document.collection_id,
        "status": document.status,
        "source_name": document.source_name,
        "source_format": document.source_format,
        "version": document.version,
        "chunk_count": document.chunk_count,
        "extraction": document.extraction or "text",
        "identity": {
            name: getattr(document, name)
            for name in ("instrument_type", "number", "year", "subject", "issuer", "place_enacted", "date_enacted", "signatory")
        },
        "indexed_at": document.indexed_at.isoformat() if document.indexed_at else None,
    }
    body.update(restriction_fields(document))
    if legal is not None:
        body.update(legal_status_fields(legal))
    return body


@router.post(
    "/documents",
    response={202: schemas.IngestionAccepted, 413: ErrorOut, 415: ErrorOut, 503: ErrorOut},
    summary="Upload a file for ingestion",
)
def document_upload(
    request: HttpRequest,
    file: UploadedFile = File(...),
    collection_id: str = Form(..., min_length=1, max_length=100),
    title: str | None = Form(None, max_length=500),
    confidential: bool = Form(False),
    owning_org_unit: str | None = Form(None, max_length=200),
    min_position_level: int | None = Form(None, ge=0, le=1000),
):
    collection = collection_id.strip()
    if not collection:
        return error_response(RequestInvalid(), [{"type": "string_too_short", "loc": ["form", "collection_id"],
                                                  "msg": "collection_id must not be blank", "input": collection_id}])
    options = IngestOptions.build(collection_id=collection, title=title, confidential=confidential,
                                  owning_org_unit=owning_org_unit, min_position_level=min_position_level)
    ingestion = document_upload_accept(file=file, options=options, requested_by=upload_requester(request))
    name = ingestion.source_name
    return Status(202, {"ingestion_id": str(ingestion.id), "status": "queued", "source_name": name})


@router.get("/ingestions/{ingestion_id}", response={200: schemas.IngestionOut, 404: ErrorOut}, summary="Ingestion status")
def ingestion_status(request: HttpRequest, ingestion_id: uuid.UUID):
    ingestion = ingestion_get(ingestion_id=ingestion_id)
    if ingestion is None:
        raise IngestionNotFound(f"Ingestion {ingestion_id} not found")
    return {
        "ingestion_id": str(ingestion.id),
        "status": ingestion.status,
        "outcome": ingestion.outcome or None,
        "source_name": ingestion.source_name,
        "collection_id": ingestion.collection_id,
        "stored_document_id": str(ingestion.document_id) if ingestion.document_id and ingestion.status == "succeeded" else None,
        "chunk_count": ingestion.chunk_count,
        "ocr_pages_done": ingestion.ocr_pages_done,
        "ocr_pages_total": ingestion.ocr_pages_total,
        "error": ingestion.error or None,
        "created_at": ingestion.created_at,
        "updated_at": ingestion.updated_at,
    }


@router.get("/documents", response=schemas.DocumentPage, summary="Documents the caller may see")
def document_list(
    request: HttpRequest,
    collection_id: str | None = Query(None, max_length=100),
    limit: int = Query(50, ge=1, le=200),
    offset: int = Query(0, ge=0, le=MAX_OFFSET),
):
    scope = Scope.from_request([collection_id] if collection_id else None, None)
    principal = request_principal(request)
    documents = document_list_visible(principal=principal, scope=scope)
    page = list(documents[offset : offset + limit])
    legal = legal_statuses(principal=principal, document_ids=[d.id for d in page])
    return JsonResponse({"count": documents.count(), "items": [_document_out(d, legal[d.id]) for d in page]})


@router.get("/documents/{document_id}", response={200: schemas.DocumentOut, 404: ErrorOut}, summary="One visible document")
def document_detail(request: HttpRequest, document_id: uuid.UUID):
    principal = request_principal(request)
    document = document_get_visible(principal=principal, document_id=document_id)
    if document is None:
        raise DocumentNotFound(f"Document {document_id} not found")
    return JsonResponse(_document_out(document, legal_status_for(principal=principal, document_id=document.id)))


@router.delete(
    "/documents/{document_id}",
    response={204: None, 403: ErrorOut, 404: ErrorOut},
    summary="Delete a document (admin principals only)",
)
def document_remove(request: HttpRequest, document_id: uuid.UUID):
    principal = request_principal(request)
    if not principal.is_admin:
        raise AdminRequired("Admin principal required")
    document = document_get_visible(principal=principal, document_id=document_id)
    if document is None:
        raise DocumentNotFound(f"Document {document_id} not found")
    document_delete(document=document)
    return HttpResponse(status=204)
