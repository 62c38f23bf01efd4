"""The requirement locks stay current and hashed, and the audit fails on a known vulnerability
(scripts/check_locks.py, scripts/audit.py against a real OSV-protocol server on loopback)."""
import json
import shutil
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.supply_chain.scripts import ROOT, run

REQUIREMENTS = ROOT / "requirements"
FAKE_HASH = "--hash=sha256:" + "ab" * 32


@pytest.fixture
def requirements_copy(tmp_path):
    target = tmp_path / "requirements"
    target.mkdir()
    for path in [*REQUIREMENTS.glob("*.in"), *REQUIREMENTS.glob("*.txt")]:
        shutil.copy(path, target / path.name)
    return target


def test_every_lock_is_current_and_hashed():
    result = run("check_locks.py")
    assert result.returncode == 0, result.stdout
    assert "base.in, dev.in, eval.in" in result.stdout


def test_the_runtime_lock_carries_no_evaluation_or_unused_packages():
    runtime = (REQUIREMENTS / "base.txt").read_text()
    for name in ("ranx", "numba", "matplotlib", "seaborn", "scikit-learn", "channels", "daphne", "pytest"):
        assert f"\n{name}==" not in runtime, name
    development = (REQUIREMENTS / "dev.txt").read_text()
    assert "\nranx==" in development and "\nscikit-learn==" in development
    assert "\ndaphne==" not in development and "\nchannels==" not in development


def test_a_package_dropped_from_an_input_makes_its_lock_stale(requirements_copy):
    source = requirements_copy / "base.in"
    source.write_text("".join(line for line in source.read_text().splitlines(keepends=True)
                              if not line.startswith("rich==")))
    result = run("check_locks.py", str(requirements_copy))
    assert result.returncode == 1
    assert "base.txt: rich is locked as coming from base.in, which no longer asks for it" in result.stdout


def test_a_package_added_or_repinned_in_an_input_makes_its_lock_stale(requirements_copy):
    source = requirements_copy / "base.in"
    source.write_text(source.read_text().replace("Django==5.2.19", "Django==5.2.20") + "tenacity==9.1.2\n")
    result = run("check_locks.py", str(requirements_copy))
    assert result.returncode == 1
    assert "base.txt: tenacity==9.1.2 is asked for by base.in but not locked" in result.stdout
    assert "base.txt: django==5.2.19 does not satisfy Django==5.2.20 (base.in)" in result.stdout
    assert "eval.txt: django==5.2.19 does not satisfy" in result.stdout  # eval.in includes base.in


def test_a_pin_without_its_hash_is_refused(requirements_copy):
    lock = requirements_copy / "eval.txt"
    lines = lock.read_text().splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines) if line.startswith("ranx=="))
    kept = [lines[start].replace(" \\", "")] + [line for line in lines[start + 1:] if "--hash" not in line]
    lock.write_text("".join(lines[:start] + kept))
    result = run("check_locks.py", str(requirements_copy))
    assert result.returncode == 1
    assert "eval.txt: ranx is pinned without a sha256 hash" in result.stdout


class _Advisories(BaseHTTPRequestHandler):
    """OSV's query API (POST /v1/query): one advisory, against django 5.2.19."""

    def do_POST(self):
        query = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        vulns = []
        if query["package"] == {"name": "django", "ecosystem": "PyPI"} and query["version"] == "5.2.19":
            vulns = [{"id": "PYSEC-2026-0001", "aliases": ["CVE-2026-0001"], "summary": "SQL injection in a test",
                      "affected": [{"package": {"name": "django", "ecosystem": "PyPI"},
                                    "ranges": [{"type": "ECOSYSTEM",
                                                "events": [{"introduced": "5.2"}, {"fixed": "5.2.20"}]}]}]}]
        body = json.dumps({"vulns": vulns} if vulns else {}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def osv_url():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Advisories)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1/query"
    server.shutdown()
    server.server_close()


@pytest.fixture
def small_lock(tmp_path):
    lock = tmp_path / "small.txt"
    lock.write_text(f"django==5.2.19 \\\n    {FAKE_HASH}\nrich==15.0.0 \\\n    {FAKE_HASH}\n")
    return lock


def audit(lock, osv_url: str, allow_text: str):
    allow = lock.parent / "allow.txt"
    allow.write_text(allow_text)
    return run("audit.py", str(lock), "--osv-url", osv_url, "--allow", str(allow))


def test_a_known_vulnerability_fails_the_audit(osv_url, small_lock):
    result = audit(small_lock, osv_url, "# nothing accepted\n")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "small.txt: 2 of 2 packages audited, 1 known vulnerabilities" in result.stdout
    assert "VULNERABLE small.txt: django==5.2.19 PYSEC-2026-0001 (fixed in 5.2.20)" in result.stdout


def test_an_accepted_vulnerability_passes_only_with_its_reason(osv_url, small_lock):
    result = audit(small_lock, osv_url, "PYSEC-2026-0001  the raw-SQL path it needs is not used here\n")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 known vulnerabilities, 1 accepted in allow.txt" in result.stdout
    refused = audit(small_lock, osv_url, "PYSEC-2026-0001\n")
    assert refused.returncode == 1
    assert "PYSEC-2026-0001 is accepted without a reason" in refused.stderr
