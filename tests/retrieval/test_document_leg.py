"""The document leg's own ranking inside a candidate document: a common word ranks but does not nominate."""
from __future__ import annotations

import pytest
from django.db import connection

from retrieval.models import Chunk
from retrieval.search.documents import _own_rankings
from retrieval.search.focus import _document_ranking
from retrieval.search.glossary import Rewrite
from retrieval.search.lexical import forget_lexeme_statistics
from tests.factories import make_document

pytestmark = pytest.mark.django_db

COMMON = [f"Pemerintah Aceh menetapkan ketentuan umum nomor {i} sebagaimana dimaksud." for i in range(30)]
RARE = "Kerbau dipelihara warga gampong sebagaimana dimaksud."


def _document():
    document = make_document(chunks=COMMON + [RARE])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    forget_lexeme_statistics()
    rare = Chunk.objects.get(document=document, text__contains="Kerbau")
    return document, rare


def test_a_common_word_does_not_nominate_a_documents_own_passages():
    document, rare = _document()
    # "dimaksud" is in every passage: with the common-term share, only "kerbau" nominates.
    own = _own_rankings([document.id], Rewrite("dimaksud kerbau"), None, "", False, common_term_share=0.05)
    assert own[document.id] == [rare.id]
    # Without the share (every lexeme nominates), the common word brings the other passages in behind it.
    every = _own_rankings([document.id], Rewrite("dimaksud kerbau"), None, "", False, common_term_share=1.0)
    assert every[document.id][0] == rare.id and len(every[document.id]) > 1


def test_a_named_documents_ranking_keeps_the_rule_and_falls_back_to_every_word():
    document, rare = _document()
    assert _document_ranking(document.id, Rewrite("dimaksud kerbau"), None, "", common_term_share=0.05) == [rare.id]
    # Only common words: they nominate, rather than nothing.
    assert len(_document_ranking(document.id, Rewrite("dimaksud"), None, "", common_term_share=0.05)) > 1


def test_the_legs_read_their_passages_documents_so_hybrid_search_never_looks_them_up():
    from django.test.utils import CaptureQueriesContext

    from kernel.principal import Principal
    from retrieval.access import visible_documents_q
    from retrieval.embedders import get_embedder
    from retrieval.search import chunk_search, chunk_search_lexical, chunk_search_semantic

    first, _ = _document()
    second = make_document(chunks=["Kerbau gampong diberi pakan oleh warga.", "Pasar ternak dibuka setiap pekan."])
    admin = Principal(subject="admin", role="admin", verified=True)
    condition = visible_documents_q(admin, None)
    truth = dict(Chunk.objects.values_list("id", "document_id"))
    # Each leg returns its passages' documents, read in its own statement.
    semantic_owners: dict = {}
    embedder = get_embedder()
    # An exact scan: outside a search's session settings (no iterative scan) the HNSW index's 40 nearest entries
    # may all be other tests' rolled-back or other-model passages, and the leg would rightly return none of them.
    semantic = chunk_search_semantic(embedder.embed_queries(["kerbau warga"])[0], model_name=embedder.model_name,
                                     document_condition=condition, limit=10, exact=True, owners=semantic_owners)
    assert semantic and {chunk_id: semantic_owners[chunk_id] for chunk_id, _ in semantic} == \
        {chunk_id: truth[chunk_id] for chunk_id, _ in semantic}
    lexical = chunk_search_lexical("kerbau warga", document_condition=condition, limit=10)
    assert {first.id, second.id} <= set(lexical.owners.values())
    assert all(lexical.owners[chunk_id] == truth[chunk_id] for chunk_id in lexical.chunk_ids)
    # So neither the document leg nor the focus stages read a passage's document by its id.
    with CaptureQueriesContext(connection) as queries:
        outcome = chunk_search("kerbau warga gampong", mode="hybrid", top_k=3, principal=admin)
    assert outcome.hits
    lookups = [query["sql"] for query in queries.captured_queries
               if query["sql"].startswith("SELECT id, document_id FROM retrieval_chunk WHERE id = ANY")]
    assert lookups == []


def test_checking_the_documents_passages_one_by_one_ranks_them_as_the_postings_do(monkeypatch):
    from retrieval.search import documents, focus

    document, rare = _document()
    other = make_document(chunks=["Kerbau dan kambing warga dilepas di padang gampong.", "Pasar ternak dibuka."])
    rewrite = Rewrite("kerbau warga gampong")
    through_postings = _own_rankings([document.id, other.id], rewrite, None, "", False, common_term_share=0.05)
    named_through_postings = focus._document_ranking(other.id, rewrite, None, "", common_term_share=0.05)
    # Every estimate is now "many matches": the passages are read and checked one by one.
    monkeypatch.setattr(documents, "OWN_ROW_CHECK_MATCHES", 0)
    with connection.cursor() as cursor:
        checked = _own_rankings([document.id, other.id], rewrite, None, "", False, common_term_share=0.05)
        named_checked = focus._document_ranking(other.id, rewrite, None, "", common_term_share=0.05)
        cursor.execute("SHOW enable_bitmapscan")
        after = cursor.fetchone()[0]
    assert checked == through_postings and checked[document.id] == [rare.id] and checked[other.id]
    assert named_checked == named_through_postings and named_checked
    # The planner's choice is the caller's again for whatever it runs next.
    assert after == "on"


def test_a_statement_failing_without_bitmap_scans_raises_its_own_error_and_leaves_the_planner_as_it_was():
    from django.db import DatabaseError, transaction

    from retrieval.search.lexical_tiers import without_bitmap_scans

    with pytest.raises(DatabaseError) as raised:
        with transaction.atomic():
            with connection.cursor() as cursor, without_bitmap_scans(cursor):
                cursor.execute("SELECT 1 / 0")
    assert "division by zero" in str(raised.value)
    with connection.cursor() as cursor:
        cursor.execute("SHOW enable_bitmapscan")
        assert cursor.fetchone()[0] == "on"
