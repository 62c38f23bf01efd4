"""README stays true: every setting and management command is documented, the quick start runs, links resolve.

README is the front page; the reference it links to lives in docs/ (every variable in docs/configuration.md,
the full partner quick start in docs/api.md).
"""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
CONFIGURATION = (ROOT / "docs" / "configuration.md").read_text()
API = (ROOT / "docs" / "api.md").read_text()


def test_every_environment_variable_is_documented_where_the_readme_sends_a_reader():
    from kernel.config import environment_variables

    # The typed settings name their own variables; Django's settings module reads a few more by name.
    names = set(environment_variables())
    source = (ROOT / "acehrag" / "settings.py").read_text()
    names |= set(re.findall(r'"((?:DJANGO|DATABASE|CELERY)_[A-Z_]+)"', source))
    names |= set(re.findall(r'"(ACEH_RAG_[A-Z_]+)"', source))
    assert {"DATABASE_URL", "ACEH_RAG_API_DOCS_ENABLED", "ACEH_RAG_AUTH__JWT_LEEWAY_SECONDS", "ACEH_RAG_BPS__APP_KEY",
            "ACEH_RAG_RETRIEVAL__RRF_K", "DJANGO_SECRET_KEY"} <= names, "the variable listing is stale"
    assert "](docs/configuration.md)" in README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    missing = sorted(name for name in names if f"`{name}`" not in CONFIGURATION)
    assert not missing, f"docs/configuration.md lacks: {missing}"


def test_every_management_command_is_in_the_readme():
    commands = [p.stem for p in ROOT.glob("*/management/commands/*.py") if p.stem != "__init__"]
    assert commands
    missing = sorted(name for name in commands if f"manage.py {name}" not in README)
    assert not missing, f"README lacks: {missing}"


# -- the partner quick start runs as written ------------------------------------------------

# The full quick start is in docs/api.md; README's shows some of its blocks, unchanged and in order.
QUICK_START = API.split("## Partner quick start", 1)[1].split("\n## ", 1)[0]
README_QUICK_START = README.split("## Partner quick start", 1)[1].split("\n## ", 1)[0]
BLOCK = re.compile(r"```(sh|python)\n(.*?)```", re.S)
DOCUMENTED_BASE = "http://127.0.0.1:8000"
# Each curl reports its status on stderr, after its body, so pipes and $(...) see the body unchanged.
CURL_STATUS = "curl() { command curl -w '%{stderr}__status__ %{http_code}\\n' \"$@\"; }\n"


def quick_start_blocks() -> list[tuple[str, str]]:
    return BLOCK.findall(QUICK_START)


def test_quick_start_shows_every_step():
    text = QUICK_START
    for step in ("/search", "/query", "78% · 7/9 klaim", "curl -sS -N", "conversation_id", "X-User-Subject",
                 "jwt.encode", "start_utf16"):
        assert step in text, step
    shell = [body for kind, body in quick_start_blocks() if kind == "sh"]
    assert len(shell) >= 7 and all(re.search(r"^# → \d{3}$", body, re.M) for body in shell)


def test_readme_quick_start_blocks_are_the_full_quick_starts_blocks_in_order():
    assert "](docs/api.md#partner-quick-start)" in README_QUICK_START
    shown = BLOCK.findall(README_QUICK_START)
    assert len(shown) >= 4 and shown[0] == quick_start_blocks()[0], "README starts with the key step"
    remaining = iter(quick_start_blocks())
    assert all(block in remaining for block in shown), "a README block is not a block of docs/api.md, in order"


def test_grounding_badge_snippet_renders_the_seed_examples():
    snippet = next(body for kind, body in quick_start_blocks() if kind == "python" and "grounding_badge" in body)
    namespace: dict = {}
    exec(snippet, namespace)
    badge = namespace["grounding_badge"]
    assert badge({"grounding_rate": 0.7778, "claims_supported": 7, "claims_total": 9}) == "78% · 7/9 klaim"
    assert badge({"grounding_rate": None, "claims_supported": 0, "claims_total": 0}) == "—"
    assert badge({"grounding_rate": 0.0, "claims_supported": 0, "claims_total": 2}) == "0% · 0/2 klaim"


@pytest.fixture(scope="module")
def sample_corpus(django_db_setup, django_db_blocker):
    """The corpus `make run` serves: the sample corpus alone, with its own full-text statistics.

    `make run` ingests it into an empty database and runs ANALYZE (``sample_corpus_ingest_if_empty``). Without
    the ANALYZE the lexical tiers read the term shares of whatever corpus this worker's database last analysed,
    and the README's answers changed with the file order (session 14: 3 of 5 parallel runs declined /query/v2).
    """
    from retrieval.services import sample_corpus_ingest
    from tests.conftest import corpus_statistics_refresh, purge_committed_corpus

    with django_db_blocker.unblock():
        purge_committed_corpus()
        assert all(o.status == "ingested" for o in sample_corpus_ingest())
        corpus_statistics_refresh()   # as every other committed-corpus fixture does (tests/conftest.py)
    yield
    with django_db_blocker.unblock():
        purge_committed_corpus()


@pytest.fixture
def make_run_setup(sample_corpus, django_db_blocker, tmp_path):
    """What `make run` leaves a reader: a server without key settings and the `bootstrap` files in `var/`.

    The reader's working directory gets a `var` that is this server's data directory, where
    `manage.py bootstrap` (run as `serve` runs it, in the server's environment) wrote the
    development API key and partner-JWT secret. Its rows are removed afterwards.
    """
    from django.conf import settings

    from acehrag.models import ApiKey, PartnerJwtKey
    from tests.conftest import server_env

    overrides = {"ACEH_RAG_API__KEYS": ""}   # ACEH_RAG_AUTH__JWT_KEYS: unset, as server_env leaves it
    with django_db_blocker.unblock():
        env = server_env(overrides)
    run = subprocess.run([sys.executable, "manage.py", "bootstrap"], cwd=ROOT, env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Development partner-JWT secret (HS256" in run.stdout
    (tmp_path / "var").symlink_to(settings.ACEH_RAG.data_dir, target_is_directory=True)
    yield overrides
    with django_db_blocker.unblock():
        ApiKey.objects.filter(name="development").delete()
        PartnerJwtKey.objects.filter(name="development").delete()


# Transactional: the bootstrap subprocess commits the development key rows, and the fixture's cleanup must
# commit too (inside a test transaction it was rolled back, leaving an active partner-JWT key to later files).
@pytest.mark.django_db(transaction=True)
def test_every_quick_start_block_runs_against_a_real_server_with_the_shown_status(
        live_server_factory, make_run_setup, tmp_path):
    server = live_server_factory(**make_run_setup)
    blocks = quick_start_blocks()
    mint = next(body for kind, body in blocks if kind == "python" and "mint_jwt.py" in body)
    (tmp_path / "mint_jwt.py").write_text(mint)

    script = CURL_STATUS
    for index, (kind, body) in enumerate(blocks):
        if kind == "sh":
            script += f"echo '__block__ {index}' >&2\n{body.replace(DOCUMENTED_BASE, server.url)}\n"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    for name in ("API_KEY", "API_BASE", "PARTNER_JWT_SECRET"):
        env.pop(name, None)
    run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]

    seen: dict[int, list[str]] = {}
    for line in run.stderr.splitlines():
        if line.startswith("__block__ "):
            current = seen.setdefault(int(line.split()[1]), [])
        elif line.startswith("__status__ "):
            current.append(line.split()[1])
    for index, (kind, body) in enumerate(blocks):
        if kind == "sh":
            expected = re.findall(r"^# → (\d{3})$", body, re.M)
            assert seen.get(index) == expected, (body, seen.get(index), run.stdout[-2000:])
    # What the blocks printed is what the README says they print.
    assert "event: message.start" in run.stdout and "event: done" in run.stdout
    assert "annotate-v2" in run.stdout
    # The obligation is answered from the regulation that sets it (not the year's statistics report).
    assert re.search(r"supported \['P\d+'\] '\(7\) Paling lambat 10 \(sepuluh\) hari kerja", run.stdout)
    assert "Invalid bearer token" in run.stdout


# -- every relative link in README and docs/ resolves -----------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def heading_anchors(text: str) -> set[str]:
    """GitHub's anchors: the heading's text lower-cased, punctuation dropped, spaces as hyphens."""
    anchors = set()
    for line in re.sub(r"```.*?```", "", text, flags=re.S).splitlines():
        if match := re.match(r"#{1,6} (.+)", line):
            anchors.add(re.sub(r"[^\w\- ]", "", match.group(1).lower()).replace(" ", "-"))
    return anchors


@pytest.mark.parametrize("page", ["README.md", *sorted(p.relative_to(ROOT).as_posix()
                                                         for p in (ROOT / "docs").glob("*.md"))])
def test_every_relative_link_resolves(page):
    source = ROOT / page
    broken = []
    for target in LINK.findall(re.sub(r"```.*?```", "", source.read_text(), flags=re.S)):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        resolved = (source.parent / path).resolve() if path else source
        if not resolved.exists():
            broken.append(target)
        elif anchor and resolved.suffix == ".md" and anchor not in heading_anchors(resolved.read_text()):
            broken.append(target)
    assert not broken, f"{page}: {broken}"
