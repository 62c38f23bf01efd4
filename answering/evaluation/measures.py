"""How a reader judges an answer against the gold of ``../shared/quality/``.

- The answer text *carries* a gold evidence when it holds at least
  EVIDENCE_COVERAGE of the evidence's content words (normalised, stemmed): a
  good answer quotes or restates the passage.
- The *first sentence* carries what was asked when it holds what the gold
  answer's first sentence states: a figure (the same value, whatever its
  notation: "Rp50 juta" = "Rp50.000.000,00"), a date, a person's name, or the
  yes/no (the gold's opening word against the answer's polarity). Which of
  these a question asks is read from its style tags and kind.
"""
from __future__ import annotations

import re

from answering.extractive.dates import MONTH_NUMBER
from answering.faithfulness import quantities
from answering.text import content_stems

EVIDENCE_COVERAGE = 0.8
LABEL = re.compile(r"\s*\[(?:chunk:[0-9a-f-]{36}|[PM]\d+|memory|history)\]")
MONTHS = tuple(MONTH_NUMBER)         # Indonesian (old spellings too) and English
_DATE = re.compile(r"\b(\d{1,2})\s+(" + "|".join(MONTHS) + r")\s+(\d{4})\b", re.I)
_NAME_WORD = re.compile(r"\b[A-Z][a-z]{2,}\b")
# Capitalised words that are offices, places, instruments or calendar words, not a person's name.
NOT_NAMES = frozenset((
    "aceh gubernur presiden republik indonesia menteri wakil kepala ketua bupati walikota wali kota dewan "
    "undang peraturan pemerintah keputusan instruksi qanun pergub kepgub ingub nomor tahun pasal ayat huruf "
    "banda jakarta ditetapkan diundangkan disahkan ditandatangani pada tanggal oleh dan yang the law act "
    "jumadil rajab rabiul syakban syawal ramadhan muharram safar zulhijjah zulkaidah awal akhir tidak benar "
    "hak asasi manusia hukum dalam negeri sekretaris daerah negara " + " ".join(MONTHS)).split())
NEGATIVE = re.compile(r"^\W*(tidak|tak|bukan|no|not|dilarang|jangan|belum)\b", re.I)
POSITIVE = re.compile(r"^\W*(ya|iya|yes|benar|betul|boleh|bisa|dapat|wajib|berhak|harus|sudah|masih)\b", re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z*(\[])|\n")
ASKS_FIGURE = {"figure", "duration"}
ASKS_DATE = {"when"}
ASKS_NAME = {"who", "signed"}


def plain(answer: str) -> str:
    """The answer as a reader sees it: no citation labels, no Markdown emphasis."""
    return LABEL.sub("", answer).replace("**", "")


def first_sentence(answer: str) -> str:
    text = plain(answer).strip()
    for line in text.splitlines():
        if line.strip():
            text = line.strip()
            break
    parts = _SENTENCE_END.split(text, maxsplit=2)
    if len(parts) > 1 and polarity(parts[0]) and len(parts[0].split()) == 1:
        return f"{parts[0]} {parts[1]}"      # "Tidak. Pengusaha dilarang …": the yes/no and its clause
    return parts[0]


def carries(evidence: str, text: str) -> bool:
    wanted = content_stems(evidence)
    return bool(wanted) and len(wanted & content_stems(text)) / len(wanted) >= EVIDENCE_COVERAGE


def asked_kinds(kind: str, styles: list[str]) -> set[str]:
    """What a first sentence must carry: "figure", "date", "name", "yesno" (empty: none of these)."""
    styles = set(styles)
    asked = set()
    if styles & ASKS_FIGURE:
        asked.add("figure")
    if styles & ASKS_DATE:
        asked.add("date")
    if styles & ASKS_NAME:
        asked.add("name")
    if "yes-no" in styles or kind == "yes-no":
        asked.add("yesno")
    return asked


def polarity(text: str) -> str | None:
    if NEGATIVE.match(text):
        return "no"
    if POSITIVE.match(text):
        return "yes"
    return None


# "(Pasal 49 ayat (1))", "(UU Nomor 13 Tahun 2003 Pasal 60)": where the gold says its source, not a figure it states.
_CITATION = re.compile(r"\((?:[^()]|\([^()]*\))*\b(?:Pasal|Article|ayat|Diktum|Nomor|No\.|Elucidation|Penjelasan)\b"
                       r"(?:[^()]|\([^()]*\))*\)", re.I)

# "Undang-Undang Nomor 20 Tahun 2003", "UU 11/2006": an instrument's number in the question is not a figure it asks.
_INSTRUMENT_NUMBER = re.compile(r"\b(?:Nomor|No\.?|Number)\s*[\w./-]+|\b\d+\s*/\s*\d{4}\b", re.I)


def _values(text: str, question: str) -> set[float]:
    asked = {q.value for q in quantities(_INSTRUMENT_NUMBER.sub(" ", question))}
    text = _CITATION.sub(" ", text)
    return {q.value for q in quantities(text) if q.value not in asked and not 1900 <= q.value <= 2100}


# One date in any of its spellings: "29 Nopember 1956" = "29 November 1956" = "29 November 1956" in English.
def _dates(text: str) -> set[tuple[str, str, str]]:
    return {(str(int(d)), str(MONTH_NUMBER[m.lower()]), y) for d, m, y in _DATE.findall(text)}


def _names(text: str, question: str) -> set[str]:
    asked = {w.lower() for w in re.findall(r"\w+", question)}
    return {w.lower() for w in _NAME_WORD.findall(text) if w.lower() not in NOT_NAMES and w.lower() not in asked}


def first_sentence_verdicts(question: str, gold_answer: str, answer: str, asked: set[str]) -> dict[str, bool]:
    """Per asked kind the gold states: does the answer's first sentence carry it?"""
    gold = first_sentence(gold_answer)
    ours = first_sentence(answer)
    verdicts: dict[str, bool] = {}
    if "yesno" in asked and (wanted := polarity(gold)):
        verdicts["yesno"] = polarity(ours) == wanted
    if "figure" in asked and (wanted := _values(gold, question)):
        verdicts["figure"] = bool(wanted & {q.value for q in quantities(ours)})
    if "date" in asked and (wanted := _dates(gold)):
        verdicts["date"] = bool(wanted & _dates(ours))
    if "name" in asked:
        if wanted := _names(gold, question):
            verdicts["name"] = bool(wanted & {w.lower() for w in _NAME_WORD.findall(ours)})
        elif wanted := _dates(gold):
            verdicts["name"] = bool(wanted & _dates(ours))
    return verdicts

