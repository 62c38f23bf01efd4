"""Each allow-list contract in .importlinter holds, and one import past an app's public modules breaks it."""
import pytest

from tests.test_import_contracts import lint_imports, project_copy  # noqa: F401 (the fixture)


@pytest.mark.parametrize("module,source,contract,line", [
    ("answering/violation.py", "from retrieval.search.naming import find_article\n",
     "others import retrieval only through retrieval.facade",
     "answering.violation -> retrieval.search.naming"),
    ("livedata/violation.py", "from retrieval.models import Document\n",
     "others import retrieval only through retrieval.facade",
     "livedata.violation -> retrieval.models"),
    ("answering/violation.py", "from conversations.selectors import history_window\n",
     "others import conversations only through conversations.facade", "answering.violation -> conversations.selectors"),
    ("answering/violation.py", "from memory.services import memory_recall\n",
     "others import memory only through memory.facade",
     "answering.violation -> memory.services"),
    ("answering/violation.py", "from workspaces.models import WorkspaceMember\n",
     "others import workspaces only through workspaces.facade", "answering.violation -> workspaces.models"),
    ("answering/violation.py", "from livedata.sql import sql_read\n",
     "others import livedata only through livedata.facade", "answering.violation -> livedata.sql"),
    ("workbench/violation.py", "from answering.models import AnswerTrace\n",
     "others import answering only through answering.facade", "workbench.violation -> answering.models"),
    ("workbench/violation.py", "from conversations.models import Message\n",
     "others import conversations only through conversations.facade", "workbench.violation -> conversations.models"),
    ("workspaces/violation.py", "from conversations.api import router\n",
     "no app imports another app's api module",
     "workspaces.violation -> conversations.api"),
    ("answering/violation.py", "from retrieval.api import router\n",
     "no app imports another app's api module",
     "answering.violation -> retrieval.api"),
    ("kernel/violation.py", "from retrieval.facade import Scope\n", "kernel imports no project app BROKEN",
     "kernel.violation -> retrieval.facade"),
])
def test_an_import_past_the_public_modules_breaks_the_allow_list(project_copy, module, source, contract, line):
    # Given a sound copy of the project (every contract kept)
    assert lint_imports(project_copy).returncode == 0
    # When one module of another app imports past the public modules
    (project_copy / module).write_text(source)
    result = lint_imports(project_copy)
    # Then lint-imports fails, naming the contract (its line may wrap before KEPT/BROKEN) and the import
    assert result.returncode == 1, result.stdout
    assert contract in result.stdout and line in result.stdout and "BROKEN" in result.stdout, result.stdout


def test_the_facades_themselves_are_allowed(project_copy):
    (project_copy / "answering/allowed.py").write_text(
        "from retrieval.facade.language import find_article\nfrom conversations.facade import history_window\n"
        "from memory.facade import memory_recall\nfrom workspaces.facade import answer_sources_resolve\n"
        "from livedata.facade import sql_read\n")
    (project_copy / "workbench/allowed.py").write_text("from answering.facade import answer_traces_by_message\n")
    result = lint_imports(project_copy)
    assert result.returncode == 0, result.stdout
