"""More English legal vocabulary for English questions (data/english_legal_0019.json): regional government,
forming regions, public office, elections and parties, funds, administration and enactment.

Written like 0016: from the corpus alone, by a reader who never saw any question set, each Indonesian word
checked to occur in the corpus, modal verbs left out, and no phrase the glossary already holds. Existing phrases
keep their rows.
"""
from django.db import migrations

from retrieval.migrations._glossary_rows import english_rows

load, unload = english_rows("english_legal_0019.json")


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0018_gin_with_collection")]
    operations = [migrations.RunPython(load, unload)]
