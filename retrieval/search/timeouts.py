"""Bounded statements: every search statement runs under a statement timeout."""
from __future__ import annotations

from contextlib import contextmanager

from django.db import OperationalError, connection, transaction


class SearchTimeout(RuntimeError):
    """A search statement exceeded its time bound."""


@contextmanager
def bounded_transaction(timeout_ms: int, **local_settings: object):
    """A transaction whose statements are bounded; extra ``SET LOCAL`` values apply too."""
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT set_config('statement_timeout', %s, true)", [f"{int(timeout_ms)}ms"])
                for name, value in local_settings.items():
                    cursor.execute("SELECT set_config(%s, %s, true)", [name, str(value)])
            yield
    except OperationalError as exc:
        if "statement timeout" in str(exc) or "canceling statement" in str(exc):
            raise SearchTimeout("search statement timed out") from exc
        raise
