"""The question read once: a frozen value every step of the embedded answerer reads.

``read_question`` parses the text one time (cached per text) into what it asks
for (a figure, a duration, a date, a person, yes/no, a definition, a list, a
procedure, a legal status, or a general statement), its language, the
instruments and article it names, and the years, places and numbers that
constrain the answer. Selection, the answerability decision and the opener
read this value instead of parsing the text again.
"""
from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from answering.extractive.anchors import ArticleLocator, NamedRegulation, find_article, find_named_regulations
from answering.extractive.focus import Focus, asked_units, question_focus
from answering.extractive.quantities import asked_bound
from answering.extractive.terms import defined_term_stems
from answering.text import asking_sentences, content_stems
from retrieval.facade.language import expansion_words, formal_forms

ENGLISH_HINTS = re.compile(r"\b(what|which|who|how|when|where|does|do|is|are|the|of|according|please|can|may|must|"
                           r"should|my|our|i|we|under|law)\b", re.I)
INDONESIAN_HINTS = re.compile(r"\b(apa|apakah|siapa|berapa|brp|bagaimana|gimana|kapan|dimana|yang|dan|dengan|untuk|"
                              r"dalam|tentang|boleh|gak|nggak|ga|tidak|saya|kalau|kalo|itu|ini|sih|ya)\b", re.I)
YEAR = re.compile(r"\b(19[4-9]\d|20\d\d)\b")
# Yes/no: "apakah …", "bolehkah …", "boleh gak …", "… atau tidak?", "Do/Does/Can/May/Is/Must …?"
YES_NO = re.compile(
    r"^\s*(?:apakah|apa\s+benar|benarkah|bolehkah|bisakah|dapatkah|wajibkah|haruskah|perlukah|masihkah|sudahkah)\b|"
    r"\b(?:boleh|bisa|wajib|harus|perlu|kena|dapat|masih|sudah|udah|berhak)\s*(?:gak|nggak|ngga|ga|enggak|tidak|tdk)\b|"
    r"\b(?:atau|apa)\s+(?:tidak|nggak|gak|enggak|belum|bukan)\s*\??\s*$|\b(?:gak|nggak|ga|ngga|enggak)\s*\?\s*$|"
    r"^\s*(?:do|does|did|can|could|may|must|is|are|was|were|should|will|has|have)\s+\w+", re.I)
# A question with no question word that ends in "?" asks yes or no ("Upahnya tetap dibayar penuh?").
WH_WORD = re.compile(r"\b(?:apa|apaan|siapa|siapakah|berapa|seberapa|brp|kapan|bagaimana|gimana|gmn|mengapa|kenapa|dimana|mana|"
                     r"manakah|what|who|whom|whose|how|when|where|which|why)\b", re.I)
DURATION = re.compile(r"\b(?:berapa|brp)\s+(?:lama|hari|bulan|minggu|jam|tahun|thn)\b|\bhow\s+(?:long|fast|soon|quickly|often|many\s+(?:days|weeks|months|years|hours))\b|"
                      r"\b(?:batas|jangka|tenggat)\s+waktu\b|\bpaling\s+(?:lambat|lama)\b|\bdeadline\b", re.I)
# "apa aja" as much as "apa saja"; "Which islands …", "What fields does … cover?": a plural noun asked for.
LIST = re.compile(r"\b(?:(?:apa|siapa|mana)\s+(?:saja|aja)|sebutkan|what\s+are\s+the|which\s+\w+\s+are|list\s+(?:of|the)|"
                  r"which\s+(?!is\b|was\b|has\b|does\b)\w{3,}s|what\s+(?!is\b|was\b|has\b|does\b)\w{3,}s\s+(?:are|do|does|did))\b",
                  re.I)
PROCEDURE = re.compile(r"\b(?:bagaimana\s+(?:cara|prosedur|mekanisme|tata\s+cara)|gimana\s+(?:cara|caranya)|cara(?:nya)?\s+"
                       r"(?:untuk\s+)?\w+|prosedur|tata\s+cara|langkah|how\s+(?:do|can|should)\s+(?:i|we))\b", re.I)
ENACTMENT_KINDS = ("enactment", "signatory")
# Where a question asks a second thing ("berapa …? trs boleh …?", "berapa … dan kapan …?"): its first ask is the
# one the answer's first sentence says.
SECOND_ASK = re.compile(
    r"\?\s+(?=\S)|(?:[,;]?\s+\b(?:dan|serta|trs|terus|lalu|and)|\s*[,;&])\s+(?=(?:yg\s+|yang\s+)?(?:kapan|siapa|berapa|"
    r"brp|apa(?:kah)?|bagaimana|gimana|when|who|how|what|which|is|are|does|do|can|may|boleh|bisa)\b)|"
    # "… brp lama & pejabatnya wajib jawab kapan?": the second ask's question word closes its clause.
    r"(?:\s+\b(?:dan|serta|trs|terus|lalu)\b|\s*[,;&])\s+(?=[^?,;&]{0,80}?\b(?:kapan|siapa|berapa|brp|gimana|"
    r"bagaimana|mana)\s*(?:lama|banyak|hari|bulan|tahun|persen)?\s*(?:sih|ya|aja)?\s*\?)", re.I)   # "… berapa lama?"
STATUS = re.compile(r"\b(?:(?:masih|msh)\s+(?:\w+\s+)?(?:berlaku|dipakai|dipake|digunakan|sah|valid|aktif)|sudah\s+dicabut|"
                    r"dicabut|tidak\s+berlaku|still\s+(?:an?\s+)?(?:in\s+force|valid|in\s+effect|applies|apply|applicable)|repealed|revoked|"
                    r"amended|diubah|status(?:nya)?\s+hukum)\b", re.I)
# "Ketentuan apa yang diubah oleh …?", "yg diubah apa?", "what did it amend?": what an amendment says, not whether
# an instrument still holds.
CHANGE_CONTENT = re.compile(r"\b(?:apa|apa\s+saja|mana|which|what)\b[^?.]{0,40}?\b(?:diubah|amended|changed)\b|"
                            r"\b(?:yang|yg)\s+diubah\s+(?:apa|apa\s+saja|apa\s+aja)\b", re.I)


# A year the question ties to the act of making or changing an instrument ("ketika dibentuk pada tahun 1996",
# "setelah perubahan tahun 2025", "made a free port in 1970"): the instrument's own year says it. A year the act
# is *for* ("ditetapkan untuk tahun 2025") is what it is about, not one of these.
_ACT = re.compile(r"\b(?:dibentuk|dibuat|ditetapkan|disahkan|diundangkan|diubah|perubahan|diterbitkan|dikeluarkan|"
                  r"established|enacted|made|created|formed|passed|amended|issued)\b", re.I)
_ACT_FOR = frozenset({"untuk", "bagi", "tentang", "mengenai", "for", "about", "on"})
ACT_YEAR_WORDS = 10


def act_years(text: str) -> frozenset[str]:
    """Years the question gives as when an instrument was made or changed."""
    years = set()
    for act in _ACT.finditer(text):
        clause = re.split(r"[,;?.!]", text[act.end():], maxsplit=1)[0]
        for word in re.findall(r"[\w'/-]+", clause)[:ACT_YEAR_WORDS]:
            if word.lower() in _ACT_FOR:
                break
            if YEAR.fullmatch(word):
                years.add(word)
                break
    return frozenset(years)


def asks_in_force(text: str) -> bool:
    """Whether the question asks if an instrument still holds (not what an amendment changed)."""
    return bool(STATUS.search(CHANGE_CONTENT.sub(" ", text)))


@dataclass(frozen=True)
class Question:
    text: str
    language: str                           # "id" | "en"
    asks: str                               # see ``_asks``
    focus: Focus                            # the unit ranker's view (answering.extractive.focus)
    named: tuple[NamedRegulation, ...]
    article: ArticleLocator | None
    years: tuple[str, ...]                  # years outside a named instrument ("UMP 2024")
    stems: frozenset[str]                   # every content stem
    # An English question's words in the law's language, as the glossary gives them ("obligations" -> "kewajiban"):
    # the stems the glossary brought that the question's own words lack (empty for Indonesian questions).
    law_stems: frozenset[str] = frozenset()
    # Each colloquial word of the first ask with its formal forms' stems ("nanggepin": {"nanggepin"}, {"anggap", …}).
    colloquial: tuple[tuple[frozenset[str], frozenset[str]], ...] = ()
    # A list is asked for, by the first ask or by a second one ("… diakui gak? lembaga adat apa aja sih"): its
    # lists are quoted whole.
    lists: bool = False
    # The first ask's stems (after any context the asker gives first), its own words and the law's words the
    # glossary gives them ("bos gaji di bawah UMR" -> also "pengusaha", "upah", "minimum").
    ask_stems: frozenset[str] = frozenset()
    # The limit a figure is asked as ("minimal brp": "lower", "paling lama", "batas waktu": "upper"), or None.
    bound: str | None = None
    # The words the question negates, in its own words or the law's ("karyawan tetap" -> "waktu tidak tertentu"):
    # a rule about their negation is about the case asked, not its complement (yesno.about_the_complement).
    negated: frozenset[str] = frozenset()
    # The first ask's own content stems, context before it included (what a "Ya."/"Tidak." answers: yesno.py).
    first_stems: frozenset[str] = frozenset()

    @property
    def yes_no(self) -> bool:
        return self.asks == "yesno"


def detect_language(text: str, preferred: str | None = None) -> str:
    if preferred in ("id", "en"):
        return preferred
    english = len(ENGLISH_HINTS.findall(text))
    indonesian = len(INDONESIAN_HINTS.findall(text))
    return "en" if english > indonesian else "id"


def _asks(text: str, focus: Focus) -> str:
    if asks_in_force(text):
        return "status"
    if focus.kind in ("definition", "about"):
        return focus.kind
    if focus.kind in ("enactment", "signatory"):
        return focus.kind
    if YES_NO.search(text) or _bare_question(text):
        return "yesno"
    if DURATION.search(text):
        return "duration"
    if focus.kind == "when":
        return "date"
    if LIST.search(text):
        return "list"
    if focus.kind == "who":
        return "person"
    if focus.kind == "figure":
        return "figure"
    if PROCEDURE.search(text):
        return "procedure"
    return "general"


def _bare_question(text: str) -> bool:
    asking = asking_sentences(text)
    return bool(asking) and not any(WH_WORD.search(sentence) for sentence in asking)


def _second_ask_at(text: str) -> re.Match | None:
    for match in SECOND_ASK.finditer(text):
        head = text[:match.start()].strip(" ,;&")
        if len(head.split()) >= 3 and (WH_WORD.search(head) or YES_NO.search(head) or "?" in match.group(0)):
            return match
    return None


def first_ask(text: str) -> str:
    """The question up to its second ask (the whole text when it asks one thing); a clause before it that asks
    nothing ("Sebelum anggaran disahkan, berapa …") is not an ask."""
    match = _second_ask_at(text)
    return text[:match.start()].strip(" ,;&") + "?" if match else text


def second_ask(text: str) -> str | None:
    """What the question asks after its first ask ("… brp lama? trs boleh digaji di bawah UMP gak?"), or None."""
    match = _second_ask_at(text)
    rest = text[match.end():].strip(" ,;&?") if match else ""
    return rest + "?" if len(rest.split()) >= 2 else None


def asking_part(text: str) -> str:
    """The question from its first sentence that asks ("Seorang rekanan punya tagihan …. Apakah hak tagihnya bisa
    kedaluwarsa?"): what the asker says first is context, not the ask."""
    asking = asking_sentences(text)
    start = text.find(asking[0]) if asking else 0
    return text[start:] if start > 0 else text


def _read_asks(text: str) -> tuple[Focus, str]:
    """The focus and what is asked, read from the first ask when it asks something of its own (after any
    context the asker gives first)."""
    text = asking_part(text)
    head = first_ask(text)
    whole = question_focus(text)
    if head != text:
        focus = question_focus(head)
        asks = _asks(head, focus)
        # "tgl brp? yg teken siapa?": when and by whom, one closing block says both.
        enactment = whole.kind in ("enactment", "signatory") and focus.kind in ("when", "who", *ENACTMENT_KINDS)
        if asks != "general" and not enactment:
            return focus, asks
    return whole, _asks(text, whole)


def law_words(text: str, expansions: Callable[[str], dict[str, str]]) -> str:
    """The question with each glossary phrase replaced by what it stands for ("UMP aceh 2026 brp sih" -> "upah
    minimum provinsi aceh 2026 berapa sih"): the unit a figure question asks for is read in the law's words, so
    an abbreviated wage asks for an amount as "upah" does. ``expansions`` is the glossary (text -> its phrases
    and what each stands for; retrieval's ``glossary_expansions``)."""
    for phrase, expansion in expansions(text).items():
        text = re.sub(rf"(?<![\w-]){re.escape(phrase)}(?![\w-])", expansion_words(expansion), text)
    return text


# "waktu tidak tertentu", "bukan PNS", "non-muslim": the word a negation says is not the case.
NEGATED_WORD = re.compile(r"\b(?:tidak|bukan|non)[\s-]+(\w+)", re.I)


def read_question(text: str, language: str | None = None, *,
                  expansions: Callable[[str], dict[str, str]] | None = None) -> Question:
    """The question read once; with ``expansions`` (the glossary) a figure's unit is read in the law's words
    (cached by the text and that reading, so a glossary edit is seen)."""
    return _read_question(text, language, law_words(text, expansions) if expansions else text)


@functools.lru_cache(maxsize=512)
def _read_question(text: str, language: str | None, expanded: str) -> Question:
    focus, asks = _read_asks(text)
    if focus.kind == "figure" and expanded != text:
        focus = replace(focus, term_stems=frozenset(asked_units(first_ask(expanded))) or focus.term_stems)
    elif focus.kind == "definition" and expanded != text:
        law = defined_term_stems(expanded)     # "what does 'conflict' mean": the law defines "konflik"
        if law and law != focus.term_stems:
            focus = replace(focus, law_term_stems=law)
    elif asks == "list" and focus.kind == "general":
        focus = _list_focus(text, expanded)
    named = find_named_regulations(text)
    rest = text
    for instrument in named:
        rest = rest.replace(instrument.text, " ")
    rest_asked = second_ask(text)
    return Question(
        text=text, language=detect_language(text, language), asks=asks, focus=focus, named=named,
        lists=asks == "list" or bool(rest_asked and LIST.search(rest_asked)),
        article=find_article(text), years=tuple(dict.fromkeys(YEAR.findall(rest))),
        stems=frozenset(content_stems(text)), colloquial=colloquial_words(first_ask(text)),
        law_stems=_law_stems(text, expanded, language),
        ask_stems=frozenset(content_stems(first_ask(asking_part(text)))
                            | content_stems(first_ask(asking_part(expanded)))),
        bound=asked_bound(first_ask(asking_part(text))) if asks in ("figure", "duration") else None,
        negated=frozenset(content_stems(" ".join(NEGATED_WORD.findall(f"{text} {expanded}")))),
        first_stems=frozenset(content_stems(first_ask(text))))


# An English list question's verb ("What areas does X cover?", "which documents does it include?"): the law's
# lead-in says it "meliputi:", "mencakup:", "terdiri atas:".
LIST_VERB = re.compile(r"\b(?:cover|covers|include|includes|comprise|comprises|consist|consists)\b", re.I)
LEAD_VERB_STEMS = frozenset(content_stems("meliputi mencakup terdiri"))


def _list_focus(text: str, expanded: str) -> Focus:
    """A list asked in a form the focus rules do not name ("Which aspects does X cover?"): the list whose lead-in
    says what is asked, in the question's words or the law's."""
    stems = content_stems(text) | content_stems(expanded)
    return Focus("list", frozenset(stems | (LEAD_VERB_STEMS if LIST_VERB.search(text) else set())))


def _law_stems(text: str, expanded: str, language: str | None) -> frozenset[str]:
    if detect_language(text, language) != "en" or expanded == text:
        return frozenset()
    return frozenset(content_stems(expanded) - content_stems(text))


def colloquial_words(text: str) -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """Each colloquial word of ``text`` as (its own stems, its formal forms' stems) (retrieval's colloquial.py)."""
    read = []
    for word in dict.fromkeys(re.findall(r"[^\W\d_]+", text.lower())):
        if (forms := formal_forms(word)) and (own := content_stems(word)):
            read.append((frozenset(own), frozenset(s for form in forms for s in content_stems(form))))
    return tuple(read)


def met_colloquially(words: tuple[tuple[frozenset[str], frozenset[str]], ...], stems: set[str] | frozenset[str]) -> set[str]:
    """The own stems of the colloquial ``words`` that ``stems`` (a unit's, a cited text's) meet through a formal
    form ("nanggepin" by "menanggapi")."""
    return {stem for own, forms in words if forms & stems for stem in own}
