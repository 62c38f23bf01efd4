"""Fixtures shared by the live-data tests."""
from __future__ import annotations

import secrets

import pytest
from django.db import connection

from tests.livedata.sqlsource import DATABASE, ROLE, admin_connection


@pytest.fixture(scope="package")
def source(django_db_setup, django_db_blocker):
    """The structured source: created once for the module, dropped afterwards; yields the reader's URL."""
    password = secrets.token_hex(12)
    with django_db_blocker.unblock():
        params = connection.get_connection_params()
    with admin_connection("postgres") as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
        admin.execute(f"CREATE DATABASE {DATABASE}")
        admin.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{password}'")
    with admin_connection(DATABASE) as admin:
        admin.execute("CREATE SCHEMA statistik; CREATE SCHEMA rahasia")
        admin.execute("CREATE TABLE statistik.penduduk (kabupaten text, tahun int, jumlah int)")
        admin.execute("INSERT INTO statistik.penduduk VALUES ('Banda Aceh', 2023, 261969), ('Aceh Besar', 2023, 422132),"
                      " ('Pidie', 2023, 448209)")
        admin.execute("CREATE TABLE rahasia.gaji (nama text, gaji int)")
        admin.execute("INSERT INTO rahasia.gaji VALUES ('X', 1)")
        admin.execute(f"REVOKE ALL ON DATABASE {DATABASE} FROM PUBLIC; GRANT CONNECT ON DATABASE {DATABASE} TO {ROLE}")
        admin.execute(f"GRANT USAGE ON SCHEMA statistik TO {ROLE}; GRANT SELECT ON ALL TABLES IN SCHEMA statistik TO {ROLE}")
        admin.execute(f"ALTER ROLE {ROLE} SET default_transaction_read_only = on")
    yield f"postgresql://{ROLE}:{password}@/{DATABASE}?host={params['host']}&port={params['port']}"
    with admin_connection("postgres") as admin:
        admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")
        admin.execute(f"DROP ROLE IF EXISTS {ROLE}")
