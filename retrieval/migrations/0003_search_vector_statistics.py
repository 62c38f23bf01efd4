from django.db import migrations


class Migration(migrations.Migration):
    """Keep up to 10,000 common lexemes in pg_stats (default 1,000).

    Lexical search reads lexeme frequencies from these statistics for its IDF
    weights and its common-term rule; a longer list makes both sharper.
    """

    dependencies = [("retrieval", "0002_ingestion")]

    operations = [
        migrations.RunSQL(
            "ALTER TABLE retrieval_chunk ALTER COLUMN search_vector SET STATISTICS 1000",
            reverse_sql="ALTER TABLE retrieval_chunk ALTER COLUMN search_vector SET STATISTICS -1",
        ),
    ]
