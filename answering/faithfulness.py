"""The v1 faithfulness gate: check each claim against the passages it cites.

The deterministic judge asks two things of a claim:
- its content words appear in the cited passages (normalised, loosely stemmed);
- every figure it states is stated there too, with the same value, scale,
  unit and year: ``871.667.219.294`` and ``Rp871,67 miliar`` support each
  other; ``Rp871,67 juta``, ``14 bulan`` for ``14 hari``, or another year do not.
Unsupported claims are dropped; when too little survives the answer is
withheld with the seed's ``fallback_reason``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Mapping

from answering.spelled import spelled_numbers
from answering.text import content_stems, normalise
from answering.types import AnswerDraft, Claim, ClaimVerdict, GateResult, JudgeFailure, JudgeItem

SUPPORT_THRESHOLD = 0.75
YES_NO_LEAD = re.compile(r"^\s*(?:ya|tidak|yes|no)\s*[.,;:]\s*", re.I)
SCALES = {"ribu": 1e3, "rb": 1e3, "juta": 1e6, "jt": 1e6, "miliar": 1e9, "milyar": 1e9, "triliun": 1e12,
          "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
UNITS = {
    "hari": "day", "days": "day", "day": "day", "bulan": "month", "months": "month", "month": "month",
    "tahun": "year", "years": "year", "year": "year", "minggu": "week", "pekan": "week", "weeks": "week",
    "jam": "hour", "hours": "hour", "menit": "minute", "minutes": "minute",
    "%": "percent", "persen": "percent", "percent": "percent",
    "orang": "person", "jiwa": "person", "people": "person", "kali": "times", "times": "times",
    "meter": "m", "m": "m", "km": "km", "kilometer": "km", "kg": "kg", "kilogram": "kg", "ton": "ton", "hektare": "ha", "ha": "ha",
}
# Words in a spelled-out parenthesis ("14 (empat belas) hari") are skipped to reach the unit.
_NUMBER = re.compile(
    r"(?<![\d.,])(?P<num>\d{1,3}(?:\.\d{3})+(?:,\d+)?|\d+(?:[.,]\d+)?)"
    r"(?P<tail>(?:[ \t]*\([a-z \t]{1,60}\))?[ \t]*(?P<word>%|[A-Za-z]+)?)"
)


@dataclass(frozen=True)
class Quantity:
    value: float
    tolerance: float
    unit: str | None


def _parse_number(raw: str) -> tuple[float, float]:
    """Value and half-unit tolerance of a number as written (Indonesian separators)."""
    if re.fullmatch(r"\d{1,3}(?:\.\d{3})+(?:,\d+)?", raw):
        whole, _, decimals = raw.partition(",")
        digits = whole.replace(".", "") + ("." + decimals if decimals else "")
    elif "," in raw:
        digits = raw.replace(",", ".")
    else:
        digits = raw
    decimals = len(digits.split(".")[1]) if "." in digits else 0
    return float(digits), 0.5 * 10 ** (-decimals)


def quantities(text: str) -> list[Quantity]:
    found = []
    text = normalise(text)
    for match in _NUMBER.finditer(text):
        value, tolerance = _parse_number(match.group("num"))
        word = (match.group("word") or "").lower()
        if word in SCALES:
            value, tolerance = value * SCALES[word], tolerance * SCALES[word]
            rest = text[match.end():match.end() + 20].split()
            word = rest[0] if rest else ""
        found.append(Quantity(value=value, tolerance=tolerance, unit=UNITS.get(word)))
    # "berusia tujuh sampai dengan lima belas tahun": a number spelled without digits, before its unit (spelled.py).
    found += [Quantity(value=float(value), tolerance=0.5, unit=UNITS[unit])
              for value, unit in spelled_numbers(text) if unit in UNITS]
    return found


def quantity_supported(claimed: Quantity, stated: Iterable[Quantity]) -> bool:
    for candidate in stated:
        if abs(candidate.value - claimed.value) <= max(claimed.tolerance, candidate.tolerance) + 1e-9:
            if claimed.unit is None or candidate.unit is None or claimed.unit == candidate.unit:
                return True
    return False


def judge_claim(claim: Claim, passages: Mapping[str, str]) -> ClaimVerdict:
    """Deterministic support check of one claim against its cited passages."""
    if claim.restates:
        return ClaimVerdict(claim, True, claim.restates)
    cited = [passages[key] for key in claim.citation_keys if key in passages]
    if not cited:
        return ClaimVerdict(claim, False, "no_citation")
    evidence = "\n".join(cited)
    # A direct answer's opening "Ya." / "Tidak." is the answer's reading of the clause that follows: the
    # clause is what the passage must support.
    words = content_stems(YES_NO_LEAD.sub("", claim.text, count=1))
    if words:
        coverage = len(words & content_stems(evidence)) / len(words)
        if coverage < SUPPORT_THRESHOLD:
            return ClaimVerdict(claim, False, "no_support")
    stated = quantities(evidence)
    if not all(quantity_supported(q, stated) for q in quantities(claim.text)):
        return ClaimVerdict(claim, False, "number_mismatch")
    return ClaimVerdict(claim, True, "supported")


# A list item or a lead-in keeps its own ending: "a. mengundurkan diri dari Jabatan;", "b. …; dan", "… sebagai
# berikut:" (a full stop after them read ";." and ":.").
_OWN_END = re.compile(r"(?:[;:,]|[;,]\s*(?:dan|atau|dan/atau|serta))$", re.I)


def _sentence_end(sentence: str) -> tuple[str, str]:
    """The claim's body and the punctuation that closes it after its labels."""
    if sentence and sentence[-1] in ".!?":
        return sentence[:-1], sentence[-1]
    if own := _OWN_END.search(sentence):
        if own.group(0)[-1] in ";:,":
            return sentence[:own.start()].rstrip(), own.group(0)     # "berisikan :" reads "berisikan [P1]:"
        return sentence, ""
    return sentence, "."


def render_answer(framing: str, claims: Iterable[Claim]) -> str:
    """The published text: framing, then each claim followed by its labels.

    Claims flow as one paragraph unless the embedded answerer laid them out: a claim with a ``heading``
    starts a new block under that heading (in bold), a ``list_item`` claim is a Markdown list item.
    """
    out = framing.strip()
    for claim in claims:
        labels = " ".join(f"[{key}]" for key in claim.citation_keys if key not in ("memory", "history"))
        body, end = _sentence_end(claim.text.rstrip())
        text = f"{body} {labels}{end}" if labels else f"{body}{end}"
        if claim.heading:
            out += f"\n\n**{claim.heading}**"
        if claim.layout == "list_item":
            out += f"\n- {text}"
        elif claim.heading:
            out += f"\n{text}"
        else:
            out += f" {text}" if out else text
    return out.strip()


WITHHELD_TEXT = {
    "id": "Maaf, jawaban tidak dapat diverifikasi sepenuhnya terhadap sumber yang tersedia, sehingga tidak ditampilkan. "
          "Silakan persempit pertanyaan atau tanyakan satu bagian saja.",
    "en": "Sorry, the answer could not be fully verified against the available sources, so it is not shown. "
          "Please narrow the question or ask about one part of it.",
}
PARTIAL_NOTE = {
    "id": "(Sebagian isi jawaban dihilangkan karena tidak dapat diverifikasi terhadap sumber.)",
    "en": "(Part of the answer was omitted because it could not be verified against the sources.)",
}


def claim_verdicts(claims: tuple[Claim, ...], passages: Mapping[str, str], judge=None,
                   batch_size: int = 8) -> tuple[ClaimVerdict, ...]:
    """Each claim's verdict: the deterministic rule, or a (model) ``Judge`` in batches.

    With a judge, a failed batch or an item without a usable verdict is not
    supported (reason: the failure's reason, or ``unparseable``): a failed or
    malformed judge never passes a claim.
    """
    if judge is None:
        return tuple(judge_claim(claim, passages) for claim in claims)
    verdicts: dict[int, ClaimVerdict] = {}
    items = []
    for index, claim in enumerate(claims):
        cited = {key: passages[key] for key in claim.citation_keys if key in passages}
        if claim.restates:
            verdicts[index] = ClaimVerdict(claim, True, claim.restates)
        elif not cited:
            verdicts[index] = ClaimVerdict(claim, False, "no_citation")
        else:
            items.append(JudgeItem(index=index, text=claim.text, context="", passages=cited))
    for start in range(0, len(items), batch_size):
        batch = items[start:start + batch_size]
        try:
            results, failure = judge.judge_batch(batch), None
        except JudgeFailure as exc:
            results, failure = {}, exc.reason
        for item in batch:
            verdict = results.get(item.index)
            claim = claims[item.index]
            if verdict == "supported":
                verdicts[item.index] = ClaimVerdict(claim, True, "supported")
            elif verdict == "unsupported":
                verdicts[item.index] = ClaimVerdict(claim, False, "no_support")
            else:
                verdicts[item.index] = ClaimVerdict(claim, False, failure or "unparseable")
    return tuple(verdicts[index] for index in range(len(claims)))


def faithfulness_gate(draft: AnswerDraft, passages: Mapping[str, str], *, partial_answers: bool,
                      judge=None, batch_size: int = 8) -> GateResult:
    """Drop unsupported claims; withhold the answer when too little survives."""
    verdicts = claim_verdicts(draft.claims, passages, judge, batch_size)
    kept = tuple(v.claim for v in verdicts if v.supported)
    checked = [v for v in verdicts if v.reason not in ("memory", "history")]
    supported = sum(1 for v in checked if v.supported)
    dropped = len(verdicts) - len(kept)
    source_kept = [claim for claim in kept if not claim.restates]
    language = draft.language if draft.language in WITHHELD_TEXT else "id"
    if dropped == 0:
        return GateResult(kept, verdicts, render_answer(draft.framing, kept), False, None, 0, supported, len(checked))
    if partial_answers and source_kept:
        answer = render_answer(draft.framing, kept) + " " + PARTIAL_NOTE[language]
        return GateResult(kept, verdicts, answer, False, "partial_answer", dropped, supported, len(checked))
    if source_kept and supported * 2 > len(checked):
        # Most of the answer holds: publish what survived, without the dropped claims.
        return GateResult(kept, verdicts, render_answer(draft.framing, kept), False, None, dropped, supported, len(checked))
    return GateResult((), verdicts, WITHHELD_TEXT[language], True, "coverage_incomplete", dropped, supported, len(checked))
