"""The legal vocabulary's glossary applied to a query: one place for query rewriting.

``GlossaryEntry`` rows (admin-editable, defaults shipped by migration) say
what a phrase stands for. ``rewrite_query`` returns

* the **lexical** query: colloquial forms ("yg", "gimana", "brp") and English
  words replaced by their Indonesian legal wording, abbreviations ("APBA",
  "DBH") and everyday words ("gaji", "bos": what the law calls *upah*,
  *pengusaha*) kept and followed by their expansion, nicknames ("UUPA") replaced by
  their title words; English function words dropped from an English question;
* the **nicknames**' identities, which hybrid search resolves against the
  indexed identity cards like a regulation named by type, number and year (so
  a nickname of a regulation that is not in the corpus, or not visible to the
  caller, does nothing).

Query rewriting was chosen over a PostgreSQL thesaurus dictionary: the table
stays editable in the admin without touching the database's text-search
files, and the same rows feed the nickname resolution.
"""
from __future__ import annotations

import functools
import re
import threading
import time
from dataclasses import dataclass

import inflect
from django.db.models.signals import post_delete, post_save

from retrieval.models import GlossaryEntry
from retrieval.search.cognates import cognate_forms
from retrieval.search.colloquial import formal_terms
from retrieval.search.naming import NamedRegulation

CACHE_SECONDS = 30.0
_INFLECT = inflect.engine()
ENGLISH_FUNCTION_WORDS = frozenset(
    """
    what which who whom whose how much many when where why is are was were be been being does do did
    the a an of to in for on and or by with according under about can could may might must should shall
    there that this these those its their it as at from any if has have had meant mean means defined
    say says said tell me please i we you there's what's who's
    """.split()
)
_WORD = re.compile(r"[\w']+", re.UNICODE)
# Indonesian writes an affix on an abbreviation with a hyphen ("di-PHK", "mem-PHK", "THR-nya", "di-SK-kan"): the
# phrase inside is the glossary's.
_PREFIX = r"(?:(?:di|me|mem|men|meng|ber|ter|pe|pem|pen|peng|se|ke)-)?"
_SUFFIX = r"(?:-(?:nya|kan|an|i|lah|pun|ku|mu))?"


# An expansion may hold alternative wordings ("pengusaha | atasan"): a search reads every word of them, an answer
# check is met by any one alternative (answering's answerability), a title by all the words of one.
ALTERNATIVE = "|"


def alternatives(expansion: str) -> list[str]:
    """The expansion's wordings ("pengusaha | atasan" -> ["pengusaha", "atasan"]; one phrase -> itself)."""
    return [" ".join(part.split()) for part in expansion.split(ALTERNATIVE) if part.strip()]


def expansion_words(expansion: str) -> str:
    """Every word of the expansion's wordings, for a lexical query or a question read in the law's words."""
    return " ".join(alternatives(expansion))


@dataclass(frozen=True)
class Rewrite:
    lexical: str
    nicknames: tuple[NamedRegulation, ...] = ()
    english: bool = False


@dataclass(frozen=True)
class _Table:
    pattern: re.Pattern | None
    entries: dict[str, GlossaryEntry]


_lock = threading.Lock()
_cache: tuple[float, _Table] | None = None


def _phrase_key(text: str) -> str:
    return " ".join(text.lower().split())


def _load() -> _Table:
    global _cache
    now = time.monotonic()
    with _lock:
        if _cache and now - _cache[0] < CACHE_SECONDS:
            return _cache[1]
    entries = {_phrase_key(entry.phrase): entry for entry in GlossaryEntry.objects.filter(enabled=True)}
    for key, entry in list(entries.items()):
        if entry.kind == GlossaryEntry.Kind.ENGLISH:
            for plural in english_plurals(key):
                entries.setdefault(plural, entry)       # "terms" reads as "term" unless it has its own entry
    pattern = None
    if entries:
        phrases = sorted(entries, key=lambda phrase: (-len(phrase), phrase))
        alternation = "|".join(r"\s+".join(re.escape(word) for word in phrase.split()) for phrase in phrases)
        pattern = re.compile(rf"(?<![\w-]){_PREFIX}(?P<phrase>{alternation}){_SUFFIX}(?![\w-])", re.IGNORECASE)
    table = _Table(pattern, entries)
    with _lock:
        _cache = (now, table)
    return table


@functools.lru_cache(maxsize=4096)
def english_plurals(phrase: str) -> tuple[str, ...]:
    """The plural of an English phrase (inflect: "term" -> "terms", "public body" -> "public bodies", "court of
    appeal" -> "courts of appeal"); none for a phrase already plural ("laws", "women", "data"). Remembered: the
    glossary is reloaded every CACHE_SECONDS, and inflecting all its English entries costs about 0.1 s."""
    singular = _INFLECT.singular_noun(phrase)
    if singular and singular != phrase:
        return ()
    plural = _INFLECT.plural_noun(phrase)
    return (plural,) if plural and plural != phrase else ()


def forget_glossary(**_kwargs) -> None:
    """Drop the cached table (an admin edit takes effect at once in this process)."""
    global _cache
    with _lock:
        _cache = None


post_save.connect(forget_glossary, sender=GlossaryEntry, dispatch_uid="glossary-cache-save")
post_delete.connect(forget_glossary, sender=GlossaryEntry, dispatch_uid="glossary-cache-delete")


def looks_english(text: str) -> bool:
    words = [word.lower() for word in _WORD.findall(text)]
    return sum(1 for word in words if word in ENGLISH_FUNCTION_WORDS) >= 2


def _cognates(text: str, table: _Table) -> dict[str, str]:
    """The words of an English question outside every glossary phrase that the corpus never uses, each with the
    first of its loanword spellings it does use ("conflict" -> "konflik"; cognates.py)."""
    outside = table.pattern.sub(" ", text) if table.pattern else text
    words = [word for word in dict.fromkeys(w.strip("'") for w in _WORD.findall(outside))
             if word.lower() not in ENGLISH_FUNCTION_WORDS and cognate_forms(word)]
    if not words:
        return {}
    read = formal_terms([word.lower() for word in words], cognate_forms)
    return {word: form for word, form in zip(words, read) if form != word.lower()}


def rewrite_query(text: str) -> Rewrite:
    table = _load()
    english = looks_english(text)
    spelt = {word.lower(): form for word, form in _cognates(text, table).items()} if english else {}
    nicknames: list[NamedRegulation] = []

    def replace(match: re.Match) -> str:
        entry = table.entries[_phrase_key(match.group("phrase"))]
        if entry.kind == GlossaryEntry.Kind.NICKNAME:
            nicknames.append(NamedRegulation((entry.instrument_type,), entry.number, entry.year, match.group(0)))
            return f" {expansion_words(entry.expansion) or match.group(0)} "
        if entry.kind == GlossaryEntry.Kind.ENGLISH and not english:
            return match.group(0)
        if entry.kind in (GlossaryEntry.Kind.ABBREVIATION, GlossaryEntry.Kind.EVERYDAY):
            return f" {match.group(0)} {expansion_words(entry.expansion)} "
        return f" {expansion_words(entry.expansion)} "

    lexical = table.pattern.sub(replace, text) if table.pattern else text
    if english:
        lexical = " ".join(spelt.get(word.strip("'").lower(), word) for word in _WORD.findall(lexical)
                           if word.lower() not in ENGLISH_FUNCTION_WORDS)
    return Rewrite(lexical=" ".join(lexical.split()), nicknames=tuple(nicknames), english=english)


def glossary_expansions(text: str) -> dict[str, str]:
    """The glossary phrases ``text`` uses and what each stands for (English ones only in an English question), its
    wordings separated by ``ALTERNATIVE`` (``alternatives`` reads them).

    For an answer check: a passage about "Dana Bagi Hasil" answers "DBH", one saying "SKPA" does too, and one
    saying "konflik" answers an English question's "conflict" (``_cognates``).
    """
    table = _load()
    english = looks_english(text)
    found = dict(_cognates(text, table)) if english else {}
    if not table.pattern:
        return found
    for match in table.pattern.finditer(text):
        entry = table.entries[_phrase_key(match.group("phrase"))]
        if entry.expansion and (entry.kind != GlossaryEntry.Kind.ENGLISH or english):
            found[match.group(0)] = entry.expansion
    return found
