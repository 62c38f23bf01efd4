"""Signatory roster of a set of documents: who signed, in which role, and how much of it is readable.

The name comes from the identity card (``Document.signatory``); the role is read from the office line
printed above the name in the signature block ("Pj. GUBERNUR ACEH" above "SAFRIZAL ZA"), so a
caretaker's documents are not counted as the governor's. Only the last enactment chunk of each
document is read, never whole documents.
"""
from __future__ import annotations

import re
import uuid

from django.db.models import Q, QuerySet

from retrieval.access import chunk_enabled_q
from retrieval.models import Chunk, Document
from retrieval.signature import ENACTED_AT

ROSTER_DOCUMENT_LIMIT = 500          # documents whose signature blocks one call reads
ROSTER_GROUP_LIMIT = 50
ROSTER_TITLES_PER_GROUP = 10         # operation "list" / "compare"
_OFFICE_LINE = re.compile(
    r"^(?P<acting>(?:PLT|PLH|PJ|Plt|Plh|Pj)\.?\s*)?(?P<office>(?:PRESIDEN|GUBERNUR|WAKIL|MENTERI|KEPALA|KETUA|BUPATI|"
    r"WALI\s?KOTA|PEJABAT|SEKRETARIS)\b[A-Z .,]{0,90}?)[ ,]*$", re.IGNORECASE)
_KEEP_UPPER = {"RI", "DPR", "DPRA", "DPRK"}


def signatory_role(block: str, name: str) -> str | None:
    """The office printed on the line(s) above ``name`` in a signature block ("Pj. Gubernur Aceh"), or None."""
    at = block.find(name)
    if at < 0:
        return None
    lines = [line.strip() for line in block[:at].splitlines() if line.strip()]
    for line in reversed(lines[-4:]):
        if re.fullmatch(r"(?i)(?:cap\s*/\s*)?t\.?t\.?d\.?|dto\.?|cap", line):
            continue                              # "ttd" between office and name
        match = _OFFICE_LINE.match(" ".join(line.split()))
        if not match:
            return None
        office = " ".join(w if w in _KEEP_UPPER else w.capitalize() for w in match.group("office").rstrip(" ,.").split())
        acting = (match.group("acting") or "").strip().rstrip(".").capitalize()
        return f"{acting}. {office}" if acting else office
    return None


def signatory_roster(documents: QuerySet[Document], *, operation: str = "count") -> dict:
    """Role-preserving signatory groups and the roster's coverage for ``documents`` (already access-filtered).

    Coverage: how many documents carry a promulgation card (place or date of enactment) and how many a
    readable officer name. Counts are lower bounds when some names are unreadable; with none readable
    the roster is unavailable and no group is reported.
    """
    rows = list(documents.order_by("id").values_list("id", "title", "signatory", "place_enacted", "date_enacted")
                [:ROSTER_DOCUMENT_LIMIT + 1])
    capped = len(rows) > ROSTER_DOCUMENT_LIMIT
    rows = rows[:ROSTER_DOCUMENT_LIMIT]
    total = documents.count()
    named = [row for row in rows if (row[2] or "").strip()]
    cards = sum(1 for row in rows if row[3] or row[4])
    coverage = {
        "documents": total,
        "documents_with_promulgation_card": cards,
        "documents_with_readable_officer_names": len(named),
    }
    if not named:
        return {"status": "unavailable", "lower_bound": False, "groups": [], **coverage}
    blocks = _signature_blocks([row[0] for row in named])
    groups: dict[tuple[str | None, str], list[str]] = {}
    for document_id, title, name, _, _ in named:
        name = " ".join(name.split())
        role = signatory_role(blocks.get(document_id, ""), name)
        groups.setdefault((role, name), []).append(title)
    partial = capped or len(named) < total
    ordered = sorted(groups.items(), key=lambda item: (-len(item[1]), item[0][1], item[0][0] or ""))
    listed = operation in ("list", "compare")
    return {
        "status": "partial" if partial else "complete",
        "lower_bound": partial,
        "groups": [
            {"signatory_role": role, "signatory": name, "count": len(titles), "lower_bound": partial,
             **({"titles": sorted(titles)[:ROSTER_TITLES_PER_GROUP]} if listed else {})}
            for (role, name), titles in ordered[:ROSTER_GROUP_LIMIT]
        ],
        **coverage,
    }


def _signature_blocks(document_ids: list[uuid.UUID]) -> dict[uuid.UUID, str]:
    """Each document's last enactment chunk plus the chunk after it (a block split across two chunks)."""
    last = dict(
        Chunk.objects.filter(chunk_enabled_q(), document_id__in=document_ids, text__iregex=ENACTED_AT)
        .exclude(kind="penjelasan").order_by("document_id", "-ordinal").distinct("document_id")
        .values_list("document_id", "ordinal"))
    if not last:
        return {}
    wanted = Q()
    for document_id, ordinal in last.items():
        wanted |= Q(document_id=document_id, ordinal__in=[ordinal, ordinal + 1])
    blocks: dict[uuid.UUID, str] = {}
    for document_id, text in (Chunk.objects.filter(chunk_enabled_q()).filter(wanted)
                              .order_by("document_id", "ordinal").values_list("document_id", "text")):
        blocks[document_id] = blocks.get(document_id, "") + "\n" + text
    return blocks
