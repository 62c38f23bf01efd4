"""Lexical tiers: all-words fill, PARTIAL N, NONE, the common-term rule, the ranking bound."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from kernel.principal import Principal
from retrieval.access import visible_documents_q
from retrieval.search import lexical as lexical_module
from retrieval.search import lexical_tiers
from retrieval.search.lexical import chunk_search_lexical, forget_lexeme_statistics, query_terms
from retrieval.search.timeouts import bounded_transaction
from tests.factories import make_document

pytestmark = pytest.mark.django_db

EVERYONE = visible_documents_q(Principal(subject="admin", role="admin", verified=True))


def make_analysed_document(chunks: list[str]) -> None:
    """A corpus with statistics of its own: the tiers read term shares from pg_stats, which
    otherwise hold whatever autovacuum last saw of other tests' committed corpora."""
    make_document(chunks=chunks)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    forget_lexeme_statistics()


def lexical(query: str, limit: int, share: float = 0.05):
    # In a transaction set as the lexical leg sets its own (hybrid.py): no parallel workers, the index's order.
    with bounded_transaction(5000, **lexical_tiers.SERIAL):
        return chunk_search_lexical(query, document_condition=EVERYONE, limit=limit, common_term_share=share)


def test_query_terms_drop_indonesian_stop_words():
    assert query_terms("Apa yang dimaksud dengan zakat di Aceh?") == ["dimaksud", "zakat", "aceh"]
    # A question made only of function words keeps them rather than searching nothing.
    assert query_terms("apa itu") == ["apa", "itu"]


def test_all_words_fill():
    make_analysed_document(["Zakat profesi dibayar bulanan.", "Zakat profesi dihitung dari gaji.", "Zakat profesi disalurkan Baitul Mal."])
    result = lexical("zakat profesi", limit=2)
    assert result.tier == "all-words fill"
    assert len(result.chunk_ids) == 2


def test_partial_then_any_word_fill():
    make_analysed_document(["Zakat profesi dibayar bulanan.", "Zakat fitrah dibayar saat Ramadan.", "Infak sukarela."])
    result = lexical("zakat profesi", limit=5)
    assert result.tier == "PARTIAL 1"
    texts = _texts(result.chunk_ids)
    assert texts[0].startswith("Zakat profesi")
    assert any(text.startswith("Zakat fitrah") for text in texts[1:])
    assert not any(text.startswith("Infak") for text in texts)


def test_none_when_no_passage_has_every_term():
    make_analysed_document(["Zakat fitrah dibayar saat Ramadan.", "Profesi guru dilindungi."])
    result = lexical("zakat profesi", limit=5)
    assert result.tier == "NONE"
    assert len(result.chunk_ids) == 2


def test_common_terms_rank_but_do_not_nominate():
    chunks = [f"Pemerintah Aceh menetapkan ketentuan nomor {i}." for i in range(30)] + ["Kerbau dipelihara warga gampong."]
    make_analysed_document(chunks)
    result = lexical("aceh kerbau", limit=5)
    assert result.tier == "NONE"
    # 'aceh' is in almost every passage: only the rare term nominates.
    assert _texts(result.chunk_ids) == ["Kerbau dipelihara warga gampong."]


def test_every_term_nominates_when_rare_terms_match_nothing():
    chunks = [f"Pemerintah Aceh menetapkan ketentuan nomor {i}." for i in range(30)]
    make_document(chunks=chunks)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    forget_lexeme_statistics()
    result = lexical("aceh unicorn", limit=5)
    assert result.tier == "NONE"
    assert len(result.chunk_ids) == 5


def test_a_ranking_bound_keeps_the_rarest_terms_matches(monkeypatch):
    # Given two rare terms, the commoner one's passages stored first on disk.
    filler = [f"Ketentuan umum nomor {i}." for i in range(200)]
    zakat = [f"Zakat dibayar melalui amil nomor {i}." for i in range(6)]
    make_analysed_document(zakat + ["Kerbau dipelihara warga gampong."] + filler)
    # When fewer matches may be ranked than there are.
    monkeypatch.setattr(lexical_tiers, "RANK_BOUND", 3)
    result = lexical("zakat kerbau", limit=5)
    # Then the rarer term's passage is among those ranked, and ranks first.
    assert result.tier == "NONE"
    assert _texts(result.chunk_ids)[0] == "Kerbau dipelihara warga gampong."


def _texts(chunk_ids):
    from retrieval.models import Chunk

    # Each chunk starts with its "Pasal N" heading line; compare the body.
    by_id = {c.id: c.text.split("\n", 1)[-1] for c in Chunk.objects.filter(id__in=chunk_ids)}
    return [by_id[i] for i in chunk_ids]


def test_query_terms_drop_chat_function_words_and_english_modals():
    assert query_terms("udah gw ajuin trs gak ditanggepin, kalo gitu gimana?") == ["ajuin", "ditanggepin"]
    assert query_terms("Can my employer still fire me?") == ["employer", "fire"]


def test_a_search_scoped_to_named_sources_filters_by_their_ids_and_finds_what_the_join_finds(monkeypatch):
    from retrieval.access import Scope
    from retrieval.models import Chunk

    make_document(chunks=["Retribusi pasar dipungut setiap hari.", "Retribusi parkir dipungut di tepi jalan."],
                  collection="Kota")
    make_document(chunks=["Retribusi pasar ikan dipungut oleh dinas."], collection="Kota", confidential=True)
    make_document(chunks=["Retribusi pasar di kabupaten lain."], collection="Kabupaten")
    Chunk.objects.filter(text__contains="parkir").update(enabled=False)
    anonymous = visible_documents_q(Principal(), Scope(collection_ids=("Kota",)))
    joined = chunk_search_lexical("retribusi pasar", document_condition=anonymous, limit=10)
    by_ids = chunk_search_lexical("retribusi pasar", document_condition=anonymous, limit=10, scoped=True)
    texts = list(Chunk.objects.filter(id__in=by_ids.chunk_ids).values_list("text", flat=True))
    # The same passages in the same order: the collection's visible, enabled ones only (not the confidential
    # document, the disabled passage or the other collection's).
    assert by_ids == joined and [text.split("\n")[-1] for text in texts] == ["Retribusi pasar dipungut setiap hari."]
    # A scope admitting more documents than the bound falls back to the join, with the same result.
    monkeypatch.setattr(lexical_module, "SCOPED_MAX_DOCUMENTS", 0)
    assert chunk_search_lexical("retribusi pasar", document_condition=anonymous, limit=10, scoped=True) == joined


def test_dense_words_are_read_from_the_tables_head_only_when_that_is_cheaper():
    from retrieval.search.lexical_tiers import dense_prefix_pages

    shares = {"atur": 0.35, "bentuk": 0.55, "undang": 0.64, "zakat": 0.004}
    # At 1M passages on 60k pages, three common words together (estimated 12%) are read from the head ...
    head = dense_prefix_pages(["atur", "bentuk", "undang"], shares, 1_000_000, 60_000)
    assert head is not None and 400 < head < 1000
    # ... but not at 10k passages (the index reads few matches), nor a rare word at any size.
    assert dense_prefix_pages(["atur", "bentuk", "undang"], shares, 10_000, 600) is None
    assert dense_prefix_pages(["zakat"], shares, 1_000_000, 60_000) is None


def test_the_tables_head_gives_the_passages_the_index_gives_and_falls_back_when_it_holds_too_few(monkeypatch):
    # Given 40 passages holding "retribusi pasar" among others,
    make_analysed_document([f"Retribusi pasar nomor {i} dipungut harian." for i in range(40)]
                           + [f"Ketentuan lain nomor {i}." for i in range(40)])
    monkeypatch.setattr(lexical_tiers, "RANK_BOUND", 5)
    heads = []
    real_run_tier = lexical_tiers.run_tier
    monkeypatch.setattr(lexical_module, "run_tier", lambda *a, **k: heads.append(k.get("head_pages")) or real_run_tier(*a, **k))
    # when the index alone answers,
    by_index = lexical("retribusi pasar", limit=3)
    assert heads == [None]
    # then a head read in table order (here the whole table) ranks the same passages from the same first matches,
    everything = 10**6
    monkeypatch.setattr(lexical_module, "dense_prefix_pages", lambda *a: everything)
    heads.clear()
    assert lexical("retribusi pasar", limit=3) == by_index and heads == [everything]
    # and a head holding fewer matches than the bound is read again through the index.
    monkeypatch.setattr(lexical_tiers, "RANK_BOUND", 60)
    heads.clear()
    result = lexical("retribusi pasar", limit=3)
    assert heads == [everything, None] and result.all_words_count == 40


def test_a_very_common_word_is_checked_on_the_row_with_the_same_passages(monkeypatch):
    from django.test.utils import CaptureQueriesContext

    chunks = [f"Pemerintah Aceh menetapkan ketentuan nomor {i}." for i in range(30)]
    chunks += [f"Kerbau Aceh dipelihara warga gampong {i}." for i in range(6)] + ["Kerbau dipelihara di Pidie."]
    make_analysed_document(chunks)
    with CaptureQueriesContext(connection) as queries:
        checked = lexical("aceh kerbau", limit=10)
    # "aceh" is in most passages: only "kerbau" is read from the index, "aceh" is checked on its rows.
    assert any("|| ''::tsvector) @@" in query["sql"] for query in queries.captured_queries)
    monkeypatch.setattr(lexical_module, "ROW_CHECK_SHARE", 1.1)
    with CaptureQueriesContext(connection) as queries:
        indexed = lexical("aceh kerbau", limit=10)
    assert not any("|| ''::tsvector) @@" in query["sql"] for query in queries.captured_queries)
    assert (checked.chunk_ids, checked.tier, checked.all_words_count) == (indexed.chunk_ids, indexed.tier,
                                                                        indexed.all_words_count)
    assert checked.all_words_count == 6 and checked.tier == "PARTIAL 6"


def test_the_lexical_leg_is_planned_without_parallel_workers(api_client):
    # Parallel workers return matches in whichever order they finish: the first RANK_BOUND matches, and so the
    # ranking, would change from one run to the next (seen once in a full test run, on a table grown past 8 MB).
    make_document(chunks=["Retribusi pasar dipungut harian oleh petugas."])
    with CaptureQueriesContext(connection) as captured:
        response = api_client.post("/search", {"query": "retribusi pasar", "mode": "lexical"},
                                   content_type="application/json")
    assert response.status_code == 200 and response.json()["results"]
    settings = [q["sql"] for q in captured.captured_queries if "set_config" in q["sql"]]
    assert any("max_parallel_workers_per_gather" in sql for sql in settings)
