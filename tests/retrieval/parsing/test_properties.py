"""Property tests: chunk invariants hold for any regulation-shaped (or random) document."""
from __future__ import annotations

import re
from bisect import bisect_right

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from retrieval.parsing import ExtractedText, parse_document

pytestmark = pytest.mark.slow

_WORDS = [
    "pemerintah", "Aceh", "gubernur", "qanun", "sebagaimana", "dimaksud", "dalam", "Pasal", "8", "ayat",
    "(2)", "huruf", "a", "dan/atau", "Syar’iyah", "gampong", "mukim", "Rp10.000.000,00", "naïve", "Ärger",
    "日本語", "👍", "APBA;", "berlaku.", "Bab", "I:", "Pasal", "5", "dalam", "Pasal", "12A", "berikut:",
    "—", "“kutipan”", "e.g.", "1.", "(1)", "KESATU", "Ditetapkan", "tanggal", "Nomor", "Tahun", "2024",
]
_CELL_WORDS = ["No", "Nama", "Jumlah", "Aceh Besar", "Pidie", "12", "Rp 5.000", "Gampong Baru", "ÄÖ"]
_ORD = ["Kesatu", "Kedua", "Ketiga", "Keempat"]
_DICTA = ["KESATU", "KEDUA", "KETIGA", "KEEMPAT"]


def _roman(n: int) -> str:
    return ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X"][n - 1]


@st.composite
def words(draw, min_size=1, max_size=40):
    vocab = st.sampled_from(_WORDS)
    if draw(st.integers(0, 9)) == 0:  # sometimes very long unbreakable words
        vocab = st.one_of(vocab, st.text(alphabet="abcdefghijklmnopqrstuvwxyzéñ", min_size=30, max_size=2500))
    return " ".join(draw(st.lists(vocab, min_size=min_size, max_size=max_size)))


@st.composite
def sentence(draw):
    return draw(words()) + draw(st.sampled_from([".", ";", ":", "", "."]))


@st.composite
def table(draw):
    cols = draw(st.integers(2, 4))
    n_rows = draw(st.integers(2, 25))
    rows = []
    for _ in range(n_rows):
        cells = draw(st.lists(st.sampled_from(_CELL_WORDS), min_size=cols, max_size=cols))
        rows.append(" | ".join(cells))
    if draw(st.booleans()):
        rows = ["| " + r + " |" for r in rows]
    return "\n".join(rows)


@st.composite
def pasal(draw, number: str):
    lines = [f"Pasal {number}"]
    for ayat in range(1, draw(st.integers(0, 5)) + 1):
        sep = draw(st.sampled_from(["\n", "\n", " "]))
        lines.append(f"({ayat}) {draw(sentence())}" if sep == "\n" else f"{lines.pop()} ({ayat}) {draw(sentence())}")
        for k in range(draw(st.integers(0, 4))):
            marker = draw(st.sampled_from([f"{chr(97 + k)}.", f"{k + 1}.", f"{chr(97 + k)})"]))
            lines.append(f"{marker} {draw(sentence())}")
    if len(lines) == 1:
        lines.append(draw(sentence()))
    if draw(st.integers(0, 5)) == 0:
        lines.append(draw(table()))
    if draw(st.integers(0, 6)) == 0:
        lines.append("sebagaimana dimaksud dalam\nPasal 3\nayat (1) " + draw(sentence()))
    return "\n".join(lines)


@st.composite
def regulation(draw):
    parts = [
        draw(st.sampled_from(["QANUN ACEH", "PERATURAN GUBERNUR ACEH", "UNDANG-UNDANG REPUBLIK INDONESIA"])),
        f"NOMOR {draw(st.integers(1, 99))}{draw(st.sampled_from(['', 'A']))} TAHUN {draw(st.integers(1950, 2030))}",
        "TENTANG",
        draw(words(1, 8)).upper(),
        "",
        "GUBERNUR ACEH,",
        "",
        "Menimbang : a. bahwa " + draw(sentence()),
        "b. bahwa " + draw(sentence()),
        "Mengingat : 1. " + draw(sentence()),
        "",
        "MEMUTUSKAN:",
        "Menetapkan : " + draw(words(1, 10)).upper() + ".",
        "",
    ]
    number = 0
    if draw(st.integers(0, 4)) == 0:
        for i, dictum in enumerate(_DICTA[: draw(st.integers(1, 4))]):
            parts.append(f"{dictum} : {draw(sentence())}")
            if draw(st.booleans()):
                parts.append(draw(table()))
    else:
        for bab in range(1, draw(st.integers(1, 4)) + 1):
            parts += [f"BAB {_roman(bab)}", draw(words(1, 5)).upper(), ""]
            for bagian in range(draw(st.integers(0, 3))):
                parts += [f"Bagian {_ORD[bagian]}", draw(words(1, 4)).title(), ""]
                for _ in range(draw(st.integers(1, 3))):
                    number += 1
                    parts += [draw(pasal(str(number) + draw(st.sampled_from(["", "", "A"])))), ""]
            number += 1
            parts += [draw(pasal(str(number))), ""]
        if draw(st.integers(0, 3)) == 0:
            parts += [
                "Pasal I",
                "Beberapa ketentuan dalam Qanun Aceh Nomor 6 Tahun 2014 diubah sebagai berikut:",
                "1. Ketentuan Pasal 5 diubah sehingga berbunyi sebagai berikut:",
                "\"" + draw(pasal("5")) + "\"",
                "Pasal II",
                draw(sentence()),
                "",
            ]
    parts += [
        "Agar setiap orang mengetahuinya, memerintahkan pengundangan Qanun ini.",
        "Ditetapkan di Banda Aceh",
        "pada tanggal 25 Juli 2024",
        "GUBERNUR ACEH,",
        "MUZAKIR MANAF",
        "LEMBARAN ACEH TAHUN 2024 NOMOR 1",
        "",
    ]
    if draw(st.booleans()):
        parts += ["PENJELASAN", "ATAS", "QANUN ACEH", "I. UMUM", draw(sentence()), "II. PASAL DEMI PASAL"]
        for n in range(1, min(number, 6) + 1):
            parts += [f"Pasal {n}", draw(st.sampled_from(["Cukup jelas.", "Ayat (1)\nCukup jelas.\nAyat (2)\n" + draw(sentence())]))]
    if draw(st.booleans()):
        parts += ["LAMPIRAN", "QANUN ACEH", "A. KETENTUAN UMUM", draw(sentence()), draw(table())]
    blank = draw(st.sampled_from(["\n", "\n", "\n\n", "\n  \n"]))
    return blank.join(parts)


def _check(text: str, page_starts: tuple[int, ...], max_chars: int, min_chars: int) -> None:
    doc = parse_document(ExtractedText(text=text, page_starts=page_starts, format="text"),
                         max_chars=max_chars, min_chars=min_chars)
    prev_end = 0
    prev_page = 0
    table_lines = _table_spans(text)
    for i, c in enumerate(doc.chunks):
        assert c.ordinal == i
        assert text[c.char_start:c.char_end] == c.text
        assert c.text and c.text == c.text.strip()
        assert c.char_start >= prev_end, "chunks overlap or are out of order"
        assert not text[prev_end:c.char_start].strip(), "non-whitespace text left out"
        if len(c.text) > max_chars:
            assert len(c.text.split()) == 1, "oversized chunk that is not a single unbreakable word"
        assert c.char_start == 0 or text[c.char_start - 1].isspace(), "chunk starts inside a word"
        assert c.char_end == len(text) or text[c.char_end].isspace(), "chunk ends inside a word"
        if page_starts:
            assert c.page_number is not None and c.page_number >= prev_page
            assert c.page_number == max(1, bisect_right(page_starts, c.char_start))
            prev_page = c.page_number
        else:
            assert c.page_number is None
        assert isinstance(c.section_path, tuple) and all(isinstance(p, str) and p for p in c.section_path)
        assert c.kind in {"preamble", "body", "penjelasan", "closing", "lampiran", "text"}
        # tables: never end inside a row (rows here are far shorter than max_chars)
        for s, e, header in table_lines:
            if s <= c.char_end < e:
                assert text[c.char_end] == "\n", "chunk ends mid-row"
            if s < c.char_start < e:
                assert c.table_header == header
        prev_end = c.char_end
    assert not text[prev_end:].strip()


def _table_spans(text: str) -> list[tuple[int, int, str]]:
    spans = []
    start = None
    header = ""
    pos = last_end = 0
    for line in text.split("\n"):
        end = pos + len(line)
        is_row = " | " in line
        if is_row and start is None:
            start, header = pos, line.strip()
        elif not is_row and start is not None:
            spans.append((start, last_end, header))
            start = None
        if is_row:
            last_end = end
        pos = end + 1
    if start is not None:
        spans.append((start, last_end, header))
    return spans


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), doc=regulation(), max_chars=st.integers(90, 2000), min_chars=st.integers(0, 400))
def test_chunk_invariants_on_regulation_shaped_documents(data, doc, max_chars, min_chars):
    n_pages = data.draw(st.integers(0, 6))
    starts = sorted({0, *data.draw(st.lists(st.integers(0, len(doc)), min_size=n_pages, max_size=n_pages))})
    page_starts = tuple(starts) if data.draw(st.integers(0, 9)) else ()
    _check(doc, page_starts, max_chars, min_chars)


@settings(max_examples=200, deadline=None)
@given(
    text=st.lists(
        st.sampled_from(list("ab Pasl 1(2).;:\n|#AB\t\u00a0é日") + ["Pasal 1\n", "BAB I\n", " | ", "KESATU : ", "(3) "]),
        max_size=1500,
    ).map("".join),
    max_chars=st.integers(1, 400),
    min_chars=st.integers(0, 200),
)
def test_chunk_invariants_on_arbitrary_text(text, max_chars, min_chars):
    doc = parse_document(ExtractedText(text=text, page_starts=(0,), format="text"), max_chars=max_chars, min_chars=min_chars)
    prev_end = 0
    for i, c in enumerate(doc.chunks):
        assert c.ordinal == i and text[c.char_start:c.char_end] == c.text
        assert c.char_start >= prev_end and not text[prev_end:c.char_start].strip()
        if len(c.text) > max_chars:
            assert len(c.text.split()) == 1
        prev_end = c.char_end
    assert not text[prev_end:].strip()


def test_references_name_the_ayat_they_contain():
    """Deterministic spot-check of the reference arithmetic used by the properties above."""
    body = "\n".join(f"({i}) " + " ".join(["ketentuan"] * 30) + "." for i in range(1, 9))
    text = f"QANUN ACEH\nNOMOR 5 TAHUN 2024\nTENTANG\nUJI\n\nPasal 7\n{body}\n"
    doc = parse_document(ExtractedText(text=text, page_starts=(0,), format="text"), max_chars=700, min_chars=100)
    for c in doc.chunks:
        if c.section_path != ("Pasal 7",):
            continue
        numbers = re.findall(r"(?m)^\((\d+)\)", c.text)
        expected = numbers[0] if len(numbers) == 1 else f"{numbers[0]})-({numbers[-1]}"
        assert c.legal_reference == f"Qanun Aceh Nomor 5 Tahun 2024 Pasal 7 ayat ({expected})"
