"""A broad English legal vocabulary for English questions (data/english_legal_0016.json, 585 phrases).

The shipped English rows (0006) were written beside the development questions; these were written from the corpus
alone by a reader who never saw any question set: common words of employment, tax, land, family, courts,
legislation, budgets, licensing and procedure, each mapped to the wording the regulations use (every Indonesian
word checked to occur in the corpus). Modal verbs are left out (they would read every question as a duty).
Existing phrases keep their rows.
"""
from django.db import migrations

from retrieval.migrations._glossary_rows import english_rows

load, unload = english_rows("english_legal_0016.json")


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0015_gin_without_pending_list")]
    operations = [migrations.RunPython(load, unload)]
