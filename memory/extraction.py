"""Deterministic memory extraction from the user's own words (embedded default).

Each pattern names a *slot*; a new value for a slot supersedes the old one,
the same value reinforces it. Only the question text is read: nothing from
the corpus or the assistant's answer becomes a memory.
"""
from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class MemoryCandidate:
    memory_type: str
    slot: str
    text: str
    importance: float


LANGUAGES = {"inggris": "English", "english": "English", "indonesia": "Indonesian", "indonesian": "Indonesian"}
_LANGUAGE = re.compile(
    r"\b(?:jawab(?:lah)?|balas(?:lah)?|gunakan|pakai)\b.{0,20}\bbahasa\s+(inggris|indonesia)\b"
    r"|\b(?:answer|reply|respond)\b.{0,20}\bin\s+(english|indonesian)\b",
    re.I,
)
_LENGTH = re.compile(r"\b(?:saya|aku)\s+(?:lebih\s+)?(?:suka|ingin|mau)\s+jawaban\s+(?:yang\s+)?(singkat|ringkas|rinci|detail|panjang)\b", re.I)
_WORKPLACE = re.compile(
    r"\b(?i:saya|aku)\s+(?i:bekerja|kerja|bertugas|berdinas)\s+(?i:di|pada)\s+(?P<id>[A-Z][\w&.\- ]{1,60}?)(?=[,.;!?]|\s+(?:dan|sebagai|yang)\b|$)"
    r"|\bI\s+(?i:work)\s+(?i:at|for|in)\s+(?:(?i:the)\s+)?(?P<en>[A-Z][\w&.\- ]{1,60}?)(?=[,.;!?]|\s+(?:and|as)\b|$)",
)
_ROLE = re.compile(r"\b(?:saya|aku)\s+(?:adalah\s+)?(?:seorang\s+)(?P<role>[a-z][\w\- ]{2,40}?)(?=[,.;!?]|\s+(?:di|dan|yang)\b|$)", re.I)
_REMEMBER = re.compile(r"\b(?:ingat(?:lah)?\s+bahwa|tolong\s+ingat|remember\s+that)\s+(?P<fact>.{5,200}?)(?:[.!?]|$)", re.I)
LENGTH_WORDS = {"singkat": "short", "ringkas": "short", "rinci": "detailed", "detail": "detailed", "panjang": "detailed"}


def extract_memories(question: str) -> list[MemoryCandidate]:
    found: list[MemoryCandidate] = []
    if match := _LANGUAGE.search(question):
        language = LANGUAGES[(match.group(1) or match.group(2)).lower()]
        found.append(MemoryCandidate("preference", "answer_language", f"Prefers answers in {language}.", 0.8))
    if match := _LENGTH.search(question):
        length = LENGTH_WORDS[match.group(1).lower()]
        found.append(MemoryCandidate("preference", "answer_length", f"Prefers {length} answers.", 0.6))
    if match := _WORKPLACE.search(question):
        place = " ".join((match.group("id") or match.group("en")).split())
        found.append(MemoryCandidate("fact", "workplace", f"Works at {place}.", 0.7))
    if match := _ROLE.search(question):
        found.append(MemoryCandidate("fact", "role", f"Is a {' '.join(match.group('role').split())}.", 0.5))
    if match := _REMEMBER.search(question):
        found.append(MemoryCandidate("reflection", "", match.group("fact").strip().rstrip(".") + ".", 0.6))
    return found


def preferred_language(texts: list[str]) -> str | None:
    for text in texts:
        if text == "Prefers answers in English.":
            return "en"
        if text == "Prefers answers in Indonesian.":
            return "id"
    return None


MEMORY_CLAIM = {
    "workplace": {"id": "Anda menyebutkan bahwa Anda bekerja di {value}.", "en": "You mentioned that you work at {value}."},
    "role": {"id": "Anda menyebutkan bahwa Anda seorang {value}.", "en": "You mentioned that you are a {value}."},
    "": {"id": "Anda meminta saya mengingat: {value}", "en": "You asked me to remember: {value}"},
}
_VALUE = re.compile(r"^(?:Works at|Is a)\s+(?P<value>.+?)\.?$")


def memory_claim_text(slot: str, text: str, language: str) -> str | None:
    """The sentence that restates a memory in an answer; None for preferences."""
    templates = MEMORY_CLAIM.get(slot)
    if templates is None:
        return None
    match = _VALUE.match(text)
    value = match.group("value") if match and slot else text
    return templates.get(language, templates["id"]).format(value=value)
