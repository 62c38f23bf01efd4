"""Text normalisation shared by the answer step, the gate, the judges and the evaluation harness.

NFKC and lower case; content words are the tokens that are not stop words or bare
digits, each reduced by a light Indonesian stemmer (prefixes me-/di-/ber-/…,
suffixes -kan/-an/-i, the enclitic -nya), enough to match ``diumumkan`` with
``mengumumkan``.
"""
from __future__ import annotations

import re
import unicodedata
from collections import Counter

_TOKEN = re.compile(r"[^\W_]+", re.UNICODE)
STOP = frozenset(
    "yang dan di ke dari untuk dengan pada atau ini itu adalah dalam oleh akan bagi sebagai tersebut "
    "dapat harus wajib paling sebagaimana dimaksud ayat pasal huruf angka serta juga the of and to in a is are".split()
)
_PREFIXES = ("meng", "meny", "mem", "men", "me", "peng", "peny", "pem", "pen", "pe", "ber", "be", "ter", "di", "ke", "se")
_SUFFIXES = ("kan", "an", "lah", "kah", "i")
ENCLITIC = "nya"


def normalise(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def stem(word: str) -> str:
    """A light Indonesian stemmer: enough to match ``diumumkan`` with ``mengumumkan``.

    The enclitic "-nya" comes off first, so a word and its "-nya" form share a stem
    (``menandatanganinya`` and ``menandatangani``).
    """
    if len(word) > len(ENCLITIC) + 4 and word.endswith(ENCLITIC):
        word = word[: -len(ENCLITIC)]
    for suffix in _SUFFIXES:
        if len(word) > len(suffix) + 4 and word.endswith(suffix):
            word = word[: -len(suffix)]
            break
    for prefix in _PREFIXES:
        if len(word) > len(prefix) + 3 and word.startswith(prefix):
            return word[len(prefix):]
    return word


def content_stems(text: str) -> set[str]:
    return {stem(token) for token in _TOKEN.findall(normalise(text)) if token not in STOP and not token.isdigit()}


def stem_sequence(text: str) -> list[str]:
    """The content stems of ``text`` in reading order (``content_stems`` as a sequence)."""
    return [stem(token) for token in _TOKEN.findall(normalise(text)) if token not in STOP and not token.isdigit()]


PHRASE_SLACK = 1       # other content words a phrase's words may have between them ("pendidikan formal tinggi")


def carries_phrase(phrase: list[str], sequence: list[str], slack: int = PHRASE_SLACK) -> bool:
    """The phrase's stems occur in ``sequence`` in order, at most ``slack`` other stems between each two: "pendidikan
    tinggi" is carried by "… jenjang pendidikan tinggi …", not by "… pendidikan … paling tinggi …"."""
    if not phrase:
        return True
    for start, word in enumerate(sequence):
        if word != phrase[0]:
            continue
        at = start
        for wanted in phrase[1:]:
            window = sequence[at + 1:at + 2 + slack]
            if wanted not in window:
                break
            at += 1 + window.index(wanted)
        else:
            return True
    return False


# A sentence ends at ".", "!" or "?" before a space, except the abbreviation "No." before its number ("Law No. 17
# of 2003", "UU No. 13 Tahun 2003"): split there, "17 of 2003 on State Finance?" read as the question asked.
_SENTENCE_END = re.compile(r"(?<=[.!?])(?<!\bno\.)\s+", re.I)


def sentences(text: str) -> list[str]:
    return [sentence for sentence in _SENTENCE_END.split(text.strip()) if sentence.strip()]


def asking_sentences(text: str) -> list[str]:
    """The sentences that ask (end in "?"), in order."""
    return [sentence for sentence in sentences(text) if sentence.rstrip().endswith("?")]


# "Penerimaan Negara Bukan Pajak", "non-Muslim", "bukan pegawai": a noun named as its complement, another class.
_COMPLEMENT = re.compile(r"\b(?:bukan|non)[\s-]+([^\W\d_]+)", re.I)


def complement_stems(text: str) -> set[str]:
    """The stems ``text`` names only as a complement ("bukan pajak", "non-PNS"): never once outside that form."""
    named = Counter(stem_sequence(text))
    complements = Counter(s for word in _COMPLEMENT.findall(text) for s in stem_sequence(word))
    return {s for s, count in complements.items() if named[s] <= count}
