"""Two copies of one regulation (a PDF and a text file of one law) answer a search once per passage."""
from __future__ import annotations

import pytest

from kernel.principal import Principal
from retrieval.search import chunk_search
from retrieval.search.copies import copy_key
from tests.factories import make_document

pytestmark = pytest.mark.django_db

ADMIN = Principal(subject="admin", role="admin", verified=True)
PASAL = [
    "Setiap pemilik kerbau wajib mendaftarkan kerbau kepada keuchik gampong.",
    "Kerbau yang dilepas di jalan umum ditangkap oleh petugas gampong.",
    "Pemilik kerbau yang tidak mendaftar dikenai denda adat.",
]
TITLE = "Qanun Aceh Nomor 5 Tahun 2020 tentang Pemeliharaan Kerbau"


def _keys(hits):
    return [copy_key(hit.chunk) for hit in hits]


@pytest.mark.parametrize("mode", ["hybrid", "lexical", "semantic"])
def test_a_passage_of_two_copies_is_listed_once_and_its_place_goes_to_the_next(mode):
    first = make_document(title=TITLE, chunks=PASAL)
    second = make_document(title=TITLE, chunks=PASAL, filename="qanun-5-2020.pdf.txt")
    assert copy_key(first.chunks.first()) == copy_key(second.chunks.first()) is not None

    hits = chunk_search("kerbau gampong", mode=mode, top_k=3, principal=ADMIN).hits
    # Six passages match; three places: each Pasal once, none of them twice.
    assert len(hits) == 3
    assert len(set(_keys(hits))) == 3
    # With only one copy visible, that copy's passages are the answer.
    scoped = chunk_search("kerbau gampong", mode=mode, top_k=3, principal=ADMIN,
                          scope=_one_document(second.id)).hits
    assert {hit.chunk.document_id for hit in scoped} == {second.id}


def test_another_regulation_with_the_same_words_is_not_a_copy():
    make_document(title=TITLE, chunks=PASAL)
    other = make_document(title="Qanun Aceh Nomor 6 Tahun 2020 tentang Pemeliharaan Kerbau", chunks=PASAL)
    untitled = make_document(chunks=PASAL)
    hits = chunk_search("kerbau gampong", mode="lexical", top_k=9, principal=ADMIN).hits
    # Same words, another number (or no identity card at all): nine distinct passages.
    assert len(hits) == 9
    assert {hit.chunk.document_id for hit in hits} >= {other.id, untitled.id}
    assert copy_key(untitled.chunks.first()) is None


def _one_document(document_id):
    from retrieval.access import Scope

    return Scope.from_request(None, [str(document_id)])


def test_the_answer_steps_reading_keeps_both_copies():
    first = make_document(title=TITLE, chunks=PASAL)
    second = make_document(title=TITLE, chunks=PASAL, filename="qanun-5-2020.pdf.txt")
    hits = chunk_search("kerbau gampong", mode="lexical", top_k=6, principal=ADMIN, one_copy=False).hits
    # Its decision was fitted on passages that held both copies (copies.py): six places, each Pasal twice.
    assert {hit.chunk.document_id for hit in hits} == {first.id, second.id}
    assert len(set(_keys(hits))) == 3
