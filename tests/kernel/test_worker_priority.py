"""Worker threads yield the CPU to the event loop's thread (Linux niceness is per thread)."""
from __future__ import annotations

import asyncio
import os
import threading

from kernel.limits import WORKER_NICENESS, worker_thread_deprioritise


def niceness_after(work) -> tuple[int, int]:
    seen = {}

    def run():
        before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        work()
        seen["values"] = (before, os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    return seen["values"]


def test_a_worker_thread_is_lowered_once():
    def twice():
        worker_thread_deprioritise()
        worker_thread_deprioritise()
    before, after = niceness_after(twice)
    assert after == max(before, WORKER_NICENESS)


def test_the_event_loop_thread_and_the_main_thread_keep_their_priority():
    async def in_loop():
        worker_thread_deprioritise()
    before, after = niceness_after(lambda: asyncio.run(in_loop()))
    assert after == before
    main_before = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    worker_thread_deprioritise()
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == main_before
