"""The image build's static step: collectstatic with the Dockerfile's environment, no database, no secrets."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from tests.conftest import static_files_lock

ROOT = Path(__file__).resolve().parents[2]


def test_the_dockerfile_collects_static_files_after_copying_the_code():
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    assert re.search(r"^COPY \. \.\n.*manage\.py collectstatic --noinput", dockerfile, re.M | re.S)
    assert "whitenoise==" in (ROOT / "requirements" / "base.txt").read_text()


def test_collectstatic_runs_as_in_the_image_build_without_a_database(tmp_path):
    # What `docker build` has: the Dockerfile's ENV, no secrets, and no database to reach.
    env = {"PATH": os.environ["PATH"], "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1",
           "ACEH_RAG_DATA_DIR": str(tmp_path / "data"), "DATABASE_URL": "postgresql://nobody@127.0.0.1:1/none"}
    with static_files_lock():
        build = subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput"], cwd=ROOT, env=env,
                               capture_output=True, text=True, timeout=300)
        assert build.returncode == 0, build.stderr[-2000:]
        static = ROOT / "staticfiles"
        manifest = json.loads((static / "staticfiles.json").read_text())["paths"]
    for name in ("admin/css/base.css", "ninja/swagger-ui.css", "ninja/swagger-ui-bundle.js", "ninja/redoc.standalone.js"):
        hashed = manifest[name]
        assert re.search(r"\.[0-9a-f]{12}\.", hashed), hashed
        assert (static / hashed).is_file() and (static / f"{hashed}.gz").is_file()
    assert not (tmp_path / "data" / "postgres").exists()  # no embedded database was started
