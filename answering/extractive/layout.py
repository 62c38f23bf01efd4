"""The answer's shape: the opening sentence, then the supporting text under its own article heading.

Each passage quoted gets one heading naming its regulation and article
("Peraturan Gubernur Aceh Nomor 94 Tahun 2024 Pasal 11"); its ayat and huruf
are list items, a lead-in's list is quoted item by item, and a list cut short
says in its heading how many items were left out. Headings are layout (never
claims); every sentence under them is a claim citing its passage.
"""
from __future__ import annotations

import re
from typing import Sequence

from answering.extractive.candidates import Candidate
from answering.extractive.opener import FIGURE_ASKS, ItemRanker, opening_sentence, states_figure
from answering.extractive.yesno import polarity, polarity_opener, range_opener, ruling_weight
from answering.extractive.question import Question, read_question, second_ask
from answering.extractive.ranker import fit_to_lead
from answering.types import Claim, Passage

_ITEM_MARKER = re.compile(r"^\s*(?:\(\d+[a-z]?\)|[a-z]\.|\d{1,2}\.)\s")
_DEFINES = re.compile(r"\b(?:adalah|ialah)\b", re.I)
MAX_HEADING_CHARS = 160
# What a second ask's own first sentence can say (a list or a definition is the quoted text itself).
SECOND_ASK_OPENERS = frozenset({"figure", "duration", "date", "person", "yesno"})
# "(2) Dalam hal … sebagaimana dimaksud dalam ayat (1), … batal demi hukum.": an ayat of the same passage that refers
# to the ayat the opening sentence comes from completes it (its consequence, exception or extension), when short.
# A delegation ("Ketentuan lebih lanjut mengenai … diatur dengan Peraturan Pemerintah.") says where the details are,
# not what the opener's ayat means: it never completes one.
_AYAT = re.compile(r"^\s*\((\d+)\)")
DELEGATION = re.compile(r"^\W*(?:\(\d+\)\s*)?Ketentuan\s+(?:lebih\s+lanjut\s+)?mengenai\b.*\bdiatur\b", re.I | re.S)
ELABORATION_CHARS = 400
OMITTED = {"id": "{shown} dari {total} butir ditampilkan", "en": "{shown} of {total} items shown"}


# What the first line must say itself: these answers open with their sentence, never with a heading.
SAID_FIRST = frozenset({*FIGURE_ASKS, "date", "person", "yesno", "status", "signatory", "enactment"})


def heading_of(passage: Passage) -> str:
    """What the quoted text is: the regulation and article, or the document's title."""
    heading = passage.legal_reference or passage.document_title
    return heading if len(heading) <= MAX_HEADING_CHARS else heading[:MAX_HEADING_CHARS].rsplit(" ", 1)[0] + " …"


def _by_fit(question: Question, chosen: Sequence[tuple[Candidate, dict]]) -> list[tuple[Candidate, dict]]:
    return sorted(chosen, key=lambda pair: fit_to_lead(question, pair[0].text, pair[0].score), reverse=True)


def _second_ask_opener(question: Question, chosen: Sequence[tuple[Candidate, dict]], language: str,
                       rank_items: ItemRanker | None) -> tuple[str, dict, Candidate] | None:
    """When the first ask has no sentence of its own ("prosedurnya gimana?"), the second ask's ("brp hari
    jaraknya?", "ada batas waktunya gak?") opens, from the kept unit that best answers it (with that unit)."""
    rest = second_ask(question.text)
    sub = read_question(rest, question.language) if rest else None
    if sub is None or sub.asks not in SECOND_ASK_OPENERS:
        return None
    if sub.yes_no and question.yes_no:
        return None       # a bare "Tidak." for the second ask would read as the answer to the first
    for candidate, labels in _by_fit(sub, chosen):
        text = opening_sentence(sub, candidate, language, rank_items)
        if text and (sub.asks not in FIGURE_ASKS or states_figure(sub, text)):
            return text, labels, candidate
    return None


def _ruling_lead(question: Question, chosen: Sequence[tuple[Candidate, dict]],
                 lead: tuple[Candidate, dict]) -> tuple[Candidate, dict]:
    """Two kept units that say opposite things (the lead's "dapat mensyaratkan masa percobaan", another's
    "dilarang membayar upah di bawah upah minimum" for "boleh gak bos gaji di bawah UMR slama percobaan?"): the one
    whose modal rules more of the ask says it (``yesno.ruling_weight``). Without the lead's own verdict, or with
    no unit contradicting it, the lead stays."""
    said = polarity(question, lead[0].text)
    if said is None:
        return lead
    weight = ruling_weight(question, lead[0].text)
    opposed = [(ruling_weight(question, c.text), index) for index, (c, _) in enumerate(chosen)
               if polarity(question, c.text) not in (None, said)]
    best = max(opposed, default=None)
    return chosen[best[1]] if best and best[0] > weight else lead


def opener_of(question: Question, chosen: Sequence[tuple[Candidate, dict]], language: str,
              rank_items: ItemRanker | None = None) -> tuple[str | None, dict]:
    """The opening sentence for what the question asks and the labels it cites (None when the units lead)."""
    text, labels, _ = _opening(question, chosen, language, rank_items)
    return text, labels


def _opening(question: Question, chosen: Sequence[tuple[Candidate, dict]], language: str,
             rank_items: ItemRanker | None) -> tuple[str | None, dict, Candidate | None]:
    """``opener_of`` with the unit the sentence comes from (None without a sentence)."""
    # The opener comes from the unit the ranker rates best, wherever reading order puts it.
    lead, lead_labels = max(chosen, key=lambda pair: fit_to_lead(question, pair[0].text, pair[0].score))
    if question.yes_no:
        lead, lead_labels = _ruling_lead(question, chosen, (lead, lead_labels))
    ranged = range_opener(question, [c for c, _ in chosen], language)
    if ranged is not None:
        opener, unit = ranged
        return opener, next(labels for c, labels in chosen if c is unit), unit
    opener = opening_sentence(question, lead, language, rank_items)
    said = None
    if opener is None and question.yes_no:
        # The lead unit's modal governs nothing asked: the next kept unit whose modal clearly does says it.
        said = next(((text, labels, c) for c, labels in _by_fit(question, chosen) if c is not lead
                     and (text := polarity_opener(question, c, language))), None)
    elif question.asks in FIGURE_ASKS and not (opener and states_figure(question, opener)):
        # The lead unit states no figure of the kind asked: the next kept unit that does opens.
        said = next(((text, labels, c) for c, labels in _by_fit(question, chosen) if c is not lead
                     and (text := opening_sentence(question, c, language, rank_items))
                     and states_figure(question, text)), None)
    elif opener is None and question.asks in ("person", "date"):
        # The lead unit names no office, person or date ("… oleh pemerintah sesuai dengan skala bencana"): the
        # next kept unit of its passage that does opens ("… skala provinsi dilakukan oleh gubernur …"); a
        # definition ("Dewan … adalah unsur …") says what something is, not who acts or when.
        said = next(((text, labels, c) for c, labels in _by_fit(question, chosen) if c is not lead
                     and c.passage.chunk_id == lead.passage.chunk_id and not _DEFINES.search(c.text)
                     and (text := opening_sentence(question, c, language, rank_items))), None)
    if said:
        return said
    if opener is None and (second := _second_ask_opener(question, chosen, language, rank_items)):
        return second
    return opener, lead_labels, lead if opener else None


def source_first(chosen: Sequence[tuple[Candidate, dict]], unit: Candidate | None) -> list[tuple[Candidate, dict]]:
    """The passage the opening sentence comes from is quoted first (its units in their order), then the others as
    they were: the reader finds what the first sentence says under the first heading, not under the third."""
    if unit is None:
        return list(chosen)
    source = [pair for pair in chosen if pair[0].passage.chunk_id == unit.passage.chunk_id]
    taken = {id(pair) for pair in source}
    return source + [pair for pair in chosen if id(pair) not in taken]


def elaborating(source: Candidate | None, chosen: Sequence[tuple[Candidate, dict]],
                ranked: Sequence[Candidate]) -> Candidate | None:
    """The first later ayat of the source unit's passage that refers back to it ("sebagaimana dimaksud pada ayat
    (1)"), short, not a delegation and not already kept; None when the source is no ayat or none refers to it."""
    marker = _AYAT.match(source.text) if source is not None else None
    if marker is None:
        return None
    refers = re.compile(rf"\bdimaksud\s+(?:pada|dalam)\s+ayat\s*\({marker.group(1)}\)", re.I)
    kept = {c.text for c, _ in chosen}
    return next((c for c in sorted(ranked, key=lambda c: c.position) if c.passage.chunk_id == source.passage.chunk_id
                 and c.position > source.position and c.text not in kept and len(c.text) <= ELABORATION_CHARS
                 and refers.search(c.text) and not DELEGATION.search(c.text)), None)


def _with_elaboration(chosen: Sequence[tuple[Candidate, dict]], source: Candidate | None,
                      ranked: Sequence[Candidate]) -> list[tuple[Candidate, dict]]:
    extra = elaborating(source, chosen, ranked)
    if extra is None:
        return list(chosen)
    at = next(index for index, (c, _) in enumerate(chosen) if c is source) + 1
    return [*chosen[:at], (extra, {extra.passage.document_id: extra.passage.label}), *chosen[at:]]


def compose(question: Question, chosen: Sequence[tuple[Candidate, dict]], language: str,
            rank_items: ItemRanker | None = None, ranked: Sequence[Candidate] = ()) -> tuple[Claim, ...]:
    """The claims in reading order: the opener (when the question asks for one), then the quoted units, the
    opener's passage first (``source_first``) with the ayat of ``ranked`` that completes the opener's
    (``elaborating``); ``rank_items`` (texts -> cosines with the question) picks the list item a figure opener
    states."""
    claims: list[Claim] = []
    opener, lead_labels, source = _opening(question, chosen, language, rank_items)
    chosen = source_first(_with_elaboration(chosen, source, ranked), source)
    headed: set = set()
    whole = next((c for c, _ in chosen if " ".join(c.text.split()) == opener), None) if opener else None
    if opener:
        # The opener that is a whole unit as written (a definition) is not quoted twice; where the answer need not
        # open with its sentence's figure, date, name or yes/no, it stands under its article's heading, so the
        # reader still sees which regulation and Pasal say it.
        heading = heading_of(whole.passage) if whole is not None and question.asks not in SAID_FIRST else None
        if heading:
            headed.add(whole.passage.chunk_id)
        claims.append(Claim(text=opener, citation_keys=tuple(lead_labels.values()), heading=heading))
    for candidate, labels in chosen:
        keys = tuple(labels.values())
        if candidate is whole:
            continue
        heading = None
        if candidate.passage.chunk_id not in headed:
            headed.add(candidate.passage.chunk_id)
            heading = heading_of(candidate.passage)
        if candidate.kind in ("list", "table") and candidate.items:
            lead_in = candidate.text[:candidate.text.index(candidate.items[0])].strip() if candidate.items[0] in \
                candidate.text else candidate.text
            if candidate.omitted:
                shown = len(candidate.items)
                note = OMITTED.get(language, OMITTED["id"]).format(shown=shown, total=shown + candidate.omitted)
                heading = f"{heading or heading_of(candidate.passage)} ({note})"
            claims.append(Claim(text=lead_in, citation_keys=keys, heading=heading))
            claims.extend(Claim(text=item, citation_keys=keys, layout="list_item") for item in candidate.items)
            continue
        layout = "list_item" if _ITEM_MARKER.match(candidate.text) else "paragraph"
        claims.append(Claim(text=candidate.text, citation_keys=keys, layout=layout, heading=heading))
    return tuple(claims)
