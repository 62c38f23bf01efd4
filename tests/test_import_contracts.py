"""The import boundaries in .importlinter hold, and a module that crosses one breaks them."""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"
PACKAGES = ("kernel", "acehrag", "retrieval", "answering", "conversations", "memory", "workspaces", "livedata",
            "workbench")


def lint_imports(cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(LINT_IMPORTS), "--no-cache", "--config", str(cwd / ".importlinter")], cwd=cwd,
                          env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"}, capture_output=True, text=True,
                          timeout=120)


def test_the_project_keeps_every_contract():
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


@pytest.fixture
def project_copy(tmp_path):
    """The project's packages (Python sources only) and contracts, in a directory a test may spoil."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("*.pyc", "__pycache__", "sample_corpus", "static", "templates",
                                                      "*.onnx", "*.bin"))
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


@pytest.mark.parametrize("module,source,contract,line", [
    ("kernel/violation.py", "from retrieval.models import Document\n", "kernel imports no project app BROKEN",
     "kernel.violation -> retrieval.models"),
    ("retrieval/violation.py", "import conversations.services\n", "retrieval imports none of the apps built on it BROKEN",
     "retrieval.violation -> conversations.services"),
    ("conversations/violation.py", "import workspaces.models\n",
     "apps in layers (no cycle between apps): acehrag wires them, kernel is the floor BROKEN",
     "conversations.violation -> workspaces.models"),
    ("retrieval/models_violation.py", "from retrieval.services import document_delete\n", None, None),
    ("retrieval/parsing/text_violation.py", "from retrieval.parsing.extract import extract_bytes\n", None, None),
])
def test_a_module_crossing_a_boundary_breaks_the_contracts(project_copy, module, source, contract, line):
    # Given a sound copy of the project
    assert lint_imports(project_copy).returncode == 0
    # When one module crosses a boundary
    (project_copy / module).write_text(source)
    if module == "retrieval/models_violation.py":        # the models module reaching up into services
        (project_copy / "retrieval/models.py").write_text(
            (project_copy / "retrieval/models.py").read_text() + "\nfrom retrieval import models_violation  # noqa\n")
        contract, line = "inside each app", "retrieval.models -> retrieval.models_violation"
    if module == "retrieval/parsing/text_violation.py":  # the base text types importing the dispatcher back
        (project_copy / "retrieval/parsing/text.py").write_text(
            (project_copy / "retrieval/parsing/text.py").read_text() + "\nfrom . import text_violation  # noqa\n")
        contract, line = "no import circle between the modules of one package BROKEN", "No cycles are allowed in retrieval.parsing"
    result = lint_imports(project_copy)
    # Then lint-imports fails, naming the contract and the import
    assert result.returncode == 1, result.stdout
    assert contract in result.stdout and line in result.stdout, result.stdout
