"""The live-data tools offered to the model, in the chat-completions format (only those configured)."""
from __future__ import annotations

from django.conf import settings

_FILTER = {
    "type": "array",
    "description": "Rows must match every filter; text compares ignore case.",
    "items": {"type": "object", "properties": {
        "column": {"type": "string"}, "op": {"type": "string", "enum": ["=", "!=", "<", "<=", ">", ">=", "contains"]},
        "value": {"type": ["string", "number"]}}, "required": ["column", "value"]},
}
_WORKBOOK_ID = {"type": "string", "description": "spreadsheet:<document-id> from workbook_describe"}


def _tool(name: str, description: str, properties: dict, required: list[str]) -> dict:
    return {"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": properties, "required": required}}}


WORKBOOK_TOOLS = [
    _tool("workbook_describe", "Without workbook_id: list the catalogued workbooks (spreadsheets) the user may read, "
          "best matches for query first. With workbook_id: its sheets, column names and types, and row counts.",
          {"workbook_id": _WORKBOOK_ID, "query": {"type": "string"}}, []),
    _tool("workbook_peek", "The first rows of one sheet of a workbook.",
          {"workbook_id": _WORKBOOK_ID, "sheet": {"type": "string"}}, ["workbook_id"]),
    _tool("workbook_rows", "Rows of one sheet matching a filter (bounded).",
          {"workbook_id": _WORKBOOK_ID, "sheet": {"type": "string"}, "filter": _FILTER,
           "columns": {"type": "array", "items": {"type": "string"}}}, ["workbook_id"]),
    _tool("workbook_compute", "Aggregate one column of a sheet (sum, avg, min, max, count, median), optionally "
          "grouped and filtered. Use it for totals and averages instead of adding rows yourself.",
          {"workbook_id": _WORKBOOK_ID, "sheet": {"type": "string"},
           "aggregate": {"type": "string", "enum": ["sum", "avg", "min", "max", "count", "median"]},
           "column": {"type": "string"}, "group_by": {"type": "array", "items": {"type": "string"}}, "filter": _FILTER},
          ["workbook_id", "aggregate"]),
]
OPENDATA_TOOL = _tool(
    "opendata_search", "Figures from the allow-listed OpenData/SatuData (CKAN) portals: searches datasets with the "
    "query's terms and reads the best dataset's table. Cite the dataset, never a number you did not read.",
    {"query": {"type": "string", "description": "Two to five distinctive terms, e.g. \"penduduk miskin\"."},
     "filters": {"type": "object", "description": "Exact field values, e.g. {\"tahun\": 2024}."}}, ["query"])
BPS_TOOL = _tool("bps_indicator", "An official BPS Statistics indicator for the configured region (Aceh by default).",
                 {"query": {"type": "string", "description": "The indicator, e.g. \"persentase penduduk miskin\"."}},
                 ["query"])


def sql_tool() -> dict:
    from livedata.facade import sql_schema_text
    try:
        tables = sql_schema_text()
    except Exception:  # the description only; the call itself reports a failing source honestly
        tables = "(the table list could not be read)"
    return _tool("sql_query", "One read-only PostgreSQL SELECT over the configured structured source; anything else "
                 f"is refused. Tables: {tables}", {"query": {"type": "string"}}, ["query"])


def live_tool_definitions(*, workbooks_visible: bool = True) -> list[dict]:
    """The configured tools; the workbook tools only when a catalogued workbook is visible to the caller."""
    config = settings.ACEH_RAG.livedata
    tools = list(WORKBOOK_TOOLS) if config.workbooks.enabled and workbooks_visible else []
    if config.sql.enabled:
        tools.append(sql_tool())
    if config.opendata.enabled:
        tools.append(OPENDATA_TOOL)
    if config.bps.usable:
        tools.append(BPS_TOOL)
    return tools
