"""Named regulations, the seed's rule (query-search-api "Named regulations"): forms, locators, identity resolution."""
from __future__ import annotations

import pytest

from kernel.principal import Principal
from retrieval.facade import Scope, closing_chunks_visible
from retrieval.models import Chunk
from retrieval.search import naming
from retrieval.search.articles import article_chunks
from retrieval.search.naming import (
    ArticleRange,
    find_article,
    find_named_regulations,
    named_anchors,
    resolve_regulation,
)
from tests.factories import make_document

ANYONE = Principal()


@pytest.mark.parametrize("question,prefixes,number,year,exact", [
    ("Apa isi Qanun Aceh Nomor 6 Tahun 2014?", ("Qanun Aceh",), "6", 2014, True),
    ("jelaskan qanun 6/2014.", ("Qanun",), "6", 2014, False),
    ("Siapa yang menandatangani Pergub Aceh No. 60 Tahun 2013.", ("Peraturan Gubernur Aceh",), "60", 2013, True),
    ("Apa isi Peraturan Gubernur Aceh Nomor 12a Tahun 2020!", ("Peraturan Gubernur Aceh",), "12A", 2020, True),
    ("Apa isi Qanun Kabupaten Aceh Besar Nomor 6 Tahun 2014?", ("Qanun Kabupaten Aceh Besar",), "6", 2014, True),
])
def test_the_seed_forms_including_closing_punctuation_and_letter_suffixes(question, prefixes, number, year, exact):
    (named,) = find_named_regulations(question)
    assert (named.type_prefixes, named.number, named.year, named.exact) == (prefixes, number, year, exact)


@pytest.mark.parametrize("question,prefix,number,year", [
    # a short name between the type and a bare number with its year, as people write it in chat
    ("qanun jinayat 6/2014 masih berlaku?", "Qanun", "6", 2014),
    ("UU pemda 22/1999 masih berlaku gak?", "Undang-Undang", "22", 1999),
    ("pp bpma 23/2015 diteken kapan", "Peraturan Pemerintah", "23", 2015),
    ("uu ketenagakerjaan 13 tahun 2003 pasal 59", "Undang-Undang", "13", 2003),
])
def test_a_short_name_before_a_bare_number_and_year(question, prefix, number, year):
    (named,) = find_named_regulations(question)
    assert (named.type_prefixes[0], named.number, named.year) == (prefix, number, year)


def test_a_word_before_another_instruments_number_names_nothing_of_its_own():
    assert [(n.number, n.year) for n in find_named_regulations("UU ini dan PP 3/2015 mengatur apa?")] == [("3", 2015)]
    assert find_named_regulations("UU pemda 22 orang anggota tahun 1999") == ()


def test_several_instruments_each_keep_their_own_locators_before_or_after_the_law():
    question = ("Bandingkan Pasal 8 Qanun Aceh Nomor 1 Tahun 2024 dengan Peraturan Gubernur Aceh Nomor 5 Tahun 2025 "
                "Pasal 3 sampai dengan Pasal 5 dan UU 11/2006 Pasal 1 angka 5-9.")
    anchors = named_anchors(question)
    assert [(a.named.type_prefixes[0], a.named.number, a.named.year) for a in anchors] == [
        ("Qanun Aceh", "1", 2024), ("Peraturan Gubernur Aceh", "5", 2025), ("Undang-Undang", "11", 2006)]
    assert [[loc.articles() for loc in a.locators] for a in anchors] == [[("8",)], [("3", "4", "5")], [("1",)]]
    angka = anchors[2].locators[0]
    assert isinstance(angka, ArticleRange) and (angka.angka, angka.angka_last) == ("5", "9")
    assert find_article(question).pasal == "8"


pytestmark_db = pytest.mark.django_db


def _law(title: str, *, number_line: str | None = None, body: str = "Isi ketentuan.") -> object:
    heading = f"{number_line}\n\nTENTANG\n\nCONTOH\n\n" if number_line else ""
    return make_document(title=title, text=f"{heading}{title}\n\nPasal 1\n{body}\n\nPasal 2\nKetentuan kedua.\n")


@pytestmark_db
def test_title_prefix_and_slug_resolve_and_a_conflicting_card_rejects():
    slug = _law("qanun-aceh-nomor-6-tahun-2014_hukum-jinayat")
    assert slug.instrument_type is None            # no identity card: the title's citation decides
    named = find_named_regulations("Apa isi Qanun Aceh Nomor 6 Tahun 2014?")[0]
    assert resolve_regulation(named, principal=ANYONE, scope=None).id == slug.id
    # A title that starts with the citation, but a card that says another number: not a match.
    conflicting = _law("Peraturan Gubernur Aceh Nomor 7 Tahun 2019 tentang Contoh",
                       number_line="PERATURAN GUBERNUR ACEH\nNOMOR 8 TAHUN 2019")
    assert conflicting.number == "8"
    pergub7 = find_named_regulations("Pergub Aceh Nomor 7 Tahun 2019")[0]
    assert resolve_regulation(pergub7, principal=ANYONE, scope=None) is None


@pytestmark_db
def test_amendments_and_implementing_regulations_do_not_take_the_named_identity():
    _law("Qanun Aceh Nomor 2 Tahun 2020 tentang Perubahan atas Qanun Aceh Nomor 9 Tahun 2015")
    _law("Peraturan Gubernur Aceh Nomor 3 Tahun 2016 tentang Pelaksanaan Qanun Aceh Nomor 9 Tahun 2015")
    named = find_named_regulations("Qanun Aceh Nomor 9 Tahun 2015")[0]
    assert resolve_regulation(named, principal=ANYONE, scope=None) is None
    original = _law("Qanun Aceh Nomor 9 Tahun 2015 tentang Contoh Asli")
    assert resolve_regulation(named, principal=ANYONE, scope=None).id == original.id


@pytestmark_db
def test_an_explicit_jurisdiction_distinguishes_the_same_number_and_year():
    province = _law("Qanun Aceh Nomor 4 Tahun 2018 tentang Contoh", number_line="QANUN ACEH\nNOMOR 4 TAHUN 2018")
    regency = _law("Qanun Kabupaten Aceh Besar Nomor 4 Tahun 2018 tentang Contoh",
                   number_line="QANUN KABUPATEN ACEH BESAR\nNOMOR 4 TAHUN 2018")
    assert (province.instrument_type, regency.instrument_type) == ("Qanun Aceh", "Qanun Kabupaten Aceh Besar")

    def resolved(question):
        document = resolve_regulation(find_named_regulations(question)[0], principal=ANYONE, scope=None)
        return document.id if document else None

    assert resolved("Qanun Aceh Nomor 4 Tahun 2018") == province.id
    assert resolved("Qanun Kabupaten Aceh Besar Nomor 4 Tahun 2018") == regency.id
    assert resolved("Qanun 4/2018") is None                   # two jurisdictions: ambiguous


@pytestmark_db
def test_the_four_match_browse_limit_and_the_lookup_deadline_are_ambiguous(monkeypatch):
    for _ in range(4):
        _law("Peraturan Gubernur Aceh Nomor 11 Tahun 2021 tentang Salinan")
    named = find_named_regulations("Pergub Aceh Nomor 11 Tahun 2021")[0]
    assert resolve_regulation(named, principal=ANYONE, scope=None) is None
    assert naming.RESOLVE_DEADLINE_SECONDS == 10.0
    one = _law("Peraturan Gubernur Aceh Nomor 12 Tahun 2021 tentang Tunggal")
    twelve = find_named_regulations("Pergub Aceh Nomor 12 Tahun 2021")[0]
    assert resolve_regulation(twelve, principal=ANYONE, scope=None).id == one.id
    monkeypatch.setattr(naming, "RESOLVE_DEADLINE_SECONDS", 1e-9)
    assert resolve_regulation(twelve, principal=ANYONE, scope=None) is None
    # The bound does not outlive the lookup: the next statement runs under the session's own timeout.
    assert Chunk.objects.filter(document=one).count() >= 2


@pytestmark_db
def test_article_ranges_and_angka_read_their_chunks():
    law = make_document(title="Qanun Aceh Nomor 8 Tahun 2022 tentang Rentang",
                        chunks=["Satu.", "Dua.", "Tiga.", "Empat.", "Lima."])
    (anchor,) = named_anchors("Pasal 2 sampai dengan Pasal 4 Qanun Aceh Nomor 8 Tahun 2022")
    chunks = article_chunks(law.id, anchor.locators[0])
    assert sorted({path for c in chunks for path in c.section_path if path.startswith("Pasal")}) == [
        "Pasal 2", "Pasal 3", "Pasal 4"]


@pytestmark_db
def test_a_split_signature_block_is_read_with_its_neighbour_chunk():
    law = make_document(text=(
        "QANUN ACEH\nNOMOR 3 TAHUN 2023\n\nTENTANG\n\nCONTOH\n\nPasal 1\nIsi pertama.\n\n"
        "Pasal 2\nQanun ini mulai berlaku pada tanggal diundangkan.\n\nDitetapkan di Banda Aceh\npada tanggal 2 Mei 2023\n\n"
        "Pasal 3\nMUZAKIR MANAF\n"))
    closing = closing_chunks_visible(principal=ANYONE, scope=Scope(), document_id=law.id)
    texts = [c.text for c in closing]
    assert any(t.startswith("Ditetapkan di Banda Aceh") for t in texts)       # narrowed to the closing span
    assert any("MUZAKIR MANAF" in t for t in texts)                            # the neighbour holds the name
    assert all("Isi pertama" not in t for t in texts)


@pytest.mark.parametrize("question,prefixes,number,year,exact", [
    ("Apa isi Peraturan Bupati Aceh Besar Nomor 5 Tahun 2020?", ("Peraturan Bupati Aceh Besar",), "5", 2020, True),
    ("perbup pidie 5/2020 mengatur apa", ("Peraturan Bupati Pidie",), "5", 2020, True),
    ("Peraturan Bupati Nomor 5 Tahun 2020", ("Peraturan Bupati",), "5", 2020, False),
    ("Perwal Banda Aceh No. 12 Tahun 2019.", ("Peraturan Walikota Banda Aceh", "Peraturan Wali Kota Banda Aceh"),
     "12", 2019, True),
    ("Apa isi Peraturan BAPETEN Nomor 5 Tahun 2024?",
     ("Peraturan Badan Pengawas Tenaga Nuklir", "Peraturan Kepala Badan Pengawas Tenaga Nuklir"), "5", 2024, False),
    ("perba 3/2013 soal radioterapi",
     ("Peraturan Badan Pengawas Tenaga Nuklir", "Peraturan Kepala Badan Pengawas Tenaga Nuklir"), "3", 2013, False),
    ("Apa isi POJK Nomor 31/POJK.05/2016?", ("Peraturan Otoritas Jasa Keuangan",), "31", 2016, False),
])
def test_regent_mayor_bapeten_and_ojk_regulations_are_named_forms(question, prefixes, number, year, exact):
    (named,) = find_named_regulations(question)
    assert (named.type_prefixes, named.number, named.year, named.exact) == (prefixes, number, year, exact)


@pytestmark_db
def test_a_regents_regulation_resolves_by_its_place_and_ambiguous_without_it():
    besar = _law("Peraturan Bupati Aceh Besar Nomor 5 Tahun 2020 tentang Contoh",
                 number_line="PERATURAN BUPATI ACEH BESAR\nNOMOR 5 TAHUN 2020")
    pidie = _law("Peraturan Bupati Pidie Nomor 5 Tahun 2020 tentang Contoh",
                 number_line="PERATURAN BUPATI PIDIE\nNOMOR 5 TAHUN 2020")
    assert (besar.instrument_type, pidie.instrument_type) == ("Peraturan Bupati Aceh Besar", "Peraturan Bupati Pidie")

    def resolved(question):
        document = resolve_regulation(find_named_regulations(question)[0], principal=ANYONE, scope=None)
        return document.id if document else None

    assert resolved("Perbup Aceh Besar Nomor 5 Tahun 2020") == besar.id
    assert resolved("Peraturan Bupati Pidie Nomor 5 Tahun 2020") == pidie.id
    assert resolved("Peraturan Bupati Nomor 5 Tahun 2020") is None     # two regencies: ambiguous


@pytestmark_db
def test_bapeten_and_ojk_regulations_resolve_by_their_title_citation():
    bapeten = _law("Peraturan Badan Pengawas Tenaga Nuklir Nomor 5 Tahun 2024 tentang Keamanan Zat Radioaktif",
                   number_line="PERATURAN BADAN PENGAWAS TENAGA NUKLIR\nNOMOR 5 TAHUN 2024")
    ojk = _law("Peraturan Otoritas Jasa Keuangan Nomor 31/POJK.05/2016 tentang Usaha Pergadaian",
               number_line="PERATURAN OTORITAS JASA KEUANGAN\nNOMOR 31/POJK.05/2016")
    for question, document in [("Apa isi Peraturan BAPETEN Nomor 5 Tahun 2024?", bapeten),
                               ("perba 5/2024", bapeten), ("POJK 31/POJK.05/2016", ojk),
                               ("Peraturan OJK Nomor 31 Tahun 2016", ojk)]:
        found = resolve_regulation(find_named_regulations(question)[0], principal=ANYONE, scope=None)
        assert found is not None and found.id == document.id, question
