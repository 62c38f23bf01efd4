"""Extraction of relations from hand-built regulations, one form per test (no database)."""
from __future__ import annotations

from retrieval.relations.citations import find_citations, identity_key
from retrieval.relations.extract import extract_relations

from .regulations import pergub, qanun

OWN = identity_key("Peraturan Gubernur Aceh", "9", 2025)


def relations(text: str):
    return [(r.relation, r.target.key, r.pasal, r.articles) for r in extract_relations(text, own_key=OWN)]


def test_full_revocation_in_closing_article_with_clause_offsets_and_date():
    text = pergub("9", 2025, "Dasar Pengenaan Pajak", [
        "Pajak dihitung dari nilai jual.",
        "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Gubernur Aceh Nomor 05 Tahun 2024 tentang "
        "Dasar Pengenaan Pajak (Berita Daerah Aceh Tahun 2024 Nomor 05), dicabut dan dinyatakan tidak berlaku.",
    ], promulgated="3 Maret 2025")
    [draft] = extract_relations(text, own_key=OWN)
    assert (draft.relation, draft.target.key, draft.pasal) == ("revokes", "peraturan gubernur aceh|5|2024", "Pasal 2")
    assert draft.target_title == "Dasar Pengenaan Pajak"
    assert draft.effective_date == "3 Maret 2025"
    assert text[draft.char_start:draft.char_end] == draft.clause
    assert draft.clause.startswith("Pada saat Peraturan Gubernur ini mulai berlaku")
    assert draft.clause.endswith("dicabut dan dinyatakan tidak berlaku")


def test_declared_no_longer_in_force_without_dicabut():
    text = pergub("9", 2025, "Tata Ruang", [
        "Dengan berlakunya Peraturan Gubernur ini, maka Peraturan Gubernur Aceh Nomor 13 Tahun 1975 "
        "(Berita Daerah Aceh Tahun 1975 Nomor 17) dinyatakan tidak berlaku.",
    ])
    assert relations(text) == [("revokes", "peraturan gubernur aceh|13|1975", "Pasal 1", ())]


def test_list_after_colon_and_list_sharing_one_verb():
    after = pergub("9", 2025, "Pemerintahan", [
        "Pada saat berlakunya Peraturan Gubernur ini, dinyatakan tidak berlaku lagi : a. Qanun Aceh Nomor 5 "
        "Tahun 2010 tentang Desa; b. Qanun Aceh Nomor 6 Tahun 2011 tentang Mukim.",
    ])
    assert [r[1] for r in relations(after)] == ["qanun aceh|5|2010", "qanun aceh|6|2011"]
    before = pergub("9", 2025, "Pemerintahan", [
        "Pada saat Peraturan Gubernur ini mulai berlaku: a. Qanun Aceh Nomor 5 Tahun 2010 tentang Desa "
        "(Lembaran Aceh Tahun 2010 Nomor 5; Tambahan Lembaran Aceh Nomor 7); dan b. Qanun Aceh Nomor 6 Tahun "
        "2011 tentang Mukim, dicabut dan dinyatakan tidak berlaku.",
    ])
    assert [r[:2] for r in relations(before)] == [("revokes", "qanun aceh|5|2010"), ("revokes", "qanun aceh|6|2011")]


def test_partial_revocation_names_the_articles():
    text = pergub("9", 2025, "Desa", [
        "(1) Desa dibina oleh Bupati.\n(2) Pada saat Peraturan Gubernur ini mulai berlaku, Pasal 200 sampai dengan "
        "Pasal 216 dan Pasal 220 Qanun Aceh Nomor 3 Tahun 2009 tentang Pemerintahan Gampong dicabut dan "
        "dinyatakan tidak berlaku.",
        "Pada saat Peraturan Gubernur ini mulai berlaku, ketentuan mengenai retribusi dalam Qanun Aceh Nomor 4 "
        "Tahun 2009 tentang Retribusi dicabut dan dinyatakan tidak berlaku.",
    ])
    drafts = extract_relations(text, own_key=OWN)
    assert [(d.relation, d.target.key, d.articles, d.ayat) for d in drafts] == [
        ("revokes_in_part", "qanun aceh|3|2009", ("200-216", "220"), "2"),
        ("revokes_in_part", "qanun aceh|4|2009", (), None),
    ]


def test_revoking_an_amended_regulation_revokes_its_named_amendment():
    text = pergub("9", 2025, "Kepegawaian", [
        "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Gubernur Aceh Nomor 8 Tahun 2014 tentang "
        "Kepegawaian (Berita Daerah Aceh Tahun 2014 Nomor 8) sebagaimana telah diubah dengan Peraturan Gubernur "
        "Aceh Nomor 43 Tahun 2019 tentang Perubahan atas Peraturan Gubernur Aceh Nomor 8 Tahun 2014 tentang "
        "Kepegawaian (Berita Daerah Aceh Tahun 2019 Nomor 43), dicabut dan dinyatakan tidak berlaku.",
    ])
    assert [r[:2] for r in relations(text)] == [
        ("revokes", "peraturan gubernur aceh|8|2014"), ("revokes", "peraturan gubernur aceh|43|2019")]


def test_replacement_is_supersedes():
    text = pergub("9", 2025, "Tarif", [
        "Peraturan Gubernur Aceh Nomor 2 Tahun 2020 tentang Tarif dicabut dan diganti dengan Peraturan Gubernur ini.",
    ])
    assert relations(text) == [("supersedes", "peraturan gubernur aceh|2|2020", "Pasal 1", ())]


def test_amendment_title_and_body_with_deleted_articles():
    text = (
        "QANUN ACEH\nNOMOR 12 TAHUN 2025\nTENTANG\nPERUBAHAN ATAS QANUN ACEH NOMOR 6 TAHUN 2014 TENTANG HUKUM JINAYAT\n\n"
        "DENGAN RAHMAT ALLAH YANG MAHA KUASA\n\nMenimbang : bahwa perlu mengubah qanun;\n\nMEMUTUSKAN:\n"
        "Menetapkan : QANUN ACEH TENTANG PERUBAHAN ATAS QANUN ACEH NOMOR 6 TAHUN 2014 TENTANG HUKUM JINAYAT.\n\n"
        "Pasal I\nBeberapa ketentuan dalam Qanun Aceh Nomor 6 Tahun 2014 tentang Hukum Jinayat (Lembaran Aceh "
        "Tahun 2014 Nomor 7) diubah sebagai berikut:\n1. Ketentuan Pasal 1 diubah sehingga berbunyi sebagai berikut:\n"
        "Pasal 1\nDalam Qanun ini yang dimaksud dengan Aceh adalah provinsi.\n2. Pasal 5 dihapus.\n\n"
        "Pasal II\nQanun ini mulai berlaku pada tanggal 1 Juli 2025.\n\nDitetapkan di Banda Aceh\n"
    )
    drafts = extract_relations(text, own_key=identity_key("Qanun Aceh", "12", 2025))
    assert [(d.relation, d.target.key, d.pasal, d.articles, d.effective_date) for d in drafts] == [
        ("amends", "qanun aceh|6|2014", "Pasal I", ("5",), "1 Juli 2025")]
    assert drafts[0].clause.startswith("Beberapa ketentuan dalam Qanun Aceh Nomor 6 Tahun 2014")


def test_amendment_known_only_from_its_title():
    text = qanun("13", 2025, "Perubahan atas Qanun Aceh Nomor 2 Tahun 2008 tentang Dana Otsus", [
        "Ketentuan dalam lampiran berlaku sebagaimana tercantum.",
    ])
    [draft] = extract_relations(text, own_key=identity_key("Qanun Aceh", "13", 2025))
    assert (draft.relation, draft.target.key, draft.pasal) == ("amends", "qanun aceh|2|2008", None)


def test_citations_without_an_acting_clause_give_nothing():
    text = pergub("9", 2025, "Sanitasi", [
        "Pelaksanaan sanitasi berpedoman pada Qanun Aceh Nomor 2 Tahun 2008 sebagaimana telah diubah dengan "
        "Qanun Aceh Nomor 3 Tahun 2013.",
        "Semua peraturan yang tidak sesuai dengan Peraturan Gubernur ini dinyatakan tidak berlaku.",
        "Izin usaha dapat dicabut oleh Gubernur.",
    ])
    assert relations(text) == []


def test_ocr_noise_in_numbers_and_years_reads_as_digits():
    text = pergub("9", 2025, "Keuangan", [
        "Pada saat Peraturan Gubernur ini mulai berlaku, Peraturan Pemerintah Nomor 58 Tahun 2OO5 tentang "
        "Keuangan (Lembaran Negara Republik Indonesia Tahun 2005 Nomor l4O) dan Peraturan Gubernur Aceh Nomor "
        "l4O Tahun 2OO7 tentang Kas dicabut dan dinyatakan tidak berlaku.",
    ])
    assert [r[1] for r in relations(text)] == ["peraturan pemerintah|58|2005", "peraturan gubernur aceh|140|2007"]


def test_identity_key_equates_written_forms():
    assert identity_key("UNDANG- UNDANG", "07", 1989) == identity_key("Undang-Undang", "7", 1989)
    assert identity_key("Peraturan Gubenur Aceh", "5", "2O25") == identity_key("Peraturan Gubernur Aceh", "5", 2025)
    assert identity_key("Qanun Aceh", "5", 2025) != identity_key("Peraturan Gubernur Aceh", "5", 2025)
    [citation] = find_citations("Undang-undang Nomor 7 Pnps Tahun 1963 tentang Pemogokan")
    assert (citation.number, citation.year) == ("7 Pnps", 1963)


def test_a_circular_letter_is_cited_in_full_or_as_se():
    text = ("Mencabut SE Gubernur Aceh Nomor 440/1234 Tahun 2020 dan Surat Edaran Gubernur Aceh Nomor 12 Tahun 2021; "
            "BASE Nomor 5 Tahun 2020 bukan surat edaran.")
    short, full = find_citations(text)
    assert (short.instrument_type, short.number, short.year) == ("SE Gubernur Aceh", "440/1234", 2020)
    assert short.key == identity_key("Surat Edaran Gubernur Aceh", "440/1234", 2020)
    assert full.key == "surat edaran gubernur aceh|12|2021"
