"""Backpressure: a bounded number of answers per process, a bounded wait beyond it.

Answers are the expensive requests (retrieval, synthesis, judge, guard, and
on the model path seconds of waiting on a model server). At most
``ACEH_RAG_LIMITS__MAX_CONCURRENT_ANSWERS`` run at once in a process; a
request beyond waits up to ``ANSWER_QUEUE_SECONDS`` for a slot (at most
``MAX_QUEUED_ANSWERS`` wait), otherwise it is refused with ``Overloaded``
(503 + ``Retry-After``). Probes and other routes never take a slot.

One counter serves the sync JSON routes (a thread blocks on the condition)
and the async stream routes (the event loop polls, so no executor thread is
parked while a stream waits).
"""
from __future__ import annotations

import asyncio
import math
import threading
import time
from contextlib import asynccontextmanager, contextmanager

from django.conf import settings

BUSY = "The service is busy; please retry shortly"
ASYNC_POLL_SECONDS = 0.02


class Overloaded(RuntimeError):
    """No answer slot became free within the bounded wait."""

    def __init__(self, retry_after: int):
        super().__init__(BUSY)
        self.detail = BUSY
        self.retry_after = retry_after


class AnswerSlots:
    def __init__(self, capacity: int, queue_seconds: float, max_waiting: int):
        self.capacity = capacity
        self.queue_seconds = queue_seconds
        self.max_waiting = max_waiting
        self._running = 0
        self._waiting = 0
        self._condition = threading.Condition()

    @property
    def retry_after(self) -> int:
        return max(1, math.ceil(self.queue_seconds / 4))

    def _try_take(self) -> bool:
        """Caller holds the condition."""
        if self._running < self.capacity:
            self._running += 1
            return True
        return False

    def _join_queue(self) -> None:
        """Caller holds the condition; refuses at once when the queue is full."""
        if self._waiting >= self.max_waiting:
            raise Overloaded(self.retry_after)
        self._waiting += 1

    def acquire(self) -> None:
        """Block until a slot is free (bounded); raises ``Overloaded``."""
        with self._condition:
            if self._try_take():
                return
            self._join_queue()
            try:
                deadline = time.monotonic() + self.queue_seconds
                while not self._try_take():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        raise Overloaded(self.retry_after)
                    self._condition.wait(left)
            finally:
                self._waiting -= 1

    async def acquire_async(self) -> None:
        """As ``acquire``, without parking a thread while it waits."""
        with self._condition:
            if self._try_take():
                return
            self._join_queue()
        try:
            deadline = time.monotonic() + self.queue_seconds
            while True:
                await asyncio.sleep(ASYNC_POLL_SECONDS)
                with self._condition:
                    if self._try_take():
                        return
                if time.monotonic() >= deadline:
                    raise Overloaded(self.retry_after)
        finally:
            with self._condition:
                self._waiting -= 1

    def release(self) -> None:
        with self._condition:
            self._running -= 1
            self._condition.notify()

    @contextmanager
    def held(self):
        self.acquire()
        try:
            yield
        finally:
            self.release()

    @asynccontextmanager
    async def held_async(self):
        await self.acquire_async()
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
