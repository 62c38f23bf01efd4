"""Test settings: the project settings under a test environment.

The environment is set before ``acehrag.settings`` reads it, so tests run on
their own embedded PostgreSQL data directory (``var/test``, or
``ACEH_RAG_TEST_DATA_DIR`` so two test runs on one machine never share a test
database) with the deterministic hashing embedder and a known API key. Under
pytest-xdist each worker has its own data directory (``…-gw0``, ``…-gw1``): its
own PostgreSQL server, uploads and workbook files, so workers never meet.
"""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_WORKER = os.environ.get("PYTEST_XDIST_WORKER")
_DATA_DIR = os.environ.get("ACEH_RAG_TEST_DATA_DIR") or str(ROOT / "var" / "test")
TEST_ENV = {
    "ACEH_RAG_DATA_DIR": f"{_DATA_DIR}-{_WORKER}" if _WORKER else _DATA_DIR,
    "ACEH_RAG_EMBEDDING__BACKEND": "hashing",
    "ACEH_RAG_API__KEYS": "test-env-key",
    # Tests build tiny documents whose articles must stay separate chunks.
    "ACEH_RAG_INGESTION__CHUNK_MIN_CHARS": "0",
}
for name, value in TEST_ENV.items():
    os.environ[name] = value
os.environ.pop("DATABASE_URL", None)
os.environ.pop("CELERY_BROKER_URL", None)

from acehrag.settings import *  # noqa: E402,F401,F403

# In-process tests render templates without running collectstatic first; the real servers
# (tests/conftest.py LiveServer) use the project's hashed, compressed storage.
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
# ... and whitenoise, built with each in-process client, lists and stats STATIC_ROOT: the checkout's
# ``staticfiles/`` is rewritten by other workers' collectstatic (a FileNotFoundError in CI), so in-process
# tests read a directory of their own that nothing collects into.
STATIC_ROOT = Path(TEST_ENV["ACEH_RAG_DATA_DIR"]) / "static-root"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
