"""What one live-data tool read returns, and the one tool-citation serialiser.

A successful read carries its source identity and becomes a passage with a
``kind: "tool"`` citation (seed: the citation object's tool and workbook
rules). Misses and errors carry a note and no source metadata.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from retrieval.facade.documents import tool_citation


@dataclass(frozen=True)
class SourceIdentity:
    title: str
    name: str                           # collection / organisation / "Spreadsheet" / "BPS"
    source_id: str                      # "spreadsheet:<document-id>", "ckan:<portal>/<resource>", ...
    period: str | None = None
    url: str | None = None
    restrictions: dict = field(default_factory=dict)   # the workbook document's access fields, when set

    @property
    def label(self) -> str:
        """``document_title``: the ready-to-render source label, with the year when known."""
        if self.period and self.period not in self.title:
            return f"{self.title} ({self.period})"
        return self.title


@dataclass(frozen=True)
class ToolRead:
    tool: str
    arguments: dict
    ok: bool
    text: str                           # the passage (ok) or the honest note (miss / error)
    source: SourceIdentity | None = None
    read_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.timezone.utc))
    rows: int = 0
    sql: str | None = None              # the executed query (SQL Query, workbook SQL)

    @property
    def grounds(self) -> bool:
        return self.ok and self.source is not None and bool(self.text)

    def summary(self) -> dict:
        summary = {"ok": self.ok, "rows": self.rows}
        if self.source:
            summary["source_id"] = self.source.source_id
        if not self.ok:
            summary["note"] = self.text
        return summary

    def citation(self, call: str) -> dict:
        """The citation object of this read (precondition: ``grounds``)."""
        source = self.source
        citation = tool_citation(tool=self.tool, call=call, document_title=source.label, source_title=source.title,
                                 source_name=source.name, source_id=source.source_id, period=source.period,
                                 source_url=source.url)
        citation["read_at"] = self.read_at.isoformat(timespec="seconds")
        if self.sql:
            citation["sql"] = self.sql
        return {**citation, **source.restrictions}


def miss(tool: str, arguments: dict, note: str) -> ToolRead:
    return ToolRead(tool=tool, arguments=arguments, ok=False, text=note)
