"""What one web process costs: installed size, import time and memory, for several installs in one run.

For each ``--install TREE=PYTHON`` pair: the size of the interpreter's site-packages, then, in fresh
processes (``--runs`` each, the installs interleaved), the time to import and set up the web
application (``django.setup()``, ``acehrag.asgi``, the URL configuration) read from
``python -X importtime`` (the sum of every module's own time), the wall time of that process, and its
resident memory (``VmRSS``/``VmHWM`` from /proc/self/status) once the application is loaded. Also
which of numba, matplotlib, seaborn, pandas, ranx, sklearn and channels the loaded process imported
and which are installed at all.

    python bench/web_footprint.py --install /work/before=/venv-before/bin/python \\
        --install .=/venv-after/bin/python [--runs 7]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

WATCHED = ("numba", "matplotlib", "seaborn", "pandas", "ranx", "sklearn", "channels", "daphne")
PROBE = r"""
import importlib.util, json, os, sys
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "acehrag.settings")
import django
django.setup()
from acehrag.asgi import application
from django.urls import get_resolver
get_resolver().url_patterns
status = dict(line.split(":", 1) for line in open("/proc/self/status") if ":" in line)
print(json.dumps({"rss_kb": int(status["VmRSS"].split()[0]), "hwm_kb": int(status["VmHWM"].split()[0]),
                  "imported": sorted(n for n in WATCHED if n in sys.modules),
                  "installed": sorted(n for n in WATCHED if importlib.util.find_spec(n))}))
"""


def site_packages_mb(python: str) -> float:
    path = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    return sum(f.stat().st_size for f in Path(path).rglob("*") if f.is_file()) / 1e6


def one_run(tree: str, python: str, data_dir: str) -> dict:
    env = {**os.environ, "ACEH_RAG_DATA_DIR": data_dir, "PYTHONDONTWRITEBYTECODE": "1"}
    started = time.perf_counter()
    result = subprocess.run([python, "-X", "importtime", "-c", f"WATCHED = {WATCHED!r}\n" + PROBE], cwd=tree,
                            env=env, capture_output=True, text=True, timeout=300)
    wall = time.perf_counter() - started
    if result.returncode:
        raise SystemExit(f"{tree}: {result.stderr[-800:]}")
    self_us = sum(int(line.split("|")[0].split(":")[1]) for line in result.stderr.splitlines()
                  if line.startswith("import time:") and line.split("|")[0].split(":")[1].strip().isdigit())
    return {**json.loads(result.stdout.strip().splitlines()[-1]), "import_s": self_us / 1e6, "wall_s": wall}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--install", action="append", required=True, help="TREE=PYTHON")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--data-dir", default="/tmp/web-footprint")
    args = parser.parse_args()
    installs = [tuple(pair.split("=", 1)) for pair in args.install]
    runs: dict[tuple, list[dict]] = {install: [] for install in installs}
    for number in range(args.runs + 1):
        for install in (installs if number % 2 else installs[::-1]):
            result = one_run(*install, args.data_dir)
            if number:  # the first round warms the page cache for both
                runs[install].append(result)
    for (tree, python), results in runs.items():
        last = results[-1]
        print(f"{tree} ({python}): site-packages {site_packages_mb(python):.0f} MB")
        print(f"  import + setup (sum of -X importtime self times) median "
              f"{statistics.median(r['import_s'] for r in results):.3f} s, process wall median "
              f"{statistics.median(r['wall_s'] for r in results):.3f} s over {len(results)} runs")
        print(f"  VmRSS median {statistics.median(r['rss_kb'] for r in results) / 1024:.1f} MB, "
              f"VmHWM {statistics.median(r['hwm_kb'] for r in results) / 1024:.1f} MB")
        print(f"  imported by the web process: {last['imported'] or 'none'}; installed: {last['installed'] or 'none'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
