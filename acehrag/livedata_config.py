"""Typed settings of the live-data tools (workbooks, SQL Query, CKAN portals, BPS).

Read by ``acehrag.config.load_settings``; README lists every variable here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from acehrag.config import PREFIX, ConfigError, env_bool, env_float, env_int, env_list, env_str


@dataclass(frozen=True)
class WorkbookSettings:
    enabled: bool = True                 # offer catalogued workbooks to figure questions
    max_rows: int = 50                   # rows or groups one tool read returns


@dataclass(frozen=True)
class SqlSettings:
    database_url: str | None = None      # unset: the SQL Query tool is never offered
    schemas: tuple[str, ...] = ("public",)
    statement_timeout_ms: int = 5000
    row_limit: int = 200

    @property
    def enabled(self) -> bool:
        return bool(self.database_url)


@dataclass(frozen=True)
class OpenDataSettings:
    portals: tuple[str, ...] = ()        # allow-listed CKAN base URLs
    timeout_seconds: float = 5.0
    cache_ttl_seconds: int = 600
    max_records: int = 100

    @property
    def enabled(self) -> bool:
        return bool(self.portals)


@dataclass(frozen=True)
class BpsSettings:
    enabled: bool = False
    app_key: str | None = None
    domain: str = "1100"                 # Aceh
    base_url: str = "https://webapi.bps.go.id/v1/api"
    timeout_seconds: float = 5.0
    cache_ttl_seconds: int = 3600

    @property
    def usable(self) -> bool:
        return self.enabled and bool(self.app_key)


@dataclass(frozen=True)
class LiveDataSettings:
    workbooks: WorkbookSettings = field(default_factory=WorkbookSettings)
    sql: SqlSettings = field(default_factory=SqlSettings)
    opendata: OpenDataSettings = field(default_factory=OpenDataSettings)
    bps: BpsSettings = field(default_factory=BpsSettings)


def load_livedata_settings() -> LiveDataSettings:
    p = PREFIX
    portals = tuple(url.rstrip("/") for url in env_list(f"{p}OPENDATA__PORTALS"))
    for url in portals:
        if not url.startswith(("http://", "https://")):
            raise ConfigError(f"{p}OPENDATA__PORTALS entries must be http(s) URLs, got {url!r}")
    bps = BpsSettings(
        enabled=env_bool(f"{p}BPS__ENABLED", False),
        app_key=env_str(f"{p}BPS__APP_KEY"),
        domain=env_str(f"{p}BPS__DOMAIN", "1100"),
        base_url=env_str(f"{p}BPS__BASE_URL", "https://webapi.bps.go.id/v1/api").rstrip("/"),
        timeout_seconds=env_float(f"{p}BPS__TIMEOUT_SECONDS", 5.0),
        cache_ttl_seconds=env_int(f"{p}BPS__CACHE_TTL_SECONDS", 3600, minimum=0),
    )
    return LiveDataSettings(
        workbooks=WorkbookSettings(
            enabled=env_bool(f"{p}WORKBOOKS__ENABLED", True),
            max_rows=env_int(f"{p}WORKBOOKS__MAX_ROWS", 50, minimum=1),
        ),
        sql=SqlSettings(
            database_url=env_str(f"{p}SQL__DATABASE_URL"),
            schemas=env_list(f"{p}SQL__SCHEMAS") or ("public",),
            statement_timeout_ms=env_int(f"{p}SQL__STATEMENT_TIMEOUT_MS", 5000, minimum=1),
            row_limit=env_int(f"{p}SQL__ROW_LIMIT", 200, minimum=1),
        ),
        opendata=OpenDataSettings(
            portals=portals,
            timeout_seconds=env_float(f"{p}OPENDATA__TIMEOUT_SECONDS", 5.0),
            cache_ttl_seconds=env_int(f"{p}OPENDATA__CACHE_TTL_SECONDS", 600, minimum=0),
            max_records=env_int(f"{p}OPENDATA__MAX_RECORDS", 100, minimum=1),
        ),
        bps=bps,
    )
