"""Remembered facts restated in an answer as memory claims (never as citations)."""
from __future__ import annotations

import re
from dataclasses import replace

from answering.text import content_stems
from answering.types import AnswerDraft, Claim
from memory.extraction import memory_claim_text
from memory.services import RecalledMemory

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
