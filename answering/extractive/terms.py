"""The term a definition question asks about, and whether a unit defines it.

"Apa yang dimaksud dengan Qanun Aceh menurut …", "Wali Nanggroe itu apa?", "What does 'khalwat' mean?", "what period
does the term 'conflict' cover?": the term is read from the question's asking words, a quoted term first; a unit
defines it when the name before its "adalah" is that term (focus.py ranks and checks units by it).
"""
from __future__ import annotations

import re

from answering.text import content_stems

DEFINITION = re.compile(
    r"\b(?:apa\s+(?:yang\s+)?(?:di)?maksud(?:nya)?(?:\s+dengan)?|apa\s+itu|apakah\s+itu|pengertian(?:\s+dari)?|definisi(?:\s+dari)?|"
    r"arti(?:\s+dari)?|what\s+is(?:\s+meant\s+by)?|what\s+does|define|^\W*(?:yang|yg)\s+(?:di)?sebut(?:\s+dengan)?)"
    r"\s+(?P<term>[^?]+)", re.I)
# "What does 'khalwat' mean": the verb closing an English definition question is not the term.
TERM_VERB = re.compile(r"\s+(?:mean|means|refer\s+to|refers\s+to|stand\s+for|stands\s+for)\s*$", re.I)
# A term the question quotes ("what period does the term 'conflict' cover?", "what counts as 'the conflict'"),
# the opening quote after a space so an apostrophe ("Aceh's") opens nothing; with a cue, it is the term defined.
QUOTED = re.compile(r"(?<!\w)['\"‘“](?P<term>[^'\"‘’“”?]{2,60}?)['\"’”](?!\w)")
TERM_CUE = re.compile(r"\b(?:term|istilah|mean|means|meant|defin\w*|counts?\s+as|refers?\s+to|stands?\s+for)\b", re.I)
TERM_ITU_APA = re.compile(r"^(?P<term>[^?]+?)\s+(?:itu|tuh)\s+(?:apa(?:an)?|maksudnya\s+apa|artinya\s+apa)\b", re.I)
# "menurut/dalam UU …" closes the term.
TERM_END = re.compile(r"\s+(?:menurut|dalam|di\s+dalam|pada|berdasarkan|sesuai|according|in\s+the|under)\b.*$", re.I)


def defines(text: str, term: frozenset[str]) -> bool:
    """The unit is a definition whose defined name is the term.

    The name is what stands before "adalah" (or "yang selanjutnya …"), or the short name it is given
    ("… yang selanjutnya disebut Amdal, adalah"): "Pengelolaan zakat adalah …" does not define "zakat".
    """
    match = re.search(r"\b(adalah|ialah|merupakan|is|means)\b", text, re.I)
    if not match or not term:
        return False
    head = re.sub(r"^\(?\d+[.)]\s*", "", text[:match.start()]).strip(" ,")
    names = re.split(r",?\s+(?:yang\s+)?selanjutnya\s+(?:disebut|disingkat)(?:\s+dengan)?\s+", head, flags=re.I)
    defined = content_stems(text[match.end():])
    return any(_names_term(term, frozenset(content_stems(name)), defined) for name in names if name)


def _names_term(term: frozenset[str], name: frozenset[str], defined: set[str]) -> bool:
    """The defined name is the term; or most of it (three quarters of a long term); or at least half of it, the
    rest said by the definition itself ("jenjang Wustha": "Wustha adalah jenjang pendidikan dayah …")."""
    if not name:
        return False
    if term == name or (len(term) > 3 and len(term & name) / len(term) >= 0.75):
        return True
    return name <= term and len(name) >= len(term) / 2 and term - name <= defined


def _asked_words(match: re.Match) -> str:
    """The words after the definition phrase, up to "menurut …" and without a closing "mean"."""
    return TERM_VERB.sub("", TERM_END.sub("", match.group("term")).strip(" ?."))


def term_of(question: str, match: re.Match) -> str:
    term = _asked_words(match)
    if (quoted := QUOTED.search(question, match.start("term"))) and quoted.start() < match.end("term"):
        term = quoted.group("term")      # "What does 'conflict' mean in Aceh's guideline?": the quoted word
    return term


def defined_term_stems(question: str) -> frozenset[str]:
    """The stems of the term a question defines, with or without a cue ("… does the term 'konflik' cover?" read
    in the law's words, where "term" itself became the law's word)."""
    match = DEFINITION.search(question) or TERM_ITU_APA.search(question)
    term = term_of(question, match) if match else (quoted.group("term") if (quoted := QUOTED.search(question)) else "")
    return term_stems(term)


def term_stems(term: str) -> frozenset[str]:
    """The term's content stems, its chat particles dropped ("Wali Nanggroe itu sih": wali, nanggroe)."""
    return frozenset(content_stems(re.sub(r"\b(sih|itu|ya|sebenarnya|yang)\b", " ", term, flags=re.I)))


def definition_term(question: str) -> str | None:
    """The term a definition question asks about ("Qanun Aceh" in "Apa yang dimaksud dengan Qanun Aceh menurut …")."""
    match = DEFINITION.search(question) or TERM_ITU_APA.search(question)
    if not match:
        return None
    term = re.sub(r"\b(sih|itu|ya|sebenarnya|singkatan|dan|pengertiannya|maksudnya|apa|atau\s+\w+)\b", " ",
                  _asked_words(match), flags=re.I)
    return " ".join(term.split()).strip(" ?.,") or None
