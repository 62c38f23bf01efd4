"""Re-index every passage's full text with a slash read as a space between words.

PostgreSQL's default parser reads "pekerja/buruh", "kabupaten/kota", "dan/atau" and "merkuri/air" as a single
``file`` token, so a search for "pekerja", "kabupaten" or "merkuri" never met a passage that wrote them that way.
Ingestion now indexes ``translate(text, '/', ' ')`` (retrieval/ingestion.py); this rewrites the passages stored
before, with the same three weighted parts (reference A, body B, document title C).
"""
from django.db import migrations

REINDEX = r"""
UPDATE retrieval_chunk c SET search_vector =
    setweight(to_tsvector('indonesian', translate(concat_ws(' ', NULLIF(c.legal_reference, ''),
                                                            array_to_string(c.section_path, ' ')), '/', ' ')), 'A')
    || setweight(to_tsvector('indonesian', translate(CASE WHEN coalesce(c.table_header, '') <> ''
                                                          THEN c.table_header || E'\n' || c.text ELSE c.text END,
                                                     '/', ' ')), 'B')
    || setweight(to_tsvector('indonesian', translate(d.title, '/', ' ')), 'C')
FROM retrieval_document d
WHERE d.id = c.document_id AND c.search_vector IS NOT NULL
  AND strpos(concat_ws(' ', c.text, d.title, c.legal_reference, c.table_header, array_to_string(c.section_path, ' ')),
             '/') > 0
"""


class Migration(migrations.Migration):

    dependencies = [("retrieval", "0022_glossary_everyday_more")]

    operations = [migrations.RunSQL(REINDEX, reverse_sql=migrations.RunSQL.noop, elidable=True)]
