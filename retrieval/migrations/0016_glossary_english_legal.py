"""A broad English legal vocabulary for English questions (data/english_legal_0016.json, 585 phrases).

The shipped English rows (0006) were written beside the development questions; these were written from the corpus
alone by a reader who never saw any question set: common words of employment, tax, land, family, courts,
legislation, budgets, licensing and procedure, each mapped to the wording the regulations use (every Indonesian
word checked to occur in the corpus). Modal verbs are left out (they would read every question as a duty).
Existing phrases keep their rows.
"""
import json
from pathlib import Path

from django.db import migrations

DATA = Path(__file__).with_name("data") / "english_legal_0016.json"


def load(apps, schema_editor):
    entry = apps.get_model("retrieval", "GlossaryEntry")
    rows = json.loads(DATA.read_text(encoding="utf-8"))
    existing = set(entry.objects.filter(phrase__in=list(rows)).values_list("phrase", flat=True))
    entry.objects.bulk_create([entry(phrase=phrase, kind="english", expansion=expansion)
                               for phrase, expansion in rows.items() if phrase not in existing], ignore_conflicts=True)


def unload(apps, schema_editor):
    rows = json.loads(DATA.read_text(encoding="utf-8"))
    apps.get_model("retrieval", "GlossaryEntry").objects.filter(phrase__in=list(rows), kind="english").delete()


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0015_gin_without_pending_list")]
    operations = [migrations.RunPython(load, unload)]
