"""Semantic search: a scope holding a small share of the passages is searched exactly, in exact order."""
import numpy as np
import pytest
from django.db import connection

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.embedders import get_embedder
from retrieval.models import Chunk
from retrieval.search import chunk_search
from retrieval.search.semantic import CENTERED_POOL, ScopedScan, exact_scan_pays, scoped_scan
from tests.factories import make_document

pytestmark = pytest.mark.django_db
ADMIN = Principal(subject="admin", role="admin", verified=True)


def test_a_scope_holding_a_small_share_of_the_passages_is_searched_exactly():
    # Given thirty documents, the table analysed
    documents = [make_document(title=f"Qanun Uji {i}", chunks=[f"Retribusi pasar ke-{i} dipungut setiap bulan {i}."])
                 for i in range(30)]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    scoped = Scope(document_ids=(documents[0].id, documents[1].id))

    # Then two documents are a small share of the passages, all thirty are not
    assert exact_scan_pays(visible_documents_q(ADMIN, scoped))
    assert not exact_scan_pays(visible_documents_q(ADMIN, Scope()))

    # And a search scoped to the two returns their passages in exact cosine order
    outcome = chunk_search("retribusi pasar setiap bulan", mode="semantic", top_k=10, principal=ADMIN, scope=scoped)
    chunks = list(Chunk.objects.filter(document_id__in=scoped.document_ids))
    query = get_embedder().embed_queries(["retribusi pasar setiap bulan"])[0]
    expected = sorted(chunks, key=lambda chunk: (-float(np.dot(np.asarray(chunk.embedding), query)), str(chunk.id)))
    assert [hit.chunk.id for hit in outcome.hits] == [chunk.id for chunk in expected]


def test_an_unanalysed_table_keeps_the_index_scan():
    # Given a document in a table whose statistics may say nothing yet
    document = make_document(chunks=["Retribusi pasar dipungut setiap bulan."])
    with connection.cursor() as cursor:
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = 'retrieval_chunk'::regclass")
        rows = cursor.fetchone()[0]
    condition = visible_documents_q(Principal(), Scope(document_ids=(document.id,)))
    # Then the exact scan is chosen only when the statistics show the scope to be a small share
    assert exact_scan_pays(condition) == (document.chunk_count <= 0.1 * max(rows, 0))


def test_a_scoped_search_reorders_the_same_share_of_its_scope_as_the_whole_pool_of_the_corpus():
    # Given thirty documents of one passage each, the table analysed
    documents = [make_document(title=f"Qanun Uji {i}", chunks=[f"Retribusi pasar ke-{i} dipungut setiap bulan {i}."])
                 for i in range(30)]
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    # Then a scope of three documents is a tenth of the passages, the whole corpus all of them
    tenth = scoped_scan(visible_documents_q(ADMIN, Scope(document_ids=tuple(d.id for d in documents[:3]))))
    assert tenth.share == pytest.approx(0.1)
    assert scoped_scan(visible_documents_q(ADMIN, Scope())).share == 1.0
    # And through the graph the pool follows the share, never below what the leg returns
    assert ScopedScan(exact=False, share=1.0).pool(50) == CENTERED_POOL
    assert ScopedScan(exact=False, share=tenth.share).pool(10) == CENTERED_POOL // 10
    assert ScopedScan(exact=False, share=tenth.share).pool(50) == 50
    # while an exact scan, which reads every admitted passage anyway, reorders the whole pool
    assert ScopedScan(exact=True, share=tenth.share).pool(10) == CENTERED_POOL
