"""The workbook tools: peek, describe, rows(filter), compute(aggregate, group_by, filter).

Arguments are checked against the catalogue (sheet and column names, known
operators and aggregates) before any SQL is built; identifiers are quoted,
values are parameters, and every read is bounded (``WORKBOOKS__MAX_ROWS``).
"""
from __future__ import annotations

import datetime as dt
import math

from django.conf import settings

from livedata.models import Workbook, WorkbookSheet
from livedata.reads import SourceIdentity, ToolRead, miss
from livedata.workbooks import storage
from retrieval.facade.documents import restriction_fields

OPERATORS = {"=": "=", "!=": "<>", "<": "<", "<=": "<=", ">": ">", ">=": ">="}
AGGREGATES = {"sum": "sum", "avg": "avg", "min": "min", "max": "max", "count": "count", "median": "median"}
NUMERIC = ("TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "FLOAT", "DOUBLE", "DECIMAL", "UBIGINT", "UINTEGER")
PEEK_ROWS = 5


class WorkbookQueryError(Exception):
    """Arguments that do not fit the workbook (unknown sheet/column/operator): the tool's error reply."""


def workbook_identity(workbook: Workbook) -> SourceIdentity:
    document = workbook.document
    return SourceIdentity(
        title=document.title, name=(document.collection.name or "Spreadsheet"),
        source_id=f"spreadsheet:{document.id}", period=workbook.period or None, url=None,
        restrictions=restriction_fields(document),
    )


def _max_rows() -> int:
    return settings.ACEH_RAG.livedata.workbooks.max_rows


def _sheet(workbook: Workbook, name: str | None) -> WorkbookSheet:
    sheets = list(workbook.sheets.all())
    if not name:
        return sheets[0]
    for sheet in sheets:
        if sheet.name.lower() == str(name).strip().lower():
            return sheet
    raise WorkbookQueryError(f"no sheet named {name!r}; sheets: {', '.join(s.name for s in sheets)}")


def _column(sheet: WorkbookSheet, name) -> dict:
    for column in sheet.columns:
        if column["name"].lower() == str(name).strip().lower():
            return column
    raise WorkbookQueryError(f"no column named {name!r} in sheet {sheet.name!r}; columns: "
                             + ", ".join(c["name"] for c in sheet.columns))


def _is_numeric(column: dict) -> bool:
    return column["type"].upper().startswith(NUMERIC)


def _where(sheet: WorkbookSheet, filters) -> tuple[str, list]:
    """``[{"column", "op", "value"}]`` → a parameterised WHERE clause (text compares ignore case)."""
    if filters in (None, []):
        return "", []
    if not isinstance(filters, list):
        raise WorkbookQueryError("filter must be a list of {column, op, value}")
    clauses, params = [], []
    for item in filters:
        if not isinstance(item, dict) or "column" not in item or "value" not in item:
            raise WorkbookQueryError("each filter needs \"column\" and \"value\"")
        column, op, value = _column(sheet, item["column"]), item.get("op", "="), item["value"]
        name = storage.quote(column["name"])
        if not isinstance(value, (str, int, float, bool)):
            raise WorkbookQueryError(f"filter value for {column['name']!r} must be a text or a number")
        if op == "contains":
            clauses.append(f"contains(lower(CAST({name} AS VARCHAR)), lower(?))")
            params.append(str(value))
        elif op in OPERATORS and _is_numeric(column):
            try:
                params.append(float(value))
            except ValueError:
                raise WorkbookQueryError(f"{column['name']!r} holds numbers; {value!r} is not one") from None
            clauses.append(f"{name} {OPERATORS[op]} ?")
        elif op in OPERATORS:
            clauses.append(f"lower(CAST({name} AS VARCHAR)) {OPERATORS[op]} lower(?)")
            params.append(str(value))
        else:
            raise WorkbookQueryError(f"unknown operator {op!r}; use one of {', '.join([*OPERATORS, 'contains'])}")
    return " WHERE " + " AND ".join(clauses), params


def format_value(value) -> str:
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return str(int(value)) if value.is_integer() else f"{value:.6g}" if abs(value) < 1e6 else f"{value:.2f}"
    if isinstance(value, (dt.date, dt.datetime)):
        return value.isoformat()
    return "" if value is None else str(value)


def _lines(names: list[str], rows: list[tuple]) -> list[str]:
    return [" | ".join(f"{n}: {format_value(v)}" for n, v in zip(names, row)) for row in rows]


def _heading(workbook: Workbook, sheet: WorkbookSheet, what: str) -> str:
    # A heading line: the model reads it, the extractive synthesiser never quotes it as a claim.
    return f"# {workbook_identity(workbook).label}, sheet {sheet.name}: {what}"


def _read(tool: str, arguments: dict, workbook: Workbook, text: str, rows: int, sql: str | None = None) -> ToolRead:
    return ToolRead(tool=tool, arguments=arguments, ok=True, text=text, source=workbook_identity(workbook),
                    rows=rows, sql=sql)


def workbook_describe(workbook: Workbook, arguments: dict | None = None) -> ToolRead:
    lines = [f"# {workbook_identity(workbook).label} ({workbook.source_format}, {workbook.sheet_count} sheets)"]
    for sheet in workbook.sheets.all():
        columns = ", ".join(f"{c['name']} ({c['type']})" for c in sheet.columns)
        lines.append(f"sheet {sheet.name}: {sheet.row_count} rows; columns {columns}")
    return _read("workbook_describe", arguments or {}, workbook, "\n".join(lines), 0)


def workbook_peek(workbook: Workbook, arguments: dict) -> ToolRead:
    sheet = _sheet(workbook, arguments.get("sheet"))
    names = [c["name"] for c in sheet.columns]
    rows = storage.connection().execute(
        f"SELECT * FROM {storage.sheet_relation(sheet.storage)} LIMIT {PEEK_ROWS}").fetchall()
    text = "\n".join([_heading(workbook, sheet, f"first {len(rows)} of {sheet.row_count} rows"), *_lines(names, rows)])
    return _read("workbook_peek", arguments, workbook, text, len(rows))


def workbook_rows(workbook: Workbook, arguments: dict) -> ToolRead:
    sheet = _sheet(workbook, arguments.get("sheet"))
    wanted = arguments.get("columns") or [c["name"] for c in sheet.columns]
    if not isinstance(wanted, list):
        raise WorkbookQueryError("columns must be a list of column names")
    names = [_column(sheet, name)["name"] for name in wanted]
    where, params = _where(sheet, arguments.get("filter"))
    limit = min(int(arguments.get("limit") or _max_rows()), _max_rows())
    select = ", ".join(storage.quote(n) for n in names)
    sql = f"SELECT {select} FROM {storage.sheet_relation(sheet.storage)}{where} LIMIT {limit + 1}"
    rows = storage.connection().execute(sql, params).fetchall()
    if not rows:
        return miss("workbook_rows", arguments, f"no rows of sheet {sheet.name!r} match the filter")
    cut = len(rows) > limit
    rows = rows[:limit]
    what = f"{len(rows)} matching rows" + (f" (first {limit}; more match)" if cut else "")
    return _read("workbook_rows", arguments, workbook, "\n".join([_heading(workbook, sheet, what), *_lines(names, rows)]),
                 len(rows))


def workbook_compute(workbook: Workbook, arguments: dict) -> ToolRead:
    sheet = _sheet(workbook, arguments.get("sheet"))
    aggregate = str(arguments.get("aggregate") or "").lower()
    if aggregate not in AGGREGATES:
        raise WorkbookQueryError(f"aggregate must be one of {', '.join(AGGREGATES)}")
    if aggregate == "count" and not arguments.get("column"):
        target, label = "*", "count"
    else:
        column = _column(sheet, arguments.get("column"))
        if aggregate != "count" and not _is_numeric(column):
            raise WorkbookQueryError(f"{column['name']!r} is not numeric; {aggregate} needs a numeric column")
        target, label = storage.quote(column["name"]), f"{aggregate} {column['name']}"
    group_by = arguments.get("group_by") or []
    group_by = [group_by] if isinstance(group_by, str) else group_by
    groups = [_column(sheet, name)["name"] for name in group_by]
    where, params = _where(sheet, arguments.get("filter"))
    limit = _max_rows()
    keys = ", ".join(storage.quote(g) for g in groups)
    select = f"{keys + ', ' if keys else ''}{AGGREGATES[aggregate]}({target}) AS value"
    sql = f"SELECT {select} FROM {storage.sheet_relation(sheet.storage)}{where}"
    if groups:
        sql += f" GROUP BY {keys} ORDER BY value DESC NULLS LAST LIMIT {limit + 1}"
    rows = storage.connection().execute(sql, params).fetchall()
    if not rows or (not groups and rows[0][0] is None and aggregate != "count"):
        return miss("workbook_compute", arguments, f"no rows of sheet {sheet.name!r} match the filter")
    cut = len(rows) > limit
    rows = rows[:limit]
    scope = "; ".join(f"{f['column']} {f.get('op', '=')} {f['value']}" for f in arguments.get("filter") or [])
    what = f"{label}" + (f" where {scope}" if scope else "") + (f" by {', '.join(groups)}" if groups else "")
    what += f" ({len(rows)} groups, the largest {limit})" if cut else ""
    # Each line names the rows it aggregates (the equality filters), so it reads on its own.
    fixed = [(f["column"], f["value"]) for f in arguments.get("filter") or [] if f.get("op", "=") == "="]
    lines = [" | ".join([*(f"{c}: {format_value(v)}" for c, v in fixed), line])
             for line in _lines([*groups, label], rows)]
    return _read("workbook_compute", arguments, workbook, "\n".join([_heading(workbook, sheet, what), *lines]), len(rows))


TOOLS = {"workbook_describe": workbook_describe, "workbook_peek": workbook_peek,
         "workbook_rows": workbook_rows, "workbook_compute": workbook_compute}


def workbook_tool_run(tool: str, workbook: Workbook | None, arguments: dict) -> ToolRead:
    """Run one workbook tool; unknown workbooks and bad arguments are misses without workbook metadata."""
    if workbook is None:
        return miss(tool, arguments, "no catalogued workbook with that id is visible to you")
    try:
        return TOOLS[tool](workbook, arguments)
    except WorkbookQueryError as exc:
        return miss(tool, arguments, f"Error: {exc}")
