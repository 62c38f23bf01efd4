"""The embedded answerer's draft: select by meaning, decide answerability, say the answer first.

The steps in order are in the package docstring (``answering/extractive/__init__.py``); this module is
step 3 and the orchestration of the others.
"""
from __future__ import annotations

import math
import re
from dataclasses import replace
from typing import Callable, Sequence

from answering.extractive.answerability import assess
from answering.extractive.candidates import Candidate, candidates, with_semantic
from answering.extractive.decision import CROSSLINGUAL_LAW_WORDS, answerable, frozen_params
from answering.extractive.layout import compose, opener_of
from answering.extractive.opener import figures_for_other_cases
from answering.extractive.question import Question, detect_language, read_question, second_ask
from answering.extractive.ranker import NORMATIVE, fit_to_lead
from answering.extractive.semantic import SemanticScorer
from answering.extractive.units import ASKED_LIST_CHARS
from answering.extractive.yesno import asked_words, polarity_opener
from answering.extractive.signals import CARRIED_ORIGINS, TOOL_ORIGINS, answer_signals
from answering.extractive.status import cites_named
from answering.types import LEGAL_RELATION_ORIGIN, AnswerDraft, Claim, Passage

__all__ = ["NO_ANSWER", "detect_language", "no_answer_text", "synthesise"]

NO_ANSWER = {
    "id": "Maaf, saya tidak menemukan informasi yang relevan dalam dokumen yang tersedia untuk menjawab pertanyaan tersebut.",
    "en": "Sorry, I could not find relevant information in the available documents to answer that question.",
}
MAX_CLAIMS = 4
# A list question's focus only ranks (the list whose lead-in names what is asked): it selects like a general one.
UNFOCUSED = ("general", "list")
FOCUSED_MAX_CLAIMS = 2          # a definition, a date or a name is one or two units, not four
MAX_ANSWER_CHARS = 1200
# A list asked for is quoted whole (units.ASKED_LIST_CHARS) with room for another unit.
MAX_LIST_ANSWER_CHARS = ASKED_LIST_CHARS + 400
# The ranker's scores are a softmax's logits over the question's units (ranker.py): a unit less than 1/16 as likely
# as the best one to state the answer is off the question's point. Chosen on the training part (bench/fit_units.py:
# ln 2, 8, 16, 32 carried the gold evidence in 33, 39, 43, 44 of 71 answers).
KEEP_MARGIN = math.log(16)
# A follow-up's carried document answers it when its best unit is within this margin of the best unit read.
FOLLOWUP_MARGIN = 2 * KEEP_MARGIN
# A signature block or a distribution list is quoted only when the question asks who signed or when.
SIGNATURE = re.compile(r"\b(?:Ditetapkan|Disahkan|Diundangkan)\s+di\b|\bTembusan\b|Salinan\s+sesuai\s+dengan\s+aslinya|"
                       r"\bLEMBARAN\s+(?:NEGARA|ACEH|DAERAH)\b|\bBERITA\s+DAERAH\b")
SIGNATURE_ASKS = frozenset({"enactment", "signatory", "date", "person"})
# Categorical, not a matter of degree: another instrument's text or another article never answers "Pasal 12A
# Qanun 92/2023". Whether the units carry what was asked for (a definition, a date, a name) is one of the fitted
# decision's signals (focus_met): on the training part it declined answerable questions and no unanswerable one.
# The exception: who signed, when or what about a *named* instrument is its signature block's or its title's to say;
# a passage without one (an amendment's text for the instrument it amends) does not answer it. Whether an
# instrument still holds is said by a clause that revokes, amends or keeps it, never by its other articles.
IDENTITY_CONSTRAINTS = frozenset({"instrument", "article"})
SIGNATURE_FOCUS = frozenset({"signatory", "enactment", "about"})
OPENER_ASKS = frozenset({"figure", "duration", "date", "person", "yesno", "definition", "list", "enactment", "signatory"})


# "Misalnya uang pesangon … adalah Rp 10.000.000,00", "… sebesar 40% X Rp 6000.000,00 = Rp 2.400.000,00": a
# Penjelasan's worked example illustrates a rule with made-up figures; it answers only a question asking for one.
WORKED_EXAMPLE = re.compile(r"^\W*(?:misalnya|contoh(?:nya)?\b|sebagai\s+contoh)|=\s*Rp", re.I)
ASKS_EXAMPLE = re.compile(r"\b(?:contoh|misal|example|illustrat)", re.I)


def _eligible(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    keep_signature = question.asks in SIGNATURE_ASKS
    keep_examples = bool(ASKS_EXAMPLE.search(question.text))
    return [c for c in ranked if (keep_signature or not SIGNATURE.search(c.text))
            and (keep_examples or not WORKED_EXAMPLE.search(c.text))]


def _fits(question: Question, total: int, text: str) -> bool:
    """The unit fits the answer's length; a list question's lists are quoted whole, so its answer may be longer."""
    return total + len(text) <= (MAX_LIST_ANSWER_CHARS if question.lists else MAX_ANSWER_CHARS)


def _limit(question: Question) -> int:
    if question.focus.kind in ("definition", "when", "enactment", "signatory", "who"):
        return FOCUSED_MAX_CLAIMS
    return 3 if question.focus.kind == "about" else MAX_CLAIMS


def _home_document(question: Question, eligible: list[Candidate]):
    """The one document a focused answer comes from: a follow-up's carried document when it answers near the
    best; else the best unit's, but what someone must (or may not) do is a regulation's to say, not a report's
    (a report of how fast requests were answered is not the rule)."""
    if not eligible:
        return None
    carried = [c for c in eligible if c.passage.origin in CARRIED_ORIGINS]
    if carried:
        return carried[0].passage.document_id      # a follow-up is about the document the conversation is on
    if NORMATIVE.search(question.text):
        regulations = [c for c in eligible if c.passage.legal_reference]
        if regulations:
            return regulations[0].passage.document_id
    return eligible[0].passage.document_id


def _states_scope(question: Question, candidate: Candidate) -> bool:
    """What a named instrument is about is said by its title line and its own statement of purpose or scope: each
    is quoted, whichever the ranker prefers."""
    return question.focus.kind == "about" and candidate.features is not None and candidate.features["focus"] >= 0.9


def _complete_focus(question: Question, ranked: list[Candidate], chosen: list[tuple[Candidate, dict]]) -> None:
    """When no chosen unit carries what is asked (the office in "siapa yang berwenang …"), the next unit of a
    chosen passage that does joins them: "(1) Penetapan … oleh pemerintah …" is completed by its "(2) … skala
    provinsi dilakukan oleh gubernur …". Failing that, an appendix table of the lead's document that does: a
    decree's "UMSP … berlaku bagi … sektor Pertambangan Emas …" is completed by its table of the amounts (whether
    a row names the case asked is ``figures_for_other_cases``'s to check). Any other unit of the document, taken
    so, published unanswerable questions on the training part (a penal clause's "30 kali" for an overtime rate).
    When the answer is full, the completing unit takes the last place."""
    if not chosen or question.focus.kind in UNFOCUSED:
        return
    if any(_carries_focus(question, c.text) for c, _ in chosen):
        return
    passages = {c.passage.chunk_id for c, _ in chosen}
    document = chosen[0][0].passage.document_id
    taken = {c.text for c, _ in chosen}
    completing = [c for c in ranked if c.text not in taken and _carries_focus(question, c.text)]
    sibling = next((c for c in completing if c.passage.chunk_id in passages), None) or next(
        (c for c in completing if c.kind == "table" and c.passage.document_id == document), None)
    if sibling is not None:
        del chosen[_limit(question) - 1:]
        chosen.append((sibling, {sibling.passage.document_id: sibling.passage.label}))


def _carries_focus(question: Question, text: str) -> bool:
    """The unit carries what is asked; who signed is said by the enactment line itself (``fit_to_lead``), not by any
    run of capitals in the block ("LEMBARAN NEGARA REPUBLIK INDONESIA …")."""
    if question.focus.kind == "signatory":
        return question.focus.satisfied_by(text) and fit_to_lead(question, text, 0.0)[0]
    return question.focus.satisfied_by(text)


def _cover_second_ask(question: Question, passages: Sequence[Passage], ranked: list[Candidate],
                      chosen: list[tuple[Candidate, dict]]) -> None:
    """"… brp lama? trs boleh digaji di bawah UMP gak?": the unit that best answers the second ask, read on its
    own, joins the chosen ones when a chosen document holds it (it keeps its score for the whole question, so the
    opener still answers the first ask)."""
    rest = second_ask(question.text)
    if not rest or not chosen or len(chosen) >= _limit(question):
        return
    sub = read_question(rest, question.language)
    documents = {c.passage.document_id for c, _ in chosen}
    best = next((c for c in _eligible(sub, candidates(sub, passages, None)) if c.passage.document_id in documents),
                None)
    if best is None or any(c.text == best.text for c, _ in chosen):
        return
    unit = next((c for c in ranked if c.text == best.text and c.passage.chunk_id == best.passage.chunk_id), None)
    if unit is not None and _fits(question, sum(len(c.text) for c, _ in chosen), unit.text):
        chosen.append((unit, {unit.passage.document_id: unit.passage.label}))


def _keep_deciding(question: Question, ranked: list[Candidate], chosen: list[tuple[Candidate, dict]], home) -> None:
    """A yes/no question is answered by the unit that says yes or no: when no kept unit says it and a unit of the
    answer's instrument (another copy of it too: the same title), left out for its score, length or copy, does
    (``polarity_opener``), it joins the best unit in place of the kept units after it that no longer fit. Its score
    does not bar it: a short prohibition ("Pengusaha dilarang mempekerjakan anak.") ranks far below the conditions
    set around it, and ``polarity_opener``'s test of what it governs is the stricter one."""
    if not question.yes_no or not chosen or opener_of(question, chosen, question.language)[0] is not None:
        return
    taken = {id(c) for c, _ in chosen}
    title = chosen[0][0].passage.document_title.casefold()
    deciding = next((c for c in ranked if id(c) not in taken and (home is None or c.passage.document_id == home
                                                                or c.passage.document_title.casefold() == title)
                     and polarity_opener(question, c, question.language)), None)
    if deciding is None or not _fits(question, len(chosen[0][0].text), deciding.text):
        return
    kept = [chosen[0], (deciding, {deciding.passage.document_id: deciding.passage.label})]
    for pair in chosen[1:]:
        if len(kept) < _limit(question) and _fits(question, sum(len(c.text) for c, _ in kept), pair[0].text):
            kept.append(pair)
    chosen[:] = kept


def _deciding_first(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """Whether a named instrument still holds is the clause's to say that revokes or amends it (legal_status.py
    reads it), not the instrument's own "mulai berlaku" article: for a status question, that clause's units lead."""
    if question.asks != "status" or not question.named:
        return ranked
    deciding = [c for c in ranked if c.passage.origin == LEGAL_RELATION_ORIGIN and cites_named(question, c.passage.text)]
    # The clause's own unit ("Beberapa ketentuan dalam <the instrument> … diubah") before the passage's others.
    deciding.sort(key=lambda c: not cites_named(question, c.text))
    return [*deciding, *(c for c in ranked if c not in deciding)] if deciding else ranked


def select(question: Question, ranked: list[Candidate]) -> list[tuple[Candidate, dict]]:
    """The units that answer, each with its labels by document, leading with the one that answers best."""
    if not ranked:
        return []
    ranked = _deciding_first(question, ranked)
    near = [c for c in ranked if c.score >= ranked[0].score - KEEP_MARGIN or _states_scope(question, c)]
    # A focused question is answered from one document; a question naming several instruments wants each.
    one_document = (question.focus.kind not in UNFOCUSED or question.asks in OPENER_ASKS) and len(question.named) < 2
    home = _home_document(question, near) if one_document else None
    # A follow-up ("Di mana ibu kotanya?") is about the document the conversation is on: when that document
    # answers within a wider margin, the answer comes from it, not from another law's look-alike units.
    referent = next((c.passage.document_id for c in ranked if c.passage.origin in CARRIED_ORIGINS
                     and c.score >= ranked[0].score - FOLLOWUP_MARGIN), None)
    followed = referent is not None and not any(c.passage.document_id == referent for c in near)
    if followed:
        near = [c for c in ranked if c.passage.document_id == referent and c.score >= ranked[0].score - FOLLOWUP_MARGIN]
        home = referent
    # The same words in another document (two regulations' identical closings) add that document's label.
    chosen: list[tuple[Candidate, dict]] = []
    total = 0
    for candidate in near:
        twin = next((labels for c, labels in chosen if c.text == candidate.text), None)
        if twin is not None:
            twin.setdefault(candidate.passage.document_id, candidate.passage.label)
        elif home is not None and candidate.passage.document_id != home:
            continue
        elif len(chosen) < _limit(question) and _fits(question, total, candidate.text):
            chosen.append((candidate, {candidate.passage.document_id: candidate.passage.label}))
            total += len(candidate.text)
    _complete_focus(question, ranked, chosen)
    _keep_deciding(question, ranked, chosen, home)
    lead: dict[int, tuple[bool, int, float]] = {}
    for candidate, _ in chosen:
        fit = fit_to_lead(question, candidate.text, candidate.score)
        lead[candidate.passage_rank] = max(lead.get(candidate.passage_rank, (False, 0, -math.inf)), fit)
    if question.focus.kind in UNFOCUSED and question.asks not in OPENER_ASKS and not followed:
        chosen.sort(key=lambda pair: (pair[0].passage_rank, pair[0].position))   # reading order, best passage first
    else:
        # The passage that answers best leads (the opener comes from it), each passage's units in reading order.
        chosen.sort(key=lambda pair: (*(-claim for claim in lead[pair[0].passage_rank]), pair[0].passage_rank,
                                      pair[0].position))
    return chosen


def synthesise(question: str, passages: Sequence[Passage], *, language: str | None = None,
               absent_words: Callable[[list[str]], list[str]] | None = None,
               expansions: Callable[[str], dict[str, str]] | None = None,
               semantic: SemanticScorer | None = None) -> AnswerDraft:
    """The draft for the question from the passages (see the module docstring).

    ``absent_words`` (words -> those no visible passage contains), ``expansions`` (text -> glossary phrases
    and what they stand for) and ``semantic`` (the question's vector against units and passages) are signals;
    without one, that signal sits at its neutral value.
    """
    read = read_question(question, expansions=expansions)
    lang = detect_language(question, language)
    if semantic is not None and semantic.model_name != frozen_params().embedding_model:
        semantic = None       # the semantic constants hold for the model they were fitted with (decision.py)
    ranked = _eligible(read, candidates(read, passages, semantic))
    chosen = select(read, ranked)
    _cover_second_ask(read, passages, ranked, chosen)
    if semantic is not None:
        chosen = with_semantic(chosen, semantic)
    claims = tuple(Claim(text=c.text, citation_keys=tuple(labels.values())) for c, labels in chosen)
    checks = assess(question, claims, passages, focus=read.focus, expansions=expansions)
    signals = answer_signals(read, [c for c, _ in chosen], ranked, passages, checks, semantic=semantic,
                             absent_words=absent_words)
    publish, confidence = False, 0.0
    if chosen:
        publish, confidence = answerable(signals, semantic is not None, lexical=read.language != "en",
                                         crosslingual=read_in_law_words(read))
    if chosen and not publish and _read_for_it(chosen[0][0].passage, signals):
        publish = True
    if any(_categorical(u, read) for u in checks.unmet):
        publish = False
    if publish and figures_for_other_cases(read, [c for c, _ in chosen]):
        # "santri dayah dapet brp?" is not answered by the amounts for primary and secondary pupils.
        publish, checks = False, replace(checks, unmet=(*checks.unmet, "case asked"))
    if not publish:
        return AnswerDraft(framing="", claims=(), no_answer=True, language=lang, pointer=checks.pointer,
                           unmet=checks.unmet, term_coverage=checks.coverage, signals=signals, confidence=confidence)
    return AnswerDraft(framing="", claims=compose(read, chosen, lang, semantic.units if semantic else None, ranked), language=lang, term_coverage=checks.coverage,
                       unmet=checks.unmet, signals=signals, confidence=confidence)


def read_in_law_words(question: Question) -> bool:
    """An English question the glossary reads in CROSSLINGUAL_LAW_WORDS of the law's words (decision.py)."""
    return question.language == "en" and len(asked_words(question)) >= CROSSLINGUAL_LAW_WORDS


def _categorical(unmet: str, question: Question) -> bool:
    kind = unmet.split(" ")[0]
    return kind in IDENTITY_CONSTRAINTS or unmet == "focus status" or (
        kind == "focus" and question.focus.kind in SIGNATURE_FOCUS and bool(question.named))


def _read_for_it(lead: Passage, signals: dict) -> bool:
    """A tool read or a deciding legal clause leads and no year, place or other constraint failed: the planner
    matched its measure and filters to this question (live.py) or the relation names the instrument asked
    about (legal_status.py), so the read is the answer whatever words it shares. (The fitted decision has no
    such examples to learn from: the shared sets hold no workbooks.)"""
    return lead.origin in TOOL_ORIGINS and not signals["unmet_year_place"] and not signals["unmet_other"]


def no_answer_text(language: str, pointer: str | None = None) -> str:
    """The fixed no-answer text, then where the nearest evidence is (in the question's language)."""
    text = NO_ANSWER.get(language, NO_ANSWER["id"])
    return f"{text} {pointer}" if pointer else text
