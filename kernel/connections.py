"""Database connection discipline and the database-unavailable fault.

Each process draws its connections from one bounded psycopg pool (settings:
``ACEH_RAG_DB__POOL_*``); a connection goes back to the pool when Django
closes it. Code that waits a long time for something else (a model server, a
remote embedder) gives its connection back first.

A database that is down, refuses connections or has no free pooled
connection within the pool timeout is an expected fault, answered everywhere
as ``DatabaseUnavailable`` (``{"detail": "Service temporarily unavailable",
"code": "service_unavailable"}``; the public chat in its own shape) and logged as one line without a traceback.
"""
from __future__ import annotations

import logging

from django.db import InterfaceError, OperationalError, connection

from kernel.errors import Unavailable

logger = logging.getLogger("acehrag.database")

UNAVAILABLE = "Service temporarily unavailable"
# Unreachable server, refused or dropped connection, pool timeout (psycopg_pool.PoolTimeout
# is an OperationalError, wrapped by Django as one).
DATABASE_UNAVAILABLE_ERRORS = (OperationalError, InterfaceError)


class DatabaseUnavailable(Unavailable):
    """The database fault as the error every renderer shows (``service_unavailable``)."""

    code = "service_unavailable"

    def __init__(self) -> None:
        super().__init__(UNAVAILABLE)


def release_connection() -> None:
    """Return this thread's connection to the pool before a long wait.

    Inside a transaction the connection stays: the transaction lives on it.
    The next query takes a connection from the pool again.
    """
    if connection.connection is not None and not connection.in_atomic_block:
        connection.close()


def log_database_unavailable(where: str, exc: BaseException) -> None:
    """One warning line naming the request and the driver's first line of explanation."""
    first_line = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
    logger.warning("database unavailable on %s: %s: %s", where, type(exc).__name__, first_line)


def logged_once(response):
    """Mark an expected-fault response as logged: Django would add an ERROR line for every 5xx."""
    response._has_been_logged = True
    return response
