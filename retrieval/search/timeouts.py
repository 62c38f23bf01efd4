"""Bounded statements: every search statement runs under a statement timeout.

Inside ``search_deadline(deadline)`` (an answer's tool deadline, a
``time.monotonic()`` value) the bound is the time remaining, re-issued
before every statement of the transaction, and no statement starts once the
deadline has passed (seed "Retrieval reuse within one answer").
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from contextvars import ContextVar

from django.db import OperationalError, connection, transaction

_deadline: ContextVar[float | None] = ContextVar("search_deadline", default=None)


class SearchTimeout(RuntimeError):
    """A search statement exceeded its time bound (or the answer's tool deadline had passed)."""


@contextmanager
def search_deadline(deadline: float | None):
    """Bound every search statement in this context by the time left until ``deadline``."""
    token = _deadline.set(deadline)
    try:
        yield
    finally:
        _deadline.reset(token)


def statement_bound_ms(timeout_ms: int) -> int:
    """The configured bound, or less when the deadline is nearer; raises SearchTimeout once it has passed."""
    deadline = _deadline.get()
    if deadline is None:
        return int(timeout_ms)
    remaining_ms = (deadline - time.monotonic()) * 1000
    if remaining_ms <= 0:
        raise SearchTimeout("the answer's tool deadline has passed")
    return max(1, min(int(timeout_ms), int(remaining_ms)))


def _rebound(timeout_ms: int):
    def execute(run, sql, params, many, context):
        # Before every statement: the bound is what remains now (the driver's own cursor bypasses this wrapper).
        context["cursor"].cursor.execute("SELECT set_config('statement_timeout', %s, true)",
                                  [f"{statement_bound_ms(timeout_ms)}ms"])
        return run(sql, params, many, context)
    return execute


@contextmanager
def bounded_transaction(timeout_ms: int, **local_settings: object):
    """A transaction whose statements are bounded; extra ``SET LOCAL`` values apply too."""
    try:
        with transaction.atomic():
            values = {"statement_timeout": f"{statement_bound_ms(timeout_ms)}ms", **local_settings}
            with connection.cursor() as cursor:
                # One round trip for every setting.
                cursor.execute("SELECT " + ", ".join(["set_config(%s, %s, true)"] * len(values)),
                               [part for name, value in values.items() for part in (name, str(value))])
            if _deadline.get() is None:
                yield
            else:
                with connection.execute_wrapper(_rebound(timeout_ms)):
                    yield
    except OperationalError as exc:
        if "statement timeout" in str(exc) or "canceling statement" in str(exc):
            raise SearchTimeout("search statement timed out") from exc
        raise
