"""The deterministic extractive synthesiser (the embedded default).

It answers with sentences taken from the best passages, each labelled with
the chunk it came from (``[chunk:<uuid>]``). Figure questions prefer the
sentences that carry a figure; a question with no relevant passage gets the
fixed no-answer text. The model-backed synthesiser produces the same
``AnswerDraft``, so the gate, guard, persistence and SSE never branch.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from answering.faithfulness import content_stems
from answering.types import AnswerDraft, Claim, Passage

NO_ANSWER = {
    "id": "Maaf, saya tidak menemukan informasi yang relevan dalam dokumen yang tersedia untuk menjawab pertanyaan tersebut.",
    "en": "Sorry, I could not find relevant information in the available documents to answer that question.",
}
FRAMING = {"id": "Berdasarkan {source}:", "en": "According to {source}:"}
FIGURE_QUESTION = re.compile(
    r"\b(berapa|brp|jumlah|besaran|besarnya|nilai|tarif|biaya|total|persen|persentase|how (?:much|many)|amount|rate)\b", re.I
)
ENGLISH_HINTS = re.compile(r"\b(what|which|who|how|when|where|does|is|are|the|of|according|please)\b", re.I)
INDONESIAN_HINTS = re.compile(r"\b(apa|apakah|siapa|berapa|bagaimana|kapan|dimana|yang|dan|dengan|untuk|dalam|tentang)\b", re.I)
# Inside a paragraph a sentence ends at . ; or : before a capital or an ayat/item marker.
_SENTENCE_END = re.compile(r"(?<=[.;:])\s+(?=[A-Z(\"']|[a-z]\.\s)")
_ITEM_START = re.compile(r"^(\(\d+\)|[a-z]\.|\d+\.)\s")
_HEADING = re.compile(r"^(#{1,6}\s|(BAB|Bagian|Paragraf|Pasal)\s+\S+\s*$|[A-Z0-9 ,./()\-]{3,80}$)")
_HAS_NUMBER = re.compile(r"\d")
MAX_CLAIMS = 4
MAX_ANSWER_CHARS = 900
MIN_SENTENCE_CHARS = 25


@dataclass(frozen=True)
class Candidate:
    text: str
    passage: Passage
    passage_rank: int
    position: int
    score: float


def detect_language(question: str, preferred: str | None = None) -> str:
    if preferred in ("id", "en"):
        return preferred
    english = len(ENGLISH_HINTS.findall(question))
    indonesian = len(INDONESIAN_HINTS.findall(question))
    return "en" if english > indonesian else "id"


def split_sentences(text: str) -> list[str]:
    """Answer units: table rows whole, headings dropped, prose split into sentences and ayat."""
    units: list[str] = []
    paragraph: list[str] = []

    def flush() -> None:
        if paragraph:
            units.extend(_SENTENCE_END.split(" ".join(paragraph)))
            paragraph.clear()

    for raw in text.splitlines():
        line = " ".join(raw.split())
        if not line:
            flush()
        elif " | " in line:
            flush()
            units.append(line)
        elif _HEADING.match(line):
            flush()
        else:
            if _ITEM_START.match(line):
                flush()
            paragraph.append(line)
    flush()
    return [unit.strip() for unit in units if len(unit.strip()) >= MIN_SENTENCE_CHARS]


def closing_units(text: str) -> list[str]:
    """A signature block read whole: enactment (place, date, office, signatory), then promulgation."""
    flat = " ".join(text.split())
    parts = re.split(r"(?=\bDiundangkan\b)|(?=\bLEMBARAN\b|\bBERITA\b)", flat)
    return [part.strip() for part in parts if len(part.strip()) >= MIN_SENTENCE_CHARS]


def _score(sentence: str, question_stems: set[str], figure: bool, passage_rank: int, origin: str) -> float:
    stems = content_stems(sentence)
    if not stems or not question_stems:
        return 0.0
    overlap = len(stems & question_stems) / len(question_stems)
    score = overlap + 0.15 / (1 + passage_rank)
    if figure and _HAS_NUMBER.search(sentence):
        score += 0.3
    if origin == "closing" and re.search(r"\bDitetapkan\b", sentence):
        score += 0.5  # a signatory question is answered by the enactment block
    if origin in ("anchor", "closing") and overlap == 0:
        score += 0.2  # the question named this article: its text answers it even without shared words
    return score if overlap > 0 or origin in ("anchor", "closing") else 0.0


def synthesise(question: str, passages: Sequence[Passage], *, language: str | None = None) -> AnswerDraft:
    """Pick the best-supported sentences from the passages, in reading order."""
    lang = detect_language(question, language)
    question_stems = content_stems(question)
    figure = bool(FIGURE_QUESTION.search(question))
    candidates: list[Candidate] = []
    for rank, passage in enumerate(passages[:6]):
        units = closing_units(passage.text) if passage.origin == "closing" else split_sentences(passage.text)
        for position, sentence in enumerate(units):
            score = _score(sentence, question_stems, figure, rank, passage.origin)
            if score > 0.2:
                candidates.append(Candidate(sentence, passage, rank, position, score))
    if not candidates:
        return AnswerDraft(framing="", claims=(), no_answer=True, language=lang)
    chosen: list[Candidate] = []
    total = 0
    for candidate in sorted(candidates, key=lambda c: (-c.score, c.passage_rank, c.position)):
        if len(chosen) >= MAX_CLAIMS or total + len(candidate.text) > MAX_ANSWER_CHARS:
            continue
        if any(candidate.text == c.text for c in chosen):
            continue
        chosen.append(candidate)
        total += len(candidate.text)
    chosen.sort(key=lambda c: (c.passage_rank, c.position))
    first = chosen[0].passage
    source = first.legal_reference or first.document_title
    claims = tuple(Claim(text=c.text, citation_keys=(c.passage.label,)) for c in chosen)
    return AnswerDraft(framing=FRAMING[lang].format(source=source), claims=claims, language=lang)


def no_answer_text(language: str) -> str:
    return NO_ANSWER.get(language, NO_ANSWER["id"])
