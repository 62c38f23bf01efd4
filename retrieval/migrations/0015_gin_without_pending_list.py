"""The full-text index without a pending list (``fastupdate = off``), and the list it has emptied.

Altered in place instead of rebuilt: the option stops new entries going to the list, and
``gin_clean_pending_list`` moves the entries already there into the index.
"""
from django.contrib.postgres.indexes import GinIndex
from django.db import migrations

INDEX = "chunk_search_vector_gin"


class Migration(migrations.Migration):

    dependencies = [
        ("retrieval", "0014_glossary_issuer_acronyms"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    sql=[f"ALTER INDEX {INDEX} SET (fastupdate = off)", f"SELECT gin_clean_pending_list('{INDEX}')"],
                    reverse_sql=[f"ALTER INDEX {INDEX} RESET (fastupdate)"],
                ),
            ],
            state_operations=[
                migrations.RemoveIndex(model_name="chunk", name=INDEX),
                migrations.AddIndex(model_name="chunk",
                                    index=GinIndex(fields=["search_vector"], name=INDEX, fastupdate=False)),
            ],
        ),
    ]
