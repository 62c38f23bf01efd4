"""Legal status in answers: which indexed regulation revokes or amends a returned source.

Three uses, one source of truth (``retrieval.relations``):

* **The law in force** (every answer route, ``current_first``): a question that does not ask about
  status reads the passages of revoked or replaced documents after the others (``in_force_first``).
* **Status questions** ("masih berlaku?", "sudah dicabut?", "diubah dengan apa?"), on
  every answer route: the clauses that revoke, replace or amend the documents the
  question reached are put first among the passages, as ordinary evidence, so the answer
  quotes and cites them.
* **Surfacing** (``/query/v2`` with ``ACEH_RAG_LEGAL_RELATIONS__SURFACE_ENABLED``; seed
  ADR-0053): every returned passage of a revoked, replaced or amended document carries
  ``legal_status`` / ``legal_status_basis`` in the identity the agent and the judge read,
  and the deciding clause (at most two per search) is added as an ordinary citable passage;
  the deterministic path opens with a framing sentence and that clause. Every other returned
  passage states ``legal_status: unknown`` (no indexed regulation speaks about its document;
  not a statement that it is in force). Nothing is removed or reordered.

Only regulations the caller may see, inside the request's scope, count: a confidential
revoker leaves the status ``unknown`` for a caller who may not read it.
"""
from __future__ import annotations

import re
import uuid
from dataclasses import dataclass, replace
from typing import Sequence

from kernel.principal import Principal
from answering.extractive.question import YEAR, asks_in_force
from answering.types import LEGAL_RELATION_ORIGIN, Passage, passage_from_hit
from retrieval.facade import Scope
from retrieval.facade import clause_chunk_visible
from retrieval.facade.documents import LegalStatus, RelationView, legal_statuses, named_status, replaced_documents
from retrieval.facade.language import find_named_regulation

__all__ = ["ClauseNote", "LegalEvidence", "is_status_question", "legal_evidence", "status_framing"]

MAX_CLAUSES = 2
ORIGIN = LEGAL_RELATION_ORIGIN
_STATUS_QUESTION = re.compile(
    r"(?i)\b(?:masih\s+berlaku|tidak\s+berlaku(?:\s+lagi)?|berlaku\s+lagi|sudah\s+dicabut|telah\s+dicabut|dicabut|"
    r"pencabutan|mencabut|diubah\s+(?:dengan|oleh)|diganti(?:kan)?\s+(?:dengan|oleh)|perubahannya|status\s+hukum|"
    r"still\s+in\s+force|revoked|repealed|amended\s+by|superseded)\b"
)
FRAMING = {"id": "Perlu diperhatikan:", "en": "Note:"}


def is_status_question(question: str) -> bool:
    """Asks whether an instrument still holds (the question value's reading: "msh berlaku", "still a valid …")
    or what replaced or amended it."""
    return bool(_STATUS_QUESTION.search(question)) or asks_in_force(question)


@dataclass(frozen=True)
class ClauseNote:
    """A deciding clause added to the evidence, and the part of its chunk that states it."""

    passage: Passage
    clause: str
    relation: RelationView


@dataclass(frozen=True)
class LegalEvidence:
    passages: list[Passage]
    clauses: tuple[ClauseNote, ...] = ()


def _deciding(passages: Sequence[Passage], statuses: dict[uuid.UUID, LegalStatus],
              named: LegalStatus | None = None) -> list[RelationView]:
    """The deciding clauses: about the instrument a status question names when one speaks about it (the other
    documents the passages reached are beside that question), else about those documents."""
    seen: set[tuple[str, str]] = set()
    out = []
    if named is not None and named.deciding:
        found = [named]
    else:
        found = [statuses.get(passage.document_id, LegalStatus("unknown", None)) for passage in passages]
    for status in found:
        for view in status.deciding:
            clause = (view.identity, view.clause_reference)   # one clause, whichever copy states it
            if clause not in seen:
                seen.add(clause)
                out.append(view)
    return out


def _clause_notes(views: list[RelationView], principal: Principal, limit: int) -> list[ClauseNote]:
    notes = []
    for view in views[:limit]:
        hit = clause_chunk_visible(principal=principal, document_id=view.source_document_id, char_start=view.char_start)
        if hit is None:
            continue
        start = view.char_start - hit.char_start
        clause = " ".join(hit.text[start:max(start, view.char_end - hit.char_start)].split())
        notes.append(ClauseNote(passage_from_hit(hit, ORIGIN), clause, view))
    return notes


def legal_evidence(passages: list[Passage], *, question: str, principal: Principal, scope: Scope,
                   surface: bool, current_first: bool = False) -> LegalEvidence:
    """The passages with what indexed regulations say about their documents (see module doc); with
    ``current_first``, the law in force before what it revoked (``in_force_first``)."""
    asks = is_status_question(question)
    if passages and current_first and not (asks or surface):
        replaced = replaced_documents(principal=principal, document_ids=[p.document_id for p in passages], scope=scope)
        return LegalEvidence(in_force_first(list(passages), replaced, question))
    if not passages or not (asks or surface):
        return LegalEvidence(list(passages))
    statuses = legal_statuses(principal=principal, document_ids=[p.document_id for p in passages], scope=scope)
    shown = [with_status(p, statuses) for p in passages] if surface else list(passages)
    by_chunk = {p.chunk_id: p for p in shown}
    notes, added = [], []
    named = _named_status(question, principal, scope) if asks else None
    for note in _clause_notes(_deciding(passages, statuses, named), principal, MAX_CLAUSES):
        passage = by_chunk.get(note.passage.chunk_id)      # already returned: cite it, do not add it twice
        if passage is None:
            passage = with_status(note.passage, statuses) if surface else note.passage
            added.append(passage)
        notes.append(replace(note, passage=passage))
    # A status question is answered by the clause; otherwise the clause follows what was found.
    combined = [*added, *shown] if asks else [*shown, *added]
    return LegalEvidence(combined, tuple(notes))


def in_force_first(passages: list[Passage], replaced: dict[uuid.UUID, int | None], question: str) -> list[Passage]:
    """A question that does not ask about status is about the law in force: a search passage of a revoked or
    replaced document ("hierarki peraturan" in UU 10/2004, which UU 12/2011 revoked) follows the others, unless
    the question gives that document's year ("UU otsus taun 2001"). Nothing is removed, and passages a name, a
    follow-up or a tool brought keep their place."""
    years = set(YEAR.findall(question))

    def outdated(passage: Passage) -> bool:
        if passage.origin != "search" or passage.document_id not in replaced:
            return False
        return str(replaced[passage.document_id]) not in years

    return sorted(passages, key=outdated)


def _named_status(question: str, principal: Principal, scope: Scope) -> LegalStatus | None:
    """What the indexed regulations say about the instrument a status question names, whether or not that
    instrument was ingested itself (an old regulation is often known only by the clause that revoked it)."""
    named = find_named_regulation(question)
    if named is None:
        return None
    return named_status(principal=principal, instrument_types=named.type_prefixes, number=named.number,
                        year=named.year, scope=scope)


def with_status(passage: Passage, statuses: dict[uuid.UUID, LegalStatus]) -> Passage:
    """The passage with its document's status. A document no indexed regulation speaks about states
    ``unknown`` (seed), with no basis: not a statement that it is in force."""
    status = statuses.get(passage.document_id)
    if status is None or status.status == "unknown":
        return replace(passage, legal_status="unknown", legal_status_basis=None)
    return replace(passage, legal_status=status.status, legal_status_basis=status.basis)


def surface_search(passages: list[Passage], *, principal: Principal, scope: Scope) -> LegalEvidence:
    """One search's passages with statuses, plus up to two deciding clauses (v2 with the flag)."""
    return legal_evidence(passages, question="", principal=principal, scope=scope, surface=True)


def status_framing(notes: Sequence[ClauseNote], key_of: dict[str, str], language: str, quoted: Sequence[str] = ()):
    """Deterministic v2 segments: a framing sentence, then each deciding clause quoted and cited
    (a clause the answer already quotes is not repeated)."""
    from answering.annotation.segments import Segment

    said = " ".join(" ".join(text.split()) for text in quoted)
    cited = [(n, key_of.get(n.passage.label)) for n in notes
             if key_of.get(n.passage.label) and n.clause and n.clause not in said]
    if not cited:
        return ()
    segments = [Segment(FRAMING.get(language, FRAMING["id"]), "framing", (), "paragraph")]
    segments += [Segment(note.clause if note.clause[-1] in ".;:" else f"{note.clause}.", "fact", (key,), "continue")
                 for note, key in cited]
    return tuple(segments)
