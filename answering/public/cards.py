"""The public chat's ``cards`` (a source card per live-data read cited) and ``sql`` (the executed query)."""
from __future__ import annotations


def source_cards(sources: list[dict]) -> list[dict]:
    return [
        {"type": "source", "number": number, "tool": source["tool"], "title": source["document_title"],
         "source": source.get("source_name"), "period": source.get("period"), "url": source.get("source_url"),
         "read_at": source.get("read_at")}
        for number, source in enumerate(sources, start=1) if source.get("kind") == "tool"
    ]


def executed_sql(sources: list[dict]) -> str | None:
    return next((source["sql"] for source in sources if source.get("kind") == "tool" and source.get("sql")), None)
