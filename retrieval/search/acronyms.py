"""An acronym the corpus never writes, read as the phrase whose initials it spells ("BPD": Badan Permusyawaratan Desa).

Citizens write the short forms officials say ("BPD", "PPID", "SOTK", "UU KIA"); a law often spells the body out on
every page and never abbreviates it, so the full-text leg finds nothing for the short form and the model does not
know a local one. Each document keeps, from its own text, its capitalised phrases by their initials
(``Document.acronyms``, written at ingestion and by migration 0020 for documents already stored): the initial of
each capitalised word, both halves of a hyphenated one ("Undang-Undang": UU), connectives skipped ("Informasi dan
Transaksi Elektronik": ITE), a phrase of its title marked. A question's all-capital word that no passage uses is
looked up there in one indexed statement over the documents the caller may read, and the phrase those documents
use most (a title's, after an instrument's type: "UU PDP") joins the lexical query beside it, as a glossary
abbreviation does (``glossary.py``). A word the corpus does use ("PNS", "DPRA") is never
looked up: the text already answers for it.
"""
from __future__ import annotations

import re
from collections import Counter

from django.db.models import Q

from retrieval.search.colloquial import present_words
from retrieval.search.naming import type_prefixes

MIN_WORDS, MAX_WORDS = 2, 5
MIN_COUNT = 2                # a phrase written once in a document is as likely a sentence's capitalised opening
KEPT_PER_DOCUMENT = 400      # the most frequent initials a document keeps (a long law has a few thousand runs)
CONNECTIVES = frozenset({"dan", "atau", "serta", "dengan", "dari", "untuk", "bagi", "di", "ke", "pada"})
_WORD = re.compile(r"[A-Z][a-z]+(?:-[A-Z][a-z]+)*|[a-z]+|\S")
_ASKED = re.compile(r"\b[A-Z]{2,5}\b")


def _initials(word: str) -> str:
    return "".join(part[0] for part in word.split("-"))


def _runs(text: str):
    """Runs of capitalised words, a connective allowed between two of them."""
    run: list[str] = []
    for token in _WORD.findall(text):
        if token[0].isupper() and token[1:2].islower():
            run.append(token)
        elif token in CONNECTIVES and run and run[-1] not in CONNECTIVES:
            run.append(token)
        else:
            if run:
                yield run
            run = []
    if run:
        yield run


def _phrases(text: str) -> Counter:
    """Every capitalised phrase of MIN_WORDS to MAX_WORDS words (connectives not counted), with its count."""
    counts: Counter = Counter()
    for run in _runs(text):
        for start in range(len(run)):
            if run[start] in CONNECTIVES:
                continue
            words = 0
            for end in range(start, len(run)):
                if run[end] in CONNECTIVES:
                    continue
                words += 1
                if words > MAX_WORDS:
                    break
                if words >= MIN_WORDS:
                    counts[" ".join(run[start:end + 1])] += 1
    return counts


def _spelled(phrase: str) -> str:
    return "".join(_initials(w) for w in phrase.split() if w not in CONNECTIVES)


def document_acronyms(text: str, title: str = "") -> dict[str, list]:
    """``{initials: [phrase, count, titled]}``: for each initials a document's capitalised phrases spell, its most
    frequent phrase (written at least MIN_COUNT times), the KEPT_PER_DOCUMENT most frequent initials; a phrase of
    the title ("Pelindungan Data Pribadi") stands for its initials whatever the text repeats more ("Pengendali Data
    Pribadi") and is marked, since an act's short name abbreviates its title ("UU PDP")."""
    counts = _phrases(text)
    best: dict[str, list] = {}
    for phrase, count in counts.most_common():
        if count < MIN_COUNT:
            break
        initials = _spelled(phrase)
        if 2 <= len(initials) <= 5 and initials not in best:
            best[initials] = [phrase, count, False]
    best = dict(list(best.items())[:KEPT_PER_DOCUMENT])
    for phrase in _phrases(title):
        initials = _spelled(phrase)
        if 2 <= len(initials) <= 5:
            best[initials] = [phrase, max(counts[phrase], 1), True]
    return best


# "P3K", "K3", "P4GN": a letter with a count is that letter repeated ("PPPK", "KKK", "PPPPGN").
_NUMERONYM = re.compile(r"\b(?=[A-Z0-9]*[A-Z][2-4])[A-Z][A-Z2-4]{1,5}\b")
_REPEATED = re.compile(r"([A-Z])([2-4])")


def spelled_out(word: str) -> str:
    """A numeronym written out ("P3K" -> "PPPK"); any other word as it is."""
    return _REPEATED.sub(lambda m: m.group(1) * int(m.group(2)), word) if _NUMERONYM.fullmatch(word) else word


def acronym_phrases(question: str, condition: Q) -> dict[str, str]:
    """``{acronym: phrase}`` for the question's all-capital words no passage uses, from the documents
    ``condition`` admits (the phrase most of their text uses). A numeronym ("P3K") is read written out
    ("PPPK"): the corpus's own short form when its text uses it, else the phrase its letters spell."""
    from retrieval.models import Document

    written = {spelled_out(w): w for w in dict.fromkeys(_ASKED.findall(question) + _NUMERONYM.findall(question))}
    asked = [w for w in written if 2 <= len(w) <= 6]
    if not asked:
        return {}
    used = present_words([word.lower() for word in asked])
    spelled = {written[w]: w for w in asked if w.lower() in used and written[w] != w}
    unknown = [word for word in asked if word.lower() not in used]
    if not unknown:
        return spelled
    # Per acronym, each phrase's count over the documents, a title's phrase before any other.
    totals: dict[str, Counter] = {word: Counter() for word in unknown}
    rows = Document.objects.filter(condition, acronyms__has_any_keys=unknown).values_list("acronyms", flat=True)
    for acronyms in rows:
        for word in unknown:
            if word in acronyms:
                phrase, count, titled = acronyms[word]
                totals[word][(titled, phrase)] += count
    found = spelled
    for word, counter in totals.items():
        # "UU PDP" names an act by its title's initials; a bare "BPD" is the body the documents name most.
        before = question[:question.find(written[word])].split()
        named = bool(before) and type_prefixes(before[-1]) is not None
        if counter:
            found[written[word]] = max(counter.items(), key=lambda item: (named and item[0][0], item[1]))[0][1]
    return found
