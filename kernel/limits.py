"""Backpressure: a bounded number of answers per process, a bounded wait beyond it.

Answers are the expensive requests (retrieval, synthesis, judge, guard, and
on the model path seconds of waiting on a model server). At most
``ACEH_RAG_LIMITS__MAX_CONCURRENT_ANSWERS`` run at once in a process; a
request beyond waits up to ``ANSWER_QUEUE_SECONDS`` for a slot (at most
``MAX_QUEUED_ANSWERS`` wait), otherwise it is refused with ``Overloaded``
(``overloaded``, with ``Retry-After``). Probes and other routes never take a slot.

One first-come, first-served queue serves the sync JSON routes (a thread
waits on an event) and the async stream routes (a future on the event loop,
so no executor thread is parked while a stream waits).
"""
from __future__ import annotations

import asyncio
import math
import threading
from collections import deque
from contextlib import contextmanager

from django.conf import settings

from kernel.errors import Unavailable

BUSY = "The service is busy; please retry shortly"


class Overloaded(Unavailable):
    """No answer slot became free within the bounded wait."""

    code = "overloaded"

    def __init__(self, retry_after: int):
        super().__init__(BUSY, retry_after=retry_after)


class _Waiter:
    """One queued request; ``grant`` hands it a slot (from any thread)."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None):
        self.granted = False
        self._loop = loop
        self._event = threading.Event() if loop is None else None
        self._future = loop.create_future() if loop is not None else None

    def grant(self) -> None:
        self.granted = True
        if self._event is not None:
            self._event.set()
        else:
            self._loop.call_soon_threadsafe(lambda: self._future.done() or self._future.set_result(None))

    def wait(self, timeout: float) -> None:
        self._event.wait(timeout)

    async def wait_async(self, timeout: float) -> None:
        try:
            await asyncio.wait_for(asyncio.shield(self._future), timeout)
        except asyncio.TimeoutError:
            pass


class AnswerSlots:
    """A counter with a first-come, first-served queue: a freed slot goes to the oldest waiter."""

    def __init__(self, capacity: int, queue_seconds: float, max_waiting: int):
        self.capacity = capacity
        self.queue_seconds = queue_seconds
        self.max_waiting = max_waiting
        self._running = 0
        self._waiters: deque[_Waiter] = deque()
        self._lock = threading.Lock()

    @property
    def retry_after(self) -> int:
        return max(1, math.ceil(self.queue_seconds / 4))

    def _enter(self, loop: asyncio.AbstractEventLoop | None) -> _Waiter | None:
        """A slot now (None), or a place in the queue; ``Overloaded`` when the queue is full."""
        with self._lock:
            if self._running < self.capacity and not self._waiters:
                self._running += 1
                return None
            if len(self._waiters) >= self.max_waiting:
                raise Overloaded(self.retry_after)
            waiter = _Waiter(loop)
            self._waiters.append(waiter)
            return waiter

    def _leave_queue(self, waiter: _Waiter) -> None:
        """After the wait: keep a slot granted meanwhile, otherwise give up the place."""
        with self._lock:
            if waiter.granted:
                return
            self._waiters.remove(waiter)
        raise Overloaded(self.retry_after)

    def acquire(self) -> None:
        """Block until a slot is free (bounded); raises ``Overloaded``."""
        waiter = self._enter(None)
        if waiter is not None:
            waiter.wait(self.queue_seconds)
            self._leave_queue(waiter)

    async def acquire_async(self) -> None:
        """As ``acquire``, without parking a thread while it waits."""
        waiter = self._enter(asyncio.get_running_loop())
        if waiter is None:
            return
        try:
            await waiter.wait_async(self.queue_seconds)
        except BaseException:
            # Cancelled while queued (the client left): give back a slot granted meanwhile.
            with self._lock:
                granted = waiter.granted
                if not granted:
                    self._waiters.remove(waiter)
            if granted:
                self.release()
            raise
        self._leave_queue(waiter)

    def release(self) -> None:
        with self._lock:
            if self._waiters:
                self._waiters.popleft().grant()  # the slot passes on; the running count stays
            else:
                self._running -= 1

    @contextmanager
    def held(self):
        self.acquire()
        try:
            yield
        finally:
            self.release()


_slots: AnswerSlots | None = None
_slots_lock = threading.Lock()


def answer_slots() -> AnswerSlots:
    """This process's answer slots, sized from settings on first use."""
    global _slots
    with _slots_lock:
        if _slots is None:
            limits = settings.ACEH_RAG.limits
            _slots = AnswerSlots(limits.max_concurrent_answers, limits.answer_queue_seconds,
                                 limits.max_queued_answers)
        return _slots


# Worker threads (sync views, answers) run at a lower CPU priority than the thread running the
# event loop: on a saturated machine the loop is scheduled first whenever it is runnable, so
# probes, stream frames and accepts are not delayed behind answer work (Linux: niceness is per
# thread). Raising niceness needs no privilege; it cannot be undone in the thread, which only
# ever serves requests.
WORKER_NICENESS = 10
_thread = threading.local()


def worker_thread_deprioritise() -> None:
    """Lower the calling worker thread's CPU priority once; never the event loop's thread."""
    if getattr(_thread, "deprioritised", False):
        return
    _thread.deprioritised = True
    if threading.current_thread() is threading.main_thread():
        return
    try:
        asyncio.get_running_loop()
        return                                   # an event loop runs in this thread
    except RuntimeError:
        pass
    try:
        import os

        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), WORKER_NICENESS)
    except (AttributeError, OSError):            # not Linux, or refused: priorities stay equal
        pass
