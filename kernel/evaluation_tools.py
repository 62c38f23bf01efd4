"""The evaluation libraries live outside the runtime set (requirements/eval.in): a command that
needs them says how to install them instead of failing on an import deep inside."""
from __future__ import annotations

from importlib.util import find_spec

from django.core.management.base import CommandError

INSTALL = "pip install --require-hashes -r requirements/eval.txt"


def require_evaluation_tools(command: str, *modules: str) -> None:
    """Raise ``CommandError`` naming the missing modules when any of ``modules`` is not installed."""
    missing = [module for module in modules if find_spec(module) is None]
    if missing:
        raise CommandError(f"{command} needs the evaluation libraries ({', '.join(missing)}), which the "
                           f"runtime install leaves out: {INSTALL} (make test installs them)")
