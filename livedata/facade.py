"""What other apps may use of live data (the allow-list in ``.importlinter`` names this module):
the tool reads an answer makes (workbooks, SQL, open-data portals, BPS) and the workbook catalogue."""
from livedata.bps import bps_read
from livedata.ckan import opendata_read
from livedata.reads import ToolRead, miss
from livedata.selectors import workbook_get_visible, workbooks_visible
from livedata.sql import sql_read, sql_schema_text
from livedata.workbooks.tools import TOOLS, workbook_tool_run

__all__ = [
    "TOOLS", "ToolRead", "bps_read", "miss", "opendata_read", "sql_read", "sql_schema_text", "workbook_get_visible",
    "workbook_tool_run", "workbooks_visible",
]
