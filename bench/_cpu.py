"""CPU seconds spent by processes, read from /proc: what a run cost, whatever else the machine did."""
from __future__ import annotations

import os
from pathlib import Path

TICKS = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def process_cpu_seconds(pid: int) -> float:
    """User and system time of ``pid`` and of its children it has reaped."""
    fields = _stat(pid)
    return sum(int(value) for value in fields[11:15]) / TICKS


def postgres_cpu_seconds() -> float:
    """The server's CPU: the postmaster, its live backends and those that have ended (reaped by it)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        backend = cursor.fetchone()[0]
    postmaster = int(_stat(backend)[1])
    total = process_cpu_seconds(postmaster)
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = _stat(int(entry.name))
            if int(fields[1]) == postmaster:
                total += sum(int(value) for value in fields[11:13]) / TICKS
        except (OSError, ValueError):
            continue  # a process that ended while we read
    return total
