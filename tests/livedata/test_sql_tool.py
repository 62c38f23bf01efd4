"""The SQL Query tool over a real PostgreSQL database with a read-only role.

A separate database (``acehrag_sqltool``) in the embedded cluster holds an
allow-listed schema ``statistik`` and a schema ``rahasia`` outside the
allow-list; the tool connects as ``sql_reader``, which may only SELECT.
"""
from __future__ import annotations

import time
from dataclasses import replace

import psycopg
import pytest
from django.conf import settings
from django.test import override_settings

from livedata.sql import SqlRefused, sql_check, sql_read
from tests.livedata.sqlsource import DATABASE, SCHEMAS, rows
from tests.livedata.helpers import live_settings

REFUSED = [
    ("INSERT INTO statistik.penduduk VALUES ('X', 2024, 1)", "only SELECT"),
    ("UPDATE statistik.penduduk SET jumlah = 0", "only SELECT"),
    ("DELETE FROM statistik.penduduk", "only SELECT"),
    ("DROP TABLE statistik.penduduk", "only SELECT"),
    ("CREATE TABLE statistik.baru (a int)", "only SELECT"),
    ("TRUNCATE statistik.penduduk", "only SELECT"),
    ("SELECT 1; DELETE FROM statistik.penduduk", "exactly one statement"),
    ("SELECT pg_sleep(30)", "pg_sleep"),
    ("COPY statistik.penduduk TO '/tmp/out.csv'", "only SELECT"),
    ("SELECT * FROM dblink('dbname=acehrag', 'SELECT 1') AS t(a int)", "dblink"),
    ("SELECT * FROM pg_catalog.pg_roles", "system catalog"),
    ("SELECT rolname FROM pg_authid", "system catalog"),
    ("SELECT * FROM information_schema.tables", "system catalog"),
    ("SELECT * FROM rahasia.gaji", "not in the allow-list"),
    ("SELECT * INTO statistik.salinan FROM statistik.penduduk", "INTO"),
    ("SELECT * FROM statistik.penduduk FOR UPDATE", "LOCK"),
    ("SELECT set_config('statement_timeout', '0', false)", "set_config"),
    ("SELECT pg_read_file('/etc/passwd')", "pg_read_file"),
    ("SET statement_timeout = 0", "only SELECT"),
]


@pytest.mark.parametrize("statement,reason", REFUSED)
def test_each_unsafe_statement_is_refused_before_execution(source, statement, reason):
    with pytest.raises(SqlRefused, match=reason):
        sql_check(statement, SCHEMAS)
    before = rows("SELECT count(*) FROM statistik.penduduk")
    with live_settings(sql_url=source, sql_schemas=SCHEMAS):
        read = sql_read(statement)
    # Before execution: pointed at a database that does not exist, the answer is still the refusal.
    with live_settings(sql_url="postgresql://nobody@/absent?host=/nonexistent-socket-dir", sql_schemas=SCHEMAS):
        assert sql_read(statement).text == read.text
    assert read.ok is False and read.text.startswith("Refused before execution") and read.source is None
    assert rows("SELECT count(*) FROM statistik.penduduk") == before
    assert rows("SELECT count(*) FROM pg_tables WHERE tablename = 'salinan'") == [(0,)]


def test_a_select_runs_read_only_and_is_cited_with_the_query_and_read_time(source):
    with live_settings(sql_url=source, sql_schemas=SCHEMAS):
        read = sql_read("SELECT kabupaten, jumlah FROM statistik.penduduk WHERE tahun = 2023 ORDER BY jumlah DESC")
    assert read.ok and read.rows == 3
    assert "kabupaten: Pidie | jumlah: 448209" in read.text.splitlines()[1]
    citation = read.citation("call_1")
    assert citation["kind"] == "tool" and citation["tool"] == "sql_query"
    assert citation["sql"] == "SELECT kabupaten, jumlah FROM statistik.penduduk WHERE tahun = 2023 ORDER BY jumlah DESC"
    assert citation["source_name"] == DATABASE and citation["read_at"]


def test_the_role_cannot_write_even_if_a_write_got_through(source):
    """Defence in depth: the tool's own connection settings refuse a write the parser would have refused."""
    with psycopg.connect(source) as conn:
        conn.read_only = True
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("INSERT INTO statistik.penduduk VALUES ('X', 1, 1)")


def test_a_slow_query_is_stopped_by_the_statement_timeout(source):
    slow = "SELECT count(*) FROM generate_series(1, 300000000) AS a(n)"
    with live_settings(sql_url=source, sql_schemas=SCHEMAS):
        config = settings.ACEH_RAG
        quick = replace(config, livedata=replace(config.livedata, sql=replace(config.livedata.sql, statement_timeout_ms=300)))
        with override_settings(ACEH_RAG=quick):
            started = time.monotonic()
            read = sql_read(slow)
    assert read.ok is False and "statement timeout (300 ms)" in read.text
    assert time.monotonic() - started < 5


def test_row_limit_bounds_the_result(source):
    with live_settings(sql_url=source, sql_schemas=SCHEMAS):
        config = settings.ACEH_RAG
        small = replace(config, livedata=replace(config.livedata, sql=replace(config.livedata.sql, row_limit=2)))
        with override_settings(ACEH_RAG=small):
            read = sql_read("SELECT * FROM statistik.penduduk")
    assert read.rows == 2 and "(more exist)" in read.text


def test_not_configured_the_tool_is_never_offered_and_never_connects(source):
    from answering.live_specs import live_tool_definitions
    with live_settings(sql_url=None):
        assert "sql_query" not in {d["function"]["name"] for d in live_tool_definitions()}
        assert "not configured" in sql_read("SELECT 1").text
    with live_settings(sql_url=source, sql_schemas=SCHEMAS):
        (offered,) = [d for d in live_tool_definitions() if d["function"]["name"] == "sql_query"]
    assert "statistik.penduduk(kabupaten text, tahun integer, jumlah integer)" in offered["function"]["description"]
    assert "rahasia" not in offered["function"]["description"]
