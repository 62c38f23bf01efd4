"""Admin hardening: login throttling, and the audit trail of changes to keys, sources and chunks."""
from __future__ import annotations

import pytest
from django.contrib.admin.models import ADDITION, CHANGE, LogEntry
from django.contrib.auth import get_user_model
from django.test import Client

from acehrag.models import ApiKey, PartnerJwtKey
from tests.factories import make_document

pytestmark = pytest.mark.django_db

PASSWORD = "benar-sekali-panjang-2026"


@pytest.fixture
def staff():
    return get_user_model().objects.create_superuser("operator", "op@example.go.id", PASSWORD)


def login(client: Client, username: str, password: str):
    return client.post("/admin/login/?next=/admin/", {"username": username, "password": password})


def test_twenty_failed_logins_lock_the_name_out_even_for_the_right_password(staff):
    client = Client()
    statuses = [login(client, "operator", f"salah-{n}").status_code for n in range(20)]
    # Four failures are answered with the form again; the fifth locks the name out, and every later attempt
    # is refused.
    assert statuses[:4] == [200] * 4 and set(statuses[4:]) == {429}
    locked = login(client, "operator", PASSWORD)
    assert locked.status_code == 429 and "_auth_user_id" not in client.session
    # Another name from the same address is not locked, and can still sign in.
    get_user_model().objects.create_superuser("kedua", "dua@example.go.id", PASSWORD)
    assert login(client, "kedua", PASSWORD).status_code == 302


def test_a_success_resets_the_count(staff):
    client = Client()
    for n in range(4):
        assert login(client, "operator", f"salah-{n}").status_code == 200
    assert login(client, "operator", PASSWORD).status_code == 302
    client.logout()
    for n in range(4):
        assert login(client, "operator", f"salah-lagi-{n}").status_code == 200


def test_chunk_enablement_and_key_revocation_leave_log_entries_by_whom(staff):
    client = Client()
    client.force_login(staff)
    chunk = make_document(title="Qanun", chunks=["Pasal 1 teks."]).chunks.get()
    assert client.post(f"/admin/retrieval/chunk/{chunk.pk}/toggle/").status_code == 302
    client.post("/admin/retrieval/chunk/", {"action": "enable_chunks", "_selected_action": [chunk.pk]})
    key = ApiKey.objects.create(name="Bappeda", prefix="acr_abcd", digest="0" * 64)
    client.post("/admin/acehrag/apikey/", {"action": "revoke_keys", "_selected_action": [key.pk]})
    entries = [(e.object_id, e.action_flag, e.change_message, e.user_id)
               for e in LogEntry.objects.order_by("action_time", "id")]
    assert entries == [(str(chunk.pk), CHANGE, "Disabled (never retrieved or cited)", staff.pk),
                       (str(chunk.pk), CHANGE, "Enabled", staff.pk),
                       (str(key.pk), CHANGE, "Revoked", staff.pk)]
    history = client.get(f"/admin/retrieval/chunk/{chunk.pk}/history/")
    assert history.status_code == 200 and b"Disabled (never retrieved or cited)" in history.content


def test_a_jwt_secret_typed_in_the_admin_is_logged_as_a_change_never_as_its_value(staff):
    client = Client()
    client.force_login(staff)
    secret = "rahasia-bersama-yang-panjang-sekali-0123456789"
    response = client.post("/admin/acehrag/partnerjwtkey/add/", {
        "name": "Bappeda 2026", "kid": "bappeda-1", "algorithm": "HS256", "secret": secret, "key": "",
        "issuer": "https://bappeda.example", "audience": "", "active": "on"})
    assert response.status_code == 302, response.content.decode()[:2000]
    jwt_key = PartnerJwtKey.objects.get()
    [entry] = LogEntry.objects.filter(object_id=str(jwt_key.pk))
    assert entry.action_flag == ADDITION and entry.user_id == staff.pk
    assert secret not in entry.change_message and secret not in entry.object_repr
    assert secret.encode() not in client.get(f"/admin/acehrag/partnerjwtkey/{jwt_key.pk}/change/").content


def test_jwt_secrets_are_encrypted_at_rest_and_read_back_for_verification(staff):
    from django.db import connection

    secret = "rahasia-bersama-yang-panjang-sekali-9876543210"
    stored = PartnerJwtKey.objects.create(name="Dinas", kid="dinas-1", algorithm="HS256", key=secret)
    with connection.cursor() as cursor:
        cursor.execute("SELECT key FROM acehrag_partnerjwtkey WHERE id = %s", [stored.pk])
        [raw] = cursor.fetchone()
    assert secret not in raw and raw.startswith("gAAAAA")
    assert PartnerJwtKey.objects.get(pk=stored.pk).as_jwt_key().key == secret
    # A row written before encryption (plain text in the column) still reads, and is encrypted when saved.
    with connection.cursor() as cursor:
        cursor.execute("UPDATE acehrag_partnerjwtkey SET key = %s WHERE id = %s", [secret, stored.pk])
    legacy = PartnerJwtKey.objects.get(pk=stored.pk)
    assert legacy.key == secret
    legacy.save()
    with connection.cursor() as cursor:
        cursor.execute("SELECT key FROM acehrag_partnerjwtkey WHERE id = %s", [stored.pk])
        assert cursor.fetchone()[0].startswith("gAAAAA")
