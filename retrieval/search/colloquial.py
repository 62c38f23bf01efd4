"""Colloquial Indonesian verbs read as the law's words: "nanggepin" is *menanggapi*, "mutusin" *memutuskan*.

Everyday Indonesian (the Jakarta register most citizens write in) builds verbs with a bare nasal prefix and the
suffix *-in* where the law writes *meN-…-i/-kan*, opens a closed final syllable's vowel to *e* ("dapet",
"tanggep"), says a final diphthong as one vowel ("sampe", "kalo") and drops an h between vowels ("taun", "liat"). The glossary lists fixed colloquial words ("yg", "brp", "gimana"); this reads the
productive ones by morphology, so a verb no list holds still meets the passage that uses its formal form; for the
sentence the semantic leg embeds, the Colloquial Indonesian Lexicon (Salsabila et al. 2018, 4,331 chat spellings
and abbreviations, shipped in ``indoNLP``) reads the fixed ones no glossary row holds ("tgl", "kpn", "sblm").
``formal_forms`` gives the candidate formal words of one word (none for a word that shows no colloquial form);
each candidate is a guess that only counts where the corpus or the cited passage actually has it:
``formal_terms`` puts, in the lexical leg's query, the first form the corpus uses in place of a colloquial word
it never uses; ``formal_wording`` does the same in place, for the sentence the semantic leg embeds.
"""
from __future__ import annotations

import functools
import re
import threading
import time

from django.conf import settings
from django.db import connection
from indoNLP.preprocessing.slang_data import SLANG_DATA

from retrieval.search.lexeme_stats import common_lexemes, word_lexemes

MAX_FORMS = 24
_VOWEL = "aeiou"
_OPENED = re.compile(r"^(?P<head>.*[^aeiou]?)e(?P<coda>[^aeiou]{1,2})$")
_DROPPED_H = re.compile(r"(?<=[^aeiou])(?:a[iu]|i[au]|u[a])(?=[^aeiou]?$)")


def _bare(word: str) -> list[str]:
    """The word without its colloquial suffix, with a closed final syllable's e read back as a, a final e or o
    after a consonant read back as the diphthong it stands for, and a dropped h between two vowels put back."""
    bases = [word]
    if word.endswith("in") and len(word) > 5 and word[-3] not in _VOWEL + "y":
        bases.append(word[:-2])                            # mutusin -> mutus
    for base in list(bases):
        if (opened := _OPENED.match(base)) and len(base) > 3:
            bases.append(f"{opened['head']}a{opened['coda']}")   # nanggep -> nanggap, dapet -> dapat
    if len(word) > 3 and word[-1] in "eo" and word[-2] not in _VOWEL:
        bases.append(word[:-1] + ("ai" if word[-1] == "e" else "au"))   # sampe -> sampai, kalo -> kalau
    if dropped := _DROPPED_H.search(word):   # in the last syllable only: "aduannya", "keuangan" keep theirs
        bases.append(f"{word[:dropped.start() + 1]}h{word[dropped.start() + 1:]}")   # taun -> tahun, liat -> lihat
    return bases


def _roots(base: str) -> list[str]:
    """The formal prefixed verb and the root a bare nasal prefix (or nge-) stands for (ng-adu: mengadu, adu,
    kadu)."""
    if base.startswith("nge") and len(base) > 5 and base[3] not in _VOWEL:
        return ["me" + base[3:], base[3:]]                    # nge-bayar: membayar, bayar
    if base.startswith("ng") and len(base) > 4 and base[2] in _VOWEL:
        return ["me" + base, base[2:], "k" + base[2:]]
    if base.startswith("ny") and len(base) > 4 and base[2] in _VOWEL:
        return ["me" + base, "s" + base[2:], "c" + base[2:]]
    if base[:1] in "mn" and len(base) > 4 and base[1] in _VOWEL and not base.startswith(("me", "ne")):
        return ["me" + base, ("p" if base[0] == "m" else "t") + base[1:]]
    return []


@functools.lru_cache(maxsize=8192)
def formal_forms(word: str) -> tuple[str, ...]:
    """Candidate formal words for a colloquial ``word`` (lower-cased), most likely first; () when it shows no
    colloquial form (no -in suffix, no bare nasal prefix, no opened vowel)."""
    word = word.lower()
    forms: list[str] = []
    for base in reversed(_bare(word)):          # the most read-back base first
        roots = _roots(base)
        heads = roots + ([base] if base != word else [])
        if base != word or roots:
            forms += heads + [head + suffix for head in heads for suffix in ("i", "kan")]
    return tuple(dict.fromkeys(f for f in forms if f != word))[:MAX_FORMS]


# A word whose lexemes are all among the statistics' common ones is present without a scan; the others are looked
# up through the full-text index (an EXISTS through the GIN index reads every match first: 100-170 ms for a common
# word at 1M chunks, a rare word's short list costs little). Sending the 5,050 common lexemes with the statement
# cost ~3 ms of every question at 1M, so the words' lexemes (``word_lexemes``, remembered) are compared with the
# statistics this process already holds.
_EXISTS_SQL = """
SELECT w FROM unnest(%s::text[]) AS w
WHERE EXISTS (SELECT 1 FROM retrieval_chunk WHERE search_vector @@ plainto_tsquery('indonesian', w))
"""
_lock = threading.Lock()
_present_cache: dict[tuple[str, str], tuple[float, bool]] = {}


def _present(words: list[str]) -> set[str]:
    """The words some passage contains (``indonesian`` stemming; remembered briefly)."""
    now, alias = time.monotonic(), connection.alias
    ttl = settings.ACEH_RAG.retrieval.lexeme_statistics_ttl_seconds
    with _lock:
        known = {w: hit[1] for w in words if (hit := _present_cache.get((alias, w))) and now - hit[0] < ttl}
    asked = [w for w in dict.fromkeys(words) if w not in known]
    if asked:
        common = common_lexemes()[0]
        lexemes = word_lexemes(asked)
        found = {w for w in asked if lexemes.get(w) and all(lexeme in common for lexeme in lexemes[w])}
        rare = [w for w in asked if w not in found]
        if rare:
            with connection.cursor() as cursor:
                cursor.execute(_EXISTS_SQL, [rare])
                found |= {row[0] for row in cursor.fetchall()}
        with _lock:
            for word in asked:
                _present_cache[(alias, word)] = (now, word in found)
                known[word] = word in found
    return {w for w in words if known.get(w)}


def present_words(words: list[str]) -> set[str]:
    """The words (lower-cased) some passage contains."""
    return _present(words)


def forget_present_words() -> None:
    with _lock:
        _present_cache.clear()


def formal_terms(terms: list[str], forms_of=formal_forms) -> list[str]:
    """The lexical leg's terms with each colloquial word the corpus never uses replaced by the first of its formal
    forms (``forms_of``) the corpus does use ("nanggepin" -> "menanggap"); every other term as it was. Which words
    the corpus uses is read over every passage, not the caller's: it only chooses the words searched, and what a
    search returns is filtered by access as always."""
    forms = {term: forms_of(term) for term in terms}
    if not any(forms.values()):
        return terms
    # Only a word with forms can change: the others' presence is not read.
    present = _present([*(t for t in terms if forms[t]), *(f for fs in forms.values() for f in fs)])
    return [term if term in present or not forms[term] else next((f for f in forms[term] if f in present), term)
            for term in terms]


_WORD = re.compile(r"\w+")


def _wording_forms(word: str) -> tuple[str, ...]:
    """The lexicon's formal word ("tgl": tanggal, "kpn": kapan) first, then the morphology's."""
    listed = SLANG_DATA.get(word)
    return (listed, *formal_forms(word)) if listed and listed != word else formal_forms(word)


def formal_wording(text: str) -> str:
    """``text`` with each colloquial word the corpus never uses in the formal form it does use, in place, the other
    words as written: the sentence a model reads in the law's register ("mulai tgl brp sampe" -> "mulai tanggal
    berapa sampai"). The lexicon's forms count here only, for the sentence embedded (in the lexical query and the
    answer check they changed nothing or published wrongly: docs/retrieval.md, session 23)."""
    words = list(dict.fromkeys(word.lower() for word in _WORD.findall(text)))
    formal = {word: form for word, form in zip(words, formal_terms(words, _wording_forms)) if form != word}
    return _WORD.sub(lambda match: formal.get(match.group(0).lower(), match.group(0)), text)
