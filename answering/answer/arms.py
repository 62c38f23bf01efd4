"""One answer's store of search arms: each identical arm retrieves once, concurrent callers share it.

Seed ("Retrieval reuse within one answer"): the first caller of an arm runs the
retrieval; a caller asking for the same arm while it is in flight waits for that
same retrieval instead of starting another; later callers reuse the stored
result. A failed, timed-out or cancelled retrieval is not stored: the callers
waiting on it see its failure and a later call searches again. The store
belongs to one answer (one ``EvidenceGatherer``), never shared across answers.

Cancellation is the answer's: every caller of one store belongs to the same
answer, so a cancel stops them all, and the owner's statement deadline bounds
how long a waiter can wait.
"""
from __future__ import annotations

import threading
from concurrent.futures import Future
from typing import Callable, Generic, Hashable, TypeVar

T = TypeVar("T")


class ArmStore(Generic[T]):
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._done: dict[Hashable, T] = {}
        self._in_flight: dict[Hashable, Future] = {}
        self.retrievals = 0              # how many arms actually retrieved (the rest were reused)

    def get(self, key: Hashable, retrieve: Callable[[], T]) -> tuple[T, bool]:
        """The arm's result and whether it was reused (stored, or shared while in flight)."""
        with self._lock:
            if key in self._done:
                return self._done[key], True
            pending = self._in_flight.get(key)
            if pending is None:
                pending = self._in_flight[key] = Future()
                owner = True
                self.retrievals += 1
            else:
                owner = False
        if not owner:
            return pending.result(), True
        try:
            result = retrieve()
        except BaseException as exc:
            with self._lock:
                del self._in_flight[key]          # not stored: a later call searches again
            pending.set_exception(exc)
            raise
        with self._lock:
            self._done[key] = result
            del self._in_flight[key]
        pending.set_result(result)
        return result, False
