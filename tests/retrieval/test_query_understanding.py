"""Hybrid search's question-aware stages over a hand-built corpus (see retrieval/search/focus.py)."""
from __future__ import annotations

import json
from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from kernel.principal import Principal
from retrieval.models import GlossaryEntry
from retrieval.search import chunk_search
from retrieval.search.definitions import definition_term
from retrieval.search.focus import named_documents
from retrieval.search.glossary import forget_glossary, rewrite_query
from tests.conftest import ROOT, words_the_corpus_lacks
from tests.factories import make_document

ADMIN = Principal(subject="admin", role="admin", verified=True)
PUBLIC = Principal(subject="citizen")

UU_PEMDA = """UNDANG-UNDANG REPUBLIK INDONESIA
NOMOR 23 TAHUN 2014
TENTANG
PEMERINTAHAN DAERAH

Pasal 11
Urusan pemerintahan konkuren yang menjadi kewenangan daerah terdiri atas urusan pemerintahan wajib dan urusan pemerintahan pilihan. Urusan pemerintahan wajib terdiri atas urusan pemerintahan yang berkaitan dengan pelayanan dasar dan urusan pemerintahan yang tidak berkaitan dengan pelayanan dasar.

Pasal 12
Layanan yang dimaksud meliputi pendidikan, kesehatan, pekerjaan umum, perumahan rakyat, ketenteraman dan ketertiban umum, serta sosial.

Pasal 13
Pembagian urusan antara pusat dan daerah didasarkan pada prinsip akuntabilitas, efisiensi dan eksternalitas.
"""

UUPA = """UNDANG-UNDANG REPUBLIK INDONESIA
NOMOR 11 TAHUN 2006
TENTANG
PEMERINTAHAN ACEH

Pasal 1
Dalam Undang-Undang ini yang dimaksud dengan:
1. Pemerintah Aceh adalah unsur penyelenggara pemerintahan Aceh yang terdiri atas Gubernur dan perangkat daerah Aceh.
2. Qanun Aceh adalah peraturan perundang-undangan sejenis peraturan daerah provinsi yang mengatur penyelenggaraan pemerintahan dan kehidupan masyarakat Aceh.
3. Wali Nanggroe adalah kepemimpinan adat sebagai pemersatu masyarakat yang independen dan berwibawa.

Pasal 39
Tugas gubernur dalam memimpin penyelenggaraan pemerintahan ditetapkan bersama DPRA dan dilaporkan setiap tahun.

Pasal 96
Lembaga Wali Nanggroe merupakan kepemimpinan adat sebagai pemersatu masyarakat. Wali Nanggroe bukan lembaga politik. Wali Nanggroe diatur dengan qanun. Qanun Wali Nanggroe mengatur tata cara pemilihan Wali Nanggroe.
"""


@pytest.fixture(autouse=True)
def fresh_glossary():
    forget_glossary()
    yield
    forget_glossary()


def _first_document(outcome):
    return outcome.hits[0].chunk.document_id


@pytest.mark.django_db
def test_a_named_article_outranks_a_denser_neighbour():
    # Given the named regulation, and another whose Pasal 12 repeats the question's words.
    pemda = make_document(text=UU_PEMDA)
    dense = ["Ketentuan umum pedoman."] * 11 + [
        "Urusan pemerintahan wajib pelayanan dasar dan urusan pemerintahan wajib non pelayanan dasar diatur pusat; urusan pemerintahan wajib pelayanan dasar diutamakan."
    ]
    make_document(title="Pedoman Pelayanan Daerah", chunks=dense)
    assert (pemda.instrument_type, pemda.number, pemda.year) == ("Undang-Undang", "23", 2014)
    query = "Pasal 12 UU Pemda 2014 ngatur urusan pemerintahan wajib pelayanan dasar apa?"
    # When hybrid search runs, the named article comes first and the stage is reported.
    hybrid = chunk_search(query, mode="hybrid", top_k=5, principal=ADMIN)
    assert "Pasal 12" in hybrid.hits[0].chunk.section_path
    assert hybrid.hits[0].chunk.document_id == pemda.id
    assert "named-article" in hybrid.stages
    assert [hit.score for hit in hybrid.hits] == sorted((hit.score for hit in hybrid.hits), reverse=True)
    # The legs stay pure legs: the denser neighbour leads both.
    for mode in ("lexical", "semantic"):
        leg = chunk_search(query, mode=mode, top_k=5, principal=ADMIN)
        assert leg.hits[0].chunk.document_id != pemda.id and leg.stages == ()


@pytest.mark.django_db
def test_a_nickname_resolves_to_the_indexed_regulation():
    uupa = make_document(text=UUPA)
    other = make_document(title="Qanun Tata Tertib", chunks=["Tugas gubernur memimpin penyelenggaraan pemerintahan dilaporkan kepada DPRA setiap tahun dan tugas gubernur dievaluasi."])
    assert named_documents("menurut UUPA apa tugas gubernur?", rewrite_query("menurut UUPA apa tugas gubernur?"), principal=ADMIN, scope=None) == [uupa.id]
    outcome = chunk_search("menurut UUPA apa tugas gubernur?", mode="hybrid", top_k=3, principal=ADMIN)
    assert _first_document(outcome) == uupa.id
    assert "named-document" in outcome.stages
    # Without the glossary stage the denser other regulation leads.
    off = replace(settings.ACEH_RAG, retrieval=replace(settings.ACEH_RAG.retrieval, query_understanding=False))
    with override_settings(ACEH_RAG=off):
        assert _first_document(chunk_search("menurut UUPA apa tugas gubernur?", mode="hybrid", top_k=3, principal=ADMIN)) == other.id


@pytest.mark.django_db
def test_an_alias_to_a_regulation_not_in_the_corpus_does_nothing():
    # "Qanun Jinayat" is Qanun Aceh 6/2014; only a different qanun is indexed.
    assert GlossaryEntry.objects.filter(phrase="qanun jinayat", kind="nickname").exists()
    make_document(title="Qanun Aceh Nomor 12 Tahun 2025", chunks=["Perubahan atas ketentuan hukum jinayat tentang uqubat cambuk."])
    rewrite = rewrite_query("apa isi Qanun Jinayat soal uqubat cambuk?")
    assert [named.number for named in rewrite.nicknames] == ["6"]
    assert named_documents("apa isi Qanun Jinayat soal uqubat cambuk?", rewrite, principal=ADMIN, scope=None) == []
    outcome = chunk_search("apa isi Qanun Jinayat soal uqubat cambuk?", mode="hybrid", top_k=3, principal=ADMIN)
    assert "named-document" not in outcome.stages and outcome.hits


@pytest.mark.django_db
def test_an_admin_edit_of_the_glossary_takes_effect():
    entry = GlossaryEntry.objects.create(phrase="uu percobaan", kind="nickname", instrument_type="Undang-Undang", number="99", year=2099)
    assert [n.number for n in rewrite_query("uu percobaan pasal 2").nicknames] == ["99"]
    entry.enabled = False
    entry.save()
    assert rewrite_query("uu percobaan pasal 2").nicknames == ()


@pytest.mark.django_db
def test_an_abbreviation_with_a_hyphenated_affix_is_read_in_the_laws_words():
    GlossaryEntry.objects.create(phrase="PHKX", kind="abbreviation", expansion="pemutusan hubungan kerja")
    forget_glossary()
    for question in ("boleh gak aku di-PHKX gara-gara hamil?", "Bolehkah pengusaha mem-PHKX pekerja?", "PHKX-nya sah?"):
        assert "pemutusan hubungan kerja" in rewrite_query(question).lexical
    # a hyphenated word that only contains the phrase is not it
    assert "pemutusan" not in rewrite_query("kode-PHKX-lama").lexical


@pytest.mark.django_db
def test_an_everyday_word_is_kept_and_followed_by_the_laws_wording():
    wanted = make_document(title="Qanun Pengupahan", chunks=["Pengusaha dilarang membayar upah lebih rendah dari upah minimum."])
    make_document(title="Qanun Pajak", chunks=["Gaji bos perusahaan dikenai pajak penghasilan."])
    GlossaryEntry.objects.create(phrase="majikanx", kind="everyday", expansion="pengusaha | pemberi kerja")
    forget_glossary()
    # Kept (a deployment's corpus may use the everyday word too), then every word of the law's wordings.
    assert rewrite_query("majikanx aku bayar di bawah upah minimum").lexical.split()[:4] == [
        "majikanx", "pengusaha", "pemberi", "kerja"]
    # In an English question too, like an abbreviation.
    assert "pengusaha" in rewrite_query("Can my majikanx pay less than the minimum wage?").lexical.split()
    outcome = chunk_search("majikanx bayar upah di bawah minimum", mode="lexical", top_k=3, principal=ADMIN)
    assert outcome.hits and outcome.hits[0].chunk.document_id == wanted.id


@pytest.mark.django_db
def test_colloquial_forms_are_matched_lexically():
    wanted = make_document(title="Qanun Kependudukan", chunks=["Penduduk yang membuat akta kelahiran tidak dipungut biaya."])
    make_document(title="Qanun Lain", chunks=["Akta pendirian koperasi dicatat dinas."])
    rewrite = rewrite_query("kalo bikin akta kelahiran emang gak bayar ya? brp biayanya")
    for word in ("kalau", "membuat", "memang", "tidak", "berapa"):
        assert word in rewrite.lexical.split()
    outcome = chunk_search("kalo bikin akta kelahiran gak dipungut biaya?", mode="lexical", top_k=3, principal=ADMIN)
    assert outcome.hits[0].chunk.document_id == wanted.id
    assert outcome.lexical_tier.startswith(("PARTIAL", "all-words"))


@pytest.mark.django_db
def test_a_definition_question_puts_the_defining_angka_first():
    uupa = make_document(text=UUPA)
    assert definition_term("Menurut UU 11/2006, apa yang dimaksud dengan Wali Nanggroe?") == "Wali Nanggroe"
    assert definition_term("Wali Nanggroe itu apa sih?") == "Wali Nanggroe"
    assert definition_term("pengertian qanun aceh dalam UUPA") == "qanun aceh"
    for query in ("Menurut UU 11/2006, apa yang dimaksud dengan Wali Nanggroe?", "Wali Nanggroe itu apa?"):
        outcome = chunk_search(query, mode="hybrid", top_k=3, principal=ADMIN)
        first = outcome.hits[0].chunk
        assert first.document_id == uupa.id and "Pasal 1" in (first.legal_reference or "")
        assert "Wali Nanggroe adalah" in first.text
        assert "definition" in outcome.stages


@pytest.mark.django_db
def test_an_english_question_matches_lexically():
    wanted = make_document(title="Keputusan Upah", chunks=["Upah minimum provinsi ditetapkan oleh gubernur setiap tahun."])
    make_document(title="Lain", chunks=["Pajak kendaraan bermotor dibayar tahunan."])
    rewrite = rewrite_query("How is the provincial minimum wage set by the governor?")
    assert rewrite.english and {"upah", "minimum", "gubernur"} <= set(rewrite.lexical.split())
    assert "the" not in rewrite.lexical.split()
    outcome = chunk_search("How is the provincial minimum wage set by the governor?", mode="lexical", top_k=3, principal=ADMIN)
    assert outcome.hits and outcome.hits[0].chunk.document_id == wanted.id
    # An Indonesian question keeps words that happen to be English entries.
    assert "free" in rewrite_query("apakah free ongkir diatur").lexical


@pytest.mark.django_db
def test_a_name_or_nickname_never_reveals_a_restricted_document():
    secret = make_document(text=UUPA, confidential=True)
    public = make_document(title="Pedoman Umum", chunks=["Wali Nanggroe dihormati masyarakat sebagai pemimpin adat."])
    for query in ("UUPA pasal 96 soal Wali Nanggroe", "UU 11/2006 pasal 96 Wali Nanggroe", "apa yang dimaksud dengan Wali Nanggroe menurut UUPA"):
        assert named_documents(query, rewrite_query(query), principal=PUBLIC, scope=None) == []
        outcome = chunk_search(query, mode="hybrid", top_k=5, principal=PUBLIC)
        assert {hit.chunk.document_id for hit in outcome.hits} == {public.id}
        assert outcome.stages in ((), ("within-document",))
        # The admin, who may see it, gets it first.
        assert _first_document(chunk_search(query, mode="hybrid", top_k=5, principal=ADMIN)) == secret.id


@pytest.mark.django_db
def test_the_glossary_is_edited_in_the_admin(admin_client):
    listing = admin_client.get("/admin/retrieval/glossaryentry/?q=uupa")
    assert listing.status_code == 200 and "uupa" in listing.content.decode()
    response = admin_client.post("/admin/retrieval/glossaryentry/add/", {
        "phrase": "uu ujicoba", "kind": "nickname", "expansion": "ujicoba", "instrument_type": "Undang-Undang",
        "number": "7", "year": "2099", "enabled": "on", "note": "",
    })
    assert response.status_code == 302
    assert [(n.number, n.year) for n in rewrite_query("isi uu ujicoba").nicknames] == [("7", 2099)]
    # A nickname without an identity is refused by the form (the table's constraint).
    refused = admin_client.post("/admin/retrieval/glossaryentry/add/", {"phrase": "uu kosong", "kind": "nickname", "enabled": "on"})
    assert refused.status_code == 200 and not GlossaryEntry.objects.filter(phrase="uu kosong").exists()


@pytest.mark.django_db
def test_within_document_re_ranking_orders_the_dominant_documents_chunks_by_distinctive_terms():
    from retrieval.search.documents import owners
    from retrieval.search.focus import _within_document
    from retrieval.search.lexical import forget_lexeme_statistics
    from tests.conftest import corpus_statistics_refresh

    zakat = make_document(title="Qanun Zakat", chunks=[
        "Zakat dikelola Baitul Mal secara amanah.", "Zakat disalurkan Baitul Mal kepada mustahik.",
        "Kadar zakat penghasilan ditetapkan dua setengah persen dari nisab.", "Zakat dicatat Baitul Mal setiap tahun.",
    ])
    other = make_document(title="Qanun Pajak", chunks=["Pajak air permukaan dibayar bulanan."])
    corpus_statistics_refresh()
    forget_lexeme_statistics()
    by_ordinal = {c.ordinal: c.id for c in zakat.chunks.all()}
    body = [by_ordinal[o] for o in sorted(by_ordinal) if o > 0][:4]
    order = [body[0], body[1], body[3], body[2], other.chunks.first().id]
    # A six-passage corpus: "distinctive" means in under half of the passages here.
    config = replace(settings.ACEH_RAG.retrieval, common_term_share=0.5)
    reordered = _within_document(order, owners(order), rewrite_query("berapa kadar zakat penghasilan persen?"), config)
    assert reordered[0] == body[2]                      # the chunk holding "kadar", "penghasilan", "persen"
    assert reordered[-1] == order[-1]                   # another document's place is untouched
    assert sorted(map(str, reordered)) == sorted(map(str, order))
    # Not concentrated (fewer than 3 of the top 5 in one document): nothing changes.
    assert _within_document([body[0], order[-1]], owners(order), rewrite_query("kadar zakat"), config) is None
    # Switched off, hybrid search never applies it.
    off = replace(settings.ACEH_RAG, retrieval=replace(settings.ACEH_RAG.retrieval, within_document_rerank=False))
    with override_settings(ACEH_RAG=off):
        assert "within-document" not in chunk_search("berapa kadar zakat penghasilan persen?", mode="hybrid", top_k=5, principal=ADMIN).stages


@pytest.mark.django_db
def test_several_named_instruments_each_rank_their_article_first():
    pemda = make_document(text=UU_PEMDA)
    uupa = make_document(text=UUPA)
    outcome = chunk_search("bandingkan Pasal 96 UU 11/2006 dan UU 23/2014", mode="hybrid", top_k=6, principal=ADMIN)
    documents = [hit.chunk.document_id for hit in outcome.hits[:2]]
    assert uupa.id in documents and "Pasal 96" in outcome.hits[0].chunk.section_path
    assert pemda.id in {hit.chunk.document_id for hit in outcome.hits}
    assert "named-document" in outcome.stages


@pytest.mark.django_db
def test_a_named_angka_ranks_its_definition_chunk_first():
    definitions = "\n".join(f"{n}. Istilah{n} adalah pengertian nomor {n} yang panjang " + "uraian " * 40 for n in range(1, 13))
    text = f"UNDANG-UNDANG REPUBLIK INDONESIA\nNOMOR 6 TAHUN 2014\nTENTANG\nDESA\n\nPasal 1\nDalam Undang-Undang ini yang dimaksud dengan:\n{definitions}\n\nPasal 2\nDesa diatur.\n"
    desa = make_document(text=text)
    pasal_one = [c for c in desa.chunks.all() if "Pasal 1" in (c.legal_reference or "")]
    assert len(pasal_one) > 1, "Pasal 1 is split along its angka"
    outcome = chunk_search("UU 6/2014 pasal 1 angka 9", mode="hybrid", top_k=3, principal=ADMIN)
    assert "9. Istilah9 adalah" in outcome.hits[0].chunk.text


@pytest.mark.django_db
def test_a_regulation_named_by_type_and_subject_resolves_only_when_one_title_carries_it():
    from retrieval.search.titles import titled_documents

    base = make_document(text="PERATURAN GUBERNUR ACEH\nNOMOR 3 TAHUN 2025\nTENTANG\nPERJALANAN DINAS\n\nPasal 1\nPerjalanan dinas dibiayai APBA.\n")
    make_document(text="PERATURAN GUBERNUR ACEH\nNOMOR 18 TAHUN 2025\nTENTANG\nPERUBAHAN ATAS PERATURAN GUBERNUR ACEH NOMOR 3 TAHUN 2025 TENTANG PERJALANAN DINAS\n\nPasal I\nDiubah.\n")
    make_document(text="PERATURAN GUBERNUR ACEH\nNOMOR 25 TAHUN 2025\nTENTANG\nPEMBEBASAN PAJAK KENDARAAN\n\nPasal 1\nPajak dibebaskan.\n")
    make_document(text="PERATURAN GUBERNUR ACEH\nNOMOR 32 TAHUN 2025\nTENTANG\nDASAR PENGENAAN PAJAK KENDARAAN\n\nPasal 1\nPajak dihitung.\n")
    assert titled_documents("pergub perjalanan dinas 2025 berlaku buat siapa?", principal=ADMIN, scope=None) == [base.id]
    # Two titles carry "pajak kendaraan": ambiguous, nothing is named.
    assert titled_documents("pergub pajak kendaraan isinya apa?", principal=ADMIN, scope=None) == []
    # The year must match; a caller who cannot see the document gets nothing.
    assert titled_documents("pergub perjalanan dinas 2019", principal=ADMIN, scope=None) == []
    assert titled_documents("pergub perjalanan dinas", principal=PUBLIC, scope=None) == [base.id]
    base.confidential = True
    base.save()
    assert titled_documents("pergub perjalanan dinas", principal=PUBLIC, scope=None) == []


@pytest.mark.django_db
def test_a_reranker_orders_only_what_follows_the_named_article(api_client):
    from tests.http_fakes import FakeModelServer

    make_document(text=UU_PEMDA)

    def rerank(path, body):
        # The reranker prefers Pasal 13's wording whatever the question names.
        return 200, [{"index": i, "score": 1.0 if "akuntabilitas" in text else 0.1} for i, text in enumerate(body["texts"])]

    with FakeModelServer(rerank) as fake:
        config = replace(settings.ACEH_RAG, retrieval=replace(settings.ACEH_RAG.retrieval, rerank_base_url=fake.url))
        with override_settings(ACEH_RAG=config):
            response = api_client.post("/search", data={"query": "Pasal 12 UU 23/2014 isinya apa?", "top_k": 3},
                                       content_type="application/json")
    results = response.json()["results"]
    assert results[0]["citation"]["section_path"] == ["Pasal 12"]
    # The named article (and the named regulation's own ranking after it) keep their places: the reranker is
    # asked about what follows them only, never about Pasal 12, however much it prefers Pasal 13's wording.
    # (Which of Pasal 11 and 13 comes next is that own ranking's to say: on this tiny text they tie.)
    asked = [text for _, body in fake.requests for text in body["texts"]]
    assert asked and not any("Pasal 12" in text for text in asked)
    assert [r["score"] for r in results] == sorted((r["score"] for r in results), reverse=True)


@pytest.mark.django_db
def test_an_issuers_acronym_names_the_circular_whose_title_spells_it_out():
    from retrieval.search.titles import titled_documents

    circular = make_document(text="SURAT EDARAN KEPALA BADAN PENGAWAS TENAGA NUKLIR\nNOMOR 7/K/III/2019\nTENTANG\n"
                                  "PERPANJANGAN IZIN\n\nA. Umum\nIzin diperpanjang.\n")
    make_document(text="SURAT EDARAN GUBERNUR ACEH\nNOMOR 3/2019\nTENTANG\nLIBUR SEKOLAH\n\nA. Umum\nSekolah libur.\n")
    forget_glossary()
    # "BAPETEN" is in the shipped glossary as the Badan Pengawas Tenaga Nuklir
    assert titled_documents("menurut surat edaran BAPETEN 2019 izin diperpanjang berapa lama?", principal=ADMIN,
                            scope=None) == [circular.id]
    assert titled_documents("SE Bapeten 2020 soal izin", principal=ADMIN, scope=None) == []    # another year


@pytest.mark.django_db
def test_the_shipped_english_legal_vocabulary_puts_an_english_question_in_the_laws_words():
    forget_glossary()
    lexical = rewrite_query("Can my employer fire me on a fixed-term contract during probation?").lexical.split()
    assert {"pengusaha", "pemutusan", "hubungan", "kerja", "perjanjian", "waktu", "tertentu", "masa",
            "percobaan"} <= set(lexical)
    wanted = make_document(title="Ketenagakerjaan", chunks=[
        "Perjanjian kerja untuk waktu tertentu tidak dapat mensyaratkan adanya masa percobaan kerja."])
    make_document(title="Lain", chunks=["Pekerja yang sakit tetap menerima upah."])
    outcome = chunk_search("Can a fixed-term contract require a probation period?", mode="lexical", top_k=3,
                           principal=ADMIN)
    assert outcome.hits and outcome.hits[0].chunk.document_id == wanted.id


@pytest.mark.django_db
def test_the_government_vocabulary_reads_offices_and_regions_in_the_laws_words():
    forget_glossary()
    lexical = set(rewrite_query("Which regencies were formed when the province was split, and who appoints the "
                                "acting regent?").lexical.split())
    assert {"kabupaten", "dibentuk", "pemekaran", "mengangkat", "penjabat"} <= lexical



EVERYDAY = sorted((ROOT / "retrieval" / "migrations" / "data").glob("everyday_*.json"))


def _everyday_rows() -> dict[str, str]:
    rows: dict[str, str] = {}
    for path in EVERYDAY:
        batch = json.loads(path.read_text(encoding="utf-8"))
        assert not set(batch) & set(rows), path.name      # a later batch repeats no phrase
        rows.update(batch)
    return rows


# A modal or a question word decides what is asked, not what it is about: never an everyday row.
_NOT_EVERYDAY = {"boleh", "wajib", "harus", "bisa", "dapat", "dilarang", "berhak", "perlu", "apa", "siapa", "berapa",
                 "kapan", "bagaimana", "tidak", "bukan"}


def test_the_everyday_vocabulary_says_only_what_the_corpus_says():
    rows = _everyday_rows()
    assert len(rows) >= 300
    for phrase, expansion in rows.items():
        assert phrase == phrase.lower() and 1 <= len(phrase.split()) <= 3, phrase
        assert not set(phrase.split()) & _NOT_EVERYDAY, phrase
        # Alternative wordings ("pengusaha | atasan"), each a complete one.
        assert all(1 <= len(wording.split()) <= 6 for wording in expansion.split("|")), phrase
    missing = words_the_corpus_lacks(rows.values())
    assert not missing, missing[:20]


@pytest.mark.django_db
def test_the_shipped_everyday_vocabulary_finds_the_laws_wording():
    forget_glossary()
    # Every row loaded: none is a phrase another kind already holds.
    assert GlossaryEntry.objects.filter(kind="everyday").count() == len(_everyday_rows())
    wanted = make_document(title="Ketenagakerjaan", chunks=[
        "Pengusaha dilarang membayar upah lebih rendah dari upah minimum."])
    make_document(title="Lain", chunks=["Bos itu menerima gaji di bawah rata-rata."])
    lexical = rewrite_query("bos aku gaji di bawah UMR").lexical.split()
    assert {"bos", "pengusaha", "upah", "minimum"} <= set(lexical)
    outcome = chunk_search("bos gaji di bawah UMR", mode="lexical", top_k=3, principal=ADMIN)
    assert outcome.hits and outcome.hits[0].chunk.document_id == wanted.id
