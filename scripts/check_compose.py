"""Checks the rendered production compose file: `docker-compose config | python scripts/check_compose.py RAW`.

RAW is docker/compose.yaml as written (secrets are judged there, before substitution); the rendered
configuration on stdin is what Compose will run (anchors and merges resolved). Fails, naming each
finding, unless:

- every image is pinned to a version (a tag with a digit, or a digest), never ``latest``;
- every process built from the Dockerfile waits for what it uses, each with a health condition
  (web and worker: PgBouncer and Redis healthy; migrate: PostgreSQL healthy), and every service
  waited on as healthy has a health check;
- the database is PostgreSQL 18 with pgvector, the major version the test suite runs on;
- every password, secret, key or token in an environment block is taken from the environment.
"""
from __future__ import annotations

import re
import sys

import yaml

APP_WAITS = {"pgbouncer": "service_healthy", "redis": "service_healthy"}
MIGRATE_WAITS = {"db": "service_healthy"}
TESTED_POSTGRES_MAJOR = "18"
SECRET_NAME = re.compile(r"PASSWORD|SECRET|API_KEY|__KEYS|TOKEN|JWT_KEYS", re.I)
FROM_ENVIRONMENT = re.compile(r"^\$\{[A-Z0-9_]+(:?[-?][^}]*)?\}$")
URL_PASSWORD = re.compile(r"://[^:/@\s]+:([^@\s]+)@")


def _pinned(image: str) -> bool:
    if "@sha256:" in image:
        return True
    name, _, tag = image.rpartition(":")
    return bool(name) and "/" not in tag and tag != "latest" and any(ch.isdigit() for ch in tag)


def _waits(service: dict) -> dict[str, str]:
    depends = service.get("depends_on") or {}
    if isinstance(depends, list):
        return {name: "service_started" for name in depends}
    return {name: (spec or {}).get("condition", "service_started") for name, spec in depends.items()}


def image_findings(services: dict) -> list[str]:
    return [f"{name}: image {spec['image']!r} is not pinned to a version"
            for name, spec in services.items() if "image" in spec and "build" not in spec
            and not _pinned(spec["image"])]


def wait_findings(services: dict) -> list[str]:
    findings = []
    for name, spec in services.items():
        if "build" not in spec:
            continue
        required = MIGRATE_WAITS if name == "migrate" else APP_WAITS
        waits = _waits(spec)
        for needed, condition in required.items():
            if waits.get(needed) != condition:
                findings.append(f"{name}: must wait for {needed} ({condition}), has {waits.get(needed)}")
    for name, spec in services.items():
        for needed, condition in _waits(spec).items():
            if condition == "service_healthy" and "healthcheck" not in services.get(needed, {}):
                findings.append(f"{name}: waits for {needed} to be healthy, which has no healthcheck")
    return findings


def database_findings(services: dict) -> list[str]:
    image = services.get("db", {}).get("image", "")
    if "pgvector" not in image or f"pg{TESTED_POSTGRES_MAJOR}" not in image:
        return [f"db: image {image!r} is not PostgreSQL {TESTED_POSTGRES_MAJOR} with pgvector"]
    return []


def secret_findings(raw: dict) -> list[str]:
    findings = []
    blocks = [(name, spec.get("environment")) for name, spec in (raw.get("services") or {}).items()]
    blocks += [(key, value.get("environment")) for key, value in raw.items()
               if key.startswith("x-") and isinstance(value, dict)]
    for owner, environment in blocks:
        for variable, value in (environment or {}).items():
            text = str(value).strip()
            password = URL_PASSWORD.search(text)
            if password and not FROM_ENVIRONMENT.match(password.group(1)):
                findings.append(f"{owner}: {variable} carries a password written in the file")
            if variable == "<<" or not SECRET_NAME.search(variable):
                continue
            if text and not FROM_ENVIRONMENT.match(text):
                findings.append(f"{owner}: {variable} is written in the file, not taken from the environment")
            elif ":-" in text and not text.endswith(":-}"):
                findings.append(f"{owner}: {variable} has a default value written in the file")
    return findings


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__.splitlines()[0], file=sys.stderr)
        return 2
    rendered = yaml.safe_load(sys.stdin.read()) or {}
    with open(argv[0], encoding="utf-8") as handle:
        raw = yaml.load(handle, Loader=yaml.SafeLoader)  # merge keys resolved, values unsubstituted
    services = rendered.get("services") or {}
    findings = (image_findings(services) + wait_findings(services) + database_findings(services)
                + secret_findings(raw))
    for finding in findings:
        print(f"compose: {finding}")
    if not findings:
        print(f"compose: {len(services)} services, images pinned, waits healthy, PostgreSQL "
              f"{TESTED_POSTGRES_MAJOR} + pgvector, secrets from the environment")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
