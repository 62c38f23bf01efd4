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
import os
import threading
from contextlib import contextmanager
from typing import Iterator

import psycopg
from django.db import connection, transaction

# A duplicate delivery waits this long for the holder before leaving the ingestion to it: long enough
# for PostgreSQL to notice a worker that has just died, short enough not to hold a worker slot.
LEASE_WAIT_SECONDS = 5


def lease_key(ingestion_id) -> int:
    """The advisory lock key of one ingestion (64 bits, like the per-source lock in ``versions``)."""
    digest = hashlib.blake2b(f"ingestion:{ingestion_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


_lease = threading.local()


def _lease_connection() -> psycopg.Connection:
    """This thread's lease connection, kept between tasks (a new connection costs ~10 ms a task).

    A process forked from one that holds a lease connection opens its own (a Celery
    pool's parent never runs a task, so never holds one).
    """
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
    lease = _lease_connection()
    try:
        lease.execute("SELECT set_config('lock_timeout', %s, true)", [f"{int(wait_seconds * 1000)}ms"])
        lease.execute("SELECT pg_advisory_xact_lock(%s)", [lease_key(ingestion_id)])
        held = True
    except psycopg.errors.LockNotAvailable:
        held = False
    try:
        yield held
    finally:
        lease.rollback()  # ends the transaction, and the lock with it


def ingestion_lease_free(ingestion_id) -> bool:
    """True when no live worker holds the ingestion's lease (its worker died, or never started it)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s)", [lease_key(ingestion_id)])
        return cursor.fetchone()[0]
