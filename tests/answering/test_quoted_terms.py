"""A definition question's term is read as the question quotes it, and in the law's words: "what period does the
term 'conflict' cover?" asks for the definition of *konflik* (answering/extractive/focus.py, question.py)."""
from __future__ import annotations

import pytest

from answering.extractive.focus import focus_bonus, question_focus
from answering.extractive.question import read_question

DEFINITION = ("Konflik adalah konflik bersenjata di Aceh pada masa lalu dari tanggal 4 Desember 1976 sampai dengan "
              "15 Agustus 2006 yang mengakibatkan terjadinya pelanggaran HAM;")
OTHER = "Pedoman Pelaksanaan Reparasi menjadi pedoman bagi Satuan Kerja Perangkat Aceh dalam pelaksanaan reparasi."


@pytest.mark.parametrize("question", [
    "In Aceh's guidelines on reparations, what time period does the term 'conflict' cover?",
    "For Aceh's reparation programme, what time period counts as 'the conflict'?",
    "What does 'conflict' mean in Aceh's reparation guideline?",
    "What does \u2018conflict\u2019 refer to in the reparation guideline?",
])
def test_a_quoted_term_is_the_term_defined(question):
    focus = question_focus(question)
    assert focus.kind == "definition" and focus.term_stems == frozenset({"conflict"})


def test_an_apostrophe_opens_no_quote_and_a_quote_without_a_cue_asks_no_definition():
    assert question_focus("When did Aceh's 'reparation' programme start?").kind == "when"
    assert question_focus("Which office runs the 'Aceh Carong' scholarship?").kind != "definition"


def _law_words(text: str) -> dict[str, str]:
    # The glossary as retrieval gives it: "term" is an English entry too, so the cue itself changes.
    return {word: law for word, law in (("conflict", "konflik"), ("term", "masa jabatan")) if word in text}


def test_the_law_defines_the_term_in_its_own_words():
    question = read_question("In Aceh's guidelines, what time period does the term 'conflict' cover?",
                             expansions=_law_words)
    focus = question.focus
    assert focus.term_stems == frozenset({"conflict"}) and focus.law_term_stems == frozenset({"konflik"})
    assert focus.satisfied_by(DEFINITION) and not focus.satisfied_by(OTHER)
    assert focus_bonus(focus, DEFINITION, closing=False) > focus_bonus(focus, OTHER, closing=False)
    # Read without the glossary, the English term meets no Indonesian definition.
    bare = read_question("In Aceh's guidelines, what time period does the term 'conflict' cover?").focus
    assert not bare.satisfied_by(DEFINITION)


LEAD_IN = "(2) RSP Aceh sebagaimana dimaksud pada ayat (1) mencakup aspek: a. pengelolaan air limbah domestik;"
BESIDE = "(1) Rencana ini menjadi pedoman bagi Pemerintah Aceh dalam: a. melaksanakan sinkronisasi;"


def test_a_list_asked_with_an_english_verb_prefers_the_lead_in_that_says_it():
    # "Which aspects does … cover?" is a list question no list phrase names: its focus is the list whose lead-in
    # says what is asked, and "cover" is what the law's lead-in says with "mencakup" / "meliputi".
    question = read_question("Which aspects does Aceh's sanitation roadmap (RSP Aceh) cover?")
    assert question.asks == "list" and question.focus.kind == "list"
    assert focus_bonus(question.focus, LEAD_IN, closing=False) > focus_bonus(question.focus, BESIDE, closing=False)


def test_the_list_that_names_what_is_asked_leads_the_answer():
    from answering.extractive.ranker import fit_to_lead

    question = read_question("Which aspects does Aceh's sanitation roadmap (RSP Aceh) cover?")
    # A better-scored unit beside it does not lead: the list whose lead-in says what is asked does.
    assert fit_to_lead(question, LEAD_IN, 0.1) > fit_to_lead(question, BESIDE, 0.9)


RKPA = ("(3) RSP Aceh yang diintegrasikan dalam dokumen RKPA sebagaimana dimaksud pada ayat (1) huruf b, meliputi: "
        "a. program;")


def test_of_two_lists_naming_what_is_asked_the_one_naming_more_leads():
    from answering.extractive.ranker import fit_to_lead

    # Both lead-ins name the roadmap; only Pasal 4's says the aspects asked about, so it leads although the other
    # is better scored.
    question = read_question("Aspek apa saja yang dicakup RSP Aceh dalam pembangunan sanitasi?")
    assert question.focus.kind == "list"
    assert fit_to_lead(question, RKPA, 0.9)[0]
    assert fit_to_lead(question, LEAD_IN, 0.1) > fit_to_lead(question, RKPA, 0.9)


def test_words_every_question_says_do_not_make_a_list_the_one_asked():
    from answering.extractive.ranker import fit_to_lead

    # The scope list's lead-in says "pengaturan" and "qanun" (words of any question about a qanun); the rights'
    # lead-in says "hak perempuan", what is asked.
    question = read_question("Apa saja hak perempuan yang diatur dalam Qanun Aceh Nomor 4 Tahun 2025?")
    scope = "Ruang lingkup pengaturan dalam qanun ini meliputi: a. asas; b. hak dan kewajiban perempuan;"
    rights = "Hak Perempuan meliputi: a. hak bebas dari kekerasan dan tindakan diskriminasi;"
    assert fit_to_lead(question, rights, 0.1) > fit_to_lead(question, scope, 0.9)
