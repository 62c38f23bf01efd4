"""Runs one of scripts/ as CI and `make` run it: a subprocess of this interpreter from the repository root."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(script: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(ROOT / "scripts" / script), *args], input=stdin,
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
