"""Legal-relation extraction and target resolution against a hand-labelled set.

    python bench/relations.py                       # extraction only (no database)
    ACEH_RAG_DATA_DIR=/path/to/real-db python bench/relations.py --resolution
        # also resolution, read from a database where `manage.py legal_relations --rebuild` ran

The labels (bench/relations_real.jsonl) were written by reading the closing, transitional
and amending articles of every text in ../shared/corpus/txt (grep for "dicabut",
"dinyatakan tidak berlaku", "diubah", "Perubahan atas", "Beberapa ketentuan", "diganti");
the set is meant to be complete for those texts, so every extracted relation not in it
counts against precision. ``target_file`` names the corpus file of an in-corpus target.
A relation matches on (source file, target identity key, relation); the Pasal is reported
separately.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CORPUS = ROOT.parent / "shared" / "corpus"
LABELS = Path(__file__).with_name("relations_real.jsonl")

from retrieval.parsing import parse_identity  # noqa: E402
from retrieval.relations.citations import identity_key  # noqa: E402
from retrieval.relations.extract import extract_relations  # noqa: E402


def _norm(text: str) -> str:
    return " ".join(text.split())


def load_labels() -> list[dict]:
    labels = [json.loads(line) for line in LABELS.read_text().splitlines() if line.strip()]
    for label in labels:
        text = _norm((CORPUS / label["source_file"]).read_text())
        if _norm(label["clause"]) not in text:
            raise SystemExit(f"label clause not verbatim in {label['source_file']}: {label['clause'][:80]}")
        label["key"] = identity_key(label["target_type"], label["target_number"], label["target_year"])
    return labels


def extract_corpus() -> dict[tuple[str, str, str], object]:
    found = {}
    for path in sorted((CORPUS / "txt").glob("*.txt")):
        text = path.read_text()
        identity = parse_identity(text)
        own = identity_key(identity.instrument_type, identity.number, identity.year)
        for draft in extract_relations(text, own_key=own):
            found[(f"txt/{path.name}", draft.target.key, draft.relation)] = draft
    return found


def ratio(part: int, whole: int) -> str:
    return f"{part / whole:.3f} ({part}/{whole})" if whole else "n/a"


def report_extraction(labels: list[dict], found: dict) -> None:
    gold = {(l["source_file"], l["key"], l["relation"]): l for l in labels}
    hits = gold.keys() & found.keys()
    gold_targets = {(s, k) for s, k, _ in gold}
    found_targets = {(s, k) for s, k, _ in found}
    print(f"labelled relations: {len(gold)} in {len({s for s, _, _ in gold})} source files "
          f"({sum(1 for l in labels if l.get('target_file'))} with the target in the corpus)")
    print(f"extracted relations: {len(found)}")
    print(f"extraction precision {ratio(len(hits), len(found))}   recall {ratio(len(hits), len(gold))}")
    print(f"  target only (relation ignored): precision {ratio(len(gold_targets & found_targets), len(found_targets))}"
          f"   recall {ratio(len(gold_targets & found_targets), len(gold_targets))}")
    pasal_ok = sum(1 for key in hits if gold[key]["pasal"] == found[key].pasal)
    print(f"  Pasal agrees on matched relations: {ratio(pasal_ok, len(hits))}")
    for kind in ("revokes", "revokes_in_part", "amends", "supersedes"):
        g = {k for k in gold if k[2] == kind}
        f = {k for k in found if k[2] == kind}
        if g or f:
            print(f"  {kind:16s} precision {ratio(len(g & f), len(f))}  recall {ratio(len(g & f), len(g))}")
    for key in sorted(gold.keys() - found.keys()):
        print(f"  MISSED  {key[0][4:40]:36s} {key[2]:16s} {key[1]}")
    for key in sorted(found.keys() - gold.keys()):
        print(f"  EXTRA   {key[0][4:40]:36s} {key[2]:16s} {key[1]}  ({found[key].pasal})")
    for key in sorted(hits):
        if gold[key]["pasal"] != found[key].pasal:
            print(f"  PASAL   {key[0][4:40]:36s} labelled {gold[key]['pasal']!r}, extracted {found[key].pasal!r}")


def report_resolution(labels: list[dict]) -> None:
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")
    os.environ.setdefault("ACEH_RAG_LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from retrieval.models import Document, LegalRelation

    rows = list(LegalRelation.objects.filter(source_document__status="indexed")
                .select_related("source_document", "target_document"))
    by_label = {}
    for row in rows:
        source_file = row.source_document.source_key.split(":", 1)[-1]   # "real:txt/<file>" -> "txt/<file>"
        by_label[(source_file, row.target_key, row.relation)] = row
    in_corpus = [l for l in labels if l.get("target_file")]
    correct = wrong = unresolved = 0
    for label in in_corpus:
        row = by_label.get((label["source_file"], label["key"], label["relation"]))
        expected = Path(label["target_file"]).stem
        linked = row.target_document if row is not None else None
        if linked is not None and Path(linked.source_key).stem == expected:
            correct += 1
        elif linked is not None:
            wrong += 1
            print(f"  WRONG   {label['source_file'][4:40]} -> {linked.source_key} (expected {expected})")
        else:
            unresolved += 1
            print(f"  UNRESOLVED {label['source_file'][4:40]} {label['key']}")
    resolved_rows = [r for r in rows if r.target_document_id]
    bad = [r for r in resolved_rows if r.target_document.instrument_type is None]
    print(f"resolution of in-corpus targets: {ratio(correct, len(in_corpus))} (wrong {wrong}, unresolved {unresolved})")
    print(f"all stored relations: {len(rows)}, with an indexed target: {len(resolved_rows)}, "
          f"indexed documents: {Document.objects.filter(status='indexed').count()}, odd links: {len(bad)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--resolution", action="store_true", help="also read resolution from the database")
    args = parser.parse_args()
    labels = load_labels()
    report_extraction(labels, extract_corpus())
    if args.resolution:
        report_resolution(labels)


if __name__ == "__main__":
    main()
