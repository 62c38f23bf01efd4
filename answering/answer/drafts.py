"""The embedded answerer's draft, the same on /query and /query/v2 (DESIGN.md "Answering").

In order: an upload-state question answered from the live inventory read (its lines whole, the bounded,
neutralised title lists included: seed "Workspace upload inventory"); a question about the user answered from
their memories; otherwise the extractive synthesiser, with relevant memories restated as memory claims.
"""
from __future__ import annotations

from dataclasses import replace

from answering.answer.memory import memory_answer, with_memory_claims
from answering.extractive.synthesis import synthesise
from answering.types import AnswerDraft, Claim, Passage
from memory.facade import RecalledMemory
from retrieval.facade.language import glossary_expansions

INVENTORY_TOOL = "corpus_inventory"


def inventory_draft(passages: list[Passage], language: str) -> AnswerDraft | None:
    """The inventory read as the answer: each of its lines a claim citing it. None unless the evidence is that
    one read (``EvidenceGatherer.gather`` reads nothing else for an upload-state question)."""
    if len(passages) != 1 or passages[0].citation.get("tool") != INVENTORY_TOOL:
        return None
    read = passages[0]
    claims = tuple(Claim(text=line.strip(), citation_keys=(read.label,)) for line in read.text.splitlines() if line.strip())
    return AnswerDraft(framing="", claims=claims, language=language)


# A who-signed or when-enacted question about an instrument whose text here ends before its closing block.
UNSIGNED = {
    "id": "Teks {titles} yang tersedia tidak memuat bagian penutupnya (tempat dan tanggal penetapan serta "
          "penandatangannya).",
    "en": "The available text of {titles} does not include its closing block (where and when it was enacted and who "
          "signed it).",
}


def deterministic_draft(context, passages: list[Passage], recalled: list[RecalledMemory], language: str) -> AnswerDraft:
    """``context``: the answer's ``AnswerContext`` (its question and evidence)."""
    question, evidence = context.question, context.evidence
    draft = (inventory_draft(passages, language) or memory_answer(recalled, question, language) or with_memory_claims(
        synthesise(question, passages, language=language, absent_words=evidence.absent_words,
                   expansions=glossary_expansions, semantic=evidence.semantic()), recalled, question))
    if draft.no_answer and evidence.unsigned:
        wording = UNSIGNED.get(draft.language, UNSIGNED["id"])
        draft = replace(draft, pointer=wording.format(titles=", ".join(evidence.unsigned)))
    return draft
