"""Shared bootstrap for benchmarks: Django on a benchmark data directory."""
from __future__ import annotations

import os
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"


def django_setup(data_dir: str = "var/bench", *, root: Path = ROOT, **env: str) -> None:
    """Point the project (this checkout's code, or ``root``'s) at its own embedded database (unless DATABASE_URL
    is set) and migrate."""
    sys.path.insert(0, str(root))
    os.environ.setdefault("ACEH_RAG_DATA_DIR", str(root / data_dir))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")
    os.environ.setdefault("ACEH_RAG_LOG_LEVEL", "WARNING")
    for name, value in env.items():
        os.environ.setdefault(name, value)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", interactive=False, verbosity=0)
    _restart_if_pending()


def _restart_if_pending() -> None:
    """Settings that apply from the server's next start (``shared_buffers``, the preloaded library) apply now:
    stop the embedded server and run this bench again in a fresh process, once."""
    from django.conf import settings
    from django.db import connection

    if settings.ACEH_RAG.database_url or os.environ.get("_ACEH_RAG_BENCH_RESTARTED"):
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT string_agg(name, ', ') FROM pg_settings WHERE pending_restart")
        pending = cursor.fetchone()[0]
    if not pending:
        return
    from acehrag.embedded_db import embedded_stop

    print(f"  restarting the embedded PostgreSQL for {pending}", flush=True)
    connection.close()
    embedded_stop(Path(settings.ACEH_RAG.data_dir))
    os.environ["_ACEH_RAG_BENCH_RESTARTED"] = "1"
    os.execv(sys.executable, [sys.executable, *sys.argv])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def summary(values_ms: list[float]) -> str:
    return f"p50 {percentile(values_ms, 0.5):7.1f} ms  p95 {percentile(values_ms, 0.95):7.1f} ms  (n={len(values_ms)}, mean {statistics.fmean(values_ms):.1f})"
