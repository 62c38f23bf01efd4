"""Each document's capitalised phrases by their initials (retrieval/search/acronyms.py), for the documents already
stored; new ones get theirs at ingestion."""
import django.contrib.postgres.indexes
from django.db import migrations, models


def fill(apps, schema_editor):
    from retrieval.search.acronyms import document_acronyms

    Document = apps.get_model("retrieval", "Document")
    for document in Document.objects.only("id", "title", "text").iterator(chunk_size=100):
        Document.objects.filter(pk=document.pk).update(acronyms=document_acronyms(document.text, document.title))


class Migration(migrations.Migration):

    dependencies = [
        ("retrieval", "0019_glossary_english_government"),
    ]

    operations = [
        migrations.AddField(
            model_name="document",
            name="acronyms",
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddIndex(
            model_name="document",
            index=django.contrib.postgres.indexes.GinIndex(fields=["acronyms"], name="document_acronyms_gin"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
