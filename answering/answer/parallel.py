"""Run one agent round's tool calls at once (seed: concurrent tool calls share in-flight retrieval).

The calls go to one process-wide pool of ``ACEH_RAG_LLM__PARALLEL_TOOL_CALLS``
threads, so however many answers run, tool calls add at most that many
database connections (each call's connection goes back to the pool when it
ends); each call keeps the caller's tracing context, so its spans stay under
the answer's. The answer's own connection is returned while it waits. Inside
a transaction the calls run one after another on the caller's connection:
another connection could not see what the transaction has not committed.
Results come back in call order; the first failure is raised once every call
of the round has ended.
"""
from __future__ import annotations

import contextvars
import os
import threading
from concurrent.futures import ThreadPoolExecutor, wait
from typing import Callable, TypeVar

from django.db import connection, connections

from kernel.connections import release_connection

T = TypeVar("T")
_pool: dict[str, object] = {"executor": None, "pid": 0, "size": 0}
_pool_lock = threading.Lock()


def _executor(size: int) -> ThreadPoolExecutor:
    """The shared pool, made on first use and again in a forked child (threads don't survive fork)."""
    with _pool_lock:
        if _pool["executor"] is None or _pool["pid"] != os.getpid() or _pool["size"] != size:
            _pool.update(executor=ThreadPoolExecutor(size, thread_name_prefix="tool-call"), pid=os.getpid(), size=size)
        return _pool["executor"]


def _in_pool_thread(context: contextvars.Context, call: Callable[[], T]) -> T:
    try:
        return context.run(call)
    finally:
        connections.close_all()      # this thread's connections go back to the pool


def tool_calls_runner(limit: int) -> Callable[[list[Callable[[], T]]], list[T]]:
    def run(calls: list[Callable[[], T]]) -> list[T]:
        if limit <= 1 or len(calls) <= 1 or connection.in_atomic_block:
            return [call() for call in calls]
        release_connection()
        pool = _executor(limit)
        futures = [pool.submit(_in_pool_thread, contextvars.copy_context(), call) for call in calls]
        wait(futures)
        return [future.result() for future in futures]
    return run
