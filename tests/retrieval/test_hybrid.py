"""Reciprocal rank fusion, computed by hand; the legs' overlap outside a transaction."""
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connections, transaction

from kernel.principal import Principal
from retrieval.embedders import get_embedder
from retrieval.search import chunk_search, hybrid, reciprocal_rank_fusion
from tests.factories import make_document

X, Y, Z, W = (uuid.UUID(int=i) for i in (1, 2, 3, 4))
ADMIN = Principal(subject="admin", role="admin", verified=True)


def test_rrf_matches_a_hand_computed_example():
    fused = reciprocal_rank_fusion([([X, Y, Z], 1.0), ([Y, W], 1.0)], k=60)
    assert [chunk_id for chunk_id, _ in fused] == [Y, X, W, Z]
    scores = dict(fused)
    assert abs(scores[Y] - (1 / 62 + 1 / 61)) < 1e-12
    assert abs(scores[X] - 1 / 61) < 1e-12
    assert abs(scores[W] - 1 / 62) < 1e-12
    assert abs(scores[Z] - 1 / 63) < 1e-12


def test_rrf_weights_scale_a_leg():
    fused = reciprocal_rank_fusion([([X], 1.0), ([Y], 2.0)], k=60)
    assert [chunk_id for chunk_id, _ in fused] == [Y, X]


def test_rrf_ties_break_by_best_rank_then_id():
    # X and Y both sit at rank 1 of one list: equal score, equal best rank → id order.
    fused = reciprocal_rank_fusion([([Y], 1.0), ([X], 1.0)], k=60)
    assert [chunk_id for chunk_id, _ in fused] == [X, Y]


@pytest.mark.django_db(transaction=True)
def test_outside_a_transaction_the_lexical_leg_runs_on_a_worker_with_the_same_result(monkeypatch):
    # Given committed documents and a private worker pool whose connection the test closes.
    make_document(chunks=["Zakat profesi dibayar bulanan.", "Zakat fitrah dibayar saat Ramadan.", "Infak sukarela."])
    workers = ThreadPoolExecutor(max_workers=1)
    monkeypatch.setattr(hybrid, "_lexical_workers", lambda: workers)
    lexical_threads = []
    real_lexical = hybrid.chunk_search_lexical

    def spy(*args, **kwargs):
        lexical_threads.append(threading.current_thread().name)
        return real_lexical(*args, **kwargs)

    monkeypatch.setattr(hybrid, "chunk_search_lexical", spy)
    try:
        # When hybrid search runs outside a transaction, then inside one.
        overlapped = chunk_search("zakat profesi", mode="hybrid", top_k=3, principal=ADMIN)
        with transaction.atomic():
            sequential = chunk_search("zakat profesi", mode="hybrid", top_k=3, principal=ADMIN)
    finally:
        workers.submit(connections.close_all).result()
        workers.shutdown()

    # Then only the first ran its lexical leg on the worker, and both agree.
    assert lexical_threads[0] != threading.current_thread().name
    assert lexical_threads[1] == threading.current_thread().name
    assert [hit.chunk.id for hit in overlapped.hits] == [hit.chunk.id for hit in sequential.hits]
    assert overlapped.lexical_tier == sequential.lexical_tier == "PARTIAL 1"


def _fused_with(**values):
    import dataclasses

    from django.conf import settings
    from django.test.utils import override_settings

    retrieval = dataclasses.replace(settings.ACEH_RAG.retrieval, **values)
    return override_settings(ACEH_RAG=dataclasses.replace(settings.ACEH_RAG, retrieval=retrieval))


@pytest.mark.django_db
def test_an_english_questions_lexical_leg_has_its_own_fitted_weight():
    # Given passages the two legs order differently for one English question.
    make_document(chunks=["Zakat profesi dibayar setiap bulan kepada Baitul Mal Aceh.",
                          "Infak sukarela diterima Baitul Mal tanpa batas waktu.",
                          "Payment of zakat every month is recorded by the treasurer of the zakat office.",
                          "Sekolah dasar wajib bagi anak usia tujuh tahun."])
    english = "when must the zakat payment be made every month"
    # The English glossary words the lexical leg reads (a transactional test elsewhere may have flushed the
    # shipped rows).
    from retrieval.models import GlossaryEntry
    from retrieval.search.glossary import forget_glossary

    for phrase, expansion in (("payment", "dibayar"), ("month", "bulan")):
        GlossaryEntry.objects.update_or_create(phrase=phrase, defaults={"kind": GlossaryEntry.Kind.ENGLISH,
                                                                        "expansion": expansion, "enabled": True})
    forget_glossary()

    def ids(mode, query):
        return [hit.chunk.id for hit in chunk_search(query, mode=mode, top_k=4, principal=ADMIN).hits]

    with _fused_with(document_weight=0.0, english_lexical_weight=0.0, lexical_weight=1.0):
        # Then with its weight at 0 the English question is ranked by the semantic leg alone,
        semantic_only = ids("semantic", english)
        assert ids("hybrid", english) == semantic_only
    with _fused_with(document_weight=0.0, english_lexical_weight=3.0, lexical_weight=1.0):
        # and with a heavy weight the lexical leg's first passage leads it.
        assert ids("hybrid", english)[0] == ids("lexical", english)[0]
    assert ids("lexical", english)[0] != semantic_only[0]


@pytest.mark.django_db
def test_the_semantic_leg_embeds_an_indonesian_question_in_the_laws_register():
    # Given a corpus that writes "tanggal", "sampai" and "berapa", never the chat's "tgl", "sampe", "brp".
    make_document(chunks=["Tahun anggaran meliputi masa satu tahun mulai dari tanggal 1 Januari sampai dengan "
                          "tanggal 31 Desember.", "Berapa pun jumlahnya, APBN ditetapkan setiap tahun."])
    embedded: list[str] = []

    def embed_query(text):
        embedded.append(text)
        return get_embedder().embed_queries([text])[0]

    colloquial, english = "tahun anggaran APBN mulai tgl brp sampe tgl brp?", "When does the fiscal year begin?"
    with _fused_with(semantic_formal=True):
        chunk_search(colloquial, mode="hybrid", top_k=2, principal=ADMIN, embed_query=embed_query)
        chunk_search(english, mode="hybrid", top_k=2, principal=ADMIN, embed_query=embed_query)
    # Then the colloquial words are read as the corpus writes them, the others (and their case) as asked, and an
    # English question is embedded as it is.
    assert embedded == ["tahun anggaran APBN mulai tanggal berapa sampai tanggal berapa?", english]
    with _fused_with(semantic_formal=False):
        chunk_search(colloquial, mode="hybrid", top_k=2, principal=ADMIN, embed_query=embed_query)
    assert embedded[-1] == colloquial


@pytest.mark.django_db
def test_the_formal_wording_replaces_only_words_the_corpus_never_uses():
    from retrieval.search.colloquial import formal_wording

    make_document(chunks=["Pencemaran tanah diawasi setiap bulan oleh dinas. Warga dapat minta salinan laporan."])
    # "bln" (never used) is the lexicon's "bulan" (used); "minta" is used, so it stays though the lexicon lists it
    # ("meminta"); "ditanggepin" is never used and neither are its forms, so it stays as written.
    assert formal_wording("Minta laporan dinas tiap bln ditanggepin?") == "Minta laporan dinas tiap bulan ditanggepin?"


@pytest.mark.django_db
def test_an_english_question_is_embedded_as_asked_in_every_mode():
    make_document(chunks=["Zakat dibayarkan kepada Baitul Mal setiap tahun."])
    embedded: list[str] = []

    def embed_query(text):
        embedded.append(text)
        return get_embedder().embed_queries([text])[0]

    english = "In Aceh, can zakat be deducted from income tax owed?"
    with _fused_with(semantic_formal=True):
        for mode in ("semantic", "hybrid"):
            chunk_search(english, mode=mode, top_k=1, principal=ADMIN, embed_query=embed_query)
        with _fused_with(semantic_formal=True, query_understanding=False):
            chunk_search(english, mode="hybrid", top_k=1, principal=ADMIN, embed_query=embed_query)
    assert embedded == [english] * 3
