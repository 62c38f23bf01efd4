"""The deterministic extractive synthesiser (the embedded default).

It answers with units taken from the best passages (sentences, ayat, table
rows, lead-ins with their lists: ``answering.extractive.units``), each labelled with the
chunk it came from (``[chunk:<uuid>]``). The question's focus (``answering.extractive.focus``)
ranks them: a definition question answers with the definition, "kapan" with
a date, "siapa" with a name, "berapa" with a figure. Then the answerability
gate (``answering.extractive.answerability``) decides whether the cited passages answer
the question at all; when they do not, the draft is the fixed no-answer text,
with a pointer to the nearest evidence where one helps. The model-backed
synthesiser produces the same ``AnswerDraft``, so the gate, guard, persistence
and SSE never branch.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

from answering.extractive.anchors import find_named_regulations
from answering.extractive.answerability import assess
from answering.text import content_stems
from answering.extractive.focus import focus_bonus, question_focus
from answering.types import AnswerDraft, Claim, Passage
from answering.extractive.units import asks_legal_basis, passage_units

NO_ANSWER = {
    "id": "Maaf, saya tidak menemukan informasi yang relevan dalam dokumen yang tersedia untuk menjawab pertanyaan tersebut.",
    "en": "Sorry, I could not find relevant information in the available documents to answer that question.",
}
FRAMING = {"id": "Berdasarkan {source}:", "en": "According to {source}:"}
FIGURE_QUESTION = re.compile(
    r"\b(berapa|brp|jumlah|besaran|besarnya|nilai|tarif|biaya|total|persen|persentase|how (?:much|many)|amount|rate)\b", re.I
)
NORMATIVE = re.compile(r"\b(wajib|diwajibkan|kewajiban|harus|dilarang|larangan|boleh|berhak|sanksi|denda|must|shall|"
                       r"required|prohibited|allowed)\b", re.I)
ENGLISH_HINTS = re.compile(r"\b(what|which|who|how|when|where|does|is|are|the|of|according|please)\b", re.I)
INDONESIAN_HINTS = re.compile(r"\b(apa|apakah|siapa|berapa|bagaimana|kapan|dimana|yang|dan|dengan|untuk|dalam|tentang)\b", re.I)
_HAS_NUMBER = re.compile(r"\d")
MAX_CLAIMS = 4
NORMATIVE_BONUS = 0.3
FOCUSED_MAX_CLAIMS = 2          # a definition, a date or a name is one or two units, not four
MAX_ANSWER_CHARS = 1200
MIN_SENTENCE_CHARS = 25
MIN_SCORE = 0.2
KEEP_SHARE = 0.5                # units scoring under half the best one are off the question's point


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
    """Answer units of a passage (see ``answering.extractive.units``)."""
    return [unit.text for unit in passage_units(text)]


def closing_units(text: str) -> list[str]:
    """A signature block read whole: enactment (place, date, office, signatory), then promulgation."""
    flat = " ".join(text.split())
    parts = re.split(r"(?=\b(?:Ditetapkan|Disahkan|Diundangkan)\s+di\b)|(?=\bLEMBARAN\b|\bBERITA\b)", flat)
    return [part.strip() for part in parts if len(part.strip()) >= MIN_SENTENCE_CHARS]


def _score(sentence: str, question_stems: set[str], focus, passage_rank: int, origin: str, closing: bool) -> float:
    stems = content_stems(sentence)
    if not stems or not question_stems:
        return 0.0
    overlap = len(stems & question_stems) / len(question_stems)
    score = overlap + 0.15 / (1 + passage_rank)
    if origin in ("anchor", "closing") and overlap == 0:
        score += 0.2  # the question named this article: its text answers it even without shared words
    if overlap == 0 and origin not in ("anchor", "closing"):
        return 0.0
    return score + focus_bonus(focus, sentence, closing)


def _normative_bonus(sentence: str, normative: frozenset[str]) -> float:
    """What someone must or may not do ("PPID wajib …") is said by a unit with that word, not beside it."""
    if not normative:
        return 0.0
    return NORMATIVE_BONUS if {w.lower() for w in NORMATIVE.findall(sentence)} & normative else 0.0


# The title of a heading, as headings print it in capitals ("NOMOR 94 TAHUN 2021 TENTANG DISIPLIN PEGAWAI
# NEGERI SIPIL", "NOMOR 31 /POJK.05/2016 TENTANG USAHA PERGADAIAN"), up to the preamble; a citation of another
# law in the considerations ("Nomor 21 Tahun 2011 tentang …") is not one.
HEADING_TITLE = re.compile(
    r"\bNOMOR\s+[\w.]+(?:\s*/\s*[\w.]+)*(?:\s+TAHUN\s+\d{4})?\s+TENTANG\s+[^\n]+?(?:\n[^\n]+?)*?"
    r"(?=\s*\n\s*\n|\s*\n\s*(?:DENGAN|BISMILLAH|ATAS\s+RAHMAT|[A-Z][A-Z .]+,\s*\n|Menimbang)|\s+DENGAN\s*RAHMAT|"
    r"\s+Menimbang|\s*$)")


def _units(passage: Passage, legal_basis: bool, focus=None) -> list[str]:
    if passage.origin == "closing" or passage.kind == "closing":
        return closing_units(passage.text)
    if focus is not None and focus.kind == "about" and passage.kind == "preamble" and passage.origin == "anchor":
        # What the named instrument is about: its own title line (read_scope), not its considerations,
        # nor another document's heading (an amendment's title cites the instrument it amends).
        title = HEADING_TITLE.search(passage.text)
        return [" ".join(title.group(0).split())] if title else []
    units = passage_units(passage.text, legal_basis=legal_basis, preamble=passage.kind == "preamble")
    return [unit.text for unit in units]


def synthesise(question: str, passages: Sequence[Passage], *, language: str | None = None,
               absent_words: Callable[[list[str]], list[str]] | None = None,
               expansions: Callable[[str], dict[str, str]] | None = None) -> AnswerDraft:
    """Pick the units that answer the question, in reading order; refuse when they do not answer it.

    ``absent_words`` (words -> those no visible passage contains) is asked only in the narrow case the
    answerability gate needs it; without it that check is skipped. ``expansions`` (text -> its glossary
    phrases and what they stand for) lets "DBH" be met by "Dana Bagi Hasil"; without it words count as written.
    """
    lang = detect_language(question, language)
    question_stems = content_stems(question)
    focus = question_focus(question)
    legal_basis = asks_legal_basis(question)
    normative = frozenset(w.lower() for w in NORMATIVE.findall(question))
    candidates: list[Candidate] = []
    for rank, passage in enumerate(passages[:6]):
        closing = passage.origin == "closing" or passage.kind == "closing"
        for position, sentence in enumerate(_units(passage, legal_basis, focus)):
            score = _score(sentence, question_stems, focus, rank, passage.origin, closing)
            if score > MIN_SCORE:
                candidates.append(Candidate(sentence, passage, rank, position, score))
    if not candidates:
        return AnswerDraft(framing="", claims=(), no_answer=True, language=lang)
    best = max(c.score for c in candidates)
    limit = FOCUSED_MAX_CLAIMS if focus.kind in ("definition", "when", "enactment", "signatory", "who") else MAX_CLAIMS
    if focus.kind == "about":
        limit = 3              # the title line and what the instrument says it regulates or is for
    # A focused question (a definition, a date, a name, a figure) is answered from one document: the
    # framing names that document, and a figure of another regulation beside it would answer a different
    # question. A question naming several instruments wants each of them.
    one_document = focus.kind != "general" and len(find_named_regulations(question)) < 2
    ranked = sorted(candidates, key=lambda c: (-c.score, c.passage_rank, c.position))
    home = _home_document(question, [c for c in ranked if c.score >= best * KEEP_SHARE]) if one_document else None
    # Each chosen unit with its labels by document: the same words in another document (two regulations'
    # identical closings) add that document's label to the one claim instead of being dropped.
    chosen: list[tuple[Candidate, dict]] = []
    total = 0
    for candidate in ranked:
        if candidate.score < best * KEEP_SHARE:
            break
        twin = next((labels for c, labels in chosen if c.text == candidate.text), None)
        if twin is not None:
            twin.setdefault(candidate.passage.document_id, candidate.passage.label)
        elif home is not None and candidate.passage.document_id != home:
            continue
        elif len(chosen) < limit and total + len(candidate.text) <= MAX_ANSWER_CHARS:
            chosen.append((candidate, {candidate.passage.document_id: candidate.passage.label}))
            total += len(candidate.text)
    if focus.kind == "general":
        chosen.sort(key=lambda pair: (pair[0].passage_rank, pair[0].position))
    else:
        # A focused answer leads with the passage that answers it best (its framing names that one),
        # each passage's units in reading order.
        # The obligation's own wording only orders what was chosen: it never picks the document (an
        # unrelated "wajib" sentence of another regulation must not win on that word).
        lead = {}
        for candidate, _ in chosen:
            fit = candidate.score + _normative_bonus(candidate.text, normative)
            lead[candidate.passage_rank] = max(lead.get(candidate.passage_rank, 0.0), fit)
        chosen.sort(key=lambda pair: (-lead[pair[0].passage_rank], pair[0].passage_rank, pair[0].position))
    claims = tuple(Claim(text=c.text, citation_keys=tuple(labels.values())) for c, labels in chosen)
    verdict = assess(question, claims, passages, focus=focus, absent_words=absent_words, expansions=expansions)
    if not verdict.answerable:
        return AnswerDraft(framing="", claims=(), no_answer=True, language=lang, pointer=verdict.pointer,
                           unmet=verdict.unmet, term_coverage=verdict.coverage)
    first = chosen[0][0].passage
    return AnswerDraft(framing=FRAMING[lang].format(source=first.legal_reference or first.document_title),
                       claims=claims, language=lang, term_coverage=verdict.coverage)


def _home_document(question: str, eligible: list[Candidate]):
    """The one document a focused answer comes from: the best unit's, but what someone must (or may not) do
    is a regulation's to say, not a report's (a report of how fast requests were answered is not the rule)."""
    if not eligible:
        return None
    if NORMATIVE.search(question):
        regulations = [c for c in eligible if c.passage.legal_reference]
        if regulations:
            return regulations[0].passage.document_id
    return eligible[0].passage.document_id


def no_answer_text(language: str, pointer: str | None = None) -> str:
    """The fixed no-answer text, then (in Indonesian) where the nearest evidence is."""
    text = NO_ANSWER.get(language, NO_ANSWER["id"])
    return f"{text} {pointer}" if pointer else text
