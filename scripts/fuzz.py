"""Schemathesis over /openapi.json against a real server: no request may produce a 5xx.

Starts ``manage.py serve`` (migrate, sample corpus, uvicorn) on its own data
dir (``var/fuzz``) with the deterministic embedder, then runs Schemathesis's
examples, coverage and fuzzing phases with positive and negative data on every
route but the rate-limited ``/playground``. Exit status: Schemathesis's.

Run: make fuzz  (or .venv/bin/python scripts/fuzz.py [--max-examples 25])
"""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
KEY = "fuzz-key"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-examples", type=int, default=25, help="examples per route and phase")
    parser.add_argument("--seed", type=int, default=17)
    args = parser.parse_args()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACEH_RAG_") and k != "DATABASE_URL"}
    env.update(ACEH_RAG_DATA_DIR=str(ROOT / "var" / "fuzz"), ACEH_RAG_API__KEYS=KEY,
               ACEH_RAG_EMBEDDING__BACKEND="hashing", ACEH_RAG_LOG_LEVEL="WARNING",
               ACEH_RAG_PUBLIC_CHAT__IP_RATE_LIMIT="100000")
    log_path = ROOT / "var" / "fuzz-server.log"
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path, "wb") as log:
        server = subprocess.Popen([sys.executable, "manage.py", "serve", "--host", "127.0.0.1", "--port", str(port)],
                                  cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                try:
                    if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.5)
            else:
                print(f"server did not start; see {log_path}")
                return 2
            command = [
                str(Path(sys.executable).parent / "schemathesis"), "run", f"{url}/openapi.json",
                "--checks", "not_a_server_error",
                "--phases", "examples,coverage,fuzzing",
                "--mode", "all",
                "--max-examples", str(args.max_examples),
                "--seed", str(args.seed),
                "--exclude-path", "/playground",
                "--header", f"X-API-Key: {KEY}",
                "--request-timeout", "60",
                "--workers", "2",
            ]
            print(" ".join(command), flush=True)
            status = subprocess.run(command, cwd=ROOT).returncode
        finally:
            server.terminate()
            server.wait(15)
    text = log_path.read_text(errors="replace")
    tracebacks = text.count("Traceback")
    print(f"server log {log_path}: {tracebacks} tracebacks")
    return status or (1 if tracebacks else 0)


if __name__ == "__main__":
    sys.exit(main())
