""""siapa saja …?" asks for the groups a rule lists ("diberikan kepada: a. … b. …"), not one person or office; a
question about who signed stays a signatory question. Every question and passage here is written for this file."""
from __future__ import annotations

from answering.extractive.focus import question_focus
from answering.extractive.synthesis import synthesise
from tests.answering.test_embedded_opener import passage

RECIPIENTS = passage("(1) Insentif daerah diberikan kepada:\na. guru honorer;\nb. tenaga kesehatan di puskesmas; dan\n"
                     "c. penyuluh pertanian lapangan.\n(2) Insentif daerah dibayarkan setiap triwulan.")


def test_siapa_saja_asks_for_a_list_and_who_signed_stays_a_signatory_question():
    assert question_focus("siapa aja yg bisa dapet insentif daerah?").kind == "list"
    assert question_focus("Siapa saja yang menandatangani qanun ini?").kind == "signatory"
    assert question_focus("Siapa yang berwenang menetapkan izin keramaian?").kind == "who"


def test_the_groups_a_rule_lists_answer_siapa_saja():
    draft = synthesise("siapa aja yg bisa dapet insentif daerah?", [RECIPIENTS])
    assert not draft.no_answer
    answer = " ".join(claim.text for claim in draft.claims)
    assert "guru honorer" in answer and "penyuluh pertanian lapangan" in answer
