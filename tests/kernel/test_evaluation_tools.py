"""A command whose evaluation libraries are not installed says how to install them."""
import pytest
from django.core.management.base import CommandError

from kernel.evaluation_tools import require_evaluation_tools


def test_a_missing_evaluation_library_names_the_lock_to_install():
    with pytest.raises(CommandError) as raised:
        require_evaluation_tools("eval_retrieval", "json", "no_such_ir_library")
    message = str(raised.value)
    assert "eval_retrieval needs the evaluation libraries (no_such_ir_library)" in message
    assert "pip install --require-hashes -r requirements/eval.txt" in message


def test_installed_libraries_pass():
    require_evaluation_tools("fit_answerability", "sklearn", "ranx")  # dev.txt installs eval.txt's set
