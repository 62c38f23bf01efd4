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

from answering.extractive.candidates import Candidate
from answering.extractive.focus import DATE
from answering.extractive.requirements import excluding_item
from answering.extractive.quantities import NEGATED_ASK, asked_quantities, holds, quantity_differs
from answering.extractive.question import Question
from answering.text import content_stems
from retrieval.facade.language import OFFICE, PERSON, asks_status

MAX_OPENER_CHARS = 320
_MARKER = re.compile(r"^\s*(?:\(\d+[a-z]?\)|[a-z]\.|\d{1,2}\.|[A-Z]{4,}(?:\s+BELAS)?\s*:|Pasal\s+\d+[A-Z]?\.?)\s*")
_SPELLED = re.compile(r"(\d[\d.,]*%?)\s*\((?:[a-z\s,/-]{3,120}|[a-z\s]+ (?:rupiah|persen))\)", re.I)
FIGURE = re.compile(r"(?:Rp\.?\s?\d|\d[\d.,]*\s*(?:%|persen|percent|juta|miliar|triliun|ribu|rupiah)|\d{1,3}(?:\.\d{3})+)",
                    re.I)
DURATION = re.compile(r"\d[\d.,]*\s*(?:x\s*\d+\s*)?(?:hari|minggu|bulan|tahun|jam|menit)\b", re.I)
PROHIBIT = re.compile(r"\b(?:dilarang|tidak\s+boleh|tidak\s+dapat|tidak\s+diperbolehkan|tidak\s+diizinkan|"
                      r"tidak\s+berhak|prohibited|may\s+not|must\s+not)\b", re.I)
EXEMPT = re.compile(r"\b(?:tidak\s+wajib|tidak\s+harus|tidak\s+diwajibkan|dikecualikan|tidak\s+berlaku|"
                    r"tidak\s+termasuk|bukan\s+merupakan|tidak\s+dikenakan|dibebaskan\s+dari)\b", re.I)
OBLIGE = re.compile(r"\b(?:wajib|harus|diwajibkan|berkewajiban|shall|must)\b", re.I)
PERMIT = re.compile(r"\b(?:dapat|boleh|berhak|diperbolehkan|berwenang|mendapat|memperoleh|diberikan)\b", re.I)
MODAL_STEMS = frozenset(content_stems("boleh bisa dapat wajib harus berhak dilarang tidak tak bukan gak nggak ga "
                                       "apakah bolehkah can may must should allowed"))
YES = {"id": "Ya.", "en": "Yes."}
NO = {"id": "Tidak.", "en": "No."}
BY = {"id": "oleh", "en": "by"}


def tidy(text: str) -> str:
    """A unit as a sentence: no list marker, no spelled-out number, one space, a capital and a full stop."""
    text = " ".join(text.split())
    text = _MARKER.sub("", text, count=1)
    text = _SPELLED.sub(r"\1", text)
    text = text.strip(" ;:,")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


DEADLINE = re.compile(r"\b(?:paling\s+(?:lambat|lama|cepat|singkat)|dalam\s+(?:jangka\s+)?waktu|selambat-lambatnya|"
                      r"sekurang-kurangnya|paling\s+sedikit|paling\s+banyak|paling\s+tinggi|maksimal|minimal|selama)\b", re.I)


def _deadline(text: str) -> str | None:
    """"Paling lambat 10 Hari Kerja sejak permohonan diterima.": the deadline phrase to its clause's end."""
    for piece in re.split(r";\s+", text):
        match = DURATION.search(piece)
        phrase = next((m for m in DEADLINE.finditer(piece) if m.start() <= (match.start() if match else -1)), None)
        if match and phrase:
            clause = piece[phrase.start():]
            # "Paling lambat 10 hari kerja sejak …, Badan Publik wajib …": the deadline is the fronted phrase.
            comma = clause.find(",", match.end() - phrase.start())
            return tidy(clause[:comma] if phrase.start() == 0 and comma > 0 else clause)
    return None


FIGURE_ASKS = ("figure", "duration")


def states_figure(question: Question, text: str) -> bool:
    """The sentence states a figure of the kind asked (a sum of money for "berapa upah", a duration for "berapa
    lama")."""
    if question.asks == "duration":
        return bool(DURATION.search(text))
    return question.focus.satisfied_by(text) if question.focus.kind == "figure" else bool(FIGURE.search(text))


def _figure(asks: str, text: str) -> str | None:
    """The clause stating the duration or figure asked for."""
    if asks == "duration":
        return _deadline(text) or _clause(text, DURATION) or _clause(text, FIGURE)
    return _clause(text, FIGURE)


_DIGIT = re.compile(r"\d")


def _clause(text: str, pattern: re.Pattern) -> str | None:
    """The semicolon-separated clause of a tidied unit that carries ``pattern``."""
    for piece in re.split(r";\s+", text):
        if pattern.search(piece):
            return tidy(piece)
    return None


POLARITY_REACH = 15        # words after the modal that must share a word with the question


def _governs(question: Question, unit: str, match: re.Match, share: float = 0.0) -> bool:
    """The modal's own clause is about what the question asks ("dilarang mempekerjakan anak" for "bolehkah
    mempekerjakan anak?"), not a requirement beside it ("harus memenuhi persyaratan"); with ``share``, it
    carries at least that share of the question's words (and two of them)."""
    words = unit[match.end():].split()[:POLARITY_REACH]
    asked = question.stems - MODAL_STEMS
    shared = content_stems(" ".join(words)) & asked
    return bool(shared) and (not share or (len(shared) >= 2 and len(shared) >= share * len(asked)))


_REVOKED = re.compile(r"\b(dicabut|dinyatakan\s+tidak\s+berlaku|tidak\s+berlaku\s+lagi|repealed|revoked)\b", re.I)


def _revokes_named(question: Question, unit: str) -> bool:
    """The unit revokes the regulation the question names: it says "dicabut" / "tidak berlaku" and cites that
    regulation by its number and year."""
    if not _REVOKED.search(unit):
        return False
    return any(citation.search(unit) for citation in _citations(question))


def _citations(question: Question) -> list[re.Pattern]:
    """"Nomor <number> Tahun <year>" of each instrument the question names by number and year."""
    return [re.compile(rf"\bNomor\s+{re.escape(named.number)}\s+Tahun\s+{named.year}\b", re.I)
            for named in question.named if named.number and named.year]


_GAZETTE = re.compile(r"\s*\((?:Lembaran|Berita|Tambahan)[^)]*\)", re.I)
_REVOKING_TAIL = re.compile(r"\b(dicabut(?:\s+dan\s+dinyatakan\s+tidak\s+berlaku(?:\s+lagi)?)?|"
                            r"dinyatakan\s+tidak\s+berlaku(?:\s+lagi)?)\s*\.?\s*$", re.I)


def _revoking_item(question: Question, passage: str) -> str | None:
    """"Undang-Undang Nomor 32 Tahun 2004 tentang Pemerintahan Daerah dicabut dan dinyatakan tidak berlaku.": the
    item of a revoking list that names the instrument asked about, with the list's closing predicate."""
    flat = " ".join(passage.split())
    tail = _REVOKING_TAIL.search(flat)
    if not tail:
        return None
    for cited in _citations(question):
        for item in re.split(r"(?:^|[;:]\s+)(?:[a-z]|\d{1,2})\.\s+", flat)[1:]:
            if cited.search(item.split(" sebagaimana ")[0]):
                core = _GAZETTE.split(item)[0] if _GAZETTE.search(item) else item.split(" sebagaimana ")[0]
                return tidy(f"{core.strip(' ,;')} {tail.group(1)}")
    return None


def _polarity(question: Question, unit: str) -> str | None:
    """"yes" or "no" when a modal of the unit governs what the question asks; None when none does."""
    for patterns, answer in (((PROHIBIT, EXEMPT), "no"), ((OBLIGE, PERMIT), "yes")):
        if any(_governs(question, unit, m) for pattern in patterns for m in pattern.finditer(unit)):
            return answer
    return None


_JURISDICTION = re.compile(r"\s*(?:ACEH|REPUBLIK\s+INDONESIA|PROVINSI\s+[A-Z]+|KABUPATEN\s+[A-Z]+|KOTA\s+[A-Z]+)\b,?",
                           re.I)


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
            title = re.sub(r"\bttd\b\.?", " ", text[office.start():person.start()], flags=re.I)
            title = " ".join(title.replace(",", " ").split()).title() + " "
        who = f" {BY[language]} {title}{person.group(0).title()}"
    return tidy(head.strip(" ,") + who)


# A unit other than the best one says "no" only when it prohibits ("dilarang", "tidak boleh") and the prohibition's
# clause carries this share of the question's words (two at least), and only for a question in the corpus's
# language (word overlap measures nothing across languages). Permissions and duties are too common beside the
# point ("dapat diangkat menjadi sekretaris pengadilan agama" for "apakah pengadilan agama berwenang …"): on the
# training part every second-unit "Ya" was beside the point; the prohibition shared three words (share 0.38).
SECOND_UNIT_SHARE = 0.3


def _excluded(question: Question, unit: Candidate) -> str | None:
    """"Tidak. <requirements>: <the item that rules out what is asked>." (requirements.py)"""
    if not unit.items:
        return None
    lead_in = unit.text.split(unit.items[0])[0]
    item = excluding_item(frozenset(question.stems - MODAL_STEMS), lead_in, unit.items)
    if item is None:
        return None
    said = f"{lead_in.strip().rstrip(' :.')}: {_ITEM_END.sub('', _MARKER.sub('', ' '.join(item.split()), count=1))}"
    return f"{NO[question.language]} {_short(tidy(said))}"


def polarity_opener(question: Question, unit: Candidate, language: str) -> str | None:
    """"Tidak. <clause>" from a unit that is not the best one: a stricter test of what its prohibition governs."""
    if question.asks != "yesno" or question.language != "id":
        return None
    if excluded := _excluded(question, unit):
        return excluded
    text = tidy(unit.text if not unit.items else unit.text.split(unit.items[0])[0])
    prohibits = any(_governs(question, text, m, SECOND_UNIT_SHARE) for m in PROHIBIT.finditer(text))
    if not prohibits or quantity_differs(question.text, text):
        return None
    return f"{NO[language]} {_short(text)}"


def opening_sentence(question: Question, lead: Candidate, language: str) -> str | None:
    """The plain first sentence for what the question asks, or None when the unit itself should lead."""
    asks = question.asks
    text = tidy(lead.text if not lead.items else lead.text.split(lead.items[0])[0])
    if asks in ("enactment", "signatory") and lead.kind == "closing":
        return _enactment(lead, language)
    if asks in ("status", "yesno") and asks_status(question.text):
        if _revokes_named(question, text):
            return f"{NO[language]} {_short(text)}"      # "still in force?" answered by the clause revoking it
        if revoked := _revoking_item(question, lead.passage.text):
            return f"{NO[language]} {revoked}"
    if asks == "yesno" and (excluded := _excluded(question, lead)):
        return excluded
    if asks == "yesno":
        polarity = _polarity(question, text)
        if polarity is None or quantity_differs(question.text, text):
            return None
        return f"{(YES if polarity == 'yes' else NO)[language]} {_short(text)}"
    if asks in ("duration", "figure"):
        # The lead-in first, then its list items ("… dibagi sebagai berikut: a. … sebesar 10% …").
        pieces = (text, *map(tidy, lead.items))
        return next(filter(None, (_figure(asks, piece) for piece in pieces)), None) or _clause(text, _DIGIT)
    if asks == "date":
        return _clause(text, DATE)
    if asks == "person":
        return _clause(text, PERSON) or _clause(text, OFFICE)
    if lead.items and asks in ("list", "procedure", "general"):
        return _inline_list(text, lead.items)
    if asks in ("definition", "list", "about"):
        return _short(text)
    return None


_ITEM_END = re.compile(r"[;,.]?\s*(?:dan|atau|dan/atau)?\s*$", re.I)


def _inline_list(lead_in: str, items: tuple[str, ...]) -> str:
    """"Pembentukan … dilakukan dengan tahapan: persiapan, penilaian, dan penetapan." when it fits one sentence."""
    head = lead_in.rstrip(" .:")
    parts = [_ITEM_END.sub("", _MARKER.sub("", " ".join(item.split()), count=1)) for item in items]
    parts = [p for p in parts if p]
    joined = ", ".join(parts[:-1]) + (", dan " if len(parts) > 2 else " dan ") + parts[-1] if len(parts) > 1 else "".join(parts)
    sentence = tidy(f"{head}: {joined}")
    return sentence if len(sentence) <= MAX_OPENER_CHARS else tidy(head + ":")


def _short(text: str) -> str:
    if len(text) <= MAX_OPENER_CHARS:
        return text
    first = re.split(r";\s+", text)[0]
    return tidy(first) if len(first) <= MAX_OPENER_CHARS else tidy(first[:MAX_OPENER_CHARS].rsplit(" ", 1)[0])


def range_opener(question: Question, units: list[Candidate], language: str) -> tuple[str, Candidate] | None:
    """"Ya./Tidak. <the clause stating the range>" when a quoted unit states the range the question's quantity
    falls in or out of (a range, at least, at most, below, above), read with the clause's modal; the unit it
    came from. None when the question names no quantity or no unit bounds it."""
    if question.asks != "yesno" or NEGATED_ASK.search(question.text):
        return None
    for value, measure in asked_quantities(question.text):
        for unit in units:
            text = tidy(unit.text)
            for piece in re.split(r";\s+", text):
                inside = holds(value, measure, piece)
                if inside is None:
                    continue
                # Inside a prohibition's range is a no; outside it the clause decides nothing. Inside a
                # permission's or a requirement's range is a yes, outside it a no.
                prohibits = bool(PROHIBIT.search(piece) or EXEMPT.search(piece))
                if prohibits and not inside:
                    continue
                answer = NO if prohibits or not inside else YES
                return f"{answer[language]} {_short(tidy(piece))}", unit
    return None
