"""bench/load.py's servers and probes: a server process per source tree, /healthz probed from a
process of its own and from the load generator's loop, database connections sampled."""
from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


KEY = "bench-load-key"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def server_command(tree: Path, port: int) -> list[str]:
    """How ``tree`` is served: its own ``acehrag.serving`` definition, else (older trees, once served by
    daphne, which is no longer installed) uvicorn on the same ASGI application."""
    if (tree / "acehrag" / "serving.py").exists():
        definition = subprocess.run([sys.executable, "-c", "import json, sys; from acehrag.serving import server_argv; "
                                     f"print(json.dumps(server_argv('127.0.0.1', {port}, sys.executable)))"],
                                    cwd=tree, check=True, capture_output=True, text=True)
        return json.loads(definition.stdout)
    return [sys.executable, "-m", "uvicorn", "--host", "127.0.0.1", "--port", str(port), "--no-access-log",
            "acehrag.asgi:application"]


class Server:
    def __init__(self, tree: Path, env: dict[str, str], log: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._log = open(log, "wb")
        self.process = subprocess.Popen(server_command(tree, self.port), cwd=tree, env=env, stdout=self._log,
                                        stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        raise RuntimeError(f"server from {tree} did not start; see {log}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log.close()


PROBE = """
import sys, time, httpx
url, worst, failed, late = sys.argv[1], 0.0, 0, 0.0
with httpx.Client(timeout=10) as client:
    while True:
        started = time.perf_counter()
        try:
            failed += client.get(url + "/healthz").status_code != 200
        except httpx.HTTPError:
            failed += 1
        worst = max(worst, (time.perf_counter() - started) * 1000)
        print(f"{worst:.1f} {failed} {late:.1f}", flush=True)
        asleep = time.perf_counter()
        time.sleep(0.25)
        # How late this process itself woke: the machine's other work delaying the probe, not the server.
        late = max(late, (time.perf_counter() - asleep - 0.25) * 1000)
"""


class OutsideProbe:
    """/healthz from a process of its own: the latency a client sees, not the load generator's own delays."""

    def __init__(self, url: str):
        self.process = subprocess.Popen([sys.executable, "-c", PROBE, url], stdout=subprocess.PIPE, text=True)

    def stop(self) -> tuple[float, int, float]:
        """Max /healthz latency (ms), failures, and the probe's own max wake-up delay (ms)."""
        self.process.terminate()
        lines = self.process.communicate()[0].split()
        return (float(lines[-3]), int(lines[-2]), float(lines[-1])) if len(lines) >= 3 else (float("nan"), -1, float("nan"))


class Probe:
    """/healthz latency and database connections, sampled while a phase runs."""

    def __init__(self, url: str, conninfo: dict):
        self.url, self.conninfo = url, conninfo
        self.health_max_ms = 0.0       # from the probe's own process
        self.health_failures = 0
        self.in_loop_max_ms = 0.0      # from inside the load generator's event loop
        self.probe_late_max_ms = 0.0   # how late the probe process itself woke (machine contention)
        self.connections_max = 0

    def _connections(self) -> int:
        import psycopg

        with psycopg.connect(**self.conninfo, autocommit=True) as conn:
            return conn.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'").fetchone()[0] - 1

    async def run(self, until: float) -> None:
        async with httpx.AsyncClient(timeout=10) as client:
            while time.monotonic() < until:
                started = time.perf_counter()
                try:
                    ok = (await client.get(self.url + "/healthz")).status_code == 200
                except httpx.HTTPError:
                    ok = False
                self.in_loop_max_ms = max(self.in_loop_max_ms, (time.perf_counter() - started) * 1000)
                self.health_failures += not ok
                try:
                    self.connections_max = max(self.connections_max, await asyncio.to_thread(self._connections))
                except Exception:  # noqa: BLE001 - a probe that cannot connect records nothing
                    pass
                await asyncio.sleep(0.5)


async def with_probe(url: str, conninfo: dict, work):
    probe = Probe(url, conninfo)
    outside = OutsideProbe(url)
    task = asyncio.ensure_future(probe.run(time.monotonic() + 3600))
    try:
        result = await work
    finally:
        task.cancel()
        worst, failed, probe.probe_late_max_ms = outside.stop()
        probe.health_max_ms = worst
        probe.health_failures += max(failed, 0)
    return result, probe
