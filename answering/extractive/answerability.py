"""Does the evidence answer the question? (DESIGN.md "Answerability")

A sentence copied from a passage is "supported", but that does not make it an
answer. Before an answer is published, the question's constraints must be met
by the passages the answer cites (their text and document identity):

- every year it names (outside a named instrument: "UMP Aceh 2024" is not
  answered by the 2026 decision); a year that dates an instrument named by
  type and subject ("surat edaran BAPETEN 2019") is met by the cited
  document's own citation ("Nomor 1901/PI 05/K/IX/2019");
- every other number it names, and the article ("Pasal 26") it names;
- the instrument it names ("Qanun 6/2014"): a cited passage belongs to it;
  one named by type and subject ("qanun pelindungan hak perempuan"): a cited
  document is of that type or its title says one of the subject's words;
- every place it names (kabupaten/kota, province, gampong);
- the office it asks about ("siapa kepala dinas …" needs a name);
- its distinctive content terms: at least TERM_COVERAGE of them are in the
  cited passages (off-topic questions share almost none);
- its focus: the answer carries a date, a name, a figure or the definition.

An unmet constraint refuses the answer (the seed's ``no_answer``). When only a
year or a place is wrong but the topic is covered, the refusal points to what
the documents do hold ("Dokumen yang tersedia memuat …") without publishing it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from answering.extractive.anchors import find_article, find_named_regulation
from answering.extractive.dates import asked_after, unmet_after
from answering.text import asking_sentences, carries_phrase, content_stems, normalise, stem_sequence
from answering.extractive.focus import OFFICE, PERSON, Focus, question_focus
from answering.extractive.names import unmet_names
from answering.extractive.places import places, unmet_places
from answering.extractive.question import act_years, asks_in_force, colloquial_words, detect_language, met_colloquially
# What answers "is it still in force?": a clause that revokes, amends or keeps an instrument in force, or its own
# entry-into-force article.
STATUS_STATED = re.compile(r"\b(dicabut|tidak\s+berlaku|diubah|perubahan|mulai\s+berlaku|tetap\s+berlaku|masih\s+berlaku|"
                           r"berlaku\s+sejak|berlaku\s+(?:sampai|hingga)|repealed|revoked|amended|in\s+force)\b", re.I)
from answering.types import LEGAL_RELATION_ORIGIN, Claim, Passage
from retrieval.facade.language import alternatives, asks_status, covered_articles, instrument_years, unmet_titles

# Chosen from bench/answers_*.jsonl (eval_answers prints each question's coverage): answerable questions' cited
# passages carry >= 0.5 of their distinctive terms (median 1.0), off-topic ones < 0.5.
TERM_COVERAGE = 0.5
# At exactly that share the sets overlap (3 answerable, 2 off-topic): there a question word that no visible
# passage contains at all ("bitcoin", "piala") decides; the answerable ones' missing words occur elsewhere.
OFF_TOPIC_COVERAGE = 0.5
YEAR = re.compile(r"\b(19[4-9]\d|20\d\d)\b")
# "Peraturan … Nomor 31 Tahun 2025", "Nomor 500.15.14.1/1488/2025": an instrument cited in a unit, not the unit's date.
_CITED_INSTRUMENT = re.compile(r"\bNomor\s+\S+(?:\s+Tahun\s+\d{4})?", re.I)
NUMBER = re.compile(r"(?<![\w.,/])(\d+(?:[.,]\d+)*)(?![\w/])")
# Words that ask, point or are everywhere in this corpus: they constrain nothing.
GENERIC = (
    "apa apakah siapa siapakah berapa brp kapan bagaimana gimana gmn dimana mana manakah kah sih ya yah dong nih deh aja "
    "saja tolong mohon jelaskan sebutkan boleh bisa dapat ada adalah itu ini tersebut yang dimaksud maksud maksudnya nya "
    "pengertian definisi arti isi isinya bunyi menurut dalam tentang mengenai terkait berdasarkan sesuai aturan peraturan "
    "ketentuan "
    "undang uu pp perpres pergub qanun kepgub keputusan instruksi ingub nomor no tahun thn aceh pemerintah pemerintahan "
    "provinsi gubernur atur diatur mengatur berlaku sekarang saat kini hari besok kemarin minggu tanggal lama lamanya "
    "mulai sampai hingga sejak paling kurang lebih besar besarnya jumlah nilai untuk bagi kepada oleh dari pada di ke per "
    "harus wajib punya mempunyai memiliki ditetapkan disahkan diundangkan ditandatangani menandatangani menetapkan "
    "mengesahkan penandatangan pertama kali cara enak baru terbaru periode tadi berikutnya selanjutnya sebelumnya "
    "lanjutannya barusan kalau lalu terus juga atas saya aku kami kita anda bapak ibu "
    "what which who whom when where how much many does do is are the of in on for by to a an according law regulation "
    "year date signed enacted "
    # Chat Indonesian's function words and English modals and pronouns: they ask, point or negate, never a topic.
    "gak nggak ngga ga enggak tak tidak trs trus lg lagi udah sudah dah yg kalo klo gw gue lu kamu tuh dgn sm sama "
    "gitu gini emang memang kok kan pake pakai buat mau banget aj utk "
    "can could may might must should would will shall my me i you your there under still allowed"
)
GENERIC_STEMS = frozenset(content_stems(GENERIC))
SIGNING_OFFICES = frozenset(content_stems("presiden gubernur bupati walikota wali kota menteri ketua penjabat pj"))
@dataclass(frozen=True)
class Answerability:
    answerable: bool
    unmet: tuple[str, ...] = ()          # e.g. ("year 2024", "terms bitcoin")
    coverage: float = 1.0                # share of distinctive terms the cited passages carry
    pointer: str | None = None           # "Dokumen yang tersedia memuat …" when the topic is covered
    missing: frozenset[str] = frozenset()  # distinctive stems of the question the cited passages do not carry


def distinctive_stems(question: str) -> set[str]:
    return {s for s in content_stems(question) if s not in GENERIC_STEMS and len(s) > 2}


ENACTED_AT_PLACE = re.compile(r"\b(?:ditetapkan|diundangkan|disahkan)\s+di\s+[^\W\d_]+(?:\s+(?!pada\b)[^\W\d_]+)?",
                              re.IGNORECASE)


def _evidence_text(passages: Iterable[Passage]) -> str:
    return "\n".join(f"{p.identity}\n{p.citation.get('legal_reference') or ''}\n{p.text}" for p in passages)


def _numbers(text: str) -> set[str]:
    return {re.sub(r"[.,]", "", n) for n in NUMBER.findall(normalise(text))}


def assess(question: str, claims: Sequence[Claim], passages: Sequence[Passage], *,
           focus: Focus | None = None, check_focus: bool = True,
           absent_words: Callable[[list[str]], list[str]] | None = None,
           expansions: Callable[[str], dict[str, str]] | None = None) -> Answerability:
    """Whether the passages the claims cite answer the question (see the module docstring).

    ``check_focus=False`` (the model path) leaves the focus to the model's answerability judge: a
    paraphrase need not repeat the words the extractive chooser looks for.
    """
    by_label = {p.label: p for p in passages}
    cited = list({p.chunk_id: p for c in claims for key in c.citation_keys
                  if (p := by_label.get(key)) is not None}.values())
    if not cited:
        return Answerability(False, ("no cited passage",), 0.0)
    focus = focus or question_focus(question)
    evidence = _evidence_text(cited)
    unmet: list[str] = []
    topical: list[str] = []               # unmet constraints that a pointer can explain

    named = find_named_regulation(question)
    rest = question.replace(named.text, " ") if named else question
    status = asks_in_force(question)
    # "Apakah PP itu juga mencabut PP Nomor 29 Tahun 2008?": a clause revoking or amending the named one speaks for it.
    acting = status or asks_status(question)
    if named and not any(_is_instrument(p, named, status=acting) for p in cited):
        unmet.append(f"instrument {named.text}")
    elif not named:      # named by type and subject ("qanun pelindungan hak perempuan"): a cited document can be it
        unmet.extend(f"instrument {text}" for text in unmet_titles(question, {p.document_title for p in cited}))
    locator = find_article(question)
    if locator and not any(locator.pasal in covered_articles(list(p.section_path), p.legal_reference) for p in cited):
        unmet.append(f"article Pasal {locator.pasal}")
        rest = rest.replace(locator.pasal, " ")
    elif locator:
        rest = re.sub(rf"\bpasal\s+{re.escape(locator.pasal)}\b", " ", rest, flags=re.I)
    claims_text = " ".join(c.text for c in claims)
    # A year or a place is met by what the answer quotes or the cited document's identity, not by a mention
    # anywhere in a long passage ("… Kabupaten Aceh Selatan …" does not state Banda Aceh's area).
    # A document's own number and enactment year ("Nomor 500.15.14.1/1488/2025", "Nomor 25 Tahun 2025") say
    # when it was made, not what it is about: only what its title says it is about counts.
    stated_where = normalise(claims_text + "\n" + "\n".join(_subject(p) for p in cited))
    dated = instrument_years(question) | act_years(question)
    own = " ".join(p.document_title.split(" tentang ", 1)[0] for p in cited)
    for year in dict.fromkeys(YEAR.findall(rest)):
        if not re.search(rf"\b{year}\b", stated_where) and not (year in dated and _dated_by_citation(year, own)):
            unmet.append(f"year {year}")
            topical.append(f"tahun {year}")
    if focus.kind == "figure" and claims:
        # The figure's own unit dated another year ("… APBA Tahun Anggaran 2026 sebesar …" for 2025): the year asked
        # is not this figure's, whatever else the passage mentions. Unless the lead's instrument is about the year
        # asked (its title says so): "1/12 dari belanja … Tahun Anggaran 2025" reckons 2026's limit from 2025's budget.
        dated_lead = set(YEAR.findall(_CITED_INSTRUMENT.sub(" ", claims[0].text)))
        lead_subject = normalise(" ".join(_subject(by_label[k]) for k in claims[0].citation_keys if k in by_label))
        for year in dict.fromkeys(YEAR.findall(rest)):
            if dated_lead and year not in dated_lead and f"year {year}" not in unmet \
                    and not re.search(rf"\b{year}\b", lead_subject):
                unmet.append(f"year {year}")
                topical.append(f"tahun {year}")
    if after := unmet_after(rest, "\n".join([claims_text, *(p.text for p in passages)]), status=status):
        # "diperpanjang lagi setelah 8 Januari 2026?" when nothing read goes past "… sampai dengan 8 Januari 2026": a
        # year constraint made finer, weighed as one (dates.py). A later date in a passage read (the next extension)
        # leaves the answer to the decision.
        unmet.append(f"year {after}")
        topical.append(after)
    stated = _numbers(evidence)
    # The date asked past is judged whole (above): its day is no number the passages must state.
    past = asked_after(rest)
    for number in _numbers(YEAR.sub(" ", rest.replace(past[1], " ") if past else rest)):
        if number not in stated:
            unmet.append(f"number {number}")
    # Where a regulation was signed ("Ditetapkan di Banda Aceh") says nothing about that place.
    about_where = ENACTED_AT_PLACE.sub(" ", stated_where)
    for place in unmet_places(rest, about_where, (p.document_title for p in cited)):
        unmet.append(f"place {place}")
        topical.append(place)
    if detect_language(question) == "id":
        # A name is said by any passage read of a cited document (its definitions article spells "Uang Persediaan"
        # out), or is a word the glossary knows ("Pemprov").
        documents = {p.document_id for p in cited}
        glossed = " ".join(f"{k} {v}" for k, v in (expansions(rest) if expansions else {}).items())
        said = _evidence_text(p for p in passages if p.document_id in documents) + "\n" + glossed
        # No pointer: a document that never says the name is not about it.
        unmet.extend(f"name {name}" for name in unmet_names(rest, said))
    office = OFFICE.search(question)
    if check_focus and focus.kind == "who" and office and not (
            PERSON.search(claims_text) and _office_phrase(question, office) in normalise(claims_text)):
        unmet.append("person holding the office")
    if check_focus and not focus.satisfied_by(claims_text):
        unmet.append(f"focus {focus.kind}")
    if check_focus and status and not STATUS_STATED.search(claims_text):
        unmet.append("focus status")      # the instrument's own articles say nothing about whether it still holds

    # What the user says about themselves before asking ("Saya bekerja di Bappeda. Ke mana …?") is context:
    # the terms of the asking sentence are the ones the evidence must carry.
    asked = _asking_sentence(rest)
    wanted = distinctive_stems(YEAR.sub(" ", asked))
    if focus.kind == "signatory":
        wanted -= SIGNING_OFFICES      # "siapa presiden yang mengesahkan …": the signature block names the person
    for place in places(rest):
        wanted -= content_stems(place)
    have = content_stems(evidence)
    expanded = expansions(asked) if expansions else {}
    read = stem_sequence(evidence) if expanded else []
    for phrase, expansion in expanded.items():
        # A nickname, abbreviation or colloquial form is met by the words it stands for ("DBH": Dana Bagi Hasil), an
        # everyday word by any one of its wordings ("bos": pengusaha | atasan), said as a phrase ("kuliah":
        # "pendidikan tinggi", not "pendidikan … paling tinggi").
        if any(_said(wording, read) for wording in alternatives(expansion)):
            have |= content_stems(phrase)
    have |= met_colloquially(colloquial_words(asked), have)   # "nanggepin" met by the cited "menanggapi"
    coverage = len(wanted & have) / len(wanted) if wanted else 1.0
    if coverage < TERM_COVERAGE:
        unmet.append("terms " + " ".join(sorted(wanted - have)))
    elif coverage <= OFF_TOPIC_COVERAGE and absent_words:
        missing = [w for w in re.findall(r"[^\W\d_]+", asked) if content_stems(w) & (wanted - have)]
        if gone := absent_words(list(dict.fromkeys(missing))):
            unmet.append("absent " + " ".join(gone))
    pointer = None
    if unmet and topical and len(topical) == len(unmet) and coverage >= TERM_COVERAGE:
        pointer = _pointer(cited[0], topical, detect_language(question))
    return Answerability(not unmet, tuple(unmet), round(coverage, 4), pointer, frozenset(wanted - have))


def _said(wording: str, read: list[str]) -> bool:
    wanted = distinctive_stems(wording)
    return carries_phrase([s for s in stem_sequence(wording) if s in wanted], read)


_CIRCULAR = re.compile(r"\bsurat\s+edaran\b", re.I)


def _dated_by_citation(year: str, citation: str) -> bool:
    """The citation dates the instrument in that year: "Nomor 31 Tahun 2025", or a circular letter's number
    ("Nomor 1901/PI 05/K/IX/2019", the only date it carries). A decree's registration number ("Nomor
    500.15.14.1/1488/2025" for the 2026 wage) says when it was filed, not which year it is about."""
    return bool(re.search(rf"\bTahun\s+{year}\b", citation, re.I)
                or (_CIRCULAR.search(citation) and re.search(rf"/{year}\b", citation)))


def _subject(passage: Passage) -> str:
    """What the passage's document is about: its title after "tentang" (the whole title when it has none, less
    its number), and its section path."""
    title = passage.document_title
    about = title.split(" tentang ", 1)[1] if " tentang " in title else OWN_NUMBER.sub(" ", title)
    return f"{about} {' '.join(passage.section_path)}"


OWN_NUMBER = re.compile(r"\b(?:nomor|no\.?)\s*[\w./-]+(?:\s+tahun\s+\d{4})?", re.I)


def _asking_sentence(question: str) -> str:
    """The sentences that ask, together: a second ask ("… dapet beasiswa gak? brp?") goes on with the first one's
    words, so the first one's terms are wanted too."""
    asking = asking_sentences(question)
    return " ".join(asking) if asking else question


def _office_phrase(question: str, office: re.Match) -> str:
    """The office asked about as written, up to three words ("kepala dinas pendidikan")."""
    words = [w for w in re.findall(r"[^\W\d_]+", normalise(question[office.start():]))
             if w not in ("aceh", "sekarang", "saat", "ini", "yang", "siapa")]
    return " ".join(words[:3])


ACTING = re.compile(r"\b(?:dicabut|dinyatakan\s+tidak\s+berlaku|diubah|mengubah|perubahan\s+atas)\b", re.I)


def _is_instrument(passage: Passage, named, *, status: bool = False) -> bool:
    identity = f"{passage.document_title} {passage.citation.get('legal_reference') or ''}"
    if passage.origin == LEGAL_RELATION_ORIGIN or (status and ACTING.search(passage.text)):
        # A revoking/amending clause of another regulation speaks about the named one by its number and year
        # (a relation read for the status, or a passage that revokes or amends it when the status is asked).
        identity += f" {passage.text}"
    number = re.search(rf"(?:nomor|no\.?)\s*0*{re.escape(named.number)}\b", identity, re.I)
    return bool(number) and str(named.year) in identity


def _pointer(passage: Passage, asked: list[str], language: str) -> str:
    """Where the nearest evidence is, in the question's language: the document that covers the matter, and the
    years it holds when a year asked is what it lacks."""
    title = passage.document_title
    held = [y for y in dict.fromkeys(YEAR.findall(title.split(" tentang ", 1)[-1])) if f"tahun {y}" not in asked]
    years = held and any(a.startswith("tahun") for a in asked)
    if language == "en":
        lacking = ", ".join(re.sub(r"^tahun\s+", "", a) for a in asked)
        what = f" for {', '.join(held)}" if years else ""
        return f"The available documents cover this{what} in {title}, but not for {lacking}."
    what = f" untuk tahun {', '.join(held)}" if years else ""
    return (f"Dokumen yang tersedia memuat ketentuan tentang hal ini{what} dalam {title}, "
            f"tetapi tidak untuk {', '.join(asked)}.")
