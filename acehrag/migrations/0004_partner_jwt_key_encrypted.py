"""Partner JWT key material encrypted at rest: the column type stays text, every stored row is re-saved."""
from django.db import migrations

import kernel.encrypted_field


def encrypt_rows(apps, schema_editor):
    PartnerJwtKey = apps.get_model("acehrag", "PartnerJwtKey")
    for row in PartnerJwtKey.objects.all():
        row.save(update_fields=["key"])      # read as plain text (legacy), written as a Fernet token


class Migration(migrations.Migration):
    dependencies = [("acehrag", "0003_partner_jwt_key_hs256_default")]

    operations = [
        migrations.AlterField(
            model_name="partnerjwtkey", name="key",
            field=kernel.encrypted_field.EncryptedTextField(
                help_text="HS256: the shared secret (at least 32 bytes). RS256: the public key in PEM."),
        ),
        migrations.RunPython(encrypt_rows, migrations.RunPython.noop),
    ]
