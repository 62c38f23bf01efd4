"""``eval_answers --set quality``: the shared development sets through the real answer pipeline.

Each question (each conversation, turn by turn in one conversation) runs as a
verified administrator, so access hides nothing. A record keeps what a reader
would judge: published or declined, whether the answer text and the cited
passages carry the gold evidence, whether the gold document is cited, what
the first sentence carries, and for a follow-up whether it was answered from
the right document or, for an independent question, carried nothing over.
"""
from __future__ import annotations

import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from kernel.principal import Principal
from answering.evaluation.measures import asked_kinds, carries, first_sentence_verdicts, plain
from retrieval.facade import Scope
from retrieval.facade.quality import gold_places

EVALUATOR = Principal(subject="eval-quality", role="admin", verified=True)


@dataclass
class QualityRecord:
    id: str
    split: str
    set: str                                  # "questions" | "unanswerable" | "conversations"
    kind: str
    query: str
    answerable: bool
    decision: str                             # "published" | "declined"
    reason: str | None
    answer: str
    cited_documents: list[str]
    ms: float
    turn: int = 0
    independent: bool | None = None
    styles: list[str] = field(default_factory=list)
    answerability: dict | None = None         # the embedded answerer's signals and decision (decision.py)
    verdicts: dict = field(default_factory=dict)


def _pipeline(route: str):
    from answering.answer.pipeline import query_pipeline, query_v2_pipeline

    return query_v2_pipeline() if route == "v2" else query_pipeline()


def ask(question: str, *, route: str, conversation_id: uuid.UUID | None, collection: str | None):
    """One turn through the answer pipeline; (result, milliseconds)."""
    from answering.answer.annotated import ROUTE_FAMILY
    from answering.answer.contracts import AnswerRequest

    v2 = route == "v2"
    pipeline = _pipeline(route)
    request = AnswerRequest(
        question=question, principal=EVALUATOR, owner=EVALUATOR.subject, conversation_id=conversation_id,
        scope=Scope.from_request([collection] if collection else None, None),
        route="/query/v2" if v2 else "/query", route_family=ROUTE_FAMILY if v2 else "query")
    started = time.perf_counter()
    result = pipeline.run(pipeline.prepare(request))
    return result, (time.perf_counter() - started) * 1000


_SOURCES: dict = {}


def source_stem(document_id) -> str:
    """The stored document's file stem ("uu-14-2008-keterbukaan-informasi-publik")."""
    from retrieval.facade import document_source_identity

    if document_id not in _SOURCES:
        key = document_source_identity(principal=EVALUATOR, document_id=document_id).get("source_key", "")
        _SOURCES[document_id] = Path(key.split(":", 1)[-1]).stem
    return _SOURCES[document_id]


def _record(row: dict, set_name: str, query: str, relevant: list[dict], result, ms: float, **extra) -> QualityRecord:
    declined = result.fallback_used or not result.cited_passages
    answer = plain(result.answer)
    cited = list(dict.fromkeys(source_stem(p.document_id) for p in result.cited_passages))
    record = QualityRecord(
        id=str(row["id"]), split=row["split"], set=set_name, kind=str(row.get("kind") or "other"), query=query,
        answerable=bool(relevant), decision="declined" if declined else "published", reason=result.fallback_reason,
        answer=answer, cited_documents=cited, ms=round(ms, 1), styles=list(row.get("style") or ()),
        answerability=getattr(result, "answerability", None), **extra)
    if relevant:
        golds = gold_places(relevant)
        cited_text = "\n".join(p.text for p in result.cited_passages)
        read_text = "\n".join(p.text for p in result.passages)
        record.verdicts = {
            "answer_gold_evidence": not declined and any(carries(g.evidence, answer) for g in golds),
            "cited_gold_evidence": any(carries(g.evidence, cited_text) for g in golds),
            "read_gold_evidence": any(carries(g.evidence, read_text) for g in golds),
            "gold_document_cited": not declined and any(g.document in cited for g in golds),
        }
        asked = asked_kinds(record.kind, list(row.get("style") or ()))
        if asked and not declined:
            record.verdicts["first_sentence"] = first_sentence_verdicts(query, str(row.get("answer") or ""),
                                                                        result.answer, asked)
        elif asked:
            record.verdicts["first_sentence"] = {kind: False for kind in asked}
    return record


def run_single(row: dict, set_name: str, *, route: str, collection: str | None) -> QualityRecord:
    result, ms = ask(row["query"], route=route, conversation_id=None, collection=collection)
    return _record(row, set_name, row["query"], list(row.get("relevant") or ()), result, ms)


def run_conversation(row: dict, *, route: str, collection: str | None) -> list[QualityRecord]:
    records = []
    conversation_id = None
    for number, turn in enumerate(row["turns"]):
        result, ms = ask(turn["query"], route=route, conversation_id=conversation_id, collection=collection)
        conversation_id = result.conversation_id
        independent = turn.get("independent") if number else None
        record = _record(row, "conversations", turn["query"], list(turn.get("relevant") or ()), result, ms,
                         turn=number, independent=independent)
        record.verdicts["carried"] = bool(getattr(result, "followup_document_ids", ()))
        records.append(record)
    return records
