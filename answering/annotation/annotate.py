"""Annotate a v2 answer: a verdict per claim, never a removal; and the report of those verdicts.

Verdicts (the seed's table):
- a fact segment citing nothing is ``uncited``;
- a segment whose cites are all conversation keys is ``from_conversation``;
- cited keys the agent was not shown are invalid (``invalid_citation_keys``);
  when every passage key is invalid the segment is ``invalid_citation``;
- otherwise the judge checks it against its valid keys only, in batches:
  "supported" is ``supported``; no usable verdict is ``unverified``/unparseable;
  "unsupported" is rechecked alone: confirmed is ``unsupported``, "supported"
  is ``unverified``/disputed, no usable verdict is ``unverified``/unparseable;
- a JudgeFailure makes the items of that call ``unverified`` with its reason.
  ``deadline`` and ``budget`` end judging (no time or calls are left), so every
  item not yet judged takes that reason; batches that returned keep their
  verdicts. ``judge_unavailable`` fails only that call.
Framing segments that cite nothing go to one framing check per answer; the
checkable ones become ``uncited`` claims (kind stays "framing"), and all of them
do when the check fails. A framing segment that cites something is judged as a
fact (the deterministic judge checks a framing line that names its source,
"Berdasarkan … Pasal 8:", against the cited passage's identity instead).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Collection, Mapping, Sequence

from answering.judging import SUPPORTED, UNSUPPORTED, FramingChecker, Judge, JudgeFailure, JudgeItem
from answering.annotation.rendering import segment_context
from answering.annotation.segments import unlocated_total
from answering.annotation.segments import Rendered, Segment, Span

MECHANISM = "annotate-v2"
VERDICTS = ("supported", "unsupported", "unverified", "uncited", "invalid_citation", "from_conversation")
UNVERIFIED_REASONS = ("deadline", "budget", "judge_unavailable", "unparseable", "disputed")
CONVERSATION_KEYS = frozenset({"memory", "conversation"})
# Failures after which no judge call can succeed in this request.
ENDS_JUDGING = frozenset({"deadline", "budget"})


@dataclass(frozen=True)
class ClaimAnnotation:
    index: int                                  # the segment's index in the answer
    segment: Segment
    verdict: str                                # one of VERDICTS
    unverified_reason: str | None = None        # one of UNVERIFIED_REASONS, only when unverified
    valid_keys: tuple[str, ...] = ()
    invalid_citation_keys: tuple[str, ...] = ()

    @property
    def citation_keys(self) -> tuple[str, ...]:
        return self.segment.cites


@dataclass(frozen=True)
class Annotation:
    claims: tuple[ClaimAnnotation, ...]         # in answer order
    framing: tuple[int, ...]                    # indexes of segments that stayed framing
    judge_status: str                           # "complete" | "unavailable" | "skipped"
    framing_check: str                          # "complete" | "unavailable" | "skipped"
    segments: tuple[Segment, ...] = ()          # the whole answer, claims and framing alike

    @classmethod
    def for_refusal(cls) -> "Annotation":
        """A refusal or notice: nothing to annotate."""
        return cls(claims=(), framing=(), judge_status="skipped", framing_check="skipped")

    def verdicts_by_index(self) -> dict[int, str]:
        return {claim.index: claim.verdict for claim in self.claims}

    def count(self, verdict: str) -> int:
        return sum(1 for claim in self.claims if claim.verdict == verdict)


def annotate(
    segments: Sequence[Segment],
    *,
    shown: Mapping[str, str],
    question: str,
    judge: Judge,
    framing_checker: FramingChecker,
    conversation_keys: Collection[str] = CONVERSATION_KEYS,
    batch_size: int = 8,
) -> Annotation:
    """Give every segment a verdict or keep it as framing. ``shown``: citation key -> passage text."""
    claims: dict[int, ClaimAnnotation] = {}
    to_judge: list[JudgeItem] = []
    framing_candidates: list[tuple[int, str]] = []
    for index, segment in enumerate(segments):
        passage_keys = [key for key in segment.cites if key not in conversation_keys]
        valid = tuple(key for key in passage_keys if key in shown)
        invalid = tuple(key for key in passage_keys if key not in shown)
        if not segment.cites:
            if segment.kind == "framing":
                framing_candidates.append((index, segment.text))
            else:
                claims[index] = ClaimAnnotation(index, segment, "uncited")
        elif not passage_keys:
            claims[index] = ClaimAnnotation(index, segment, "from_conversation")
        elif not valid:
            claims[index] = ClaimAnnotation(index, segment, "invalid_citation", invalid_citation_keys=invalid)
        else:
            claims[index] = ClaimAnnotation(index, segment, "", valid_keys=valid, invalid_citation_keys=invalid)
            to_judge.append(JudgeItem(index, segment.text, segment_context(segments, index), {k: shown[k] for k in valid},
                                      segment.kind))

    checkable, framing_check = _check_framing(question, framing_candidates, framing_checker)
    for index, _ in framing_candidates:
        if index in checkable:
            claims[index] = ClaimAnnotation(index, segments[index], "uncited")

    outcomes = _judge_all(to_judge, judge, batch_size)
    for index, (verdict, reason) in outcomes.items():
        claim = claims[index]
        claims[index] = ClaimAnnotation(index, claim.segment, verdict, reason, claim.valid_keys, claim.invalid_citation_keys)

    if not to_judge:
        judge_status = "skipped"
    elif any(verdict == "unverified" for verdict, _ in outcomes.values()):
        judge_status = "unavailable"
    else:
        judge_status = "complete"
    return Annotation(
        claims=tuple(claims[index] for index in sorted(claims)),
        framing=tuple(index for index, _ in framing_candidates if index not in checkable),
        judge_status=judge_status,
        framing_check=framing_check,
        segments=tuple(segments),
    )


def _check_framing(question: str, candidates: list[tuple[int, str]], checker: FramingChecker) -> tuple[set[int], str]:
    """The indexes to show as uncited claims, and the framing_check status."""
    if not candidates:
        return set(), "skipped"
    indexes = {index for index, _ in candidates}
    try:
        return set(checker.check(question, list(candidates))) & indexes, "complete"
    except JudgeFailure:
        return indexes, "unavailable"


def _judge_all(items: list[JudgeItem], judge: Judge, batch_size: int) -> dict[int, tuple[str, str | None]]:
    """Verdict and unverified reason per judged segment index."""
    outcomes: dict[int, tuple[str, str | None]] = {}
    ended_by: str | None = None
    for start in range(0, len(items), max(1, batch_size)):
        batch = items[start:start + max(1, batch_size)]
        if ended_by:
            outcomes.update({item.index: ("unverified", ended_by) for item in batch})
            continue
        try:
            verdicts = judge.judge_batch(list(batch))
        except JudgeFailure as failure:
            outcomes.update({item.index: ("unverified", failure.reason) for item in batch})
            ended_by = failure.reason if failure.reason in ENDS_JUDGING else None
            continue
        # Record the whole batch before any recheck, so a failed recheck cannot cost its neighbours their verdicts.
        rejected = []
        for item in batch:
            verdict = verdicts.get(item.index)
            if verdict == SUPPORTED:
                outcomes[item.index] = ("supported", None)
            elif verdict == UNSUPPORTED:
                rejected.append(item)
            else:
                outcomes[item.index] = ("unverified", "unparseable")
        for item in rejected:
            if ended_by:
                outcomes[item.index] = ("unverified", ended_by)
                continue
            try:
                outcomes[item.index] = _confirmed(judge.recheck(item))
            except JudgeFailure as failure:
                outcomes[item.index] = ("unverified", failure.reason)
                ended_by = failure.reason if failure.reason in ENDS_JUDGING else None
    return outcomes


def _confirmed(recheck_verdict: str | None) -> tuple[str, str | None]:
    if recheck_verdict == UNSUPPORTED:
        return "unsupported", None
    if recheck_verdict == SUPPORTED:
        return "unverified", "disputed"
    return "unverified", "unparseable"


# --- the report ------------------------------------------------------------------------------


def grounding(annotation: Annotation) -> dict:
    """v1's claim grounding rate from v2's verdicts; from_conversation is checked against no source."""
    supported = annotation.count("supported")
    total = len(annotation.claims) - annotation.count("from_conversation")
    return {"claims_supported": supported, "claims_total": total,
            "grounding_rate": round(supported / total, 4) if total else None}


def faithfulness_block(annotation: Annotation, rendered: Rendered | None, answer: str, *, checked: bool | None = None) -> dict:
    """The ``faithfulness`` object. ``rendered`` is None for a refusal or notice (no segments).

    ``answer`` is the published text: the rendering, possibly with a notice appended.
    ``claims_total`` here counts every claim (the verdict counts sum to it);
    ``grounding.claims_total`` leaves out from_conversation.
    """
    if rendered is not None and not answer.startswith(rendered.answer):
        raise ValueError("answer must start with the rendered segments, or the offsets do not apply")
    unlocated = rendered.unlocated_total(answer) if rendered is not None else unlocated_total(answer, ())
    supported = annotation.count("supported")
    if annotation.claims and supported == len(annotation.claims) and unlocated == 0:
        verification = "full"
    else:
        verification = "partial" if supported else "none"
    block = {
        "mechanism": MECHANISM,
        "judge_status": annotation.judge_status,
        "framing_check": annotation.framing_check,
        "claims_total": len(annotation.claims),
        **{verdict: annotation.count(verdict) for verdict in VERDICTS},
        "unverified_reasons": {
            reason: sum(1 for claim in annotation.claims if claim.unverified_reason == reason)
            for reason in UNVERIFIED_REASONS
        },
        "framing_total": len(annotation.framing),
        "unlocated_total": unlocated,
        "verification": verification,
        "grounding": grounding(annotation),
    }
    if checked is False:
        block["checked"] = False    # context_budget_exhausted: nothing was checked, which is not a failed check
    return block


def claims_json(annotation: Annotation, spans: Sequence[Span], citation_for_key: Callable[[str], dict | None]) -> list[dict]:
    """The response's ``claims``: text, citations for valid keys, verdict, kind, layout, offsets."""
    span_of = {span.index: span for span in spans}
    objects = []
    for claim in annotation.claims:
        citations = [{"citation_key": key, "citation": citation}
                     for key in claim.valid_keys if (citation := citation_for_key(key)) is not None]
        objects.append({"text": claim.segment.text, "citation_keys": list(claim.citation_keys), "citations": citations,
                        **_claim_marks(claim, span_of[claim.index])})
    return objects


def framing_json(annotation: Annotation, spans: Sequence[Span]) -> list[dict]:
    """The response's ``framing``: text, layout and offsets of each segment that stayed framing."""
    span_of = {span.index: span for span in spans}
    return [{"text": annotation.segments[index].text, **_framing_marks(annotation.segments[index], span_of[index])}
            for index in annotation.framing]


def annotations_frame(
    annotation: Annotation,
    rendered: Rendered | None,
    answer: str,
    *,
    fallback_used: bool,
    fallback_reason: str | None,
    checked: bool | None = None,
) -> dict:
    """The SSE ``annotations`` frame: the faithfulness counts, the fallback, and marks without text."""
    span_of = {span.index: span for span in (rendered.spans if rendered else ())}
    return {
        **faithfulness_block(annotation, rendered, answer, checked=checked),
        "fallback_used": fallback_used,
        "fallback_reason": fallback_reason,
        "claims": [{"citation_keys": list(claim.citation_keys), **_claim_marks(claim, span_of[claim.index])}
                   for claim in annotation.claims],
        "framing": [_framing_marks(annotation.segments[index], span_of[index]) for index in annotation.framing],
    }


def _claim_marks(claim: ClaimAnnotation, span: Span) -> dict:
    return {"verdict": claim.verdict, "unverified_reason": claim.unverified_reason,
            "invalid_citation_keys": list(claim.invalid_citation_keys),
            "kind": claim.segment.kind, "layout": claim.segment.layout, **span.offsets()}


def _framing_marks(segment: Segment, span: Span) -> dict:
    return {"layout": segment.layout, **span.offsets()}
