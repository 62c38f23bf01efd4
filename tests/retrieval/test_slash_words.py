"""Words joined by a slash ("pekerja/buruh", "kabupaten/kota", "merkuri/air raksa") are found one by one.

PostgreSQL's parser reads such a pair as one file-path token, so before ingestion indexed a slash as a space a
search for "buruh" or "merkuri" never met the passages that wrote them so (retrieval/ingestion.py, migration 0023).
"""
from __future__ import annotations

from importlib import import_module

import pytest
from django.db import connection

from kernel.principal import Principal
from retrieval import facade
from retrieval.facade import Scope, SearchMode
from tests.factories import make_document

pytestmark = pytest.mark.django_db

REINDEX = import_module("retrieval.migrations.0023_search_vector_slash_words").REINDEX


def _lexical(query: str, document) -> list:
    return facade.chunks_search(principal=Principal(), query=query, mode=SearchMode.LEXICAL, top_k=5,
                                scope=Scope(document_ids=(document.id,))).hits


def test_each_word_of_a_slashed_pair_is_found_by_itself():
    document = make_document(title="Instruksi Gubernur Contoh tentang Penertiban Tambang Rakyat",
                             chunks=["Para bupati/wali kota menghentikan penggunaan merkuri/air raksa (Hg) dalam "
                                     "kegiatan penambangan.", "Laporan disampaikan setiap bulan."])
    for word in ("merkuri", "bupati", "raksa"):
        hits = _lexical(word, document)
        assert hits and "merkuri/air raksa" in hits[0].text, word


def test_the_migration_indexes_a_stored_passage_as_ingestion_does():
    document = make_document(title="Peraturan Contoh tentang Pekerja/Buruh",
                             chunks=["Pengusaha wajib membayar upah pekerja/buruh dan/atau uang lembur."])
    with connection.cursor() as cursor:
        cursor.execute("SELECT id, search_vector::text FROM retrieval_chunk WHERE document_id = %s", [document.id])
        ingested = dict(cursor.fetchall())
        # A passage stored before the fix: its vector as the parser read the raw text.
        cursor.execute("UPDATE retrieval_chunk SET search_vector = to_tsvector('indonesian', text) "
                       "WHERE document_id = %s", [document.id])
    assert not _lexical("buruh", document)
    with connection.cursor() as cursor:
        cursor.execute(REINDEX)
        cursor.execute("SELECT id, search_vector::text FROM retrieval_chunk WHERE document_id = %s", [document.id])
        assert dict(cursor.fetchall()) == ingested
    assert _lexical("buruh", document)
