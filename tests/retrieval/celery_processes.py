"""Real broker and worker processes for the distributed ingestion tests (no Celery or Redis mocks)."""
from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from tests.conftest import ROOT


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def redis_server() -> Iterator[str]:
    """A private redis-server on a free loopback port (no other test shares it), stopped afterwards."""
    binary = shutil.which("redis-server")
    assert binary, "redis-server is required for the distributed ingestion tests (apt-get install redis-server)"
    port = _free_port()
    process = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(5)


def worker_start(env: dict[str, str], log: Path, name: str = "worker", timeout: float = 60) -> subprocess.Popen:
    """Start ``celery -A acehrag worker`` (one task at a time) and wait until it says it is ready."""
    log.parent.mkdir(parents=True, exist_ok=True)
    log.write_bytes(b"")
    with open(log, "wb") as handle:
        process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "acehrag", "worker", "--pool=solo", "--concurrency=1",
             "--loglevel=INFO", "--without-heartbeat", "--without-gossip", "--without-mingle", "-n", f"{name}@%h"],
            cwd=ROOT, env=env, stdout=handle, stderr=subprocess.STDOUT,
        )
    deadline = time.monotonic() + timeout
    while b"ready" not in log.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"worker {name} did not start:\n{log.read_text()[-3000:]}")
        time.sleep(0.2)
    return process


def worker_stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
