"""The structured source of the SQL Query tests: a separate database and a read-only role in the test cluster."""
from __future__ import annotations

import psycopg
from django.db import connection

DATABASE = "acehrag_sqltool"
ROLE = "sql_reader"
SCHEMAS = ("statistik",)


def admin_connection(dbname: str):
    params = connection.get_connection_params()
    return psycopg.connect(host=params["host"], port=params["port"], user=params["user"], dbname=dbname,
                           autocommit=True)


def rows(sql: str) -> list[tuple]:
    with admin_connection(DATABASE) as admin:
        return admin.execute(sql).fetchall()
