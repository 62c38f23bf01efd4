"""A working example per route: each request body answers on the bundled sample corpus.

The default "Try it out" body of every answer route starts a new conversation (no made-up
conversation_id that would 404). Every example validates against its own schema (tested).
"""
from __future__ import annotations

from acehrag.openapi.streams import CHUNK, CITATION, CONVERSATION, DOCUMENT, MESSAGE

QUESTION = "Berapa lama Badan Publik wajib menjawab permintaan informasi publik?"
ANSWER = ("Badan Publik wajib menyampaikan pemberitahuan tertulis paling lambat 10 (sepuluh) hari kerja sejak "
          f"diterimanya permintaan [chunk:{CHUNK}].")
V2_ANSWER = "Badan Publik wajib menyampaikan pemberitahuan tertulis paling lambat 10 (sepuluh) hari kerja sejak diterimanya permintaan."
INGESTION = "5e4d3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c"
TIMESTAMP = "2026-12-01T09:30:00+07:00"
GROUNDING = {"claims_supported": 1, "claims_total": 1, "grounding_rate": 1.0}
ANSWER_COMMON = {
    "conversation_id": CONVERSATION, "message_id": MESSAGE, "trace_id": "9c1b2a3d4e5f46a7b8c9d0e1f2a3b4c5",
    "history_truncated": False, "history_exchanges_in_view": 0, "citations": [CITATION],
    "tool": "vector_search", "tool_executed": True, "fallback_used": False, "fallback_reason": None, **GROUNDING,
}
V2_CLAIM = {"text": V2_ANSWER, "citation_keys": ["P1"], "citations": [{"citation_key": "P1", "citation": CITATION}],
            "verdict": "supported", "unverified_reason": None, "invalid_citation_keys": [], "kind": "fact",
            "layout": "paragraph", "start": 0, "end": len(V2_ANSWER), "start_utf16": 0, "end_utf16": len(V2_ANSWER)}
V2_FAITHFULNESS = {
    "mechanism": "annotate-v2", "judge_status": "complete", "framing_check": "skipped", "claims_total": 1,
    "supported": 1, "unsupported": 0, "unverified": 0, "uncited": 0, "invalid_citation": 0, "from_conversation": 0,
    "unverified_reasons": {"deadline": 0, "budget": 0, "judge_unavailable": 0, "unparseable": 0, "disputed": 0},
    "framing_total": 0, "unlocated_total": 0, "verification": "full", "grounding": GROUNDING,
}
V2_RESPONSE = {"schema": "annotate-v2", **ANSWER_COMMON, "answer": V2_ANSWER, "claims": [V2_CLAIM], "framing": [],
               "faithfulness": V2_FAITHFULNESS}
IDENTITY = {"instrument_type": "Undang-Undang", "number": "14", "year": 2008,
            "subject": "Keterbukaan Informasi Publik", "issuer": "Presiden Republik Indonesia", "place_enacted": "Jakarta",
            "date_enacted": "30 April 2008", "signatory": "Susilo Bambang Yudhoyono"}
DOCUMENT_OUT = {"id": DOCUMENT, "title": CITATION["document_title"], "collection_id": "JDIH", "status": "indexed",
                "source_name": "uu-14-2008-keterbukaan-informasi-publik-bab-i-vi.pdf", "source_format": "pdf",
                "version": 1, "chunk_count": 30, "identity": IDENTITY, "indexed_at": TIMESTAMP}
SUMMARY = {"id": CONVERSATION, "user_id": "199001012020121001", "title": "Layanan informasi publik",
           "metadata": {"mode": "explicit-create"}}

REQUESTS = {
    ("post", "/search"): {"query": "jangka waktu pemberitahuan tertulis atas permintaan informasi publik", "mode": "hybrid", "top_k": 3},
    ("post", "/query"): {"query": QUESTION},
    ("post", "/query/stream"): {"query": QUESTION},
    ("post", "/query/v2"): {"query": QUESTION},
    ("post", "/query/v2/stream"): {"query": QUESTION},
    ("post", "/playground"): {"query": QUESTION,
                              "editorial_prompt": "Jawab singkat dalam Bahasa Indonesia dan sebut pasalnya."},
    ("post", "/conversations"): {"title": "Layanan informasi publik"},
    ("post", "/documents"): {"file": "uu-14-2008.pdf", "collection_id": "JDIH",
                             "title": CITATION["document_title"]},
}
RESPONSES = {
    ("post", "/search"): {"mode": "hybrid", "results": [
        {"chunk_id": CHUNK, "document_id": DOCUMENT, "ordinal": 29,
         "text": "(7) Paling lambat 10 (sepuluh) hari kerja sejak diterimanya permintaan, Badan Publik ...",
         "score": 0.0325, "citation": CITATION}]},
    ("post", "/query"): {"answer": ANSWER, **ANSWER_COMMON,
                         "claim_map": [{"text": ANSWER, "citations": [{"kind": "chunk", "chunk_id": CHUNK}]}],
                         "provenance_complete": True, "dropped_claims_count": 0, "dropped_claim_reasons": {}},
    ("post", "/query/v2"): V2_RESPONSE,
    ("post", "/playground"): {**{k: v for k, v in V2_RESPONSE.items() if k not in ("conversation_id", "message_id")},
                              "trace_id": None, "playground_run_id": INGESTION, "published": False,
                              "latency_ms": 84.2},
    ("post", "/documents"): {"ingestion_id": INGESTION, "status": "queued",
                             "source_name": "uu-14-2008.pdf"},
    ("get", "/ingestions/{ingestion_id}"): {
        "ingestion_id": INGESTION, "status": "succeeded", "outcome": "ingested",
        "source_name": "uu-14-2008.pdf", "collection_id": "JDIH", "stored_document_id": DOCUMENT,
        "chunk_count": 14, "error": None, "created_at": TIMESTAMP, "updated_at": TIMESTAMP},
    ("get", "/documents"): {"count": 1, "items": [DOCUMENT_OUT]},
    ("get", "/documents/{document_id}"): DOCUMENT_OUT,
    ("post", "/conversations"): SUMMARY,
    ("get", "/conversations"): [SUMMARY],
    ("get", "/conversations/{conversation_id}"): {**SUMMARY, "messages": [
        {"id": "1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d", "role": "user", "content": QUESTION,
         "source_citations": [], "metadata": {}},
        {"id": MESSAGE, "role": "assistant", "content": ANSWER, "source_citations": [CITATION],
         "metadata": {"synthesis": {"mode": "deterministic"}}}]},
    ("get", "/memories"): [{"id": 42, "type": "preference", "text": "jawab dalam bahasa Inggris",
                            "importance": 0.8, "status": "active", "confidential": False,
                            "last_accessed_at": TIMESTAMP}],
    ("delete", "/memories"): {"removed_count": 3},
}
PARAMETERS = {
    "conversation_id": CONVERSATION, "document_id": DOCUMENT, "ingestion_id": INGESTION, "memory_id": 42,
    "collection_id": "JDIH", "user_id": "anonymous", "limit": 50, "offset": 0,
}


def _success(operation: dict) -> dict | None:
    for code in ("200", "201", "202"):
        if code in operation.get("responses", {}):
            return operation["responses"][code]
    return None


def add_examples(schema: dict) -> None:
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            body = REQUESTS.get((method, path))
            if body is not None:
                for media in operation["requestBody"]["content"].values():
                    media["example"] = body
            response = RESPONSES.get((method, path))
            success = _success(operation)
            if response is not None and success is not None:
                success["content"]["application/json"]["example"] = response
            for parameter in operation.get("parameters", []):
                if parameter["name"] in PARAMETERS:
                    parameter["example"] = PARAMETERS[parameter["name"]]
