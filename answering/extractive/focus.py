"""What a question asks for: a definition, a date, a person or office, a figure.

The extractive synthesiser ranks units by it (a definition question answers
with the definition of its term, "kapan" with a date, "siapa" with a name or
office, "berapa" with a figure), and the answerability gate requires the
chosen units to carry it.
"""
from __future__ import annotations

import re

from dataclasses import dataclass

from answering.extractive.terms import DEFINITION, QUOTED, TERM_CUE, TERM_ITU_APA, defines, term_of, term_stems
from answering.text import content_stems
from retrieval.facade.language import find_article, find_named_regulation
from retrieval.facade.language import OFFICE, PERSON, SIGNATORY, enacts_instrument

# "What is the maximum deficit …", "What is Aceh's 2026 minimum wage …": an English "what is" asking for a figure.
FIGURE_TERM = re.compile(r"\b(?:maximum|minimum|limit|cap|ceiling|percentage|share|rate|amount|total|number\s+of|"
                         r"deficit|wage|salary|fee|fine|cost|price|budget|tax|penalty|penalties|sanction|sentence|"
                         r"punishment)\b", re.I)      # "what is the penalty for …": a term of prison or a fine
WHEN = re.compile(r"\b(kapan|(?:tanggal|tgl)\s+(?:berapa|brp)|sejak\s+kapan|sampai\s+kapan|hingga\s+kapan|when|what\s+date)\b", re.I)
# "Hak-hak apa saja …", "sebutkan …", "Which rights … are": a list asked for.
LIST_ASKED = re.compile(r"\b(?:apa|mana|siapa)\s+(?:saja|aja)\b|\bsebutkan\b|\bwhat\s+are\s+the\b|\bwhich\s+\w+\s+are\b|"
                        r"\blist\s+(?:of|the)\b", re.I)
LIST_LEAD_SHARED = 2        # words of the question a list's lead-in ("Hak Perempuan meliputi:") must say
WHO = re.compile(r"\b(siapa|siapakah|who)\b", re.I)
WHO_LIST = re.compile(r"\bsiapa\s+(?:saja|aja)\b", re.I)
HOW_MUCH = re.compile(
    r"\b(berapa|seberapa|brp|jumlah|besaran|besarnya|nilai|tarif|biaya|total|persen|persentase|how\s+(?:much|many|large|big|high|far|wide|heavy)|"
    r"what\s+(?:percentage|share|proportion)|amount|rate)\b", re.I)
# "Qanun 6/2014 mengatur apa?", "Apa isi PP 94/2021?", "UU 27/2022 tentang apa?": what a named instrument is about
# ("apa saja yang diatur sebagai keistimewaan …" asks what it says of a subject: not this).
ABOUT = re.compile(r"\b(mengatur\s+(?:apa|tentang\s+apa|mengenai\s+apa)|tentang\s+apa|mengenai\s+apa|"
                   r"apa\s+(?:saja\s+)?(?:isi(?:nya)?|yang\s+diatur(?!\s+(?:sebagai|tentang|mengenai|terkait|soal)\b)|"
                   r"materi(?:nya)?)|isi(?:nya)?\s+apa|"
                   r"what\s+(?:is|does)\b.*\b(?:about|regulate|cover))\b", re.I)
# A unit that says it: the instrument's own statement of what it regulates or is for, or its title line.
SCOPE_STATEMENT = re.compile(r"\bini\s+(?:mengatur|bertujuan|dimaksudkan)\b|\bruang\s+lingkup\s+(?:\w+\s+){0,4}ini\b|"
                             r"^\s*(?:maksud\s+dan\s+tujuan|ruang\s+lingkup)\b", re.I | re.M)
# (in capitals, as a heading prints it: a citation in running text, "Qanun Aceh Nomor 6 Tahun 2014 tentang …", is not)
TITLE_LINE = re.compile(r"\bNOMOR\s+[\w.]+(?:\s*/\s*[\w.]+)*(?:\s+TAHUN\s+\d{4})?\s+TENTANG\s+\S")
MONTHS = ("januari februari maret april mei juni juli agustus september oktober november desember "
          "january february march may june july august october december").split()
DATE = re.compile(r"\b(\d{1,2}\s+(?:" + "|".join(MONTHS) + r")(?:\s+\d{4})?|\d{1,2}[-/]\d{1,2}[-/]\d{2,4}|"
                  r"tanggal\s+(?:di)?(?:undangkan|tetapkan))\b", re.I)
TIME_WORDS = re.compile(r"\b(tanggal|sebelum|sesudah|setelah|sejak|paling\s+(lambat|lama)|selama|hari|bulan|tahun|"
                        r"waktu|saat|ketika|mulai|sampai|hingga|berlaku|before|after|since|until|within|days?|months?|years?)\b", re.I)
# A person's name as signature blocks print it: two or more capitalised words ("MUZAKIR MANAF", "DR. H. SUSILO …").
NUMBER = re.compile(r"\d|\b(satu|dua|tiga|empat|lima|enam|tujuh|delapan|sembilan|sepuluh|belas|puluh|ratus|ribu|juta|"
                    r"miliar|triliun|seratus|seribu)\b", re.I)
# "salah satu solusi" (one of the solutions), "satu-satunya", "satu kesatuan": a numeral in an idiom counts nothing.
COUNTS_NOTHING = re.compile(r"\bsalah\s+satu\b|\bsatu[-\s]satunya\b|\bsatu\s+kesatuan\b", re.I)
# A number that points at another text is not a figure: "ayat (2)", "Pasal 15", "Nomor 12 Tahun 2011", "(1)".
REFERENCE = re.compile(r"\b(?:pasal|ayat|huruf|angka|nomor|no\.|tahun|bab|bagian|paragraf|diktum)\s*\(?\d+[a-z]?\)?|"
                       r"^\s*\(?\d+[a-z]?[.)]", re.I)


@dataclass(frozen=True)
class Focus:
    kind: str      # "definition" | "when" | "enactment" | "signatory" | "who" | "figure" | "about" | "list" | "general"
    term_stems: frozenset[str] = frozenset()
    # The quantities a figure question states itself ("baru kerja 6 bulan dapet THR berapa?"): (number, unit) pairs
    # that a unit repeating them does not answer with.
    given: tuple[tuple[str, str], ...] = ()
    # A figure question's own words: a share of what it asks about ("1/12 dari belanja" for "total belanja") is a
    # part of the sum asked, not the sum.
    asked: frozenset[str] = frozenset()
    # A definition's term in the law's words, where the glossary reads it otherwise ("conflict": konflik).
    law_term_stems: frozenset[str] = frozenset()

    def satisfied_by(self, text: str) -> bool:
        """Whether a chosen unit carries what the question asks for."""
        if self.kind == "enactment":
            return bool(DATE.search(text) or re.search(r"\btanggal\b", text, re.I))
        if self.kind == "when":
            return bool(DATE.search(text) or TIME_WORDS.search(text))
        if self.kind == "signatory":
            return bool(PERSON.search(text))
        if self.kind == "who":
            return bool(PERSON.search(text) or OFFICE.search(text))
        if self.kind == "figure":
            text = without_shares_of(without_given(text, self.given), self.asked)
            return carries_unit_figure(text, self.term_stems) if self.term_stems else bool(
                NUMBER.search(COUNTS_NOTHING.sub(" ", text)))
        if self.kind == "definition":
            return self.defined_by(text)
        if self.kind == "about":
            return bool(SCOPE_STATEMENT.search(text) or TITLE_LINE.search(text))
        return True

    def defined_by(self, text: str) -> bool:
        """The unit defines the term asked, as the question words it or in the law's words."""
        return defines(text, self.term_stems) or bool(self.law_term_stems and defines(text, self.law_term_stems))


def asks_about_instrument(question: str) -> bool:
    """What a named instrument is about: "… mengatur apa?", or "Apa itu UU 27/2022?" (the term is the instrument)."""
    named = find_named_regulation(question)
    if not named or find_article(question):
        return False
    if ABOUT.search(question):
        return True
    match = DEFINITION.search(question) or TERM_ITU_APA.search(question)
    return bool(match) and not content_stems(match.group("term").replace(named.text, " ").strip(" ?.") or "")


def question_focus(question: str) -> Focus:
    if asks_about_instrument(question):
        return Focus("about")
    if match := DEFINITION.search(question) or TERM_ITU_APA.search(question):
        term = term_of(question, match)
        if match.group(0).lower().startswith("what") and FIGURE_TERM.search(term):
            return _figure(question)
        if stems := term_stems(term):
            return Focus("definition", stems)
    if (quoted := QUOTED.search(question)) and TERM_CUE.search(question) and (stems := term_stems(quoted.group("term"))):
        return Focus("definition", stems)
    if WHEN.search(question):
        return Focus("enactment" if enacts_instrument(question) else "when")
    if WHO.search(question):
        if SIGNATORY.search(question) or enacts_instrument(question):
            return Focus("signatory")
        # "siapa saja yang dapat THR?": the groups a rule names ("diberikan kepada: a. … PNS; b. PPPK"), listed.
        if not WHO_LIST.search(question):
            return Focus("who")
    if LIST_ASKED.search(question):
        return Focus("list", frozenset(content_stems(question)))
    if HOW_MUCH.search(question):
        return _figure(question)
    return Focus("general")


def _figure(question: str) -> Focus:
    return Focus("figure", frozenset(asked_units(question)), given_quantities(question),
                 frozenset(content_stems(question)))


# The unit a figure question names ("berapa hari", "brp lama"): a number followed by it answers it.
UNITS = ("hari", "minggu", "bulan", "tahun", "jam", "menit", "persen", "kali", "orang", "rupiah", "meter",
         "kilometer", "hektar", "hektare", "km", "ha")
DURATION_UNITS = ("hari", "minggu", "bulan", "tahun", "jam", "menit")
ASKED_UNIT = re.compile(r"\b(?:berapa|brp)\s+(?P<unit>\w+)", re.I)


# A sum of money asked for ("berapa biaya …", "denda … maksimal brp", "THR-nya berapa") is answered by an amount
# (Rp…, … rupiah, … juta) or a share (… persen, … kali upah), not by any number.
MONEY_WORDS = re.compile(r"\b(?:di)?(?:biaya|harga|tarif|upah|gaji|denda|ganti\s+rugi|belanja|anggaran|besaran|thr|"
                         r"beasiswa|honor(?:arium)?|iuran|retribusi|tunjangan|uang|dana|cost|fee|price|wage|salary|fine|"
                         r"budget)(?:nya)?\b", re.I)      # "digaji brp", "dendanya berapa"
MONEY_ASKED = "<money>"
# A share of another sum is an amount too: "1/12 (satu per dua belas) dari belanja …", "sepertiga dari …" (not a
# registration number: "… 500.15.14.1/1488/2025 dari …").
SHARE = (r"(?<![\d./])\d{1,2}\s*/\s*\d{1,3}(?![\d./])\s*(?:\([^)]{1,40}\)\s*)?dari\b|"
         r"\b(?:setengah|sepertiga|seperempat|seperlima|seperdua\s+belas)\s+dari\b")
MONEY = re.compile(r"Rp\.?\s?\d|\d[\d.,]*\s*(?:\([^)]{1,80}\)\s*)?(?:rupiah|juta|miliar|triliun|ribu|persen|%|kali|bulan\s+(?:upah|gaji))\b|"
                   r"\d[\d.,]*\s*%|\b\d{1,3}(?:\.\d{3}){2,}\b|" + SHARE, re.I)      # a budget table's 2.874.319.506.750


ENGLISH_SUM = re.compile(r"\b(?:what|how\s+much)\b", re.I)
COUNTED = re.compile(r"\bhow\s+(?:long|many|old)\b", re.I)
AGE_ASKED = re.compile(r"\b(?:umur|usia|berumur|berusia)\s+(?:berapa|brp)\b|\b(?:berapa|brp)\s+(?:umur|usia)\b", re.I)


def asked_units(question: str) -> tuple[str, ...]:
    match = ASKED_UNIT.search(question)
    if AGE_ASKED.search(question):
        return ("tahun",)
    if match and MONEY_WORDS.search(question) and match.group("unit").lower() not in UNITS + ("lama",):
        return (MONEY_ASKED,)
    if not match:
        # "What is the minimum wage …?", "How much is the fine …?": a sum of money, unless it asks how long or how many.
        asked = ENGLISH_SUM.search(question) and MONEY_WORDS.search(question) and not COUNTED.search(question)
        return (MONEY_ASKED,) if asked else ()
    word = match.group("unit").lower()
    if word == "lama":
        return DURATION_UNITS
    if word == "rupiah":
        return (MONEY_ASKED,)          # "berapa rupiah": "Rp4.100.000,00" as much as "… rupiah"
    return (word,) if word in UNITS else ()


# "lima tahun", "tiga puluh hari", "dua belas bulan": a number spelled out is a figure too.
SPELLED = (r"(?:(?:satu|dua|tiga|empat|lima|enam|tujuh|delapan|sembilan|sepuluh|sebelas|se|seratus|seribu)"
           r"(?:\s+(?:belas|puluh|ratus|ribu))?(?:\s+(?:satu|dua|tiga|empat|lima|enam|tujuh|delapan|sembilan))?)")


# "6 bulan", "3 (tiga) tahun", "50 persen": a number with the unit it counts.
GIVEN = re.compile(r"\b(\d+(?:[.,]\d+)?)\s*(?:\([^)]{1,40}\)\s*)?(" + "|".join(UNITS) + r")\b", re.I)


def given_quantities(question: str) -> tuple[tuple[str, str], ...]:
    """The (number, unit) pairs the question states."""
    return tuple(dict.fromkeys((number, unit.lower()) for number, unit in GIVEN.findall(question)))


_SHARE_OF = re.compile(rf"(?:{SHARE})\s+(?P<base>\w+)", re.I)


def without_shares_of(text: str, asked: frozenset[str]) -> str:
    """The text without the shares of what the question asks about ("1/12 dari belanja …" for "total belanja")."""
    return _SHARE_OF.sub(lambda m: " " if content_stems(m.group("base")) & asked else m.group(0), text)


def without_given(text: str, given: tuple[tuple[str, str], ...]) -> str:
    """The text with the question's own quantities taken out ("6 (enam) bulan" for "6 bulan")."""
    for number, unit in given:
        text = re.sub(rf"(?<![\d.,]){re.escape(number)}\s*(?:\([^)]{{1,40}}\)\s*)?{unit}\b", " ", text, flags=re.I)
    return text


def carries_unit_figure(text: str, units) -> bool:
    """A number followed by one of ``units`` ("10 (sepuluh) hari kerja", "2,5 persen"), or an amount of money."""
    if MONEY_ASKED in units:
        return bool(MONEY.search(text))
    if "persen" in units and re.search(r"\d[\d.,]*\s*%", text):
        return True
    pattern = "|".join(map(re.escape, units))
    return bool(re.search(rf"(?:\d[\d.,]*|\b{SPELLED})\s*(?:\([^)]{{1,40}}\)\s*)?(?:{pattern})\b", text, re.I))


def list_lead_shared(focus: Focus, text: str) -> frozenset[str]:
    """The asked words a unit's list lead-in ("Hak Perempuan meliputi:") says; none without a lead-in."""
    lead_in, colon, _ = text.partition(":")
    return frozenset(content_stems(lead_in) & focus.term_stems) if colon else frozenset()


def focus_bonus(focus: Focus, text: str, closing: bool) -> float:
    """How much a unit's fit to the question's focus adds to its score."""
    if focus.kind == "definition":
        return 1.0 if focus.defined_by(text) else -0.3
    if focus.kind == "enactment":
        if closing and re.search(r"\b(Ditetapkan|Disahkan)\b", text):
            return 1.0
        return 0.3 if DATE.search(text) else -0.2
    if focus.kind == "when":
        return 0.6 if DATE.search(text) else -0.2
    if focus.kind == "signatory":
        return 1.0 if closing and PERSON.search(text) else (0.3 if PERSON.search(text) else -0.2)
    if focus.kind == "who":
        if closing:
            return 0.8
        return 0.4 if PERSON.search(text) else 0.0
    if focus.kind == "about":
        return 1.0 if TITLE_LINE.search(text) else (0.9 if SCOPE_STATEMENT.search(text) else -0.3)
    if focus.kind == "list":
        # The list whose lead-in names what is asked ("Hak Perempuan meliputi:" for "hak apa saja … perempuan"),
        # not a list beside it ("Qanun ini bertujuan:").
        return 0.6 if len(list_lead_shared(focus, text)) >= LIST_LEAD_SHARED else 0.0
    if focus.kind == "figure":
        if focus.term_stems:                 # the unit asked: its figure, not any number, answers
            stated = carries_unit_figure(without_shares_of(text, focus.asked), focus.term_stems)
            return 0.8 if stated else (0.1 if re.search(r"\d", text) else -0.1)
        return 0.4 if re.search(r"\d", text) else -0.1
    return 0.0
