from django.db import migrations


class Migration(migrations.Migration):
    """Keep each chunk's tsvector inside its heap row instead of in TOAST.

    With the plain 1.5 KB vector beside it, a chunk row passes the default
    2 KB TOAST threshold and the tsvector (the largest compressible column)
    was moved out of line: lexical search then paid a TOAST lookup for every
    matched row it ranked, about a third of the ranking statement's time at
    100k chunks. ``STORAGE MAIN`` moves the tsvector out only as a last
    resort, and a 4 KB tuple target (two rows per page) leaves room for it.
    The UPDATE rewrites the stored tsvectors (concatenation makes a new
    value; an unchanged one would keep its TOAST pointer).
    """

    dependencies = [("retrieval", "0003_search_vector_statistics")]

    operations = [
        migrations.RunSQL(
            [
                "ALTER TABLE retrieval_chunk ALTER COLUMN search_vector SET STORAGE MAIN",
                "ALTER TABLE retrieval_chunk SET (toast_tuple_target = 4080)",
                "UPDATE retrieval_chunk SET search_vector = search_vector || ''::tsvector WHERE search_vector IS NOT NULL",
            ],
            reverse_sql=[
                "ALTER TABLE retrieval_chunk RESET (toast_tuple_target)",
                "ALTER TABLE retrieval_chunk ALTER COLUMN search_vector SET STORAGE EXTENDED",
            ],
        ),
    ]
