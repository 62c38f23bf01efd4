"""The answer slots: a bound, a first-come first-served queue, a bounded wait."""
from __future__ import annotations

import asyncio
import threading
import time

import pytest

from kernel.limits import AnswerSlots, Overloaded


def test_a_free_slot_is_taken_at_once_and_given_back():
    slots = AnswerSlots(capacity=2, queue_seconds=0.1, max_waiting=0)
    slots.acquire()
    slots.acquire()
    with pytest.raises(Overloaded) as refused:
        slots.acquire()  # no waiting place: refused without waiting
    assert refused.value.retry_after == 1
    slots.release()
    slots.acquire()


def test_a_waiter_gets_the_slot_released_while_it_waits():
    slots = AnswerSlots(capacity=1, queue_seconds=5, max_waiting=1)
    slots.acquire()
    threading.Timer(0.2, slots.release).start()
    started = time.monotonic()
    slots.acquire()
    assert 0.15 < time.monotonic() - started < 2


def test_the_wait_is_bounded():
    slots = AnswerSlots(capacity=1, queue_seconds=0.3, max_waiting=4)
    slots.acquire()
    started = time.monotonic()
    with pytest.raises(Overloaded):
        slots.acquire()
    assert 0.25 < time.monotonic() - started < 2
    slots.release()
    slots.acquire()  # the timed-out waiter left no claim behind


def test_waiters_are_served_in_arrival_order():
    slots = AnswerSlots(capacity=1, queue_seconds=10, max_waiting=10)
    slots.acquire()
    order: list[int] = []

    def wait(n: int) -> None:
        slots.acquire()
        order.append(n)
        slots.release()

    threads = []
    for n in range(5):
        thread = threading.Thread(target=wait, args=(n,))
        thread.start()
        threads.append(thread)
        time.sleep(0.05)  # arrival order
    slots.release()
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3, 4]


def test_async_waiters_share_the_queue_and_a_cancelled_one_keeps_nothing():
    slots = AnswerSlots(capacity=1, queue_seconds=5, max_waiting=5)

    async def scenario() -> list[str]:
        events: list[str] = []
        slots.acquire()
        leaving = asyncio.ensure_future(slots.acquire_async())
        staying = asyncio.ensure_future(slots.acquire_async())
        await asyncio.sleep(0.05)
        leaving.cancel()  # the client left while queued
        await asyncio.sleep(0.05)
        slots.release()
        await asyncio.wait_for(staying, 2)
        events.append("served")
        slots.release()
        await slots.acquire_async()  # nothing was kept by the cancelled waiter
        events.append("free")
        return events

    assert asyncio.run(scenario()) == ["served", "free"]
