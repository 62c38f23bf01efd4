"""The first sentence: the answer said plainly, built from the span that states it.

For a figure, a duration, a date, a person, a yes/no on an obligation or a
prohibition, a definition or a list, the answer opens with one sentence in the
question's language taken from the best unit: its clause that carries the
figure ("… sebesar Rp3.932.552,00."), the deadline ("… paling lambat 10 Hari
Kerja sejak …"), the enactment ("Ditetapkan di Banda Aceh pada tanggal … oleh
Gubernur Aceh Muzakir Manaf."), the polarity the unit states ("Tidak. Pengusaha
dilarang …") or the definition itself. Spelled-out numbers in parentheses and
list markers are dropped. The sentence is a claim like any other: it cites the
unit's passage and the gate checks it (its words and figures are the
passage's; a leading yes/no is the only word it adds, besides "oleh").
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

from answering.extractive.answerability import GENERIC_STEMS
from answering.extractive.candidates import Candidate
from answering.extractive.focus import DATE, REFERENCE
from answering.extractive.names import printed_name
from answering.extractive.phrasing import (BY, ITEM_END, MAX_OPENER_CHARS, MODAL_STEMS, NO, YES, clause, short,
                                           tidy, unmarked)
from answering.extractive.quantities import WORDED_PERIODS, WORDED_QUANTITY, quantity_differs
from answering.extractive.status import status_sentence
from answering.extractive.question import Question
from answering.extractive.yesno import affirmed, denied, excluded, polarity
from answering.text import content_stems
from retrieval.facade.language import OFFICE, PERSON, asks_status

ItemRanker = Callable[[list[str]], "list[float] | None"]

FIGURE = re.compile(r"(?:Rp\.?\s?\d|\d[\d.,]*\s*(?:%|persen|percent|juta|miliar|triliun|ribu|rupiah)|\d{1,3}(?:\.\d{3})+)",
                    re.I)
DURATION = re.compile(r"\d[\d.,]*\s*(?:x\s*\d+\s*)?(?:hari|minggu|bulan|tahun|jam|menit)\b", re.I)

DEADLINE = re.compile(r"\b(?:paling\s+(?:lambat|lama|cepat|singkat)|dalam\s+(?:jangka\s+)?waktu|selambat-lambatnya|"
                      r"sekurang-kurangnya|paling\s+sedikit|paling\s+banyak|paling\s+tinggi|maksimal|minimal|selama)\b", re.I)

SENTENCE_END = re.compile(r"\.\s+(?=[A-Z\[(])")
_DANGLING = re.compile(r"\s+(?:kepada|oleh|dengan|untuk|bagi|dari|pada|terhadap|sebagai\s+berikut)\s*[:.]?\s*$", re.I)


def _deadline(text: str) -> str | None:
    """"Paling lambat 10 Hari Kerja sejak permohonan diterima.": the deadline phrase to its clause's end."""
    for piece in re.split(r";\s+", text):
        match = DURATION.search(piece)
        phrase = next((m for m in DEADLINE.finditer(piece) if m.start() <= (match.start() if match else -1)), None)
        if match and phrase:
            clause = piece[phrase.start():]
            # One sentence: what follows its full stop is another statement (or an OCR'd page's debris).
            end = SENTENCE_END.search(clause, match.end() - phrase.start())
            clause = clause[:end.start() + 1] if end else clause
            # "Paling lambat 10 hari kerja sejak …, Badan Publik wajib …": the deadline is the fronted phrase.
            comma = clause.find(",", match.end() - phrase.start())
            clause = clause[:comma] if phrase.start() == 0 and comma > 0 else clause
            # "… paling lambat 3 x 24 jam kepada:" leads into a list: the sentence ends at the deadline.
            return tidy(_DANGLING.sub("", clause))
    return None


FIGURE_ASKS = ("figure", "duration")
# A quantity with its unit: an age, a term, a count ("berusia paling tinggi 55 tahun", "paling banyak 3 orang").
# (Applied to tidied text, whose spelled-out numbers are gone.)
QUANTITY = re.compile(r"\b\d[\d.,]*\s*(?:tahun|bulan|minggu|hari|jam|menit|kali|orang|anggota|hektare|hektar|ha|meter|"
                      r"m2|km|kilometer|kg|ton|liter|unit)\b", re.I)
# "Ada batas waktunya gak?" asks whether there is a time limit: a unit stating one says yes.
ASKS_TIME_LIMIT = re.compile(r"\b(?:batas|jangka|tenggat)\s+waktu|\bdeadline|\btime\s+limit", re.I)


def _deadline_exists(question: Question, text: str, language: str) -> str | None:
    """"Ya. <the deadline clause>" for a question whether a time limit exists, from a unit that states one."""
    if language != "id" or not ASKS_TIME_LIMIT.search(question.text):
        return None
    return f"{YES[language]} {short(clause(text, DURATION))}" if _deadline(text) else None


def states_figure(question: Question, text: str) -> bool:
    """The sentence states a figure of the kind asked (a sum of money for "berapa upah", a duration for "berapa
    lama"); a quantity in words alone counts ("lima belas tahun"), for a duration only a period."""
    worded = {match.group("measure").lower() for match in WORDED_QUANTITY.finditer(text)}
    if question.asks == "duration":
        return bool(DURATION.search(text) or worded & WORDED_PERIODS)
    if worded:
        return True
    # A number that points at another text ("ayat (2)", "Pasal 15") states no figure.
    return question.focus.satisfied_by(REFERENCE.sub(" ", text)) if question.focus.kind == "figure" else bool(
        FIGURE.search(text))


def _figure(asks: str, text: str) -> str | None:
    """The clause stating the duration or figure asked for (in digits, else in words)."""
    if asks == "duration":
        return _deadline(text) or clause(text, DURATION) or clause(text, FIGURE) or clause(text, WORDED_QUANTITY)
    return clause(text, FIGURE) or clause(text, WORDED_QUANTITY)


_DIGIT = re.compile(r"\d")
# "KESATU : Menetapkan Upah Minimum Provinsi (UMP) Aceh Tahun 2026 sebesar Rp3.932.552,00": a decree's operative
# verb is the act of deciding; the answer is what it set ("Upah Minimum Provinsi (UMP) Aceh Tahun 2026 sebesar
# Rp3.932.552,00.").
_DECIDES = re.compile(r"^Menetapkan\s+(?=[^\s:])")


def what_was_set(sentence: str) -> str:
    rest = _DECIDES.sub("", sentence, count=1)
    return rest if rest == sentence else rest[0].upper() + rest[1:]


_JURISDICTION = re.compile(r"\s*(?:ACEH|REPUBLIK\s+INDONESIA|PROVINSI\s+[A-Z]+|KABUPATEN\s+[A-Z]+|KOTA\s+[A-Z]+)\b,?",
                           re.I)


# "DR. H. SUSILO BAMBANG YUDHOYONO": the plain sentence names the person without academic or pilgrim titles.
_HONORIFIC = r"(?:DR|Dr|H|Hj|Ir|Prof|Drs)\.\s*"
_ACTING = re.compile(r"\b(?:Pj|Plt|Plh)\.?\s*$", re.I)
_HONORIFICS = re.compile(rf"^(?:{_HONORIFIC})+")
_NAME = re.compile(rf"(?:{_HONORIFIC})*[A-Z][A-Z'.]{{2,}}(?:\s+[A-Z][A-Z'.]{{1,}}){{0,4}}")
_TRAILING_NAME = re.compile(r",\s*(?:ttd\.?\s*)?(?P<name>" + _NAME.pattern + r")\s*\.?\s*$")


def _enactment(lead: Candidate, language: str) -> str | None:
    """"Ditetapkan di <place> pada tanggal <date> oleh <office> <name>." from a signature block."""
    text = " ".join(lead.text.split())
    date = DATE.search(text)
    # The signatory's name is the last capitalised run that is not the office above it ("GUBERNUR ACEH,").
    office = OFFICE.search(text)
    people = [m for m in PERSON.finditer(text) if not (office and m.start() < office.end())]
    if not people and office:
        # "GUBERNUR ACEH MUZAKIR MANAF" with no comma: the name follows the office's jurisdiction.
        after = _JURISDICTION.match(text, office.end())
        people = list(PERSON.finditer(text, after.end() if after else office.end()))
    trailing = _TRAILING_NAME.search(text)
    if trailing and len(re.findall(r"\bttd\b", text, re.I)) <= 1:
        # "… KETUA, ZULFADHLI", "PRESIDEN REPUBLIK INDONESIA, ttd. SOEKARNO": one signatory's name closing the
        # block after its office's comma, one word or more (a caps run inside the office is not it); a block
        # signed by several (a president and the ministers who countersign) keeps the first name found.
        person = _NAME.match(text, trailing.start("name"))
        office = office if office and office.start() < person.start() else None
    else:
        person = people[-1] if people else None
    if not (date or person):
        return None
    head = text[:date.end()] if date else re.split(r"\b(?:GUBERNUR|PRESIDEN|BUPATI|WALI|MENTERI|KETUA)\b", text)[0]
    if person and person.start() < len(head):
        head = head[:person.start()]
    head = re.sub(r"\s*\bttd\b\.?\s*$", "", head.strip(" ,"), flags=re.I)
    head = re.sub(r"\btanggal\s*,\s*", "tanggal ", head)
    who = ""
    if person:
        title = ""
        if office and office.start() < person.start():
            # "Pj. GUBERNUR ACEH,": an acting holder's prefix is part of the office ("Pj.", "Plt.", "Plh.").
            acting = _ACTING.search(text, 0, office.start())
            start = acting.start() if acting else office.start()
            title = re.sub(r"\bttd\b\.?", " ", text[start:person.start()], flags=re.I)
            title = " ".join(title.replace(",", " ").split()).title() + " "
        name = _HONORIFICS.sub("", person.group(0)) or person.group(0)
        who = f" {BY[language]} {title}{printed_name(name)}"
    return tidy(head.strip(" ,") + who)


_ACRONYM = re.compile(r"\b[A-Z]{2,6}\b")
_CAPITALISED = re.compile(r"\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")


def spells(acronym: str, text: str) -> bool:
    """``text`` holds a run of capitalised words whose initials are ``acronym`` ("SMA": "Sekolah Menengah Atas")."""
    for run in _CAPITALISED.finditer(text):
        words = run.group(0).split()
        if any("".join(w[0] for w in words[i:i + len(acronym)]) == acronym for i in range(len(words) - len(acronym) + 1)):
            return True
    return False


def by_meaning(items: Sequence[str], rank: ItemRanker | None, question: str = "",
               asked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """A list's items, the one the question names first: an item spelling out an acronym the question uses ("SMA":
    "Sekolah Menengah Atas", which the small model does not read) or saying a word of ``asked`` (the first ask's
    words, in the law's words too, less the lead-in's: "coal" -> "batu bara"), then the one closest in meaning (a
    schedule's row for "anak SMP dapat berapa?"); in reading order without either."""
    acronyms = set(_ACRONYM.findall(question))
    # How much of the question an item names: an acronym spelled out, else the asked words it says.
    named = [len(asked) + 1 if any(acronym in item or spells(acronym, item) for acronym in acronyms)
             else len(content_stems(item) & asked) for item in items]
    # One item named most needs no embeddings.
    measured = rank is not None and len(items) > 1 and named.count(max(named)) != 1
    scores = (rank(list(items)) if measured else None) or [0.0] * len(items)
    order = sorted(range(len(items)), key=lambda i: (-named[i], -scores[i], i))
    return tuple(items[i] for i in order)


def _unnamed_case(question: Question, lead: Candidate, lead_in: str) -> bool:
    """The question names a case (a word that neither the lead-in, the regulation's title nor an instrument it
    names says) that none of the list's items names: the amounts for primary and junior secondary pupils do not
    answer "santri dayah dapet brp?"."""
    items = tuple(map(tidy, lead.items))
    said = content_stems(f"{lead_in} {lead.passage.document_title} {' '.join(n.text for n in question.named)}")
    case = {s for s in (question.stems | question.ask_stems) - said - GENERIC_STEMS - MODAL_STEMS if len(s) > 2}
    acronyms = set(_ACRONYM.findall(question.text))          # "SMP" names "Sekolah Menengah Pertama"

    def names(item: str) -> bool:
        return bool(content_stems(item) & case) or any(a in item or spells(a, item) for a in acronyms)

    return len(items) > 1 and bool(case) and not any(map(names, items))


def _case_items(question: Question, lead: Candidate, lead_in: str, rank_items: ItemRanker | None) -> tuple[str, ...]:
    """A list's items a figure may open from, the one the question names first (``by_meaning``); none for a
    case no item names (``_unnamed_case``)."""
    if _unnamed_case(question, lead, lead_in):
        return ()
    # The first ask's words the lead-in does not say name an item; a second ask's ("… and is it the same for coal
    # mining?") do not.
    asked = frozenset(question.ask_stems - content_stems(lead_in) - GENERIC_STEMS - MODAL_STEMS)
    return by_meaning(tuple(map(tidy, lead.items)), rank_items, question.text, asked)


def figures_for_other_cases(question: Question, units: Sequence[Candidate]) -> bool:
    """A figure asked, and every unit kept that states one is a list of amounts for cases other than the one the
    question names: what the documents set is another case's figure, not this one's. (An English question's own
    words are never an Indonesian item's: it names no case here.)"""
    if question.asks not in ("figure", "duration") or question.language == "en":
        return False
    def other_cases(unit: Candidate) -> bool:
        lead_in = unit.text.split(unit.items[0])[0] if unit.items else ""
        return bool(unit.items) and not states_figure(question, lead_in) and _unnamed_case(question, unit, tidy(lead_in))

    stating = [unit for unit in units if states_figure(question, unit.text)]
    return bool(stating) and all(map(other_cases, stating))


# An appendix table's row as its text layer prints it ("4 Pertambangan Emas dan Perak 07301 4.061.791 Menengah,
# Besar"): its number, its label (the words up to the first number), then its other cells.
_TABLE_ROW = re.compile(r"^(?:\d{1,3})\s+(?P<label>[^\d]+?)\s+(?P<cells>\d.*)$")


def _row_figure(row: str) -> str | None:
    """"Pertambangan Emas dan Perak: 4.061.791." from a table row: its label and the first amount in its cells;
    None when the row states none."""
    match = _TABLE_ROW.match(" ".join(row.split()))
    figure = match and FIGURE.search(match.group("cells"))
    return tidy(f"{match.group('label')}: {figure.group(0)}") if figure else None


def opening_sentence(question: Question, lead: Candidate, language: str,
                     rank_items: ItemRanker | None = None) -> str | None:
    """The plain first sentence for what the question asks, or None when the unit itself should lead.
    ``rank_items`` (texts -> their cosines with the question) chooses which of a list's items a figure comes
    from."""
    asks = question.asks
    text = tidy(lead.text if not lead.items else lead.text.split(lead.items[0])[0])
    if asks in ("enactment", "signatory") and lead.kind == "closing":
        return _enactment(lead, language)
    if asks in ("status", "yesno") and asks_status(question.text) and (
            said := status_sentence(question, lead, text, language)):
        return said   # "still in force?" answered by the clause that revokes or amends it
    if asks == "yesno" and (ruled_out := excluded(question, lead) or denied(question, lead)
                            or (lead.items and affirmed(question, lead))):
        return ruled_out
    if asks == "yesno":
        said = polarity(question, text)
        if said is None or quantity_differs(question.text, text):
            return affirmed(question, lead) or _deadline_exists(question, text, language)
        return f"{(YES if said == 'yes' else NO)[language]} {short(text)}"
    if asks in ("duration", "figure") and lead.kind == "table" and (
            row := _row_figure(next(iter(_case_items(question, lead, text, rank_items)), ""))):
        return row
    if asks in ("duration", "figure"):
        # The lead-in first, then its list items ("… dibagi sebagai berikut: a. … sebesar 10% …"); a figure asked
        # as a limit of age, time or count ("batas usia paling tinggi") is a quantity with its unit ("55 tahun").
        pieces = (text, *_case_items(question, lead, text, rank_items))
        said = (next(filter(None, (_figure(asks, piece) for piece in pieces)), None)
                or next(filter(None, (clause(piece, QUANTITY) for piece in pieces)), None) or clause(text, _DIGIT))
        return what_was_set(said) if said else None
    if asks == "date":
        return clause(text, DATE) or _deadline(text)     # "kapan wajib melapor?": "paling lambat 3 hari kerja …"
    if asks == "person":
        return clause(text, PERSON) or clause(text, OFFICE)
    if lead.items and asks in ("list", "procedure", "general"):
        return _inline_list(text, lead.items)
    if asks in ("definition", "list", "about"):
        return short(text)
    return None


DELETED = re.compile(r"\s*dihapus\s*[.;]?\s*", re.I)


def _inline_list(lead_in: str, items: tuple[str, ...]) -> str | None:
    """"Pembentukan … dilakukan dengan tahapan: persiapan, penilaian, dan penetapan." when it fits one sentence;
    None when it does not (a lead-in alone, "Kepala Dinas Kesehatan Aceh agar.", says nothing: the quoted list
    under it leads)."""
    head = lead_in.rstrip(" .:")
    parts = [ITEM_END.sub("", unmarked(" ".join(item.split()))) for item in items]
    parts = [p for p in parts if p and not DELETED.fullmatch(p)]     # "a. dihapus;": an item an amendment deleted
    joined = ", ".join(parts[:-1]) + (", dan " if len(parts) > 2 else " dan ") + parts[-1] if len(parts) > 1 else "".join(parts)
    sentence = tidy(f"{head}: {joined}")
    return sentence if len(sentence) <= MAX_OPENER_CHARS else None


