"""An answer's dashboard figures, read once from the metadata the answer routes store."""
from __future__ import annotations

import uuid


def answer_stats(metadata: dict, source_citations: list[dict]) -> dict:
    """``route``, ``fallback_reason``, ``grounding_rate``, ``latency_ms``, ``cited_document_ids`` of one answer.

    v1 answers keep their faithfulness under ``synthesis.faithfulness``; v2 answers
    keep the grounding counts under ``v2_faithfulness.grounding``.
    """
    synthesis = metadata.get("synthesis") or {}
    faithfulness = synthesis.get("faithfulness") or {}
    grounding = ((metadata.get("v2_faithfulness") or {}).get("grounding") or {}).get("grounding_rate")
    if grounding is None:
        grounding = faithfulness.get("grounding_rate")
    trace = metadata.get("trace") or {}
    documents = []
    for citation in source_citations or []:
        try:
            documents.append(uuid.UUID(str(citation.get("document_id"))))
        except ValueError:
            continue
    return {
        "route": str(trace.get("route") or "")[:40],
        # A refusal's reason; a published partial answer (fallback_used false) is not a refusal.
        "fallback_reason": (str(faithfulness["fallback_reason"])[:64]
                            if faithfulness.get("fallback_reason") and faithfulness.get("fallback_used") else None),
        "grounding_rate": float(grounding) if isinstance(grounding, (int, float)) else None,
        "latency_ms": float(trace["latency_ms"]) if isinstance(trace.get("latency_ms"), (int, float)) else None,
        "cited_document_ids": list(dict.fromkeys(documents)),
    }
