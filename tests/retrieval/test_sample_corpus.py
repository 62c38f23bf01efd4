"""The bundled sample corpus (what `make run` ingests) is real regulation text, each document traced to its source.

A made-up regulation in the demo database is served as fact (a fictional UMK once was), so every
document must be a copy of, or an excerpt from, a text in ../shared/corpus and say which.
"""
from __future__ import annotations

import json
import re

import pytest

from retrieval.parsing.extract import extract_file
from tests.conftest import ROOT, corpus_path

SAMPLE = ROOT / "retrieval" / "sample_corpus"
ENTRIES = json.loads((SAMPLE / "manifest.json").read_text(encoding="utf-8"))["documents"]
MARKERS = ("CONTOH", "BUKAN PERATURAN RESMI", "FIKTIF")
PDF_FOOTER = re.compile(r"^- \d+ -$")
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "–": "-", "—": "-"})


def normalised(text: str) -> str:
    """Text with format markup gone: Markdown heading marks, table pipes and rules, typographic quotes, spacing."""
    text = re.sub(r"(?m)^#+\s+", "", text.translate(_QUOTES))
    return " ".join(text.replace("|", " ").replace("---", " ").split())


def test_the_manifest_lists_exactly_the_documents_in_the_folder():
    documents = {p.name for p in SAMPLE.iterdir()
                 if p.suffix in {".txt", ".md", ".html", ".pdf", ".docx"} and p.name != "README.md"}
    assert documents == {entry["file"] for entry in ENTRIES}
    assert {entry["collection"] for entry in ENTRIES} == {"JDIH", "PPID"}


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["file"])
def test_no_document_is_an_example_or_fictional(entry):
    text = extract_file(SAMPLE / entry["file"]).text
    for marker in MARKERS:
        assert marker not in text.upper() and marker not in entry["title"].upper(), (entry["file"], marker)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["file"])
def test_every_document_names_its_real_source(entry):
    source = entry["source"]
    assert source["corpus_file"].startswith("txt/") and source["excerpt"]
    assert source["url"] == f"https://github.com/{source['repository']}/blob/{source['commit']}/{source['path']}"
    rows = [json.loads(line) for line in corpus_path("manifest.jsonl").read_text(encoding="utf-8").splitlines()
            if line.strip()]
    row = next(row for row in rows if row["file"] == source["corpus_file"])
    assert (row["repo"], row["path"], row["commit"]) == (source["repository"], source["path"], source["commit"])


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda e: e["file"])
def test_every_line_of_a_document_is_found_in_the_real_text_it_cites(entry):
    real = normalised(corpus_path(entry["source"]["corpus_file"]).read_text(encoding="utf-8"))
    text = extract_file(SAMPLE / entry["file"]).text
    checked, missing = 0, []
    for line in text.splitlines():
        if PDF_FOOTER.match(line.strip()):
            continue  # the page numbers the PDF build prints
        piece = normalised(line)
        if not re.search(r"\w", piece):
            continue
        checked += len(piece)
        if piece not in real:
            missing.append(piece)
    assert not missing, missing[:5]
    # The lines checked are the document, not a sliver of it.
    assert checked >= 0.9 * len(normalised(text))
