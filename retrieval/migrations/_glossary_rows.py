"""Loading a JSON file of glossary rows (phrase -> the corpus's wording) of one kind in a data migration; not a
migration itself (the loader skips modules whose name starts with "_")."""
import json
from pathlib import Path


def english_rows(filename: str):
    """``glossary_rows`` of English phrases (migrations 0016, 0019)."""
    return glossary_rows(filename, "english")


def glossary_rows(filename: str, kind: str):
    """(load, unload) for ``data/<filename>``'s rows of ``kind``: existing phrases keep their rows; unloading removes
    the file's."""
    path = Path(__file__).with_name("data") / filename

    def load(apps, schema_editor):
        entry = apps.get_model("retrieval", "GlossaryEntry")
        rows = json.loads(path.read_text(encoding="utf-8"))
        existing = set(entry.objects.filter(phrase__in=list(rows)).values_list("phrase", flat=True))
        entry.objects.bulk_create([entry(phrase=phrase, kind=kind, expansion=expansion)
                                   for phrase, expansion in rows.items() if phrase not in existing],
                                  ignore_conflicts=True)

    def unload(apps, schema_editor):
        rows = json.loads(path.read_text(encoding="utf-8"))
        apps.get_model("retrieval", "GlossaryEntry").objects.filter(phrase__in=list(rows), kind=kind).delete()

    return load, unload
