#!/usr/bin/env python3
"""Check a fresh evaluation set: valid JSON lines, unique ids, required fields,
and every evidence string is an exact substring of its corpus file after
collapsing whitespace runs (" ".join(text.split())).

Usage: check_evidence.py [SET_DIR]  (default: this directory; e.g. bench/fresh2)."""
import json, os, sys

HERE = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
CORPUS = os.environ.get("CORPUS", "/work/shared/corpus")
KINDS_Q = {"national", "aceh", "yes-no", "status", "list"}
TONES = {"colloquial", "formal", "english"}
TAGS = {"figure", "duration", "who", "when", "signed", "definition", "list",
        "procedure", "status", "yes-no"}
REL_KEYS = {"file", "type", "number", "year", "pasal", "evidence"}

_cache = {}
def text(path):
    if path not in _cache:
        with open(os.path.join(CORPUS, path), encoding="utf-8") as f:
            _cache[path] = " ".join(f.read().split())
    return _cache[path]

errors, n_ev = [], 0
def check_rel(where, rels):
    global n_ev
    for i, r in enumerate(rels):
        if set(r) != REL_KEYS:
            errors.append(f"{where} rel{i}: keys {sorted(r)}")
            continue
        if not isinstance(r["year"], int) or not isinstance(r["number"], str):
            errors.append(f"{where} rel{i}: year/number type")
        ev = " ".join(r["evidence"].split())
        n_ev += 1
        if ev not in text(r["file"]):
            errors.append(f"{where} rel{i}: evidence not found in {r['file']}: {ev[:90]!r}")

def load(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for ln, line in enumerate(f, 1):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                errors.append(f"{name}:{ln}: invalid JSON ({e})")
    return rows

ids = set()
def uid(i):
    if i in ids: errors.append(f"duplicate id {i}")
    ids.add(i)

qs = load("questions.jsonl")
for q in qs:
    uid(q["id"])
    if set(q) != {"id", "query", "kind", "style", "answer", "relevant"}:
        errors.append(f"{q['id']}: fields {sorted(q)}")
    if q["kind"] not in KINDS_Q: errors.append(f"{q['id']}: kind {q['kind']}")
    st = q["style"]
    if len([s for s in st if s in TONES]) != 1 or not any(s in TAGS for s in st):
        errors.append(f"{q['id']}: style {st}")
    if "yes-no" in st:
        first = q["answer"].split()[0]
        if first not in ("Ya,", "Tidak,", "Yes,", "No,"):
            errors.append(f"{q['id']}: yes-no answer starts {first!r}")
    if not q["relevant"]: errors.append(f"{q['id']}: no relevant")
    check_rel(q["id"], q["relevant"])

us = load("unanswerable.jsonl")
for u in us:
    uid(u["id"])
    if set(u) != {"id", "query", "kind", "why_unanswerable"} or u["kind"] not in ("unanswerable", "off-topic"):
        errors.append(f"{u['id']}: bad row")

cs = load("conversations.jsonl")
for c in cs:
    uid(c["id"])
    if c.get("kind") != "conversation" or not 2 <= len(c["turns"]) <= 3:
        errors.append(f"{c['id']}: bad conversation")
    for t, turn in enumerate(c["turns"]):
        where = f"{c['id']}.t{t+1}"
        if t > 0 and not isinstance(turn.get("independent"), bool):
            errors.append(f"{where}: missing independent")
        if t == 0 and "independent" in turn:
            errors.append(f"{where}: first turn has independent")
        if not turn["relevant"] and not turn.get("why_unanswerable"):
            errors.append(f"{where}: empty relevant without why_unanswerable")
        check_rel(where, turn["relevant"])

print(f"questions={len(qs)} unanswerable={len(us)} conversations={len(cs)} evidence_checked={n_ev}")
if errors:
    print("\n".join(errors)); sys.exit(1)
print("OK: all evidence strings found; JSON valid; ids unique")
