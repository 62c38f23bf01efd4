"""Everyday Indonesian words for the law's terms (data/everyday_0021.json): "bos" for *pengusaha*, "gaji" for
*upah*, "ngadu" for *pengaduan*; kept in a search and followed by the corpus's wording.

Written like 0016 and 0019: from the corpus alone, by a reader who never saw any question set, each expansion's
words checked to occur in the corpus, modal verbs and question words left out, and no phrase the glossary already
holds. Existing phrases keep their rows.
"""
from django.db import migrations, models

from retrieval.migrations._glossary_rows import glossary_rows

load, unload = glossary_rows("everyday_0021.json", "everyday")


class Migration(migrations.Migration):

    dependencies = [("retrieval", "0020_document_acronyms")]

    operations = [
        migrations.AlterField(
            model_name="glossaryentry",
            name="kind",
            field=models.CharField(choices=[("nickname", "Nickname"), ("abbreviation", "Abbreviation"),
                                            ("colloquial", "Colloquial"), ("english", "English"),
                                            ("everyday", "Everyday")], max_length=12),
        ),
        migrations.RunPython(load, unload),
    ]
