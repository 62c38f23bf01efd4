"""English words read as the Indonesian loanwords they became: "conflict" is *konflik*, "autonomy" *otonomi*.

Indonesian took much of its legal and administrative vocabulary from European languages and spells it by the
national rules for forming terms (*Pedoman Umum Pembentukan Istilah*, PUPI): an ending becomes its Indonesian
ending (-tion *-si*, -ty *-tas*, -ic *-ik*, -ive *-if*, -ure *-ur*, -logy *-logi*, -ance *-ansi*) and letters
are respelt (c before a, o, u or a consonant *k*, before e, i, y *s*; ph *f*; th *t*; x *ks*; a doubled consonant
single). The glossary translates the words it lists; an English question's other words are read through these
rules. Each spelling is a guess that only counts where the corpus actually uses it and the English word itself
is not used (glossary.py): "conflict" reads as *konflik* because the laws say *konflik*; "policy", spelt
*polisi* (the police), is the glossary's (*kebijakan*) and never reaches this.
"""
from __future__ import annotations

import functools
import re

MIN_LENGTH = 5      # shorter words ("case", "pay", "day") respell into unrelated Indonesian words
# Longest ending first; the first that fits is respelt (PUPI's list of endings).
_ENDINGS = (
    ("ically", "is"), ("ization", "isasi"), ("isation", "isasi"), ("ction", "ksi"), ("ssion", "si"), ("sion", "si"), ("tion", "si"),
    ("graphy", "grafi"), ("logue", "log"), ("archy", "arki"), ("ical", "is"), ("logy", "logi"), ("ency", "ensi"),
    ("ancy", "ansi"), ("ance", "ansi"), ("ence", "ensi"), ("ics", "ika"), ("ity", "itas"), ("ism", "isme"),
    ("ist", "is"), ("ive", "if"), ("ure", "ur"), ("ary", "er"), ("age", "ase"), ("ile", "il"), ("ant", "an"),
    ("ent", "en"), ("ty", "tas"), ("ic", "ik"), ("ct", "k"), ("y", "i"),
)
# Letters in order: digraphs before the single letters they contain.
_LETTERS = tuple((re.compile(pattern), replacement) for pattern, replacement in (
    ("sch", "sk"), ("cch", "k"), ("ch", "k"), ("ph", "f"), ("th", "t"), ("rh", "r"), ("gh", "g"),
    ("xc(?=[eiy])", "ks"), ("xc", "ksk"), ("^x", "s"), ("x", "ks"),
    ("cc(?=[eiy])", "ks"), ("sc(?=[eiy])", "s"), ("c(?=[eiy])", "s"), ("c", "k"), ("qu", "ku"), ("q", "k"),
    ("oo", "u"), ("ee", "i"), ("(?<=[^aeiou])y(?=[^aeiou])", "i"), (r"([bdfgklmnprstvz])\1", r"\1"),
))
# Vowels English spells one way and Indonesian, from the Dutch, another ("autonomy": otonomi, "account": akun).
_VOWEL_ALTERNATIVES = (("au", "o"), ("ou", "u"))


@functools.lru_cache(maxsize=4096)
def cognate_forms(word: str) -> tuple[str, ...]:
    """Candidate Indonesian spellings of an English ``word``, most likely first (a plural's are its singular's,
    the singular itself first); () for a short or non-alphabetic word, or one the rules leave as it is
    ("regional", "data")."""
    word = word.lower()
    if len(word) < MIN_LENGTH or not word.isascii() or not word.isalpha():
        return ()
    if word.endswith("s") and not word.endswith(("ss", "us", "is", "ics")):
        return (word[:-1], *_forms(word[:-1]))     # "conflicts": konflik; "programs": program
    return _forms(word)


def _forms(word: str) -> tuple[str, ...]:
    stem = word
    for english, indonesian in _ENDINGS:
        if word.endswith(english) and len(word) - len(english) >= 3:
            stem = word[: -len(english)] + indonesian
            break
    for pattern, replacement in _LETTERS:
        stem = pattern.sub(replacement, stem)
    forms = [stem] + [stem.replace(english, indonesian, 1) for english, indonesian in _VOWEL_ALTERNATIVES
                      if english in stem]
    return tuple(form for form in dict.fromkeys(forms) if form != word and len(form) >= MIN_LENGTH - 1)
