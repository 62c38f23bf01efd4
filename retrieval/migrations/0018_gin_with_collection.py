"""The full-text index holds each chunk's collection beside its lexemes (``btree_gin``).

A search scoped to one collection then reads that collection's matches of a
common word from the index instead of every match in the corpus: at 1M chunks,
one collection's lexical statement 30-50 → 9-18 ms (docs/benchmarks.md). A GIN
index over two columns serves a condition on either, so unscoped searches use
it as before. Rebuilt once: 28 s at 1M chunks.
"""
from django.contrib.postgres.indexes import GinIndex
from django.contrib.postgres.operations import BtreeGinExtension
from django.db import migrations

INDEX = "chunk_search_vector_gin"


class Migration(migrations.Migration):

    dependencies = [
        ("retrieval", "0017_chunk_collection"),
    ]

    operations = [
        BtreeGinExtension(),
        migrations.RemoveIndex(model_name="chunk", name=INDEX),
        migrations.AddIndex(
            model_name="chunk",
            index=GinIndex(fields=["collection_id", "search_vector"], name=INDEX, fastupdate=False),
        ),
    ]
