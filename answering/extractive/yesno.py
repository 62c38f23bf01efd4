"""Yes or no: the polarity a unit states about what the question asks, said first.

The best unit's modal ("dilarang", "wajib", "dapat") when its clause is about the question's words; a
requirement list one of whose items rules the asked case out (``requirements``); the range a stated quantity
falls in or out of (``quantities``); and, from a unit other than the best, only a prohibition that clearly
governs the question. Each sentence is the passage's words with "Ya."/"Tidak." in front.
"""
from __future__ import annotations

import re

from answering.extractive.answerability import GENERIC_STEMS
from answering.extractive.candidates import Candidate
from answering.extractive.cases import narrowed, rules_the_complement
from answering.extractive.phrasing import (EXEMPT, GRANTED_EXCEPTION, ITEM_END, MODAL_STEMS, NO, OBLIGE, PERMIT,
                                           PROHIBIT, YES, short, tidy, unmarked)
from answering.extractive.quantities import NEGATED_ASK, asked_quantities, bounded, quantity_differs
from answering.extractive.question import Question, first_ask
from answering.extractive.requirements import REQUIREMENT_LEAD, excluding_item
from answering.text import content_stems

POLARITY_REACH = 15        # words after the modal that must share a word with the question


def _ruled(unit: str, match: re.Match) -> str:
    """The clause a modal rules: the words after it, up to POLARITY_REACH."""
    return " ".join(unit[match.end():].split()[:POLARITY_REACH])


def _governs(question: Question, unit: str, match: re.Match, share: float = 0.0) -> bool:
    """The modal's own clause is about what the question asks ("dilarang mempekerjakan anak" for "bolehkah
    mempekerjakan anak?"), not a requirement beside it ("harus memenuhi persyaratan"); with ``share``, it
    carries at least that share of the question's words (and two of them). An English question's own words
    rarely meet the clause: the law's words the glossary gives it may, with a second unit's share (they are few)."""
    said = content_stems(_ruled(unit, match))
    # A word the subject before the modal says too names who or what the rule is about, not what it rules ("…
    # serikat pekerja … tidak boleh lebih rendah dari … perjanjian kerja" for "boleh pengusaha menahan ijazah pekerja?").
    subject = content_stems(_subject(unit, match))
    # The first ask's words: a second ask's ("… berhak dapet perlakuan khusus gak? trus harus bayar tambahan?") are
    # not what the "Ya."/"Tidak." answers.
    asked = question.first_stems
    if _shares(said, asked - MODAL_STEMS, share) and (said - subject) & asked:
        return True
    law = question.law_stems - MODAL_STEMS - GENERIC_STEMS
    return question.language == "en" and _shares(said, law, max(share, SECOND_UNIT_SHARE))


def _subject(unit: str, match: re.Match) -> str:
    """The words of the modal's sentence before it: whose rule it is."""
    return unit[unit.rfind(". ", 0, match.start()) + 1:match.start()]


def _shares(said: set[str], asked: frozenset[str], share: float) -> bool:
    shared = said & asked
    return bool(shared) and (not share or (len(shared) >= 2 and len(shared) >= share * len(asked)))


# "tidak diberikan", "tak memperoleh", "belum wajib": a duty or a permission negated says no.
_NEGATED_BEFORE = re.compile(r"\b(?:tidak|tak|belum|bukan)\s+$", re.I)


# "tidak diberikan THR", "tidak memperoleh": a grant negated, read as a no inside its range (range_opener).
NEGATED_GRANT = re.compile(r"\b(?:tidak|tak)\s+(?:diberikan|diberi|mendapat|memperoleh|menerima)\b", re.I)


def _negated(unit: str, match: re.Match) -> bool:
    return bool(_NEGATED_BEFORE.search(unit[max(0, match.start() - 8):match.start()]))


def _rules_asked_case(question: Question, unit: str, match: re.Match, share: float = 0.0) -> bool:
    """The modal governs what is asked (``_governs``), for the case asked: neither its clause nor the subject
    before it narrowed (``cases.narrowed``)."""
    said = f"{_subject(unit, match)} {_ruled(unit, match)}"
    return _governs(question, unit, match, share) and not narrowed(question, said)


def polarity(question: Question, unit: str) -> str | None:
    """"yes" or "no" when a modal of the unit governs what the question asks; None when none does, or when the unit
    is about the complement of what is asked. A duty or a permission under a negation ("tidak diberikan kepada …")
    is a no."""
    found = {pattern: list(pattern.finditer(unit)) for pattern in (PROHIBIT, EXEMPT, OBLIGE, PERMIT)}
    if rules_the_complement(question, unit, found):
        return None
    for patterns, answer in (((PROHIBIT, EXEMPT), "no"), ((OBLIGE, PERMIT), "yes")):
        governing = [m for pattern in patterns for m in found[pattern] if _rules_asked_case(question, unit, m)]
        if answer == "yes" and governing and all(_negated(unit, m) or _without_asked(question, unit, m)
                                                 for m in governing):
            return "no"
        if any(answer == "no" or not _negated(unit, m) for m in governing):
            return answer
    return None


def ruling_weight(question: Question, unit: str) -> int:
    """How much of the first ask a unit's governing modal rules: the ask's words, in the law's words too, that the
    clause after the modal carries (0 when no modal of the unit governs what is asked). Of two kept units that
    both say yes or no, the one ruling more of the ask says it ("dilarang membayar upah di bawah upah minimum"
    over "dapat mensyaratkan masa percobaan" for "boleh gak bos gaji di bawah UMR slama percobaan?")."""
    asked = question.ask_stems - MODAL_STEMS - GENERIC_STEMS
    matches = [m for pattern in (PROHIBIT, EXEMPT, OBLIGE, PERMIT) for m in pattern.finditer(unit)]
    return max((len(content_stems(_ruled(unit, m)) & asked)
                for m in matches if _rules_asked_case(question, unit, m)), default=0)


_WITHOUT = re.compile(r"\b(?:tanpa|without)\s+(\w+)", re.I)


def _without_asked(question: Question, unit: str, match: re.Match) -> bool:
    """The duty or permission holds *without* what the question's first ask asks about ("… wajib belajar … tanpa
    memungut biaya" for "boleh memungut biaya?"): the asked action, un-negated in the question, is negated here."""
    said = _ruled(unit, match)
    without = content_stems(" ".join(_WITHOUT.findall(said)))
    asked = first_ask(question.text)
    return bool(without & (content_stems(asked) - content_stems(" ".join(_WITHOUT.findall(asked)))))


# A unit other than the best one says "no" only when it prohibits ("dilarang", "tidak boleh") and the prohibition's
# clause carries this share of the question's words (two at least; for an English question, of the law's words the
# glossary gives it, since its own words meet nothing in Indonesian text). Permissions and duties are too common
# beside the point ("dapat diangkat menjadi sekretaris pengadilan agama" for "apakah pengadilan agama berwenang …"):
# on the training part every second-unit "Ya" was beside the point; the prohibition shared three words (share 0.38).
SECOND_UNIT_SHARE = 0.3


def _lead_in_with(lead_in: str, item: str) -> str:
    """"<lead-in>: <the item>" as one sentence (the item's marker and its trailing "; dan" dropped)."""
    said = f"{lead_in.strip().rstrip(' :.')}: {ITEM_END.sub('', unmarked(' '.join(item.split())))}"
    return short(tidy(said))


def excluded(question: Question, unit: Candidate) -> str | None:
    """"Tidak. <requirements>: <the item that rules out what is asked>." (requirements.py)"""
    if not unit.items:
        return None
    lead_in = unit.text.split(unit.items[0])[0]
    item = excluding_item(frozenset(question.stems - MODAL_STEMS), lead_in, unit.items)
    if item is None:
        return None
    return f"{NO[question.language]} {_lead_in_with(lead_in, item)}"


# A statement answers yes without a modal when one of its clauses says, unnegated, most of what is asked ("Zakat
# yang dibayarkan … kepada BAZNAS … dikurangkan dari penghasilan kena pajak" for "zakat lewat BAZNAS bisa
# ngurangin penghasilan kena pajak?"): this share of the question's content words, and three at least. A list
# answers yes when its lead-in and one of its items together carry that share and the item brings a word the
# lead-in lacks ("berwenang … di bidang: … i. ekonomi syariah"). An English question's own words measure nothing
# against Indonesian text: its words are the law's words the glossary gives it ("legal evidence" -> "alat bukti
# hukum"), and it needs three of them. Chosen on the training part: every yes/no question whose lead unit shared
# this much was answered yes by its gold.
AFFIRM_SHARE = 0.6
AFFIRM_LEAST = 3
_NEGATION = re.compile(r"\b(?:tidak|tak|bukan|belum|dilarang|kecuali|dikecualikan|not|no|never)\b", re.I)


def asked_words(question: Question) -> frozenset[str]:
    """The words a "Ya."/"Tidak." answers: the first ask's (of an English question, the law's words for them)."""
    stems = question.law_stems if question.language == "en" else question.first_stems
    return frozenset(stems - MODAL_STEMS - GENERIC_STEMS)


def _reads(question: Question) -> bool:
    """The question can be read against the unit's words: in the corpus's language, or in English with at least
    AFFIRM_LEAST of the law's words from the glossary; and not itself negated."""
    if NEGATED_ASK.search(question.text):
        return False
    return question.language == "id" or (question.language == "en" and len(asked_words(question)) >= AFFIRM_LEAST)


def _carries_most(asked: frozenset[str], text: str) -> bool:
    shared = content_stems(text) & asked
    return len(shared) >= AFFIRM_LEAST and len(shared) >= AFFIRM_SHARE * len(asked)


def affirmed(question: Question, unit: Candidate) -> str | None:
    """"Ya. <the clause that states what is asked>" from a statement, or from a list's lead-in and its item."""
    if not _reads(question):
        return None
    asked = asked_words(question)
    if unit.items:
        lead_in = unit.text.split(unit.items[0])[0]
        # A list of requirements ("… wajib memenuhi syarat: a. di bawah pengawasan …") states conditions on what is
        # asked, not that it is allowed: one condition is no "Ya." (requirements.py reads the ones that rule it out).
        if _NEGATION.search(lead_in) or REQUIREMENT_LEAD.search(lead_in):
            return None
        for item in unit.items:
            brings = (content_stems(item) & asked) - content_stems(lead_in)
            if brings and not _NEGATION.search(item) and _carries_most(asked, f"{lead_in} {item}"):
                return f"{YES[question.language]} {_lead_in_with(lead_in, item)}"
        return None
    for piece in re.split(r"(?<=[.;])\s+(?=[A-Z(])", tidy(unit.text)):
        if not _NEGATION.search(piece) and _carries_most(asked, piece) and not quantity_differs(question.text, piece):
            return f"{YES[question.language]} {short(tidy(piece))}"
    return None


# A lead-in that denies or exempts ("THR … tidak diberikan kepada PNS dalam hal:", "Objek PKB … dikecualikan bagi:",
# "Pajak Penghasilan tidak dikenakan atas:") answers no for the case one of its items names.
DENYING_LEAD = re.compile(r"\b(?:tidak|tak|dikecualikan|dibebaskan|dilarang|kecuali)\b", re.I)


def denied(question: Question, unit: Candidate) -> str | None:
    """"Tidak. <lead-in>: <the item naming the asked case>" from a denying or exempting list: the item brings a
    word of the question the lead-in lacks, and lead-in and item together carry most of what is asked (the share
    ``affirmed`` asks of a yes); for a question ``_reads`` can read."""
    if not unit.items or not _reads(question):
        return None
    lead_in = unit.text.split(unit.items[0])[0]
    if not DENYING_LEAD.search(lead_in):
        return None
    asked = asked_words(question)
    # What the regulation is about is said once, in its title ("… Pajak Kendaraan Bermotor … Aceh"), not in the
    # exempting list: the title's words count as carried (the item must still name the case).
    about = unit.passage.document_title
    for item in unit.items:
        brings = (content_stems(item) & asked) - content_stems(lead_in)
        if brings and not _NEGATION.search(item) and _carries_most(asked, f"{lead_in} {item} {about}"):
            return f"{NO[question.language]} {_lead_in_with(lead_in, item)}"
    return None


def polarity_opener(question: Question, unit: Candidate, language: str) -> str | None:
    """"Tidak. <clause>" from a unit that is not the best one: a list whose item names the asked case (for a
    question ``_reads`` can read, English through the glossary), or a stricter test of what its prohibition (or,
    for a duty asked, its exemption) governs: the question's own words, or for an English question the law's
    words the glossary gives it ("fixed-term contract", "probation period": ``_governs``)."""
    if question.asks != "yesno":
        return None
    if said := excluded(question, unit) or denied(question, unit):
        return said
    if unit.items and (said := affirmed(question, unit)):
        return said
    text = tidy(unit.text if not unit.items else unit.text.split(unit.items[0])[0])
    # "… wajib tetap masuk kerja?" is answered no by a clause that exempts ("… tidak wajib bekerja pada hari pertama
    # …") as by one that prohibits.
    denying = [*PROHIBIT.finditer(text), *(EXEMPT.finditer(text) if OBLIGE.search(question.text) else ())]
    prohibits = any(_rules_asked_case(question, text, m, SECOND_UNIT_SHARE) for m in denying)
    if not prohibits or quantity_differs(question.text, text):
        return None
    return f"{NO[language]} {short(text)}"


# A range decides the ask when its unit (a list item's with its lead-in) says RANGE_SHARED of the first ask's words
# besides the quantity's unit ("… pemilihan Tenaga Profesional dilaksanakan paling lambat 3 bulan sebelum masa
# keanggotaan …" shares only "masa" with "pekerja kontrak diberi masa percobaan 3 bulan?": another matter's deadline).
RANGE_SHARED = 2


def _ranges_the_ask(question: Question, unit: str) -> bool:
    asked = (question.first_stems | question.ask_stems) - MODAL_STEMS - GENERIC_STEMS
    units = content_stems(" ".join(measure for _, measure in asked_quantities(question.text)))
    return len(content_stems(unit) & (asked - units)) >= RANGE_SHARED


def range_opener(question: Question, units: list[Candidate], language: str) -> tuple[str, Candidate] | None:
    """"Ya./Tidak. <the clause stating the range>" when a quoted unit states the range the question's quantity
    falls in or out of (a range, at least, at most, below, above), read with the clause's modal; the unit it
    came from. None when the question names no quantity or no unit bounds it."""
    if question.asks != "yesno" or NEGATED_ASK.search(question.text):
        return None
    for value, measure in asked_quantities(question.text):
        for unit in units:
            if not _ranges_the_ask(question, unit.text):
                continue          # another matter's range ("pemilihan … paling lambat 3 bulan" for a probation)
            # Of the pieces of one unit that decide, the narrowest range holding the value is the rule for it
            # ("kurang dari 1 bulan … tidak diberikan" before "kurang dari 1 tahun … diberikan" for 3 weeks).
            pieces = enumerate(re.split(r";\s+", tidy(unit.text)))
            decided = [(not found[0], found[1] if found[0] else 0.0, place, piece) for place, piece in pieces
                       if (found := bounded(value, measure, piece)) is not None]
            for outside, _, _, piece in sorted(decided):
                if rules_the_complement(question, piece):
                    continue          # the other case's range ("waktu tidak tertentu … paling lama 3 bulan")
                # Inside a prohibition's range is a no; outside it the clause decides nothing. Inside a
                # permission's or a requirement's range is a yes, outside it a no.
                prohibits = bool(PROHIBIT.search(piece) or EXEMPT.search(GRANTED_EXCEPTION.sub("", piece))
                                 or NEGATED_GRANT.search(piece))
                if prohibits and outside:
                    continue
                answer = NO if prohibits or outside else YES
                return f"{answer[language]} {short(tidy(piece))}", unit
    return None
