"""The image's build context carries no state (scripts/docker_context.py) and the compose file
keeps its production properties (scripts/check_compose.py)."""
import shutil
from pathlib import Path

import pytest
import yaml

from tests.supply_chain.scripts import ROOT, run

COMPOSE = ROOT / "docker" / "compose.yaml"


@pytest.fixture
def checkout(tmp_path):
    """A developer's checkout in miniature: code beside git history, a virtualenv and var/ state."""
    for path, text in {
        "manage.py": "print()\n", "docker/Dockerfile": "FROM python:3.11-slim\n",
        "retrieval/search.py": "X = 1\n", "retrieval/__pycache__/search.cpython-311.pyc": "\0",
        ".git/config": "[core]\n", ".venv/bin/python": "#!\n", "var/pg/PG_VERSION": "18\n",
        "var/dev-api-key": "secret\n", "test-output/widget.png": "png", "docker/.env": "POSTGRES_PASSWORD=x\n",
    }.items():
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return tmp_path


def test_a_context_without_dockerignore_carries_state(checkout):
    result = run("docker_context.py", "--root", str(checkout))
    assert result.returncode == 1
    for leak in (".git", ".venv", "var", "test-output", "docker/.env", "retrieval/__pycache__"):
        assert f"  {leak}\n" in result.stdout, leak


def test_the_dockerignore_keeps_state_out_and_code_in(checkout):
    shutil.copy(ROOT / ".dockerignore", checkout / ".dockerignore")
    result = run("docker_context.py", "--root", str(checkout), "--list")
    assert result.returncode == 0, result.stdout
    listed = {line.split("file ", 1)[1] for line in result.stdout.splitlines() if line.startswith("  file ")}
    assert listed == {"manage.py", "docker/Dockerfile", "retrieval/search.py", ".dockerignore"}


def test_the_repository_context_carries_no_state():
    result = run("docker_context.py")
    assert result.returncode == 0, result.stdout


def test_the_dockerfile_installs_the_lock_into_a_slim_non_root_stage():
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    stages = [line for line in dockerfile.splitlines() if line.startswith("FROM ")]
    assert len(stages) == 2 and stages[1].endswith("AS runtime")
    assert "--require-hashes" in dockerfile and "requirements/base.txt" in dockerfile
    runtime = dockerfile.split("AS runtime", 1)[1]
    assert "COPY --from=build /opt/venv /opt/venv" in runtime
    assert "pip install" not in runtime and "manage.py collectstatic --noinput" in runtime
    assert runtime.strip().splitlines()[-1].startswith("CMD") and "\nUSER acehrag\n" in runtime


def compose_check(raw_text: str, tmp_path: Path):
    raw = tmp_path / "compose.yaml"
    raw.write_text(raw_text)
    rendered = yaml.safe_dump(yaml.safe_load(raw_text))  # merge keys resolved, as Compose renders them
    return run("check_compose.py", str(raw), stdin=rendered)


def test_the_compose_file_keeps_its_production_properties(tmp_path):
    result = compose_check(COMPOSE.read_text(), tmp_path)
    assert result.returncode == 0, result.stdout
    assert "images pinned, waits healthy, PostgreSQL 18 + pgvector, secrets from the environment" in result.stdout


@pytest.mark.parametrize(("change", "finding"), [
    (("image: redis:7.4.5-alpine", "image: redis:latest"), "redis: image 'redis:latest' is not pinned"),
    (("edoburu/pgbouncer:v1.25.2-p0", "edoburu/pgbouncer"), "pgbouncer: image 'edoburu/pgbouncer' is not pinned"),
    (("pgvector/pgvector:0.8.1-pg18-trixie", "pgvector/pgvector:0.8.1-pg17"), "db: image 'pgvector/pgvector:0.8.1-pg17'"
     " is not PostgreSQL 18"),
    # A service that overrides depends_on without merging the shared waits loses them.
    (("    depends_on:\n      <<: *app-deps\n      migrate:", "    depends_on:\n      migrate:"),
     "web: must wait for pgbouncer (service_healthy), has None"),
    (("    healthcheck:\n      test: [\"CMD\", \"redis-cli\", \"ping\"]", "    labels:\n      test: [\"x\"]"),
     "waits for redis to be healthy, which has no healthcheck"),
    (("DJANGO_SECRET_KEY: ${DJANGO_SECRET_KEY:?set DJANGO_SECRET_KEY}", "DJANGO_SECRET_KEY: dev-secret"),
     "DJANGO_SECRET_KEY is written in the file"),
    (("POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}", "POSTGRES_PASSWORD: ${POSTGRES_PASSWORD:-hunter2}"),
     "db: POSTGRES_PASSWORD has a default value written in the file"),
    (("postgresql://acehrag:${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}@pgbouncer", "postgresql://acehrag:pw@pgbouncer"),
     "DATABASE_URL carries a password written in the file"),
])
def test_each_compose_property_is_checked(tmp_path, change, finding):
    text = COMPOSE.read_text()
    old, new = change
    assert old in text, old
    result = compose_check(text.replace(old, new, 1), tmp_path)
    assert result.returncode == 1
    assert finding in result.stdout, result.stdout


def test_the_compose_file_scales_by_configuration_and_shares_files_through_an_object_store():
    services = yaml.safe_load(COMPOSE.read_text())["services"]
    for name in ("web", "worker"):
        env = services[name]["environment"]
        assert env["ACEH_RAG_FILES__BACKEND"] == "s3" and env["ACEH_RAG_FILES__ENDPOINT_URL"].endswith("minio:9000}")
        assert services[name]["depends_on"]["minio-bucket"] == {"condition": "service_completed_successfully"}
    worker = services["worker"]
    assert "--concurrency=${ACEH_RAG_WORKER_CONCURRENCY:-2}" in worker["command"]
    assert worker["deploy"]["replicas"] == "${ACEH_RAG_WORKER_REPLICAS:-1}"
    assert services["embeddings"]["profiles"] == ["embedding-server"]
    assert services["minio"]["healthcheck"]["test"] == ["CMD", "mc", "ready", "local"]
