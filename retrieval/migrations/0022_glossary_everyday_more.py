"""A second batch of everyday Indonesian words for the law's terms (data/everyday_0022.json), written like 0021:
from the corpus alone by a reader who never saw any question set, each expansion's words checked to occur in the
corpus, alternative wordings separated by "|". Existing phrases keep their rows.
"""
from django.db import migrations

from retrieval.migrations._glossary_rows import glossary_rows

load, unload = glossary_rows("everyday_0022.json", "everyday")


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0021_glossary_everyday")]
    operations = [migrations.RunPython(load, unload)]
