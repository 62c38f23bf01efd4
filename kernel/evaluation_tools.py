"""The evaluation libraries live outside the runtime set (requirements/eval.in): a command that
needs them says how to install them instead of failing on an import deep inside."""
from __future__ import annotations

import os
from importlib.util import find_spec

from django.core.management.base import CommandError

INSTALL = "pip install --require-hashes -r requirements/eval.txt"


def require_evaluation_tools(command: str, *modules: str) -> None:
    """Raise ``CommandError`` naming the missing modules when any of ``modules`` is not installed."""
    # ranx imports matplotlib: no display, and its caches in the data directory (a read-only or absent
    # home would otherwise make it warn and rebuild its font cache on every run).
    os.environ.setdefault("MPLBACKEND", "Agg")
    from django.conf import settings

    os.environ.setdefault("MPLCONFIGDIR", str(settings.ACEH_RAG.data_dir / "matplotlib"))
    os.environ.setdefault("NUMBA_CACHE_DIR", str(settings.ACEH_RAG.data_dir / "numba"))
    missing = [module for module in modules if find_spec(module) is None]
    if not missing and "ranx" in modules:
        _quiet_ranx()
    if missing:
        raise CommandError(f"{command} needs the evaluation libraries ({', '.join(missing)}), which the "
                           f"runtime install leaves out: {INSTALL} (make test installs them)")


def _quiet_ranx() -> None:
    """ranx's compiled metrics cast numba's uint64 counters to int64 (counts of a few hundred: nothing is
    lost); numba says so once per metric, while compiling, attributed to ranx's file but not always to its
    module (a cold cache warns from numba's compiler frames). Only that cast's warning is ignored."""
    import warnings

    from numba.core.errors import NumbaTypeSafetyWarning

    warnings.filterwarnings("ignore", message=r"unsafe cast from uint64 to int64", category=NumbaTypeSafetyWarning)
