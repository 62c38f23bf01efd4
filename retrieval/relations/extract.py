"""Which regulations a regulation revokes, replaces or amends, read from its own articles.

``extract_relations(text, own_key=...)`` returns :class:`RelationDraft` values, one per
(relation, target). Only articles and dicta of the body are read (not the preamble's
"Mengingat" list, the Penjelasan or a Lampiran, which cite without acting), and only
clauses whose targets are named by type and number:

* revocation: "... <target> ... dicabut dan dinyatakan tidak berlaku", "... dinyatakan
  tidak berlaku (lagi)", a list after "dinyatakan tidak berlaku lagi :"; a target named
  with articles ("Pasal 200 sampai dengan Pasal 216 Undang-Undang ...") or as "ketentuan
  mengenai ... dalam <target>" or "..., sepanjang ..., dicabut" is ``revokes_in_part``;
  a target "sebagaimana telah diubah dengan <amendment>" revokes the amendment too;
* replacement: "... <target> dicabut dan diganti dengan <...> ini" -> ``supersedes``;
* amendment: "Beberapa ketentuan dalam <target> ... diubah", "Lampiran <target> diubah",
  and the title "Perubahan [Kedua] atas <target>" -> ``amends`` (articles deleted with
  "Pasal 5 dihapus" are kept as the relation's articles);
* extension: the title "[Penetapan] Perpanjangan <subject>" and a consideration citing the
  decree whose own title is about that subject ("Menimbang : a. bahwa berdasarkan Diktum Kedua
  Keputusan Gubernur Aceh Nomor 100.3.3.3/1416/2025 tentang Penetapan Status Keadaan Tanggap
  Darurat …") -> ``extends`` (the only relation read from the preamble: the decree's body says
  what is prolonged only by its subject).

Generic clauses ("semua peraturan ... yang tidak sesuai ... dinyatakan tidak berlaku")
name no target and give no relation.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass


from .articles import Article, body_articles
from .citations import Citation, find_citations, normalise_year
from .clauses import clause_items_after, clause_items_before

__all__ = ["RELATIONS", "RelationDraft", "extract_relations"]

RELATIONS = ("revokes", "revokes_in_part", "amends", "supersedes", "extends")

_REVOKE_RE = re.compile(
    r"dicabut\s+dan\s+dinyatakan\s+tidak\s+berlaku(?:\s+lagi)?"
    r"|dinyatakan\s+dicabut(?:\s+dan\s+tidak\s+berlaku(?:\s+lagi)?)?"
    r"|dinyatakan\s+tidak\s+berlaku(?:\s+lagi)?"
    r"|dicabut\s+dan\s+diganti(?:kan)?\s+dengan"
    r"|dicabut(?=\s*[.;]|\s*$)",
    re.IGNORECASE,
)
_REPLACE_RE = re.compile(r"(?i)diganti(?:kan)?\s+dengan")
_AMEND_RE = re.compile(r"(?<![Tt]elah )(?<!kali )(?<![Dd]apat )(?<![Aa]tau )\bdiubah\b(?!\s+(?:atau|dan/atau)\b)")
_AMEND_LEAD_RE = re.compile(r"(?i)^(?:[a-z0-9]{1,3}[.)]\s*)?(?:beberapa\s+ketentuan|ketentuan|lampiran)\b")
_TITLE_RE = re.compile(r"(?i)\btentang\s+perubahan\s+(?:(?:kedua|ketiga|keempat|kelima|pertama)\s+)?atas\s+")
_PREAMBLE_RE = re.compile(r"(?i)\bdengan\s+rahmat\b|\bdalam\s+rangka\b|\bmenimbang\b|\bmengingat\b")
_DECREE_RE = re.compile(r"\b(?:MEMUTUSKAN|Memutuskan)\b")
_MENCABUT_RE = re.compile(r"(?:\b([IVX]{1,4})\.\s*)?\b(?:Mencabut|MENCABUT)\s+")
_CHAIN_RE = re.compile(r"(?i)sebagaimana\s+telah\s+(?:beberapa\s+kali\s+)?diubah")
_NESTED_TITLE_RE = re.compile(r"(?i)\b(?:atas|penetapan|pencabutan|pelaksanaan|berlakunya)\s*$")
_ARTICLE_RE = re.compile(r"\bPasal\s+(\d{1,4}[A-Z]?)(?:\s+sampai\s+dengan\s+Pasal\s+(\d{1,4}[A-Z]?))?")
_PART_RE = re.compile(r"(?i)\bketentuan\b")
_DELETED_RE = re.compile(r"\bPasal\s+(\d{1,4}[A-Z]?)\s+dihapus\b")
_AYAT_RE = re.compile(r"(?:^|(?<=\n)|(?<=[.:;] ))[ \t]*\((\d{1,2}[a-z]?)\)\s")
_MONTHS = (r"(?:Januari|Februari|Pebruari|Maret|April|Mei|Juni|Juli|Agustus|September|Oktober|Nopember"
           r"|November|Desember)")
_DATE = r"(\d{1,2}\s+" + _MONTHS + r"\s+[12][0-9OoIl]{3})"
_IN_FORCE_DATE_RE = re.compile(r"(?i)mulai\s+berlaku\s+(?:pada|sejak)\s+tanggal\s+" + _DATE)
_IN_FORCE_PROMULGATION_RE = re.compile(r"(?i)mulai\s+berlaku\s+(?:pada|sejak)\s+tanggal\s+diundangkan")
_PROMULGATED_RE = re.compile(r"(?i)Diundangkan\s+di\s+[A-Za-z .]{2,40}?\s*,?\s+pada\s+tanggal\s*:?\s*" + _DATE)


@dataclass(frozen=True)
class RelationDraft:
    relation: str                # one of RELATIONS
    target: Citation
    target_title: str | None
    articles: tuple[str, ...]
    pasal: str | None            # "Pasal 6", "Pasal I", "Diktum KESATU"; None for the title
    ayat: str | None
    char_start: int
    char_end: int
    clause: str
    effective_date: str | None   # as written: "16 Desember 2025"


def _pasal(article: Article) -> str:
    return f"Diktum {article.label}" if article.diktum else f"Pasal {article.label}"


def _ayat(text: str, lo: int, pos: int) -> str | None:
    found = None
    for match in _AYAT_RE.finditer(text, lo, pos):
        found = match.group(1)
    return found


def _title_after(text: str, citation: Citation, limit: int) -> str | None:
    match = re.match(r"\s*(?:tentang|TENTANG)\s+", text[citation.end:limit])
    if not match:
        return None
    rest = text[citation.end + match.end():limit]
    cut = re.search(r"\(|\bsebagaimana\b|,\s*(?:dicabut|sepanjang|dan\s+peraturan|yang\b)|;|\s+dicabut|\s+dinyatakan|\s+diubah", rest)
    title = " ".join((rest[:cut.start()] if cut else rest).split()).strip(" ,.")
    return title[:500] or None


def _targets(text: str, start: int, end: int, own_key: str | None) -> list[tuple[Citation, bool]]:
    """(citation, is_chain_member) for the regulations an item names, titles' citations left out."""
    out: list[tuple[Citation, bool]] = []
    last_end = None
    for citation in find_citations(text, start, end):
        if _depth(text, start, citation.start) > 0 or citation.key is None or citation.key == own_key:
            continue
        gap = text[last_end:citation.start] if last_end is not None else ""
        if last_end is not None and re.search(r"(?i)\btentang\b", gap) and not re.search(r"[(;]|sebagaimana", gap):
            continue  # a regulation named inside the previous one's title
        if _NESTED_TITLE_RE.search(text[max(start, citation.start - 40):citation.start]):
            continue
        out.append((citation, bool(last_end is not None and _CHAIN_RE.search(gap))))
        last_end = citation.end
    return out


def _depth(text: str, start: int, pos: int) -> int:
    depth = 0
    for ch in text[start:pos]:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
    return depth


def _articles(prefix: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"{a}-{b}" if b else a for a, b in _ARTICLE_RE.findall(prefix)))


def _date_text(raw: str) -> str:
    day, month, year = raw.split()
    return f"{day} {month} {normalise_year(year) or year}"


def effective_date(text: str, articles: list[Article]) -> str | None:
    """The date the regulation says it takes effect, or its promulgation date when it says
    it takes effect on promulgation; None when neither is written."""
    for section in reversed(articles):
        body = text[section.start:section.end]
        stated = _IN_FORCE_DATE_RE.search(body)
        if stated:
            return _date_text(stated.group(1))
        if _IN_FORCE_PROMULGATION_RE.search(body):
            promulgated = _PROMULGATED_RE.search(text, section.end)
            return _date_text(promulgated.group(1)) if promulgated else None
    return None


class _Collector:
    def __init__(self, text: str, own_key: str | None, when: str | None) -> None:
        self.text, self.own_key, self.when = text, own_key, when
        self.found: dict[tuple[str, str], RelationDraft] = {}

    def add(self, relation: str, citation: Citation, section: Article | None, start: int, end: int,
            articles: tuple[str, ...] = (), lo: int = 0) -> None:
        group = relation if relation in ("amends", "extends") else "revokes"
        key = (group, citation.key)
        known = self.found.get(key)
        if known is not None:
            if known.relation == relation == "revokes_in_part" and articles:
                merged = tuple(dict.fromkeys(known.articles + articles))
                self.found[key] = dataclasses.replace(known, articles=merged)
            return
        self.found[key] = RelationDraft(
            relation=relation, target=citation, target_title=_title_after(self.text, citation, end + 200),
            articles=articles, pasal=_pasal(section) if section else None,
            ayat=_ayat(self.text, lo, start) if section else None, char_start=start, char_end=end,
            clause=self.text[start:end], effective_date=self.when,
        )


def _revocations(text: str, section: Article, lo: int, out: _Collector) -> None:
    for verb in _REVOKE_RE.finditer(text, lo, section.end):
        after = re.match(r"\s*:", text[verb.end():verb.end() + 5])
        items = (clause_items_after(text, verb.end() + after.end(), section.end) if after
                 else clause_items_before(text, lo, verb.start()))
        replaced = bool(_REPLACE_RE.search(verb.group(0)))
        # "1. ...; 2. ...; 4. sepanjang telah diatur dalam undang-undang ini, dinyatakan tidak berlaku"
        shared_part = any(re.search(r"(?i)\bsepanjang\b", text[s:e]) and not _targets(text, s, e, out.own_key)
                          for s, e in items)
        clause_start = items[0][0] if items else verb.start()
        clause_end = verb.end() if not after else (items[-1][1] if items else verb.end())
        for start, end in items:
            targets = _targets(text, start, end, out.own_key)
            if not targets:
                continue
            head = targets[0][0]
            prefix, tail = text[start:head.start], text[head.end:end]
            articles = _articles(prefix)
            partial = bool(articles or shared_part or _PART_RE.search(prefix) or re.search(r"(?i)\bsepanjang\b", tail))
            relation = "supersedes" if replaced else ("revokes_in_part" if partial else "revokes")
            for citation, chained in targets:
                kind = relation
                if chained and relation == "revokes":
                    title = _title_after(text, citation, end) or ""
                    kind = "revokes" if not title or title.lower().startswith("perubahan") else "revokes_in_part"
                out.add(kind, citation, section, clause_start, clause_end, articles if citation is head else (), lo)


def _amendments(text: str, section: Article, lo: int, deleted: tuple[str, ...], out: _Collector) -> None:
    for verb in _AMEND_RE.finditer(text, lo, section.end):
        items = clause_items_before(text, lo, verb.start())
        if not items:
            continue
        start, end = items[-1]
        if not _AMEND_LEAD_RE.match(text[start:end]):
            continue
        targets = _targets(text, start, end, out.own_key)
        if targets:
            out.add("amends", targets[0][0], section, start, verb.end(), deleted, lo)


def _decree_revocations(text: str, body_start: int, out: _Collector) -> None:
    """Old laws revoke in the decree itself: "Memutuskan I. Menetapkan : ... II. Mencabut <target>."."""
    decree = _DECREE_RE.search(text, 0, body_start)
    if not decree:
        return
    for verb in _MENCABUT_RE.finditer(text, decree.end(), body_start):
        targets = _targets(text, verb.end(), min(body_start, verb.end() + 400), out.own_key)
        if targets and targets[0][0].start - verb.end() < 3:
            citation = targets[0][0]
            end = text.find(".", citation.end, body_start)
            end = end if end != -1 else citation.end
            pasal = f"Memutuskan {verb.group(1)}" if verb.group(1) else "Memutuskan"
            out.found.setdefault(("revokes", citation.key), RelationDraft(
                relation="revokes", target=citation, target_title=_title_after(text, citation, end + 1),
                articles=(), pasal=pasal, ayat=None, char_start=verb.start(), char_end=end + 1,
                clause=text[verb.start():end + 1], effective_date=out.when))


def _title_amendment(text: str, out: _Collector) -> None:
    preamble = _PREAMBLE_RE.search(text, 0, 6000)
    head = _TITLE_RE.search(text, 0, preamble.start() if preamble else 1500)
    if not head:
        return
    targets = _targets(text, head.end(), head.end() + 200, out.own_key)
    if targets and targets[0][0].start - head.end() < 5:
        citation = targets[0][0]
        out.add("amends", citation, None, head.start(), citation.end)


_EXTENSION_TITLE_RE = re.compile(r"(?i)\btentang\s+(?:penetapan\s+)?perpanjangan\s+(?P<subject>[^\n]+(?:\n[^\n]+)?)")
_CONSIDERING_RE = re.compile(r"(?i)\bmenimbang\b")
_CONSIDERED_END_RE = re.compile(r"(?i)\bmengingat\b")
EXTENDED_SHARE = 0.8       # of the subject's words the cited decree's title must carry


def _words(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z]{3,}", text.lower())} - {"dan", "yang", "atas", "tentang", "penetapan"}


def _title_extension(text: str, out: _Collector) -> None:
    """"Penetapan Perpanjangan <subject>": the decree its considerations cite whose title is about the subject."""
    considering = _CONSIDERING_RE.search(text, 0, 6000)
    head = _EXTENSION_TITLE_RE.search(text, 0, considering.start()) if considering else None
    if not head:
        return
    subject = _words(head.group("subject"))
    end = _CONSIDERED_END_RE.search(text, considering.end())
    for citation, _ in _targets(text, considering.end(), end.start() if end else considering.end() + 3000, out.own_key):
        title = _title_after(text, citation, citation.end + 400) or ""
        if subject and len(subject & _words(title)) >= EXTENDED_SHARE * len(subject):
            out.add("extends", citation, None, citation.start, citation.end)
            return


def extract_relations(text: str, *, own_key: str | None = None) -> list[RelationDraft]:
    """Relations the regulation in ``text`` states about other regulations (see module doc)."""
    articles = body_articles(text)
    out = _Collector(text, own_key, effective_date(text, articles))
    deleted = tuple(dict.fromkeys(_DELETED_RE.findall(text)))
    for article in articles:
        if not article.nested:
            _revocations(text, article, article.start, out)
            _amendments(text, article, article.start, deleted, out)
    if articles:
        _decree_revocations(text, articles[0].start, out)
    _title_amendment(text, out)
    _title_extension(text, out)
    return sorted(out.found.values(), key=lambda d: (d.char_start, d.target.start))
