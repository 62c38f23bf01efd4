"""Whose rule: a question about a private employee is not answered by the civil-service regulations.

Indonesian employment law has two regimes with their own words: the labour law's *pekerja/buruh* and
*pengusaha* (UU 13/2003, the wage decrees), and the civil service's *PNS*, *ASN*, *PPPK* (UU 5/2014, PP
11/2017, the THR regulations paid from the regional budget). Their articles look alike to a retrieval model
("cuti tahunan", "cuti melahirkan", "THR"): "berapa hari cuti tahunan buat pekerja swasta?" ranked nine
civil-service articles before the labour law's Pasal 79.

- **The question's population** is read from its words: a private employee ("swasta", "karyawan",
  "pabrik", "pengusaha", "bos", "employer") or a civil servant ("PNS", "ASN", "civil servant"). A question
  naming both, or neither, has none.
- **A document's population** is the regime its text is about: at least ``MIN_MENTIONS`` mentions of one
  regime's words, ``MIN_DENSITY`` of them per thousand words, and ``DOMINANCE`` times those of the other. A
  law that only mentions civil servants (the environment law's civil-service investigators, the regional
  government laws' staff: at most 1.1 per thousand words in the shared corpus) has none, nor has a document of
  both (the Aceh governance law); the regulations about either regime say their words 3.5 to 45 times per
  thousand. Read from its text at ingestion and stored (``Document.regime``; migration 0025 read the documents
  already stored).
- ``apart`` moves the passages of the other regime's documents after the rest of the first
  ``WINDOW`` places; pinned places (a named regulation, a definition) keep theirs. A search where it moved
  a passage lists the stage "population" among its ``stages``.
"""
from __future__ import annotations

import re
import uuid
from typing import Sequence

from django.db import connection

from retrieval.models import Document
from retrieval.search.documents import owners

__all__ = ["apart", "asked_population", "document_regime", "document_regimes", "mismatched"]

CIVIL, PRIVATE = Document.Regime.CIVIL, Document.Regime.PRIVATE

_ASKED = {
    CIVIL: re.compile(r"\b(?:c?pns|asn|pppk|p3k|pegawai\s+negeri|aparatur\s+sipil|abdi\s+negara|civil\s+servants?|"
                      r"government\s+employees?)\b", re.I),
    PRIVATE: re.compile(r"\b(?:swasta|karyawan|karyawati|buruh|pekerja|perusahaan|pabrik|toko|pengusaha|majikan|bos|"
                        r"outsourcing|alih\s+daya|private\s+(?:sector|compan(?:y|ies)|firms?)|employers?|factory|"
                        r"company|workers?|employees?)\b", re.I),
}
# The regimes as the regulations write them (acronyms in capitals: "asn" inside a word is not ASN).
_STATED = {
    CIVIL: re.compile(r"\b(?:C?PNS|ASN|PPPK)\b|\b(?i:pegawai\s+negeri\s+sipil|aparatur\s+sipil\s+negara)\b"),
    PRIVATE: re.compile(r"\b(?i:pekerja|buruh|pengusaha)\b"),
}
MIN_MENTIONS = 5
MIN_DENSITY = 2.0      # mentions per thousand words
DOMINANCE = 4
# Places of the fused ranking the stage reorders (the legs' candidate limits are 50).
WINDOW = 50


def asked_population(question: str) -> str | None:
    """The regime the question asks about, or None (both or neither named)."""
    civil = _ASKED[CIVIL].search(question)
    # "government employees" is the civil service's phrase, not a private employee beside it.
    private = _ASKED[PRIVATE].search(_ASKED[CIVIL].sub(" ", question))
    if bool(civil) == bool(private):
        return None
    return CIVIL if civil else PRIVATE


def document_regime(text: str) -> str:
    """The regime a document's text is about (see the module docstring): CIVIL, PRIVATE or "" (stored at
    ingestion as ``Document.regime``)."""
    counts = {regime: len(words.findall(text)) for regime, words in _STATED.items()}
    words = max(len(text.split()), 1)
    for regime, other in ((CIVIL, PRIVATE), (PRIVATE, CIVIL)):
        if (counts[regime] >= MIN_MENTIONS and counts[regime] * 1000 >= MIN_DENSITY * words
                and counts[regime] >= DOMINANCE * counts[other]):
            return regime
    return ""


def document_regimes(ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, str]:
    """Each document's stored regime, in one statement."""
    if not ids:
        return {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, regime FROM retrieval_document WHERE id = ANY(%s)", [list(set(ids))])
        return dict(cursor.fetchall())


def mismatched(asked: str | None, regime: str | None) -> bool:
    return asked is not None and bool(regime) and regime != asked


def apart(question: str, ranked: list[tuple[uuid.UUID, float]], owner: dict[uuid.UUID, uuid.UUID],
          pinned: int = 0) -> tuple[list[tuple[uuid.UUID, float]], bool]:
    """``ranked`` with the other regime's passages after the rest of the first ``WINDOW`` places, and whether any
    passage moved."""
    asked = asked_population(question)
    window = ranked[pinned:WINDOW]
    if asked is None or not window:
        return ranked, False
    if missing := [chunk_id for chunk_id, _ in window if chunk_id not in owner]:
        owner = {**owner, **owners(missing)}
    regimes = document_regimes([owner[c] for c, _ in window if c in owner])
    other = [mismatched(asked, regimes.get(owner.get(chunk_id))) for chunk_id, _ in window]
    if not any(other):
        return ranked, False
    kept = [item for item, theirs in zip(window, other) if not theirs]
    floor = min((score for _, score in kept), default=None)
    # Scores stay in order: a moved passage scores no more than the last one kept.
    moved = [(c, score if floor is None else min(score, floor)) for (c, score), theirs in zip(window, other) if theirs]
    return ranked[:pinned] + kept + moved + ranked[WINDOW:], True
