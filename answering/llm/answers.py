"""Parsing the agent's final answer into the pipeline's draft.

/query asks for labelled prose ("… adalah Rp2.000 [P1]."): each sentence with
labels becomes a claim citing them, unlabelled sentences before the first
claim are framing, and later unlabelled sentences are claims that cite
nothing (the gate drops them). Memory labels (M1, …) cite a remembered fact.
Malformed output raises ``ValueError`` so the agent regenerates once.
"""
from __future__ import annotations

import re
from typing import Mapping

from answering.types import AnswerDraft, Claim

LABEL_GROUP = re.compile(r"\s*\[((?:[PMH]\d+)(?:\s*[,;]\s*[PMH]\d+)*)\]")
# A sentence ends at . ! ? before a capital (not inside "Rp2.000" or "No. 6") or at a line break.
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])|\n+")
_DANGLING = re.compile(r"\[(?:[PMH]\d*)?(?:[^\]]*)$|\[\s*P\d+[^\]\d,; ]")
_MARKUP = re.compile(r"^\s*(```|\{|\[\s*\{|<tool_call>|<\|)")


def parse_prose_answer(content: str, *, memory_ids: Mapping[str, int], language: str,
                       history_ids: Mapping[str, int] | None = None) -> AnswerDraft:
    """``history_ids``: the earlier exchanges' labels (H1, …) → their zero-based exchange index."""
    history_ids = history_ids or {}
    text = (content or "").strip()
    if not text:
        # Not a format error to regenerate: the gate refuses it as empty_completion.
        return AnswerDraft(framing="", claims=(), language=language, mode="model-agent")
    if _MARKUP.match(text):
        raise ValueError("the answer is JSON or markup, not prose")
    if _DANGLING.search(text):
        raise ValueError("a source label is not closed, as in [P1]")
    framing: list[str] = []
    claims: list[Claim] = []
    for sentence in _SENTENCE_BREAK.split(text):
        sentence = sentence.strip().lstrip("-* ").strip()
        if not sentence:
            continue
        keys = [key for group in LABEL_GROUP.findall(sentence) for key in re.split(r"\s*[,;]\s*", group)]
        bare = re.sub(r"\s+([.!?])", r"\1", LABEL_GROUP.sub("", sentence)).strip()
        if not bare:
            continue
        if not keys and not claims:
            framing.append(bare)
            continue
        memory = [memory_ids[k] for k in keys if k in memory_ids]
        turns = [history_ids[k] for k in keys if k in history_ids]
        if turns and all(k.startswith("H") for k in keys):
            # Restates an earlier exchange: conversation provenance, verified against no source.
            claims.append(Claim(text=bare, citation_keys=("history",), turn_index=turns[0]))
        elif memory and all(k.startswith("M") for k in keys):
            claims.append(Claim(text=bare, citation_keys=("memory",), memory_id=memory[0]))
        else:
            claims.append(Claim(text=bare, citation_keys=tuple(dict.fromkeys(k for k in keys if k.startswith("P")))))
    return AnswerDraft(framing=" ".join(framing), claims=tuple(claims), language=language, mode="model-agent")
