"""The question as asked inside a regulation it names: without that regulation's own words.

Inside one regulation every passage shares its title's subject, so the words
the question spends on naming it ("Law 18/2001 on special autonomy for
Nanggroe Aceh Darussalam", "the holiday allowance (THR)" asked of the THR
regulation) only pull towards the passages that repeat the title. What is
left is what the question asks of it ("who qualifies as a voter?"), and that
is what ranks the regulation's own passages (``focus._document_ranking``),
beside the whole question.

A word goes when its stems are all in the title's; a glossary phrase ("13th
salary", "THR") when every word of one of its wordings is; a regulation named
by type, number and year goes whole. Nothing goes when nothing would be left.
"""
from __future__ import annotations

import re

from retrieval.search.glossary import alternatives, glossary_expansions
from retrieval.search.lexeme_stats import word_lexemes
from retrieval.search.naming import find_named_regulations

_WORD = re.compile(r"\w+", re.UNICODE)
# "Nomor 17 Tahun 2003" in a title is its identity, not its subject: "tahun anggaran" is still asked.
_IDENTITY = re.compile(r"\bnomor\s+\S+(?:\s+tahun\s+\d{4})?")


def _stems(words: list[str]) -> dict[str, set[str]]:
    lexemes = word_lexemes(list(dict.fromkeys(words)))
    return {word: set(lexemes.get(word, ())) or {word} for word in words}


def inner_question(query: str, title: str) -> str | None:
    """``query`` without the named regulations and its words for ``title``'s subject; None when that leaves
    nothing of its own or takes nothing away."""
    title_stems = set().union(set(), *_stems(_WORD.findall(_IDENTITY.sub(" ", title.lower()))).values())
    spans = [(named.start, named.end) for named in find_named_regulations(query) if named.end > named.start]
    for phrase, expansion in glossary_expansions(query).items():
        wordings = [_WORD.findall(wording.lower()) for wording in alternatives(expansion)]
        if any(wording and all(stems <= title_stems for stems in _stems(wording).values()) for wording in wordings):
            spans += [(match.start(), match.end()) for match in re.finditer(re.escape(phrase), query)]
    words = [(match.start(), match.end(), match.group(0)) for match in _WORD.finditer(query)]
    kept = [word for start, end, word in words if not any(s <= start and end <= e for s, e in spans)]
    stems = _stems([word.lower() for word in kept])
    kept = [word for word in kept if not stems[word.lower()] <= title_stems]
    if not kept or len(kept) == len(words):
        return None
    return " ".join(kept)
