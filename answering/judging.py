"""Judges: does a cited passage support a segment, and does framing assert anything?

Shared by v1, v2 and the model-backed path. A judge sees a segment, what the
reader sees around it and the passages it cites (each with its document
identity line), never the question. The deterministic implementations here are
the embedded defaults; a model-backed judge implements the same protocols.
"""
from __future__ import annotations

import re
from typing import Iterable, Mapping, Protocol

from answering.attribution import SourceIdentity, attribution, attributes_to
from answering.faithfulness import judge_claim
from answering.text import content_stems
from answering.types import JUDGE_FAILURE_REASONS, Claim, JudgeFailure, JudgeItem  # noqa: F401  (judges' vocabulary)

SUPPORTED, UNSUPPORTED = "supported", "unsupported"


class Judge(Protocol):
    mechanism: str

    def judge_batch(self, items: list[JudgeItem]) -> dict[int, str | None]:
        """Per item index: "supported", "unsupported" or None (no usable verdict). Raises JudgeFailure."""

    def recheck(self, item: JudgeItem) -> str | None:
        """One segment judged alone, to confirm an "unsupported". Raises JudgeFailure."""


class FramingChecker(Protocol):
    def check(self, question: str, framing: list[tuple[int, str]]) -> set[int]:
        """Indexes of framing segments that state a fact needing a citation or answer the question.

        Raises JudgeFailure.
        """


class DeterministicJudge:
    """v1's rule: the segment's content words are in its passages, and every figure with its scale, unit and year.

    A framing line that names its source ("Berdasarkan Qanun Aceh Nomor 1 Tahun 2024 Pasal 8:") is checked
    against the identities of the passages it cites instead (``identities``: citation key -> identity): it is
    supported when one of them is that regulation and article. Without an identity it is judged as a fact.
    """

    mechanism = "deterministic-coverage-v1"

    def __init__(self, identities: Mapping[str, SourceIdentity] | None = None):
        self.identities = dict(identities or {})

    def judge_batch(self, items: list[JudgeItem]) -> dict[int, str | None]:
        return {item.index: self._judge(item) for item in items}

    def recheck(self, item: JudgeItem) -> str | None:
        return self._judge(item)

    def _judge(self, item: JudgeItem) -> str:
        named = attribution(item.text) if item.kind == "framing" else None
        known = all(key in self.identities for key in item.passages)
        if item.kind == "framing" and known and any(self.identities[k].is_named_by(item.text) for k in item.passages):
            supported = True          # a heading that is the cited passage's own identity
        elif named is not None and known:
            supported = any(attributes_to(named, self.identities[key]) for key in item.passages)
        else:
            supported = judge_claim(Claim(text=item.text, citation_keys=tuple(item.passages)), item.passages).supported
        return SUPPORTED if supported else UNSUPPORTED


# Words that lead in, greet, or point at the sources without asserting anything (stemmed before use).
LEAD_IN_WORDS = (
    "berikut rincian ringkasan rangkuman penjelasan uraian informasi data datanya jawaban hasil poin hal beberapa utama "
    "penting lengkap singkat lebih lanjut mengenai tentang terkait sebagai yaitu yakni antara lain seperti "
    "berdasarkan menurut dokumen sumber referensi rujukan tersedia ditemukan temukan disebutkan dijelaskan diatur "
    "tercantum tertulis lihat tabel daftar pencarian pertanyaan anda kami saya bisa dapat ada bantu membantu "
    "halo hai selamat pagi siang sore malam terima kasih maaf silakan mohon tidak belum sayangnya namun "
    "aceh pemerintah qanun peraturan "
    "here is are following summary details based on according documents document sources source hello hi thanks "
    "thank you sorry please not found information below"
)
NUMBER_WORDS = frozenset(
    "satu dua tiga empat lima enam tujuh delapan sembilan sepuluh sebelas belas puluh ratus ribu juta miliar "
    "milyar triliun pertama kedua ketiga keempat kelima setengah separuh januari februari maret april mei juni "
    "juli agustus september oktober november desember".split()
)
MAX_LEAD_IN_CONTENT_WORDS = 4
_DIGIT = re.compile(r"\d")
_WORD = re.compile(r"[^\W\d_]+")
# "Ya, …", "Tidak. …", "Benar!": a direct answer to a yes/no question.
_YES_NO_ANSWER = re.compile(r"^\s*(ya|tidak|benar|betul|bukan|salah|yes|no|correct)\s*[,.!;:]", re.I)


class DeterministicFramingChecker:
    """Flags framing that asserts something, so it is shown uncited instead of as framing.

    A framing segment is checkable when it
    - states a figure, number or date (a digit, a number word, a month), or
    - answers a yes/no question ("Ya, …", "Tidak, …"), or
    - after dropping lead-in words ("Berikut", "berdasarkan dokumen", greetings,
      "tidak ditemukan dalam dokumen", generic words such as "Aceh"), still
      shares a content word with the question, or has more than
      MAX_LEAD_IN_CONTENT_WORDS content words left.
    It errs towards checkable: a false positive only shows a lead-in as uncited.
    """

    def __init__(self, lead_in_words: Iterable[str] = LEAD_IN_WORDS.split()):
        self.lead_in_stems = content_stems(" ".join(lead_in_words))

    def check(self, question: str, framing: list[tuple[int, str]]) -> set[int]:
        question_stems = content_stems(question) - self.lead_in_stems
        return {index for index, text in framing if self._checkable(text, question_stems)}

    def _checkable(self, text: str, question_stems: set[str]) -> bool:
        words = {word.lower() for word in _WORD.findall(text)}
        if _DIGIT.search(text) or words & NUMBER_WORDS or _YES_NO_ANSWER.match(text):
            return True
        asserted = content_stems(text) - self.lead_in_stems
        return bool(asserted & question_stems) or len(asserted) > MAX_LEAD_IN_CONTENT_WORDS
