"""A shouted subject ("PEMBEBASAN PAJAK ATAS KENDARAAN BERMOTOR") in the casing a title reads in.

Indonesian titles capitalise each word except the small ones (``atas``, ``dan``,
``tentang`` …) and keep acronyms and roman numerals upper: "Pembebasan Pajak
atas Kendaraan Bermotor", "Perubahan atas Qanun Aceh Nomor 2 Tahun 2012 tentang
APBA", "Daerah Tingkat II". A subject the source already wrote in mixed case
is its own casing and is kept as written.
"""
from __future__ import annotations

import re

SMALL_WORDS = frozenset({
    "atas", "dan", "atau", "di", "ke", "dari", "yang", "untuk", "dengan", "pada", "tentang", "serta", "bagi",
    "dalam", "oleh", "terhadap", "sebagai", "kepada", "melalui", "tanpa", "antara", "per",
})
# Acronyms with vowels (the vowel-less ones, "PNS", "BBNKB", "RTH", are recognised by their letters).
ACRONYMS = frozenset({
    "APBA", "APBD", "APBK", "APBN", "ASN", "BAZNAS", "BI", "BPBA", "BPJS", "BPK", "BPKS", "BUMA", "BUMD", "BUMG",
    "BUMN", "COVID", "DAK", "DAU", "DOKA", "DPD", "DPR", "DPRA", "JKA", "JKN", "KIA", "KIP", "KPU", "KUHP", "LKS",
    "LPSE", "MAA", "MPU", "NKRI", "OJK", "PAD", "PAUD", "POLRI", "PPID", "RI", "SILPA", "SKPA", "SMA", "SMK", "SMP",
    "SD", "TNI", "UIN", "UKM", "UMK", "UMKM", "UMP", "UPTD", "UUD",
})
SHOUTING_SHARE = 0.7          # the share of upper-case letters identity.py's subject reader calls upper-case
_ROMAN = re.compile(r"X{0,3}(?:IX|IV|V?I{0,3})")
_VOWELS = set("AEIOU")
_WORD = re.compile(r"[A-Za-z]+")


def shouts(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return bool(letters) and sum(c.isupper() for c in letters) / len(letters) > SHOUTING_SHARE


def _word_case(word: str, first: bool) -> str:
    upper = word.upper()
    if upper in ACRONYMS or _ROMAN.fullmatch(upper):
        return upper
    if 2 <= len(upper) <= 5 and not _VOWELS & set(upper):
        return upper
    if not first and word.lower() in SMALL_WORDS:
        return word.lower()
    return upper[:1] + word[1:].lower()


def subject_title_case(subject: str) -> str:
    """``subject`` in title casing when it shouts; as written otherwise."""
    if not shouts(subject):
        return subject
    words = []
    for number, token in enumerate(subject.split(" ")):
        # Each run of letters is a word ("NON-BANK", "(APBA)", "ACEH,"); the punctuation around it stays.
        words.append(_WORD.sub(lambda m: _word_case(m.group(0), number == 0 and m.start() == 0), token))
    return " ".join(words)
