"""Each chunk carries its document's collection, kept by triggers.

A large collection gets a vector index of its own, partial on this column
(``retrieval/collection_indexes.py``): a search scoped to the collection then
walks a graph of its passages instead of filtering the whole corpus's graph.

The database keeps the column, whichever path writes: a chunk inserted without
it takes its document's collection, and a document moved to another collection
moves its chunks. The backfill rewrites every row; on a large table the vector
and full-text indexes are dropped first and built again once (one bulk build
instead of an index insert per row, docs/scaling.md).
"""
from django.db import migrations, models

LARGE_TABLE_ROWS = 100_000
INDEXES = ("chunk_embedding_hnsw", "chunk_search_vector_gin")

TRIGGERS = """
CREATE FUNCTION retrieval_chunk_collection() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.collection_id IS NULL THEN
        SELECT collection_id INTO NEW.collection_id FROM retrieval_document WHERE id = NEW.document_id;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER retrieval_chunk_collection BEFORE INSERT ON retrieval_chunk
    FOR EACH ROW EXECUTE FUNCTION retrieval_chunk_collection();
CREATE FUNCTION retrieval_document_collection_moved() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE retrieval_chunk SET collection_id = NEW.collection_id
    WHERE document_id = NEW.id AND collection_id IS DISTINCT FROM NEW.collection_id;
    RETURN NULL;
END $$;
CREATE TRIGGER retrieval_document_collection_moved AFTER UPDATE OF collection_id ON retrieval_document
    FOR EACH ROW WHEN (OLD.collection_id IS DISTINCT FROM NEW.collection_id)
    EXECUTE FUNCTION retrieval_document_collection_moved();
"""
DROP_TRIGGERS = """
DROP TRIGGER IF EXISTS retrieval_document_collection_moved ON retrieval_document;
DROP FUNCTION IF EXISTS retrieval_document_collection_moved();
DROP TRIGGER IF EXISTS retrieval_chunk_collection ON retrieval_chunk;
DROP FUNCTION IF EXISTS retrieval_chunk_collection();
"""
BACKFILL = ("UPDATE retrieval_chunk c SET collection_id = d.collection_id FROM retrieval_document d "
            "WHERE d.id = c.document_id AND c.collection_id IS NULL")


def backfill(apps, schema_editor):
    chunk = apps.get_model("retrieval", "Chunk")
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM retrieval_chunk")
        large = cursor.fetchone()[0] >= LARGE_TABLE_ROWS
    rebuilt = [index for index in chunk._meta.indexes if index.name in INDEXES] if large else []
    for index in rebuilt:
        schema_editor.remove_index(chunk, index)
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(BACKFILL)
    for index in rebuilt:
        schema_editor.add_index(chunk, index)


class Migration(migrations.Migration):

    dependencies = [
        ("retrieval", "0016_glossary_english_legal"),
    ]

    operations = [
        migrations.AddField(
            model_name="chunk",
            name="collection_id",
            field=models.CharField(editable=False, max_length=100, null=True, blank=True),
        ),
        migrations.RunSQL(sql=TRIGGERS, reverse_sql=DROP_TRIGGERS),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
