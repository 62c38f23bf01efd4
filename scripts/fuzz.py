"""Schemathesis over /openapi.json against a real server: no request may produce a 5xx.

Starts ``manage.py serve`` (migrate, sample corpus, uvicorn) on its own data
dir (``var/fuzz``) with the deterministic embedder, or fuzzes a server that is
already running (``--url``, as the test suite does), then runs Schemathesis's
examples, coverage and fuzzing phases with positive and negative data on every
route but the rate-limited ``/playground``.

Requests name a person (``X-User-Subject: fuzz-owner``) who owns one
workspace; its id fills every ``workspace_id`` and member subjects are drawn
from the owner, an existing member and fuzzed text, so the membership writes
(the owner adding themselves, a member added twice) are reached, not only
their 404s. Exit status: Schemathesis's (non-zero on any 5xx), or 1 when the
server it started logged a traceback.

Run: make fuzz  (or .venv/bin/python scripts/fuzz.py [--max-examples 25] [--url URL --api-key KEY])
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
KEY = "fuzz-key"
SUBJECT = "fuzz-owner"
MEMBER = "fuzz-partner"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-examples", type=int, default=25, help="examples per route and phase")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--url", help="fuzz this running server instead of starting one")
    parser.add_argument("--api-key", default=KEY, help="the API key of --url's server")
    parser.add_argument("--phases", default="examples,coverage,fuzzing")
    parser.add_argument("--max-time", type=int, help="seconds for the whole Schemathesis run")
    args = parser.parse_args()
    if args.url:
        return fuzz(args.url.rstrip("/"), args)
    return fuzz_own_server(args)


def fuzz_own_server(args: argparse.Namespace) -> int:
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
            status = fuzz(url, args)
        finally:
            server.terminate()
            server.wait(15)
    text = log_path.read_text(errors="replace")
    tracebacks = text.count("Traceback")
    print(f"server log {log_path}: {tracebacks} tracebacks")
    return status or (1 if tracebacks else 0)


def workspace_for_fuzzing(url: str, api_key: str) -> str:
    """A workspace owned by SUBJECT with MEMBER as a partner: the members routes' real target."""
    headers = {"X-API-Key": api_key, "X-User-Subject": SUBJECT}
    created = httpx.post(f"{url}/workspaces", json={"name": "fuzz"}, headers=headers, timeout=30)
    created.raise_for_status()
    workspace_id = created.json()["workspace_id"]
    httpx.post(f"{url}/workspaces/{workspace_id}/members", json={"subject": MEMBER, "role": "partner"},
               headers=headers, timeout=30).raise_for_status()
    return workspace_id


def config_text(api_key: str, workspace_id: str) -> str:
    """schemathesis.toml: the identity headers, the workspace id, and the member subjects to draw from."""
    dumps = json.dumps  # a JSON string is a valid TOML basic string
    return "\n".join([
        f"headers = {{ \"X-API-Key\" = {dumps(api_key)}, \"X-User-Subject\" = {dumps(SUBJECT)} }}",
        "[parameters]",
        f"\"path.workspace_id\" = {dumps(workspace_id)}",
        "\"body.subject\" = { dictionary = \"members\", probability = 0.5 }",
        "[dictionaries.members]",
        f"values = [{dumps(SUBJECT)}, {dumps(MEMBER)}]",
        "",
    ])


def fuzz(url: str, args: argparse.Namespace) -> int:
    workspace_id = workspace_for_fuzzing(url, args.api_key)
    with tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "schemathesis.toml"
        config.write_text(config_text(args.api_key, workspace_id))
        command = [
            str(Path(sys.executable).parent / "schemathesis"), "--config-file", str(config),
            "run", f"{url}/openapi.json",
            "--checks", "not_a_server_error",
            "--phases", args.phases,
            "--mode", "all",
            "--max-examples", str(args.max_examples),
            "--seed", str(args.seed),
            "--exclude-path", "/playground",
            "--request-timeout", "60",
            # One worker: with two threads Hypothesis's lambda descriptions call ast.parse concurrently, which
            # CPython 3.11 can fail with "SystemError: AST constructor recursion depth mismatch" (cpython gh-106905).
            "--workers", "1",
            "--no-color",
        ]
        if args.max_time:
            command += ["--max-time", str(args.max_time)]
        print(" ".join(command), flush=True)
        return subprocess.run(command, cwd=scratch).returncode


if __name__ == "__main__":
    sys.exit(main())
