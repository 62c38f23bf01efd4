"""Data carried between the answer pipeline's steps."""
from __future__ import annotations

from dataclasses import dataclass, field, fields

from retrieval.facade import ChunkHit

LEGAL_RELATION_ORIGIN = "legal_relation"     # a passage read as the clause deciding a document's legal status


@dataclass(frozen=True)
class Passage(ChunkHit):
    """A retrieved chunk (the facade's ``ChunkHit``) as the synthesiser sees it: where it came from, its key."""

    origin: str = "search"      # "anchor" | "closing" | "followup" | "search" | "agent" | "tool" | LEGAL_RELATION_ORIGIN
    key: str | None = None      # "P1", "P2", … once shown to a model (or on /query/v2)
    # What an indexed regulation says about this passage's document (/query/v2 with
    # ACEH_RAG_LEGAL_RELATIONS__SURFACE_ENABLED only; None leaves the identity as it was).
    legal_status: str | None = None
    legal_status_basis: str | None = None

    @property
    def label(self) -> str:
        return self.key or f"chunk:{self.chunk_id}"

    @property
    def evidence(self) -> str:
        """What a model judge reads: the identity line, then the passage."""
        return f"{self.identity}\n{self.text}"

    @property
    def identity(self) -> str:
        """The document identity shown with the passage to the agent and the judge."""
        parts = [self.document_title]
        if self.legal_reference:
            parts.append(self.legal_reference)
        if self.section_path:
            parts.append(" > ".join(self.section_path))
        if self.legal_status:
            basis = f" ({self.legal_status_basis})" if self.legal_status_basis else ""
            parts.append(f"legal_status: {self.legal_status}{basis}")
        return " | ".join(parts)


@dataclass(frozen=True)
class Claim:
    text: str                           # the sentence without its labels
    citation_keys: tuple[str, ...]      # e.g. ("chunk:<uuid>",), ("memory",) or ("history",)
    memory_id: int | None = None
    turn_index: int | None = None       # the earlier exchange (zero-based) a history claim restates
    # How the embedded answerer lays the claim out: "paragraph" or "list_item" (an ayat, a huruf), and the
    # heading ("Pasal 11 — Peraturan …") printed before it when it opens a new article's quotation.
    layout: str = "paragraph"
    heading: str | None = None

    @property
    def is_memory(self) -> bool:
        return self.memory_id is not None

    @property
    def is_history(self) -> bool:
        return self.turn_index is not None

    @property
    def restates(self) -> str | None:
        """"memory" or "history": a claim verified against no source, in neither grounding count (seed)."""
        return "memory" if self.is_memory else "history" if self.is_history else None


@dataclass(frozen=True)
class AnswerDraft:
    """What a synthesiser produces; the deterministic and model paths share it."""

    framing: str                        # text before the claims (no facts)
    claims: tuple[Claim, ...]
    no_answer: bool = False
    language: str = "id"
    mode: str = "deterministic-extractive"
    pointer: str | None = None          # a refusal's "Dokumen yang tersedia memuat …"
    unmet: tuple[str, ...] = ()         # the answerability constraints a refusal did not meet
    term_coverage: float | None = None  # share of the question's distinctive terms the cited passages carry
    # The embedded answerer's answerability decision: its signals and P(answerable) (decision.py).
    signals: dict | None = None
    confidence: float | None = None


@dataclass(frozen=True)
class ClaimVerdict:
    claim: Claim
    supported: bool
    reason: str                          # "supported" | "no_support" | "number_mismatch" | "no_citation" | "memory"


@dataclass(frozen=True)
class GateResult:
    kept: tuple[Claim, ...]
    verdicts: tuple[ClaimVerdict, ...]
    answer: str
    fallback_used: bool
    fallback_reason: str | None
    dropped: int
    claims_supported: int
    claims_total: int

    @property
    def grounding_rate(self) -> float | None:
        return round(self.claims_supported / self.claims_total, 4) if self.claims_total else None


@dataclass(frozen=True)
class GuardDecision:
    blocked: bool
    categories: tuple[str, ...] = ()
    stage: str | None = None             # "question" | "answer"
    mechanism: str = "deterministic-rules-v1"

    @property
    def action(self) -> str:
        return "blocked" if self.blocked else "allowed"


@dataclass
class ToolCall:
    """One real step the pipeline ran, reported as tool.started/tool.finished."""

    call: str
    tool: str
    arguments: dict
    ok: bool | None = None
    ms: float | None = None
    summary: dict = field(default_factory=dict)
    # A private call (create_artifact) shows only call, tool, ok and ms to every observer: frames, the trace,
    # the audit and the stored message never carry its arguments or result (seed).
    private: bool = False

    def started_frame(self) -> dict:
        if self.private:
            return {"call": self.call, "tool": self.tool}
        return {"call": self.call, "tool": self.tool, "arguments": self.arguments}

    def finished_frame(self) -> dict:
        finished = {"call": self.call, "tool": self.tool, "ok": bool(self.ok), "ms": round(self.ms or 0.0, 1)}
        return finished if self.private else {**finished, "result": self.summary}

    def trace_frame(self) -> dict:
        """The call as the stream's ``trace`` frame and the audit list it."""
        return self.finished_frame() if self.private else {**self.finished_frame(), "arguments": self.arguments}


def passage_from_hit(hit, origin: str) -> Passage:
    """A retrieval ``ChunkHit`` (``retrieval.facade``) as the passage an answer reads and cites."""
    values = {f.name: getattr(hit, f.name) for f in fields(ChunkHit)}
    return Passage(**{**values, "score": float(hit.score)}, origin=origin)
# --- what a judge is given and how it fails (answering.judging) --------------------------------

JUDGE_FAILURE_REASONS = ("deadline", "budget", "judge_unavailable")


@dataclass(frozen=True)
class JudgeItem:
    index: int                  # the segment's index in the answer
    text: str
    context: str                # its heading, list lead-in, table header; never the question
    passages: dict[str, str]    # valid citation key -> passage text, document identity line included
    kind: str = "fact"          # the segment's kind: a framing line that names its source is checked as one


class JudgeFailure(Exception):
    """The whole call failed; ``reason`` is one of JUDGE_FAILURE_REASONS."""

    def __init__(self, reason: str, detail: str = ""):
        if reason not in JUDGE_FAILURE_REASONS:
            raise ValueError(f"unknown judge failure reason {reason!r}")
        super().__init__(detail or reason)
        self.reason = reason
