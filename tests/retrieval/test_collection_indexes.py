"""A large collection's own vector index: built, chosen by the planner for a search scoped to it, kept in step
with the documents (issue #36)."""
import subprocess
import sys
import time
from dataclasses import replace

import pytest
from django.core.management import call_command
from django.db import connection

from kernel.principal import Principal
from retrieval.access import Scope, visible_documents_q
from retrieval.collection_indexes import collection_index_plan, collection_indexes_sync, index_name
from retrieval.embedders import get_embedder
from retrieval.models import Chunk, Collection, Document
from retrieval.search import chunk_search
from retrieval.search.semantic import chunk_search_semantic
from tests.conftest import ROOT, server_env
from tests.factories import make_document
from tests.retrieval.celery_processes import redis_server, worker_start, worker_stop

pytestmark = pytest.mark.django_db(transaction=True)
ADMIN = Principal(subject="admin", role="admin", verified=True)


@pytest.fixture
def small_thresholds(settings):
    """Thresholds for a handful of passages; the indexes built are dropped after the test (a table flush
    between tests keeps DDL)."""
    retrieval = replace(settings.ACEH_RAG.retrieval, collection_indexes=True, collection_index_min_chunks=4,
                        collection_index_max_share=0.6)
    settings.ACEH_RAG = replace(settings.ACEH_RAG, retrieval=retrieval)
    yield
    with connection.cursor() as cursor:
        for name in collection_index_plan().existing:
            cursor.execute(f"DROP INDEX IF EXISTS {name}")


def _corpus() -> dict[str, list[Document]]:
    for collection in ("PPID", "KAB"):
        Collection.objects.get_or_create(id=collection)
    return {
        "JDIH": [make_document(title=f"Qanun Pasar {i}", chunks=[f"Retribusi pasar {i} dipungut setiap bulan.",
                                                                  f"Pedagang pasar {i} wajib memiliki izin."])
                 for i in range(3)],
        "PPID": [make_document(collection="PPID", title=f"Informasi Publik {i}",
                               chunks=[f"Badan publik menjawab permintaan informasi dalam {i + 10} hari kerja."])
                 for i in range(2)],
        "KAB": [make_document(collection="KAB", title="Qanun Kabupaten",
                              chunks=["Retribusi pasar kabupaten dipungut setiap minggu."])],
    }


def _plan_of(sql: str, params: list) -> str:
    """The plan when the nearest passages must come from a vector index (a table this small would be sorted):
    which of the two the planner takes is then its choice."""
    switches = ("enable_seqscan", "enable_sort", "enable_bitmapscan")
    with connection.cursor() as cursor:
        for switch in switches:
            cursor.execute(f"SET {switch} = off")
        cursor.execute("EXPLAIN " + sql, params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
        for switch in switches:
            cursor.execute(f"RESET {switch}")
    return plan


def test_the_database_keeps_each_chunks_collection_whichever_path_writes(small_thresholds):
    # Given documents ingested into two collections
    corpus = _corpus()
    # Then every chunk carries its document's collection
    assert not Chunk.objects.filter(collection_id__isnull=True).exists()
    assert set(Chunk.objects.filter(document__in=corpus["PPID"]).values_list("collection_id", flat=True)) == {"PPID"}
    # When a document moves to another collection, its chunks move with it
    moved = corpus["KAB"][0]
    Document.objects.filter(pk=moved.pk).update(collection_id="PPID")
    assert set(Chunk.objects.filter(document=moved).values_list("collection_id", flat=True)) == {"PPID"}


def test_a_large_collection_gets_its_own_index_and_a_scoped_search_walks_it(small_thresholds):
    # Given three passages in each JDIH document (its title block and two Pasal), one in each PPID or KAB one
    _corpus()
    Document.objects.filter(collection_id="KAB").update(collection_id="JDIH")
    for i in range(3):
        make_document(collection="PPID", title=f"Informasi Lain {i}", chunks=[f"Keberatan diajukan {i} kali."])
    # PPID holds 5 of 15 passages (at least 4, at most 0.6 of all); JDIH 10 of 15 (above the share)
    plan = collection_index_plan()
    assert set(plan.wanted.values()) == {"PPID"}

    # When the indexes are synced
    done = collection_indexes_sync()
    assert done.built == ("PPID",) and done.dropped == ()
    assert collection_index_plan().to_build == []

    # Then a semantic search scoped to PPID is planned on its index, one scoped to JDIH on the corpus's
    vector = get_embedder().embed_queries(["berapa hari badan publik menjawab"])[0]
    model = get_embedder().model_name
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    condition = visible_documents_q(ADMIN, Scope(collection_ids=("PPID",)))
    captured = []
    connection.execute_wrappers.append(lambda execute, sql, params, many, context: (
        captured.append((sql, params)), execute(sql, params, many, context))[1])
    try:
        rows = chunk_search_semantic(vector, model_name=model, document_condition=condition, limit=5,
                                     collection="PPID")
    finally:
        connection.execute_wrappers.pop()
    sql, params = captured[-1]
    assert f"Index Scan using {index_name('PPID')}" in _plan_of(sql, list(params))
    # And it finds the same passages as an exact search of the collection
    exact = chunk_search_semantic(vector, model_name=model, document_condition=condition, limit=5, exact=True)
    assert [chunk_id for chunk_id, _ in rows] == [chunk_id for chunk_id, _ in exact]
    assert set(Chunk.objects.filter(id__in=[chunk_id for chunk_id, _ in rows]).values_list("collection_id", flat=True)) == {"PPID"}

    # And /search scoped to the collection returns its passages only
    outcome = chunk_search("berapa hari badan publik menjawab permintaan informasi", mode="hybrid", top_k=5,
                           principal=ADMIN, scope=Scope(collection_ids=("PPID",)))
    assert outcome.hits and {hit.chunk.document.collection_id for hit in outcome.hits} == {"PPID"}


def test_an_index_no_longer_wanted_is_dropped_and_the_command_reports_both(small_thresholds, capsys):
    # Given PPID indexed
    _corpus()
    for i in range(3):
        make_document(collection="PPID", title=f"Informasi Lain {i}", chunks=[f"Keberatan diajukan {i} kali."])
    call_command("collection_indexes")
    # (JDIH: 9 of 15 passages, PPID: 5 of 15, KAB: 1)
    assert set(collection_index_plan().existing.values()) == {"JDIH", "PPID"}
    assert "built 2" in capsys.readouterr().out
    # When PPID's documents go below the minimum passage count (and JDIH's share above the maximum: 9 of 12)
    Document.objects.filter(collection_id="PPID", title__startswith="Informasi Lain").delete()
    call_command("collection_indexes", "--dry-run")
    out = capsys.readouterr().out
    assert "PPID: no longer qualifies, to drop" in out
    assert index_name("PPID") in collection_index_plan().existing   # a dry run changes nothing
    call_command("collection_indexes")
    # Then their indexes are gone
    assert collection_index_plan().existing == {}
    assert "dropped 2" in capsys.readouterr().out


def test_with_the_setting_off_no_collection_is_indexed_and_built_ones_are_dropped(small_thresholds, settings):
    # Given PPID indexed while the setting was on
    _corpus()
    for i in range(3):
        make_document(collection="PPID", title=f"Informasi Lain {i}", chunks=[f"Keberatan diajukan {i} kali."])
    assert collection_indexes_sync().built
    # When it is turned off (the default)
    settings.ACEH_RAG = replace(settings.ACEH_RAG, retrieval=replace(settings.ACEH_RAG.retrieval, collection_indexes=False))
    # Then nothing qualifies and the sync drops what there was
    assert collection_index_plan().wanted == {}
    assert set(collection_indexes_sync().dropped) == {"JDIH", "PPID"}
    assert collection_index_plan().existing == {}


def test_a_sync_already_running_elsewhere_is_not_run_twice(small_thresholds):
    # Given another process holding the sync lock
    import psycopg

    from retrieval.collection_indexes import SYNC_LOCK

    _corpus()
    for i in range(3):
        make_document(collection="PPID", title=f"Informasi Lain {i}", chunks=[f"Keberatan diajukan {i} kali."])
    params = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in params.items() if k not in ("cursor_factory", "context")},
                         autocommit=True) as other:
        other.execute("SELECT pg_advisory_lock(%s)", [SYNC_LOCK])
        # Then a sync returns at once, building nothing
        done = collection_indexes_sync()
        assert done.busy and done.built == ()
        other.execute("SELECT pg_advisory_unlock(%s)", [SYNC_LOCK])   # not left to the server's closing of it
    # And once the lock is free, it builds
    assert collection_indexes_sync().built


def _refresh_lines(log) -> str:
    return "\n".join(line for line in log.read_text().splitlines() if "collection_indexes_refresh[" in line)


def test_a_worker_builds_the_index_a_queued_ingestion_called_for(tmp_path, small_thresholds):
    # Given a real broker and a worker whose thresholds make any collection large
    thresholds = {"ACEH_RAG_RETRIEVAL__COLLECTION_INDEXES": "true", "ACEH_RAG_RETRIEVAL__COLLECTION_INDEX_MIN_CHUNKS": "1",
                  "ACEH_RAG_RETRIEVAL__COLLECTION_INDEX_MAX_SHARE": "1.0"}
    log = ROOT / "var" / "test-logs" / "celery-collection-worker.log"
    with redis_server() as redis_url:
        worker = worker_start(server_env({"CELERY_BROKER_URL": redis_url, **thresholds}), log, name="collections")
        try:
            (tmp_path / "qanun.txt").write_text("QANUN ACEH\nNOMOR 91 TAHUN 2024\nTENTANG\nTRANSPARANSI ANGGARAN\n\n"
                                                "Pasal 1\nAnggaran diumumkan.\n")
            # When a staff member queues a file
            command = subprocess.run(
                [sys.executable, "manage.py", "ingest", str(tmp_path), "--collection", "ASYNC", "--create-collection",
                 "--async", "--wait-timeout", "120"],
                cwd=ROOT, env=server_env({"CELERY_BROKER_URL": redis_url}), capture_output=True, text=True,
                timeout=180)
            assert command.returncode == 0, command.stdout + command.stderr
            # Then the worker, after the ingestion, built the collection's index (the command, on the default
            # thresholds, builds none of its own)
            deadline = time.monotonic() + 30
            while "succeeded" not in _refresh_lines(log) and time.monotonic() < deadline:
                time.sleep(0.5)
            assert "['ASYNC']" in _refresh_lines(log)
            assert "vector index built for collection" not in command.stdout
        finally:
            worker_stop(worker)


def test_one_collections_full_text_matches_are_read_through_its_collection_the_same_passages(monkeypatch):
    # Given the same words in two collections, a restricted document in the scoped one, and (as with a large
    # collection) its admitted documents' ids only filtering
    from retrieval.search import lexical

    monkeypatch.setattr(lexical, "IDS_LEAD_MAX_DOCUMENTS", 0)
    _corpus()
    make_document(collection="PPID", title="Rahasia", org_unit="BIRO-HUKUM",
                  chunks=["Badan publik menjawab permintaan informasi rahasia dalam 3 hari kerja."])
    anonymous = visible_documents_q(Principal(), Scope(collection_ids=("PPID",)))
    from retrieval.search.lexical import chunk_search_lexical

    # When one collection's full-text search says its collection
    said = chunk_search_lexical("badan publik menjawab permintaan informasi", document_condition=anonymous,
                                limit=10, scoped=True, collection="PPID")
    unsaid = chunk_search_lexical("badan publik menjawab permintaan informasi", document_condition=anonymous,
                                  limit=10, scoped=True)
    # Then it finds what the ids alone found, the access rule kept (no restricted passage)
    assert "coalesce(c.document_id" in lexical._predicate(anonymous, True, "PPID")[0]
    assert said == unsaid and said.chunk_ids
    documents = set(Chunk.objects.filter(id__in=said.chunk_ids).values_list("document__title", flat=True))
    assert documents == {"Informasi Publik 0", "Informasi Publik 1"}


def test_a_few_named_documents_inside_one_collection_are_still_found_by_their_ids():
    # Given a search scoped to one collection and one of its documents
    corpus = _corpus()
    from retrieval.search.lexical import _predicate

    scope = Scope(collection_ids=("PPID",), document_ids=(corpus["PPID"][0].id,))
    sql, params, join = _predicate(visible_documents_q(ADMIN, scope), True, "PPID")
    # Then the document's id leads (an index condition), the collection beside it
    assert "c.document_id = ANY" in sql and "coalesce" not in sql and "c.collection_id = %s" in sql
    assert join == "" and params[-1] == "PPID"
