"""Whose rules each document is about (retrieval/search/population.py), for the documents already stored; new
ones get theirs at ingestion."""
from django.db import migrations, models


def fill(apps, schema_editor):
    from retrieval.search.population import document_regime

    Document = apps.get_model("retrieval", "Document")
    for document in Document.objects.only("id", "text").iterator(chunk_size=100):
        if regime := document_regime(document.text):
            Document.objects.filter(pk=document.pk).update(regime=regime)


class Migration(migrations.Migration):

    dependencies = [
        ("retrieval", "0024_document_year"),
    ]

    operations = [
        migrations.AddField(
            model_name="document",
            name="regime",
            field=models.CharField(
                "employment regime", blank=True, default="", max_length=8,
                choices=[("", "neither"), ("civil", "civil service"), ("private", "private employment")],
            ),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
