"""An issuer's acronym the shipped glossary lacked: a question says "surat edaran BAPETEN", the title spells the
issuer out ("Surat Edaran Kepala Badan Pengawas Tenaga Nuklir")."""
from django.db import migrations

ABBREVIATIONS = {
    "bapeten": "badan pengawas tenaga nuklir",
}


def load(apps, schema_editor):
    entry = apps.get_model("retrieval", "GlossaryEntry")
    entry.objects.bulk_create([entry(phrase=p, kind="abbreviation", expansion=e) for p, e in ABBREVIATIONS.items()],
                              ignore_conflicts=True)


def unload(apps, schema_editor):
    apps.get_model("retrieval", "GlossaryEntry").objects.filter(phrase__in=ABBREVIATIONS, kind="abbreviation").delete()


class Migration(migrations.Migration):
    dependencies = [("retrieval", "0013_hnsw_ef_construction")]
    operations = [migrations.RunPython(load, unload)]
