"""Which ingestions a live worker is running: a lease that dies with the worker.

A worker killed mid-task (SIGKILL, OOM, a lost machine) leaves its ingestion
``running`` and its message unacknowledged in the broker, where Redis gives it
back only after the visibility timeout (an hour). The lease tells a dead
worker's ingestion from one still being worked on without clocks or
heartbeats: the running task holds a transaction-level advisory lock on a
connection of its own, and PostgreSQL releases it the moment that connection
drops, which it does when the process dies. It is taken on a dedicated
connection because the task's pooled connection goes back to the pool during a
remote embedding call (``kernel.connections.release_connection``); a
transaction-level lock also holds behind PgBouncer's transaction pooling.
"""
from __future__ import annotations

import hashlib
import logging
import os
import threading
from contextlib import contextmanager
from typing import Iterator

import psycopg
from django.db import OperationalError, connection, transaction

logger = logging.getLogger(__name__)

# A duplicate delivery waits this long for the holder before leaving the ingestion to it: long enough
# for PostgreSQL to notice a worker that has just died, short enough not to hold a worker slot.
LEASE_WAIT_SECONDS = 5


def lease_key(ingestion_id) -> int:
    """The advisory lock key of one ingestion (64 bits, like the per-source lock in ``versions``)."""
    digest = hashlib.blake2b(f"ingestion:{ingestion_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


_lease = threading.local()
_kept_between_tasks = False


def lease_connections_kept() -> None:
    """Keep each thread's lease connection from one ingestion to the next (a new one costs ~10 ms).

    Celery workers call it as they start (``retrieval.tasks``); elsewhere (an ingestion run inline
    without a broker, the tests) the connection closes after each ingestion, so nothing is left
    open against the database.
    """
    global _kept_between_tasks
    _kept_between_tasks = True


def _lease_connection() -> psycopg.Connection:
    """This thread's lease connection. A process forked from one that holds one opens its own (a
    Celery pool's parent never runs a task, so never holds one)."""
    lease = getattr(_lease, "connection", None)
    if lease is None or lease.closed or lease.broken or _lease.pid != os.getpid():
        lease = psycopg.connect(**connection.get_connection_params())
        _lease.connection, _lease.pid = lease, os.getpid()
    return lease


@contextmanager
def ingestion_lease(ingestion_id, *, wait_seconds: float | None = None) -> Iterator[bool]:
    """Hold the ingestion's lease for the block; yields False when another live worker holds it.

    Not re-entrant: a thread holding one lease must not take it again.
    """
    wait_seconds = LEASE_WAIT_SECONDS if wait_seconds is None else wait_seconds
    try:
        lease = _lease_connection()
        lease.execute("SELECT set_config('lock_timeout', %s, true)", [f"{max(1, int(wait_seconds * 1000))}ms"])
        lease.execute("SELECT pg_advisory_xact_lock(%s)", [lease_key(ingestion_id)])
        held = True
    except psycopg.errors.LockNotAvailable:
        held = False
    except psycopg.OperationalError as exc:
        stale = getattr(_lease, "connection", None)
        if stale is not None:
            stale.close()  # the next ingestion connects afresh
        # Django's own error, which the ingestion task retries like any other database outage.
        raise OperationalError(f"ingestion lease: {exc}") from exc
    try:
        yield held
    finally:
        try:
            lease.rollback()  # ends the transaction, and the lock with it
        except psycopg.OperationalError:
            logger.warning("ingestion %s: the lease connection was lost", ingestion_id)  # the lock went with it
        if not _kept_between_tasks:
            lease.close()


def ingestion_lease_free(ingestion_id) -> bool:
    """True when no live worker holds the ingestion's lease (its worker died, or never started it)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [lease_key(ingestion_id)])
        return cursor.fetchone()[0]
