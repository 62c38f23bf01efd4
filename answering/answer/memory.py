"""Remembered facts restated in an answer as memory claims (never as citations)."""
from __future__ import annotations

import re
from dataclasses import replace

from answering.text import content_stems
from answering.types import AnswerDraft, Claim
from memory.facade import memory_claim_text
from memory.facade import RecalledMemory

FIRST_PERSON = re.compile(r"\b(saya|aku|kami|my|me|i)\b", re.I)


def with_memory_claims(draft: AnswerDraft, recalled: list[RecalledMemory], question: str) -> AnswerDraft:
    """Restate relevant remembered facts as memory claims (never as citations)."""
    if draft.no_answer or not recalled:
        return draft
    question_stems = content_stems(question)
    personal = bool(FIRST_PERSON.search(question))
    claims = []
    for memory in recalled:
        if memory.memory_type == "preference":
            continue
        if not (personal or question_stems & content_stems(memory.text)):
            continue
        text = memory_claim_text(memory.slot, memory.text, draft.language)
        if text:
            claims.append(Claim(text=text, citation_keys=("memory",), memory_id=memory.id))
    return replace(draft, claims=draft.claims + tuple(claims)) if claims else draft


def memory_labels(recalled: list[RecalledMemory]) -> dict[str, int]:
    """M1, M2, … for the memories shown to the agent."""
    return {f"M{number}": memory.id for number, memory in enumerate(recalled, start=1)}


# A question about the user's own remembered fact ("Di mana saya bekerja?", "What is my job?"): the memory
# answers it, and no regulation does (a law's "Wilayah Kerja" is not where the user works).
ABOUT_SELF = {
    "workplace": re.compile(r"\b(?:di\s*mana|dimana|where)\b.{0,30}\b(?:saya|aku|i)\s+(?:bekerja|kerja|work)\b|"
                            r"\b(?:tempat|kantor|instansi|unit)\s+(?:kerja\s+)?(?:saya|aku)\b|\bwhere\s+do\s+i\s+work\b",
                            re.I),
    "role": re.compile(r"\b(?:pekerjaan|jabatan|profesi|peran)\s+(?:saya|aku)\b|\bmy\s+(?:job|role|position)\b", re.I),
}


def asks_about_self(question: str) -> bool:
    """The question asks for one of the user's own remembered facts (where they work, their role)."""
    return any(pattern.search(question) for pattern in ABOUT_SELF.values())


def memory_answer(recalled: list[RecalledMemory], question: str, language: str) -> AnswerDraft | None:
    """The draft that answers a question about the user from their memories alone; None when it is not one."""
    slots = {slot for slot, pattern in ABOUT_SELF.items() if pattern.search(question)}
    claims = []
    for memory in recalled:
        if memory.slot in slots and (text := memory_claim_text(memory.slot, memory.text, language)):
            claims.append(Claim(text=text, citation_keys=("memory",), memory_id=memory.id))
    return AnswerDraft(framing="", claims=tuple(claims), language=language) if claims else None


def memory_only_answer(draft: AnswerDraft, recalled: list[RecalledMemory], question: str,
                       language: str) -> AnswerDraft | None:
    """The agent answered a question about the user only by restating their memories: the seed's verified
    pure-memory answer, published as the stored memories' own restatement (``memory_answer``), so no model
    wording is published unchecked. None when the draft cites anything else or the question is not one."""
    if not draft.claims or not all(claim.is_memory for claim in draft.claims):
        return None
    own = memory_answer(recalled, question, language)
    return replace(own, mode=draft.mode) if own else None
