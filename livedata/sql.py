"""The read-only SQL Query tool over a configured structured source.

Only when ``ACEH_RAG_SQL__DATABASE_URL`` is set. The statement is parsed with
sqlglot and refused before execution unless it is exactly one SELECT over
tables of the allow-listed schemas, with no function that has side effects or
reaches outside (``pg_sleep``, ``dblink``, file and large-object access,
configuration, sequences), no system catalog, no ``SELECT INTO`` and no row
locks. It then runs in a READ ONLY transaction with ``statement_timeout``
and ``search_path`` set locally, bounded to the row limit, on a connection
that should use a role with SELECT grants only (defence in depth).
"""
from __future__ import annotations

import time
from urllib.parse import urlsplit

import psycopg
import sqlglot
from django.conf import settings
from psycopg import sql as pgsql
from sqlglot import exp

from livedata.reads import SourceIdentity, ToolRead, miss

TOOL = "sql_query"
SYSTEM_SCHEMAS = frozenset({"pg_catalog", "information_schema", "pg_toast"})
DENIED_PREFIXES = ("pg_", "lo_", "dblink", "set_config", "current_setting", "nextval", "setval", "currval",
                   "txid_", "query_to_xml", "table_to_xml", "cursor_to_xml", "database_to_xml", "schema_to_xml",
                   "inet_", "version")
FORBIDDEN_NODES = (exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.Create, exp.Drop, exp.Alter, exp.Command,
                   exp.Copy, exp.Lock, exp.Into, exp.Set, exp.Transaction, exp.Commit, exp.Rollback, exp.Grant,
                   exp.TruncateTable, exp.Use, exp.Pragma)
MAX_QUERY_CHARS = 4000


class SqlRefused(Exception):
    """The statement is not one safe SELECT; nothing was executed."""


def _function_name(node: exp.Func) -> str:
    return (node.name if isinstance(node, exp.Anonymous) else node.sql_name()).lower()


def sql_check(query: str, schemas: tuple[str, ...]) -> str:
    """The statement as it will run, or ``SqlRefused`` with the reason."""
    if not query or not query.strip():
        raise SqlRefused("empty statement")
    if len(query) > MAX_QUERY_CHARS:
        raise SqlRefused(f"statement longer than {MAX_QUERY_CHARS} characters")
    try:
        statements = [s for s in sqlglot.parse(query, read="postgres") if s is not None]
    except sqlglot.errors.SqlglotError as exc:
        raise SqlRefused(f"not parseable as PostgreSQL: {str(exc).splitlines()[0]}") from exc
    if len(statements) != 1:
        raise SqlRefused("exactly one statement is allowed")
    statement = statements[0]
    if not isinstance(statement, (exp.Select, exp.Union, exp.Intersect, exp.Except)):
        raise SqlRefused(f"only SELECT is allowed, not {statement.key.upper()}")
    for node in statement.walk():
        if isinstance(node, FORBIDDEN_NODES):
            raise SqlRefused(f"{node.key.upper()} is not allowed")
        if isinstance(node, exp.Func) and _function_name(node).startswith(DENIED_PREFIXES):
            raise SqlRefused(f"function {_function_name(node)}() is not allowed")
    ctes = {cte.alias_or_name.lower() for cte in statement.find_all(exp.CTE)}
    allowed = {s.lower() for s in schemas}
    for table in statement.find_all(exp.Table):
        if isinstance(table.this, exp.Func):
            continue  # a set-returning function such as generate_series: checked with the functions above
        schema, name = table.db.lower(), table.name.lower()
        if table.catalog:
            raise SqlRefused(f"cross-database reference {table.sql()} is not allowed")
        if not schema and name in ctes:
            continue
        if schema in SYSTEM_SCHEMAS or name.startswith("pg_") or not name:
            raise SqlRefused(f"system catalog {table.sql()} is not allowed")
        if schema and schema not in allowed:
            raise SqlRefused(f"schema {schema!r} is not in the allow-list ({', '.join(schemas)})")
    return statement.sql(dialect="postgres")


def _source_name(url: str) -> str:
    return urlsplit(url).path.lstrip("/") or "database"


def sql_read(query: str) -> ToolRead:
    config = settings.ACEH_RAG.livedata.sql
    arguments = {"query": query}
    if not config.enabled:
        return miss(TOOL, arguments, "the SQL Query tool is not configured (ACEH_RAG_SQL__DATABASE_URL)")
    try:
        checked = sql_check(query, config.schemas)
    except SqlRefused as exc:
        return miss(TOOL, arguments, f"Refused before execution: {exc}")
    started = time.monotonic()
    try:
        names, rows = sql_execute(checked)
    except psycopg.errors.QueryCanceled:
        return miss(TOOL, arguments, f"stopped by the statement timeout ({config.statement_timeout_ms} ms)")
    except psycopg.Error as exc:
        message = (exc.diag.message_primary if getattr(exc, "diag", None) else None) or type(exc).__name__
        return miss(TOOL, arguments, f"the database refused the query: {message}")
    cut = len(rows) > config.row_limit
    rows = rows[: config.row_limit]
    lines = [" | ".join(f"{n}: {v}" for n, v in zip(names, row)) for row in rows]
    head = f"# SQL Query on {_source_name(config.database_url)}: {len(rows)} rows" + (" (more exist)" if cut else "")
    source = SourceIdentity(title=f"SQL Query: {checked}"[:300], name=_source_name(config.database_url),
                            source_id=f"sql:{_source_name(config.database_url)}")
    return ToolRead(tool=TOOL, arguments={**arguments, "ms": round((time.monotonic() - started) * 1000, 1)},
                    ok=True, text="\n".join([head, *lines]) if rows else head + "\n(no rows)", source=source,
                    rows=len(rows), sql=checked)


def sql_execute(checked: str) -> tuple[list[str], list[tuple]]:
    """Run a checked statement read-only under the timeout; at most ``row_limit + 1`` rows come back."""
    config = settings.ACEH_RAG.livedata.sql
    bounded = f"SELECT * FROM ({checked}) AS bounded LIMIT {config.row_limit + 1}"
    with psycopg.connect(config.database_url, autocommit=False, connect_timeout=5) as conn:
        conn.read_only = True
        with conn.cursor() as cursor:
            cursor.execute(pgsql.SQL("SET LOCAL statement_timeout = {}").format(pgsql.Literal(config.statement_timeout_ms)))
            cursor.execute(pgsql.SQL("SET LOCAL search_path = {}").format(
                pgsql.SQL(", ").join(pgsql.Identifier(s) for s in config.schemas)))
            cursor.execute(bounded)
            names = [column.name for column in cursor.description or []]
            rows = cursor.fetchall()
        conn.rollback()
    return names, rows


def sql_schema_text(limit: int = 60) -> str:
    """The allow-listed tables and their columns, for the tool's description (bounded)."""
    config = settings.ACEH_RAG.livedata.sql
    with psycopg.connect(config.database_url, connect_timeout=5) as conn:
        rows = conn.execute(
            "SELECT table_schema, table_name, string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position)"
            " FROM information_schema.columns WHERE table_schema = ANY(%s) GROUP BY 1, 2 ORDER BY 1, 2 LIMIT %s",
            [list(config.schemas), limit]).fetchall()
    return "; ".join(f"{schema}.{table}({columns})" for schema, table, columns in rows)
