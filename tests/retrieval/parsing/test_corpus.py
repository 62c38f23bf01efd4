"""Whole-corpus checks on ../shared/corpus (skipped with a reason when it is absent)."""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import corpus_path

from retrieval.parsing import extract_file, parse_document


pytestmark = pytest.mark.corpus


def _txt_files() -> list[Path]:
    txt = corpus_path("txt")
    files = sorted(txt.glob("*.txt"))
    assert len(files) >= 100
    return files


def test_every_corpus_text_chunks_cleanly():
    sizes = []
    for path in _txt_files():
        extracted = extract_file(path)
        text = extracted.text
        doc = parse_document(extracted)
        assert doc.is_regulation, path.name
        assert doc.chunks, path.name
        prev = 0
        for i, c in enumerate(doc.chunks):
            assert c.ordinal == i
            assert text[c.char_start:c.char_end] == c.text, path.name
            assert c.char_start >= prev and not text[prev:c.char_start].strip(), path.name
            assert len(c.text) <= 1500 or len(c.text.split()) == 1, path.name
            assert c.legal_reference, path.name
            prev = c.char_end
            sizes.append(len(c.text))
        assert not text[prev:].strip(), path.name
    sizes.sort()
    median = sizes[len(sizes) // 2]
    assert 400 <= median <= 1100, median
    assert sum(1 for s in sizes if s < 200) / len(sizes) < 0.05


def test_uu_11_2006_structure():
    path = corpus_path("txt/uu-11-2006-pemerintahan-aceh.txt")
    doc = parse_document(extract_file(path))
    cite = "Undang-Undang Nomor 11 Tahun 2006"
    assert doc.title == f"{cite} tentang Pemerintahan Aceh"
    by_ref = {c.legal_reference: c for c in doc.chunks}
    assert by_ref[f"{cite} Pasal 8"].section_path == ("BAB IV", "Pasal 8")
    assert by_ref[f"{cite} Pasal 8"].text.startswith("Pasal 8\n(1) Rencana persetujuan internasional")
    kinds = [c.kind for c in doc.chunks]
    # preamble, body, closing, penjelasan, closing, in that order
    order = [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]
    assert order == ["preamble", "body", "closing", "penjelasan", "closing"]
    closing = [c for c in doc.chunks if c.kind == "closing"][0]
    assert closing.text.startswith("Agar setiap orang mengetahuinya") and "SUSILO BAMBANG YUDHOYONO" in closing.text
    umum = [c for c in doc.chunks if c.section_path == ("Penjelasan", "Umum")]
    assert umum and umum[0].legal_reference == f"Penjelasan Umum {cite}"
    assert any(c.legal_reference == f"Penjelasan {cite} Pasal 8-10" for c in doc.chunks)


def test_corpus_pdf_page_numbers():
    path = corpus_path("pdf/uu-10-1997-ketenaganukliran.pdf")
    extracted = extract_file(path)
    doc = parse_document(extracted)
    pages = [c.page_number for c in doc.chunks]
    assert pages == sorted(pages)
    assert pages[0] == 1 and pages[-1] >= len(extracted.page_starts) - 2
    assert doc.identity.citation() == "Undang-Undang Nomor 10 Tahun 1997"
    pasal_1 = next(c for c in doc.chunks if c.section_path[-1:] == ("Pasal 1",))
    assert pasal_1.page_number >= 2
