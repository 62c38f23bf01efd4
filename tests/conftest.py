"""Shared fixtures: API clients, and real servers (uvicorn, as `serve`) on loopback."""
from __future__ import annotations

import fcntl
import os
import re
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from django.conf import settings

from acehrag.serving import server_argv

ROOT = Path(__file__).resolve().parent.parent
TEST_API_KEY = "test-env-key"
CORPUS_DIR = ROOT.parent / "shared" / "corpus"


@pytest.fixture
def api_client(client):
    """Django test client that sends the test API key on every request."""
    client.defaults["HTTP_X_API_KEY"] = TEST_API_KEY
    return client


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class LiveServer:
    """A server process (``acehrag/serving.py``: uvicorn, as ``serve``) against the test database."""

    def __init__(self, env: dict[str, str]):
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        log_dir = ROOT / "var" / "test-logs"
        log_dir.mkdir(parents=True, exist_ok=True)
        self.log_path = log_dir / f"server-{self.port}.log"
        self._log = open(self.log_path, "wb")
        # whitenoise lists and stats ``staticfiles/`` as the server starts: another worker's collectstatic
        # rewriting a file in between crashed it (FileNotFoundError, seen in a fresh clone), so starting holds
        # the same lock as collecting.
        with static_files_lock():
            self.process = subprocess.Popen(
                server_argv("127.0.0.1", self.port),
                cwd=ROOT,
                env=env,
                stdout=self._log,
                stderr=subprocess.STDOUT,
            )
            self._wait_until_up()

    def _wait_until_up(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited early; log: {self.log_path.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1.0).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not start in {timeout}s; log: {self.log_path.read_text()[-2000:]}")

    def log_text(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log.close()


def server_env(overrides: dict[str, str] | None = None) -> dict[str, str]:
    """Environment for a server process that uses this session's test database."""
    from django.db import connection

    from acehrag.embedded_db import embedded_server

    server = embedded_server(settings.ACEH_RAG.data_dir)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ACEH_RAG_")}
    env.update(
        DJANGO_SETTINGS_MODULE="acehrag.settings",
        DATABASE_URL=f"postgresql://postgres@/{connection.settings_dict['NAME']}?host={server.socket_dir}",
        ACEH_RAG_DATA_DIR=str(settings.ACEH_RAG.data_dir),
        ACEH_RAG_EMBEDDING__BACKEND="hashing",
        ACEH_RAG_API__KEYS=TEST_API_KEY,
        ACEH_RAG_LOG_LEVEL="WARNING",
        ACEH_RAG_INGESTION__CHUNK_MIN_CHARS="0",
        # One server serves every file of a worker, each with its own committed corpus: what it read about the
        # corpus (the mean passage vector, the term shares) must be the corpus of the request, not an earlier file's.
        ACEH_RAG_RETRIEVAL__LEXEME_STATISTICS_TTL_SECONDS="0",
        ACEH_RAG_RETRIEVAL__MEAN_VECTOR_TTL_SECONDS="0",
    )
    env.update(overrides or {})
    return env


@contextmanager
def static_files_lock():
    """``staticfiles/`` is one directory for the checkout: xdist workers collect into it one at a time."""
    path = ROOT / "var" / "staticfiles.lock"
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def collect_static(env: dict[str, str]) -> None:
    """What `serve` and the image build do: the hashed, compressed files whitenoise serves."""
    with static_files_lock():
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                       cwd=ROOT, env=env, check=True, timeout=300)


@pytest.fixture(scope="session")
def live_server_factory(django_db_setup, django_db_blocker):
    """Start (once per distinct environment) a live server; stopped at session end."""
    servers: dict[tuple, LiveServer] = {}

    def start(**overrides: str) -> LiveServer:
        key = tuple(sorted(overrides.items()))
        if key not in servers:
            with django_db_blocker.unblock():
                env = server_env(overrides)
            if not servers:
                collect_static(env)
            servers[key] = LiveServer(env)
        return servers[key]

    yield start
    problems = []
    for server in servers.values():
        server.stop()
        log = server.log_text()
        if "Traceback" in log or "Internal Server Error" in log:
            problems.append(f"{server.log_path}:\n{log[-3000:]}")
    # No request to any real server may have produced a 500 or a traceback.
    assert not problems, "\n".join(problems)


@pytest.fixture
def live_server(live_server_factory, transactional_db):
    """The default-configuration server; data written by the test is committed."""
    return live_server_factory()


def corpus_path(relative: str = "") -> Path:
    """A path in ../shared/corpus. The corpus is optional (shared/README): without it the
    test is skipped, with this one reason; everywhere it is present (CI included) it runs."""
    path = CORPUS_DIR / relative
    if not path.exists():
        pytest.skip(f"shared corpus not present at {CORPUS_DIR}")
    return path


@pytest.fixture
def corpus_dir() -> Path:
    return corpus_path()


def words_the_corpus_lacks(expansions) -> list[str]:
    """The words (four letters or more) of glossary expansions that no text of ../shared/corpus/txt contains: a
    shipped glossary row says only what the corpus says. The corpus is optional (shared/README), so without it the
    calling test is skipped by ``corpus_path`` with its one reason, "shared corpus not present at …"; everywhere the
    corpus is present (CI included) the check runs."""
    words = {word for expansion in expansions for word in re.findall(r"[^\W\d_]{4,}", expansion.lower())}
    corpus = " ".join(path.read_text(encoding="utf-8", errors="replace").lower()
                      for path in corpus_path("txt").glob("*.txt"))
    return sorted(word for word in words if not re.search(rf"\b{re.escape(word)}\b", corpus))


@pytest.fixture(autouse=True)
def no_server_errors(request, caplog):
    """Fail any test during which the API logged an unhandled error (a 500)."""
    yield
    if request.node.get_closest_marker("allows_500"):
        return
    errors = [r for r in caplog.records if r.name in ("acehrag.api", "django.request") and r.levelname == "ERROR"
              and getattr(r, "status_code", 500) >= 500]
    assert not errors, f"unhandled server error: {errors[0].getMessage()}"


@pytest.fixture(autouse=True)
def shipped_glossary(request):
    """The glossary rows the migrations ship, as every migrated database has them. A transactional test's flush
    empties every table; run alone its file never meets that, but a pytest-xdist worker may run another file's
    transactional test first, so a test with database access gets the shipped rows back when they are gone."""
    marker = request.node.get_closest_marker("django_db")
    if marker is None:
        yield
        return
    request.getfixturevalue("transactional_db" if marker.kwargs.get("transaction") else "db")
    from importlib import import_module

    from django.apps import apps

    from retrieval.models import GlossaryEntry

    if not GlossaryEntry.objects.exists():
        for migration in ("0006_glossary_defaults", "0014_glossary_issuer_acronyms", "0016_glossary_english_legal",
                          "0019_glossary_english_government", "0021_glossary_everyday",
                          "0022_glossary_everyday_more", "0027_glossary_english_corpus"):
            import_module(f"retrieval.migrations.{migration}").load(apps, None)
        from retrieval.search.glossary import forget_glossary

        forget_glossary()
    yield


@pytest.fixture(autouse=True)
def fresh_lexeme_statistics():
    """Lexeme shares and the mean passage vector are cached per process; each test has its own corpus."""
    from retrieval.search.centering import forget_corpus_mean
    from retrieval.search.lexical import forget_lexeme_statistics

    forget_lexeme_statistics()
    forget_corpus_mean()
    yield


def corpus_statistics_refresh() -> None:
    """ANALYZE the chunk table: the lexical tiers read term shares from ``pg_stats`` (as they would
    once autovacuum has analysed an ingestion), so a test's corpus is measured, not whatever
    autovacuum last sampled of earlier tests' rows. Inside a transaction its own rows count."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("ANALYZE retrieval_chunk")


def purge_committed_corpus() -> None:
    """Remove what a module- or package-scoped fixture committed for real servers to read.

    Call inside ``django_db_blocker.unblock()``: committed rows outlive the test transactions.
    """
    from answering.models import AnswerTrace
    from conversations.models import Conversation
    from memory.models import Memory
    from retrieval.models import Collection, Document, Ingestion

    # Traces name their conversation by id only (no foreign key), so they go explicitly.
    AnswerTrace.objects.all().delete()
    Memory.objects.all().delete()
    Conversation.objects.all().delete()
    Ingestion.objects.all().delete()   # an ingestion protects its collection
    Document.objects.all().delete()
    Collection.objects.all().delete()


@pytest.fixture(scope="module")
def corpus(django_db_setup, django_db_blocker):
    """The sample corpus, committed so server processes see it (ids by file name); removed afterwards."""
    from retrieval.services import sample_corpus_ingest

    with django_db_blocker.unblock():
        outcomes = sample_corpus_ingest()
        assert all(o.status == "ingested" for o in outcomes), outcomes
        ids = {o.source_name: str(o.document_id) for o in outcomes}
        corpus_statistics_refresh()
    yield ids
    with django_db_blocker.unblock():
        purge_committed_corpus()
