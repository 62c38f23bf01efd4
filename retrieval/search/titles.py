"""Regulations named by type and subject: "qanun transparansi anggaran", "pergub perjalanan dinas 2025".

After a type word with no number, the next few content words are the
subject. The longest leading run of them whose every word exactly one
visible indexed document of that type carries in its title (a word the glossary
expands, "BAPETEN", is carried by the words it stands for too: "Badan Pengawas
Tenaga Nuklir"; a year, when written, must
be its year or appear in its title) names that document. When several carry it, the one whose subject is exactly
those words does ("Undang-Undang tentang Keuangan Negara" is UU 17/2003, not UU 15/2004 on auditing the state's
finances). English puts the subject before the type, capitalised ("the State Finance Law"): a subject whose every
word the glossary reads names the document its Indonesian words would. Amendments ("Perubahan atas ...") only
match when the question speaks of a change. Anything ambiguous names nothing.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from typing import Iterable

from django.db.models import Q

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.models import Document
from retrieval.search.glossary import alternatives, glossary_expansions
from retrieval.search.naming import _TYPE, RESOLVE_BROWSE_LIMIT, type_prefixes

_TITLED = re.compile(rf"\b(?P<type>{_TYPE})\b(?!\s*(?:nomor|nomer|no\.?|nr\.?|number)?\s*\d)(?P<rest>[^?.,;:!]*)", re.IGNORECASE)
_YEAR = re.compile(r"\b(?:19|20)\d\d\b")
# English puts the year right before the instrument: "the 1999 law on …". With words between, the year is the
# subject's ("the 2026 minimum wage decree": the decree on 2026's wage, made in 2025).
_YEAR_BEFORE_TYPE = re.compile(r"\bthe\s+(?P<year>(?:19|20)\d\d)\s+"
                               r"(?:law|act|regulation|decree|qanun|statute|instruction)\b", re.IGNORECASE)
# Words that end a subject: question words, locators, the rest of the sentence.
_STOP = frozenset(
    """pasal ayat angka huruf tentang soal mengenai apa apakah berapa brp siapa kapan bagaimana gimana
    mengatur ngatur atur isinya isi bilang menurut dalam berlaku yang yg itu ini ya sih dan atau untuk buat
    nya bagi di ke dari pada tahun th thn""".split()
)
# What puts the instrument after it as the answer's source: "menurut qanun …", "diatur dalam pergub …".
_SOURCE = re.compile(r"\b(?:menurut|dalam|di|berdasarkan|sesuai|under|according\s+to|in)\s+(?:the\s+)?$", re.I)
# English: "the State Finance Law", "the Public Information Disclosure Law" (capitalised subject, then the type).
_ENGLISH_TITLED = re.compile(
    r"\bthe\s+(?P<rest>(?-i:[A-Z][\w'-]*)(?:\s+(?-i:[A-Z][\w'-]*)){0,4})\s+"
    r"(?P<type>(?:Aceh\s+)?Governor(?:'s)?\s+(?:Regulation|Decree|Instruction)|Government\s+Regulation"
    r"|Presidential\s+Regulation|Law|Qanun)\b(?!\s+(?:No\.?|Number|\d))")
MIN_WORDS = 1
MAX_WORDS = 5
MIN_SINGLE_WORD = 6       # a lone subject word must be this long ("zakat" is too generic, "ketenagakerjaan" is not)


def _subject(rest: str) -> list[str]:
    words = []
    for word in re.findall(r"[\w'/-]+", rest.lower()):
        if word in _STOP or word.isdigit() or word == "aceh" and not words:
            if words:
                break
            continue
        words.append(word)
        if len(words) == MAX_WORDS:
            break
    return words


def _title_carries(word: str, expansion: str | None) -> Q:
    """The title has the word, or every word of one wording of what the glossary says it stands for."""
    carries = Q(title__iregex=rf"\m{re.escape(word)}")
    for wording in alternatives(expansion or ""):
        spelled = Q()
        for part in wording.split():
            spelled &= Q(title__iregex=rf"\m{re.escape(part)}")
        carries |= spelled
    return carries


def instrument_years(question: str) -> frozenset[str]:
    """Years that date an instrument the question names by type and subject ("surat edaran BAPETEN 2019",
    "pergub perjalanan dinas tahun 2025"): the year it was made, which its identity carries. A year after
    the subject has ended ("pergub tentang UMP 2024") is what the instrument is about, not one of these."""
    years = {match.group("year") for match in _YEAR_BEFORE_TYPE.finditer(question)}
    for match in _TITLED.finditer(question):
        subject = 0
        for word in re.findall(r"[\w'/-]+", match.group("rest").lower()):
            if _YEAR.fullmatch(word):
                years.add(word)
                break
            if word in ("tahun", "th", "thn"):
                continue
            subject += 1
            if word in _STOP or word.isdigit() or subject > MAX_WORDS:
                break
    return frozenset(years)


@dataclass(frozen=True)
class TitledReference:
    """An instrument a question names by type and subject: "qanun pelindungan hak perempuan"."""
    text: str                      # its type and subject, as written
    prefixes: tuple[str, ...]      # the type family's canonical prefixes ("Qanun Aceh")
    words: tuple[str, ...]         # the subject's words, in order
    start: int                     # where it starts in the question


def titled_references(question: str) -> tuple[TitledReference, ...]:
    """Every instrument named by type and subject, in order of appearance."""
    found = []
    for match in _TITLED.finditer(question):
        prefixes, words = type_prefixes(match.group("type")), _subject(match.group("rest"))
        if prefixes and words:
            text = " ".join([*match.group("type").split(), *words])
            found.append(TitledReference(text, prefixes, tuple(words), match.start()))
    return tuple(sorted(found + _english_references(question), key=lambda reference: reference.start))


def _english_references(question: str) -> list[TitledReference]:
    """"the State Finance Law": a subject the glossary reads whole, as its phrases ("state finance")."""
    found = []
    for match in _ENGLISH_TITLED.finditer(question):
        prefixes = type_prefixes(match.group("type"))
        words = _read_whole(match.group("rest"), glossary_expansions(question)) if prefixes else None
        if words:
            found.append(TitledReference(match.group(0), prefixes, words, match.start()))
    return found


def _read_whole(subject: str, expansions: dict[str, str]) -> tuple[str, ...] | None:
    """The glossary phrases covering every word of ``subject`` ("Aceh" needs none), or None."""
    words = subject.lower().split()
    covered = [word == "aceh" for word in words]
    phrases = []
    for phrase in sorted((key.lower() for key in expansions), key=len, reverse=True):
        parts = phrase.split()
        for start in range(len(words) - len(parts) + 1):
            if words[start:start + len(parts)] == parts and not all(covered[start:start + len(parts)]):
                covered[start:start + len(parts)] = [True] * len(parts)
                phrases.append(phrase)
    return tuple(phrases) if phrases and all(covered) else None


def unmet_titles(question: str, titles: Iterable[str]) -> tuple[str, ...]:
    """The instruments the question names by type and subject that none of the documents titled ``titles``
    can be: of another type, and their titles carry none of the subject's words (nor what the glossary says a
    word stands for). "qanun pelindungan hak perempuan" is not met by UU 14/2008 on public information."""
    # Only the instrument the answer is to come from ("menurut qanun …", "dalam pergub …"), not one the question
    # is about ("revisi qanun wali nanggroe masuk prolega?"), and a subject that can name one.
    references = [reference for reference in titled_references(question) if _SOURCE.search(question[:reference.start])
                  and (len(reference.words) > 1 or len(reference.words[0]) >= MIN_SINGLE_WORD)]
    if not references:
        return ()
    titles = [" ".join(title.lower().split()) for title in titles]

    def met(reference: TitledReference, expansions: dict[str, str]) -> bool:
        return any(_of_type(title, reference.prefixes)
                   or any(_carries(title, word, expansions.get(word)) for word in reference.words) for title in titles)

    unmet = [reference for reference in references if not met(reference, {})]
    if unmet:       # the glossary's wordings are read only when the words themselves are not there
        expansions = {phrase.lower(): expansion for phrase, expansion in glossary_expansions(question).items()}
        unmet = [reference for reference in unmet if not met(reference, expansions)]
    return tuple(reference.text for reference in unmet)


def _of_type(title: str, prefixes: tuple[str, ...]) -> bool:
    return any(title.startswith(prefix.lower()) for prefix in prefixes)


def _carries(title: str, word: str, expansion: str | None) -> bool:
    """``_title_carries`` on a title in hand."""
    if re.search(rf"\b{re.escape(word)}", title):
        return True
    return any(all(re.search(rf"\b{re.escape(part.lower())}", title) for part in wording.split())
               for wording in alternatives(expansion or "") if wording.split())


def titled_documents(question: str, *, principal: Principal, scope: Scope | None) -> list[uuid.UUID]:
    found: list[uuid.UUID] = []
    year = _YEAR.search(question)
    amendment = re.search(r"\bperubahan|\bdiubah|\bamend", question, re.IGNORECASE)
    expansions = {phrase.lower(): expansion for phrase, expansion in glossary_expansions(question).items()}
    for reference in titled_references(question):
        words = reference.words
        type_match = Q()
        for prefix in reference.prefixes:
            type_match |= Q(instrument_type__istartswith=prefix)
        documents = Document.objects.filter(visible_documents_q(principal, scope)).filter(type_match)
        if year:
            # "Kepgub penetapan UMP Aceh tahun 2026" names the decree of 2025 whose title carries 2026.
            documents = documents.filter(Q(year=int(year.group(0))) | Q(title__contains=year.group(0)))
        if not amendment:
            documents = documents.exclude(title__icontains="perubahan atas")
        for size in range(len(words), MIN_WORDS - 1, -1):
            if size == 1 and len(words[0]) < MIN_SINGLE_WORD:
                break
            carrying = documents
            for word in words[:size]:
                carrying = carrying.filter(_title_carries(word, expansions.get(word)))
            candidates = _exactly(list(carrying.values_list("id", "title")[:RESOLVE_BROWSE_LIMIT]),
                                  words[:size], expansions)
            if len(candidates) == 1:
                if candidates[0] not in found:
                    found.append(candidates[0])
                break
            if candidates:
                break     # several documents carry the longest phrase: ambiguous
    return found


def _exactly(candidates: list[tuple[uuid.UUID, str]], words: tuple[str, ...] | list[str],
             expansions: dict[str, str]) -> list[uuid.UUID]:
    """The candidates' ids; of several, the one whose subject ("... tentang Keuangan Negara") is exactly the
    words (or what the glossary says they stand for), when exactly one is."""
    ids = [document_id for document_id, _ in candidates]
    if len(candidates) < 2:
        return ids
    wordings = {" ".join(words)}
    if all(expansions.get(word) for word in words):
        wordings |= {" ".join(alternatives(expansions[word])[0] for word in words)}
    exact = [document_id for document_id, title in candidates
             if " ".join(re.split(r"\btentang\b", title.lower(), maxsplit=1)[-1].split()) in wordings]
    return exact if len(exact) == 1 else ids
