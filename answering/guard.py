"""Government Policy Guard: deterministic rules over the question and the answer.

Runs before retrieval on the question (so a blocked request reads nothing) and
again on the final answer (so retrieved text cannot smuggle out, say, an
identity number). The model-backed classifier of a later issue runs after
these rules, never instead of them.
"""
from __future__ import annotations

import re

from answering.types import GuardDecision

REFUSAL = "Permintaan tidak dapat dijawab karena melanggar kebijakan."

_GROUP = r"(suku|agama|ras|etnis|etnik|golongan|umat|kaum|orang (?:cina|tionghoa|jawa|aceh|batak|kristen|islam|hindu|buddha|yahudi)|kafir|non-?muslim|muslim|kristen|katolik|hindu|buddha|yahudi|tionghoa|pendatang)"
_HOSTILE = r"(bunuh|basmi|musnahkan|usir|serang|bakar|hancurkan|bantai|perangi|benci|singkirkan|habisi|ganyang)"

RULES: tuple[tuple[str, re.Pattern, str], ...] = (
    ("sara_incitement", re.compile(rf"\b{_HOSTILE}\w*\b.{{0,60}}\b{_GROUP}\b|\b{_GROUP}\b.{{0,40}}\b(harus|wajib|perlu|layak)\s+(di)?{_HOSTILE}", re.I | re.S), "both"),
    ("sara_incitement", re.compile(r"\b(kill|attack|expel|exterminate|hate)\b.{0,40}\b(muslims?|christians?|jews|chinese|hindus?|buddhists?|ethnic|religio\w*)\b", re.I | re.S), "both"),
    ("violence_weapons", re.compile(r"\b(cara|langkah|resep|tutorial|panduan)\b.{0,40}\b(membuat|merakit|meracik|bikin|membeli)\b.{0,30}\b(bom|senjata|bahan peledak|molotov|racun|pistol|senapan|granat|mesiu)\b", re.I | re.S), "question"),
    ("violence_weapons", re.compile(r"\b(how (?:to|do i|can i))\b.{0,30}\b(make|build|assemble|buy)\b.{0,30}\b(bomb|weapon|explosive|gun|poison|molotov)\b", re.I | re.S), "question"),
    ("personal_data", re.compile(r"\b(nik|nomor induk kependudukan|no\.? ?ktp|nomor ktp|nomor kk|kartu keluarga|nomor (?:hp|telepon|telp|rekening)|alamat rumah|tanggal lahir)\b.{0,60}\b(milik|punya|dari|atas nama|si|bapak|ibu|pak|bu|saudara|warga|seseorang|orang)\b", re.I | re.S), "question"),
    ("personal_data", re.compile(r"\b(cari|carikan|berikan|sebutkan|minta|bocorkan|tampilkan)\b.{0,30}\b(nik|nomor induk kependudukan|nomor ktp|no\.? ?ktp)\b", re.I | re.S), "question"),
    ("personal_data", re.compile(r"(?<!\d)\d{16}(?!\d)"), "answer"),
    ("partisan_campaign", re.compile(r"\b(pilih(lah)?|coblos|menangkan|dukung(lah)?|kampanyekan|jangan pilih|vote for)\b.{0,40}\b(partai|paslon|pasangan calon|calon|capres|cagub|cabup|cawalkot|caleg|nomor urut|candidate|party)\b", re.I | re.S), "both"),
    ("partisan_campaign", re.compile(r"\b(buat(kan)?|tulis(kan)?)\b.{0,30}\b(materi|slogan|pidato|ajakan)\s+kampanye\b", re.I | re.S), "question"),
    ("instruction_override", re.compile(r"\b(abaikan|lupakan|hiraukan|acuhkan)\b.{0,30}\b(semua\s+)?(instruksi|perintah|aturan|arahan|prompt)\b", re.I | re.S), "question"),
    ("instruction_override", re.compile(r"\b(ignore|disregard|forget)\b.{0,30}\b(all\s+|any\s+)?(previous|prior|above|earlier|your)\b.{0,20}\b(instructions?|rules|prompts?)\b", re.I | re.S), "question"),
    ("instruction_override", re.compile(r"\b(system prompt|prompt sistem|jailbreak|developer mode|mode pengembang)\b", re.I), "question"),
)


def _check(text: str, stage: str) -> GuardDecision:
    categories = []
    for category, pattern, applies in RULES:
        if applies in (stage, "both") and category not in categories and pattern.search(text):
            categories.append(category)
    return GuardDecision(blocked=bool(categories), categories=tuple(categories), stage=stage if categories else None)


def guard_question(question: str) -> GuardDecision:
    return _check(question, "question")


def guard_answer(answer: str) -> GuardDecision:
    return _check(answer, "answer")
