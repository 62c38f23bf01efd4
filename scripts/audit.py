"""Known vulnerabilities in the locked requirement sets: `python scripts/audit.py LOCK...`.

Runs pip-audit over each lock (every pin hashed, nothing installed: ``--disable-pip``). Exits 1 when
a package has a known vulnerability that requirements/audit-allow.txt does not accept; each line
there is ``ID  reason`` (a line without a reason is refused). When no advisory service answers,
nothing was audited: that is said plainly and counted, never reported as "no vulnerabilities"
(exit 0, or 3 with ``--strict``).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ALLOW_FILE = ROOT / "requirements" / "audit-allow.txt"
PIP_AUDIT = Path(sys.executable).parent / "pip-audit"


def allowed(path: Path = ALLOW_FILE) -> dict[str, str]:
    """Accepted advisories: ID → reason."""
    accepted = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines() if path.exists() else [], 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        ident, _, reason = line.partition(" ")
        if not reason.strip():
            raise SystemExit(f"{path.name}:{number}: {ident} is accepted without a reason")
        accepted[ident] = reason.strip()
    return accepted


def audit(lock: Path, accepted: dict[str, str], service: list[str]) -> dict:
    command = [str(PIP_AUDIT), "--disable-pip", "--require-hashes", "-r", str(lock), "--format", "json",
               "--progress-spinner", "off", *service]
    for ident in accepted:
        command += ["--ignore-vuln", ident]
    result = subprocess.run(command, capture_output=True, text=True, timeout=600)
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError:
        raise SystemExit(f"pip-audit failed on {lock.name}: {result.stderr.strip()[-400:]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("locks", nargs="+", type=Path)
    parser.add_argument("--strict", action="store_true", help="fail (3) when packages could not be audited")
    parser.add_argument("--allow", type=Path, default=ALLOW_FILE, help="accepted advisories (ID  reason)")
    parser.add_argument("--osv-url", help="ask an OSV service (its /v1/query URL) instead of PyPI")
    args = parser.parse_args(argv)
    accepted = allowed(args.allow)
    service = ["--vulnerability-service", "osv", "--osv-url", args.osv_url] if args.osv_url else []
    vulnerable, unaudited = [], 0
    for lock in args.locks:
        report = audit(lock, accepted, service)
        packages = report.get("dependencies", [])
        skipped = [p for p in packages if p.get("skip_reason")]
        unaudited += len(skipped)
        for package in packages:
            for vuln in package.get("vulns", []):
                vulnerable.append(f"{lock.name}: {package['name']}=={package['version']} {vuln['id']} "
                                  f"(fixed in {', '.join(vuln.get('fix_versions') or ['no release'])})")
        print(f"{lock.name}: {len(packages) - len(skipped)} of {len(packages)} packages audited, "
              f"{sum(len(p.get('vulns', [])) for p in packages)} known vulnerabilities"
              + (f", {len(accepted)} accepted in {args.allow.name}" if accepted else ""))
        if skipped:
            print(f"  not audited ({len(skipped)}): {skipped[0]['skip_reason']}"
                  + (" …" if len(skipped) > 1 else ""))
    for line in vulnerable:
        print(f"VULNERABLE {line}")
    if vulnerable:
        return 1
    if unaudited:
        print(f"NOT AUDITED: {unaudited} pinned packages got no answer from an advisory service; "
              "this is not a clean result")
        return 3 if args.strict else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
