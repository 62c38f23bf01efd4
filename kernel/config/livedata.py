"""Settings of the live-data tools (workbooks, SQL Query, CKAN portals, BPS).

Their variables have no ``LIVEDATA`` level: ``ACEH_RAG_WORKBOOKS__ENABLED``,
``ACEH_RAG_SQL__…``, ``ACEH_RAG_OPENDATA__…``, ``ACEH_RAG_BPS__…``;
docs/configuration.md lists every one.
"""
from dataclasses import dataclass, field
from typing import Optional

from kernel.config.types import AtLeast0, AtLeast1, BaseUrl, CommaList, HttpUrls


@dataclass(frozen=True)
class WorkbookSettings:
    enabled: bool = True                 # offer catalogued workbooks to figure questions
    max_rows: AtLeast1 = 50              # rows or groups one tool read returns


@dataclass(frozen=True)
class SqlSettings:
    database_url: Optional[str] = None   # unset: the SQL Query tool is never offered
    schemas: CommaList = ("public",)
    statement_timeout_ms: AtLeast1 = 5000
    row_limit: AtLeast1 = 200

    @property
    def enabled(self) -> bool:
        return bool(self.database_url)


@dataclass(frozen=True)
class OpenDataSettings:
    portals: HttpUrls = ()               # allow-listed CKAN base URLs
    timeout_seconds: float = 5.0
    cache_ttl_seconds: AtLeast0 = 600
    max_records: AtLeast1 = 100

    @property
    def enabled(self) -> bool:
        return bool(self.portals)


@dataclass(frozen=True)
class BpsSettings:
    enabled: bool = False
    app_key: Optional[str] = None
    domain: str = "1100"                 # Aceh
    base_url: BaseUrl = "https://webapi.bps.go.id/v1/api"
    timeout_seconds: float = 5.0
    cache_ttl_seconds: AtLeast0 = 3600

    @property
    def usable(self) -> bool:
        return self.enabled and bool(self.app_key)


@dataclass(frozen=True)
class LiveDataSettings:
    workbooks: WorkbookSettings = field(default_factory=WorkbookSettings)
    sql: SqlSettings = field(default_factory=SqlSettings)
    opendata: OpenDataSettings = field(default_factory=OpenDataSettings)
    bps: BpsSettings = field(default_factory=BpsSettings)
