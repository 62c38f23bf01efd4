"""The project's own answer sets in ``bench/`` (``eval_answers --set bench``): fit figures.

Each question runs through the real answer pipeline (``/query`` or
``/query/v2``) as a verified administrator, so access never hides a document.
A question set is JSONL; an answerable row names its gold ``source`` (a
substring of the document's source key or title), ``pasal`` and an
``evidence`` sentence (optionally a ``figure``); an unanswerable row has no
``evidence`` and gives the ``reason`` the corpus cannot answer it.

"Carries the evidence" means at least EVIDENCE_COVERAGE of the evidence's
content words (the gate's own stems) are in the text: the evidence is copied
from the regulation, so an answer or passage that states it shares its words.
"""
from __future__ import annotations

import json
import re
import statistics
import time
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path

from kernel.jsonl import jsonl_read
from kernel.principal import Principal
from answering.text import content_stems, normalise
from answering.extractive.synthesis import synthesise
from retrieval.facade import Scope

EVALUATOR = Principal(subject="eval-answers", role="admin", verified=True)
EVIDENCE_COVERAGE = 0.8
_LABEL = re.compile(r"\s*\[(?:chunk:[0-9a-f-]{36}|[PM]\d+)\]")
POINTER_PREFIX = "Dokumen yang tersedia memuat"


@dataclass(frozen=True)
class EvalQuestion:
    id: str
    question: str
    kind: str
    source: str | None = None
    pasal: str | None = None
    evidence: str | None = None
    figure: str | None = None
    reason: str | None = None

    @property
    def answerable(self) -> bool:
        return bool(self.evidence)


@dataclass
class EvalRecord:
    id: str
    question: str
    kind: str
    answerable: bool
    decision: str                       # "published" | "declined"
    reason: str | None
    answer: str
    cited: list[str]                    # legal references (or titles) of the cited passages
    grounding_rate: float | None
    ms: float
    verdicts: dict = field(default_factory=dict)


def _eval_question(row: dict, number: int) -> EvalQuestion:
    return EvalQuestion(
        id=str(row.get("id", number)), question=row["question"], kind=row.get("kind", "other"),
        source=row.get("source"), pasal=row.get("pasal"), evidence=row.get("evidence"),
        figure=row.get("figure"), reason=row.get("reason"))


def load_set(path: Path) -> list[EvalQuestion]:
    return jsonl_read(path, _eval_question, what="question row")


def carries(evidence: str, text: str) -> bool:
    wanted = content_stems(evidence)
    return bool(wanted) and len(wanted & content_stems(text)) / len(wanted) >= EVIDENCE_COVERAGE


def figure_present(figure: str, text: str) -> bool:
    compact = re.sub(r"\s+", "", normalise(text))
    return re.sub(r"\s+", "", normalise(figure)) in compact


def run_question(question: EvalQuestion, *, route: str, collection: str | None) -> EvalRecord:
    from answering.answer.annotated import ROUTE_FAMILY
    from answering.answer.contracts import AnswerRequest
    from answering.answer.pipeline import query_pipeline, query_v2_pipeline

    v2 = route == "v2"
    pipeline = query_v2_pipeline() if v2 else query_pipeline()
    request = AnswerRequest(
        question=question.question, principal=EVALUATOR, owner=EVALUATOR.subject, conversation_id=None,
        scope=Scope.from_request([collection] if collection else None, None),
        route="/query/v2" if v2 else "/query", route_family=ROUTE_FAMILY if v2 else "query")
    started = time.perf_counter()
    result = pipeline.run(pipeline.prepare(request))
    ms = (time.perf_counter() - started) * 1000
    # v2 shows "not found" as framing, not as a refusal: no claim published is a decline too.
    declined = result.fallback_used or not result.cited_passages
    answer = _LABEL.sub("", result.answer)
    record = EvalRecord(
        id=question.id, question=question.question, kind=question.kind, answerable=question.answerable,
        decision="declined" if declined else "published", reason=result.fallback_reason, answer=answer,
        cited=[p.legal_reference or p.document_title for p in result.cited_passages],
        grounding_rate=result.grounding_rate, ms=ms)
    cited_text = "\n".join(p.text for p in result.cited_passages)
    # The deterministic draft over the same evidence says which answerability checks held (thresholds are
    # chosen from these figures; on the model path it describes the extractive reading of that evidence).
    draft = synthesise(question.question, result.passages)
    checks = {"term_coverage": draft.term_coverage, "unmet": list(draft.unmet)}
    if question.answerable:
        record.verdicts = {
            "cited_gold_evidence": carries(question.evidence, cited_text),
            "answer_gold_evidence": not declined and carries(question.evidence, answer),
            **checks,
            "cited_gold_source": any(question.source.lower() in (p.citation.get("document_title", "") + " "
                                                                 + _source_key(p.document_id)).lower()
                                     for p in result.cited_passages) if question.source else None,
        }
        if question.figure:
            record.verdicts["figure_present"] = not declined and figure_present(question.figure, answer)
    else:
        record.verdicts = {"pointer": POINTER_PREFIX in result.answer, **checks}
    return record


_SOURCE_KEYS: dict = {}


def _source_key(document_id) -> str:
    from retrieval.facade import document_source_identity

    if document_id not in _SOURCE_KEYS:
        row = document_source_identity(principal=EVALUATOR, document_id=document_id)
        _SOURCE_KEYS[document_id] = f"{row.get('source_key', '')} {row.get('source_name', '')}"
    return _SOURCE_KEYS[document_id]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def _share(records: list[EvalRecord], test) -> str:
    hits = sum(1 for r in records if test(r))
    return f"{hits}/{len(records)} ({hits / len(records):.2f})" if records else "-"


def summary_lines(records: list[EvalRecord]) -> list[str]:
    """Per kind, then all: decisions, fallback reasons, evidence verdicts, grounding, latency."""
    groups: dict[str, list[EvalRecord]] = defaultdict(list)
    for record in records:
        groups[("answerable" if record.answerable else "unanswerable") + ":" + record.kind].append(record)
    for record in records:
        groups["ALL " + ("answerable" if record.answerable else "unanswerable")].append(record)
    lines = []
    for name in sorted(groups, key=lambda n: (n.startswith("ALL"), n)):
        rows = groups[name]
        reasons: dict[str, int] = defaultdict(int)
        for row in rows:
            reasons[row.reason or "none"] += 1
        rates = [r.grounding_rate for r in rows if r.grounding_rate is not None]
        ms = [r.ms for r in rows]
        parts = [f"{name} (n={len(rows)})",
                 f"  published {_share(rows, lambda r: r.decision == 'published')}  "
                 f"declined {_share(rows, lambda r: r.decision == 'declined')}",
                 "  fallback_reason " + ", ".join(f"{k}={v}" for k, v in sorted(reasons.items()))]
        if rows[0].answerable:
            parts.append(f"  cited passages carry gold evidence {_share(rows, lambda r: r.verdicts['cited_gold_evidence'])}"
                         f"  answer text carries it {_share(rows, lambda r: r.verdicts['answer_gold_evidence'])}"
                         f"  gold source cited {_share(rows, lambda r: r.verdicts.get('cited_gold_source'))}")
            figures = [r for r in rows if "figure_present" in r.verdicts]
            if figures:
                parts.append(f"  figure present {_share(figures, lambda r: r.verdicts['figure_present'])}")
        else:
            parts.append(f"  pointer to nearest evidence {_share(rows, lambda r: r.verdicts.get('pointer'))}")
        coverage = [r.verdicts.get("term_coverage") for r in rows if r.verdicts.get("term_coverage") is not None]
        if coverage:
            parts.append(f"  distinctive-term coverage p10 {percentile(coverage, 0.1):.2f}  p50 "
                         f"{percentile(coverage, 0.5):.2f}  p90 {percentile(coverage, 0.9):.2f} (n={len(coverage)})")
        unmet: dict[str, int] = defaultdict(int)
        for row in rows:
            for check in row.verdicts.get("unmet") or ():
                unmet[check.split(" ")[0]] += 1
        if unmet:
            parts.append("  unmet checks " + ", ".join(f"{k}={v}" for k, v in sorted(unmet.items())))
        parts.append(f"  mean grounding {statistics.fmean(rates):.3f} (n={len(rates)})" if rates else "  mean grounding -")
        parts.append(f"  latency p50 {percentile(ms, 0.5):.0f} ms  p95 {percentile(ms, 0.95):.0f} ms")
        lines.extend(parts)
    return lines


def record_json(record: EvalRecord) -> str:
    return json.dumps(asdict(record), ensure_ascii=False)
