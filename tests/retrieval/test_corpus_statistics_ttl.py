"""What one process read about the whole corpus (the mean passage vector, the term shares) is trusted only for
the configured time: a server that read another corpus's statistics ranks the next corpus with them until then."""
from __future__ import annotations

from dataclasses import replace

import pytest
from django.conf import settings
from django.test import override_settings

from retrieval.models import Chunk
from retrieval.search.centering import corpus_mean
from retrieval.search.lexical import lexeme_shares
from tests.conftest import corpus_statistics_refresh
from tests.factories import make_document

pytestmark = pytest.mark.django_db


def ttls(lexemes: int, mean: int):
    retrieval = replace(settings.ACEH_RAG.retrieval, lexeme_statistics_ttl_seconds=lexemes, mean_vector_ttl_seconds=mean)
    return override_settings(ACEH_RAG=replace(settings.ACEH_RAG, retrieval=retrieval))


def test_the_mean_passage_vector_is_read_again_once_its_time_is_up():
    make_document(chunks=["Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh."])
    model = Chunk.objects.values_list("embedding_model", flat=True).first()
    first = corpus_mean(model)
    make_document(chunks=["PPID wajib memberikan pemberitahuan tertulis paling lambat 10 hari kerja."])
    with ttls(60, 600):
        assert corpus_mean(model) == first               # still trusted: the second document is not in it
    with ttls(60, 0):
        again = corpus_mean(model)
    assert again != first
    assert again == pytest.approx([sum(v) / 2 for v in zip(*(c.embedding for c in Chunk.objects.all()))], abs=1e-5)


def test_the_term_shares_are_read_again_once_their_time_is_up():
    make_document(chunks=["Setiap muzakki wajib membayar zakat melalui Baitul Mal Aceh."])
    corpus_statistics_refresh()
    first, _ = lexeme_shares(["zakat"])
    make_document(chunks=["PPID wajib memberikan pemberitahuan tertulis paling lambat 10 hari kerja."])
    corpus_statistics_refresh()
    with ttls(60, 600):
        assert lexeme_shares(["zakat"])[0] == first
    with ttls(0, 600):
        assert lexeme_shares(["zakat"])[0]["zakat"] == pytest.approx(first["zakat"] / 2)


def test_a_sampled_mean_reads_the_same_pages_in_every_process(monkeypatch):
    # Given a table larger than the sample (the sample shrunk so a test table is large: a tenth of its rows).
    from django.db import connection

    from retrieval.search import centering

    make_document(chunks=[f"Ketentuan nomor {i} tentang retribusi pasar gampong {i * 7}." for i in range(300)])
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")
    monkeypatch.setattr(centering, "MEAN_SAMPLE_ROWS", 30)
    model = Chunk.objects.values_list("embedding_model", flat=True).first()
    # When two processes read it (each with nothing cached), then the sample is the same pages: the same mean.
    means = []
    for _ in range(4):
        centering.forget_corpus_mean()
        means.append(corpus_mean(model))
    assert means[0] is not None
    assert all(mean == means[0] for mean in means)
    # And it is a sample: not the whole table's mean.
    every = [sum(v) / 300 for v in zip(*(c.embedding for c in Chunk.objects.all()))]
    assert means[0] != pytest.approx(every, abs=1e-6)
