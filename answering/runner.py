"""Run the answer pipeline under an async stream: live progress, then the result.

Both streaming routes (``/query/stream`` and the public chat) use this. The
pipeline runs in a worker thread and reports its real steps through an
asyncio queue; when the consumer stops early (the client went away) the
cancel flag is set and the pipeline stops before it persists anything.
"""
from __future__ import annotations

import asyncio
import threading
import weakref
from typing import AsyncIterator, Callable

from asgiref.sync import sync_to_async
from django.db import close_old_connections

from kernel.limits import answer_slots, worker_thread_deprioritise
from answering.answer.contracts import AnswerCore, AnswerRequest, Prepared
from answering.answer.pipeline import AnswerPipeline, query_pipeline


def _once(action: Callable[[], None]) -> Callable[[], None]:
    first = threading.Lock()

    def run_once() -> None:
        if first.acquire(blocking=False):
            action()

    return run_once


def _prepare_in_thread(pipeline: AnswerPipeline, request: AnswerRequest) -> Prepared:
    # The connection goes back to the pool: the stream may stay open long after setup.
    worker_thread_deprioritise()
    try:
        return pipeline.prepare(request)
    finally:
        close_old_connections()


def _run_in_thread(pipeline: AnswerPipeline, prepared: Prepared) -> AnswerCore:
    worker_thread_deprioritise()
    try:
        return pipeline.run(prepared)
    finally:
        close_old_connections()


class StreamedAnswer:
    def __init__(self, request: AnswerRequest, make_pipeline: Callable[..., AnswerPipeline] = query_pipeline):
        """``make_pipeline(on_event=, cancelled=)`` composes the route's pipeline (``answering.answer.pipeline``)."""
        self.request = request
        self._loop = asyncio.get_running_loop()
        self._queue: asyncio.Queue[tuple[str, dict]] = asyncio.Queue()
        self._cancel = threading.Event()
        self._pipeline = make_pipeline(on_event=self._on_event, cancelled=self._cancel.is_set)
        self._prepared: Prepared | None = None
        self._release: Callable[[], None] = lambda: None

    def _on_event(self, name: str, data: dict) -> None:
        self._loop.call_soon_threadsafe(self._queue.put_nowait, (name, data))

    async def prepare(self) -> None:
        """Take an answer slot (bounded wait, ``Overloaded``), then the setup checks.

        Raises a ``DomainError`` before anything is streamed. The slot is held until ``run`` ends.
        """
        slots = answer_slots()
        await slots.acquire_async()
        self._release = _once(slots.release)
        # A stream whose body never starts (the client left first) still gives its slot back.
        weakref.finalize(self, self._release)
        try:
            self._prepared = await sync_to_async(_prepare_in_thread)(self._pipeline, self.request)
        except BaseException:
            self._release()
            raise

    async def run(self) -> AsyncIterator[tuple[str, dict] | AnswerCore]:
        """Yield ``(event, data)`` progress while the pipeline works, then its result.

        Precondition: ``prepare`` succeeded. Raises a ``DomainError`` when the
        answer fails and ``AnswerCancelled`` after a cancel.
        """
        work = asyncio.ensure_future(sync_to_async(_run_in_thread, thread_sensitive=False)(self._pipeline, self._prepared))
        # After a disconnect nobody awaits the work; retrieve its outcome so it is not reported as lost.
        work.add_done_callback(lambda future: future.cancelled() or future.exception())
        try:
            while not work.done() or not self._queue.empty():
                getter = asyncio.ensure_future(self._queue.get())
                try:
                    await asyncio.wait({getter, work}, return_when=asyncio.FIRST_COMPLETED)
                except BaseException:
                    getter.cancel()  # never leave a pending task behind a disconnect
                    raise
                if getter.done():
                    yield getter.result()
                else:
                    getter.cancel()
            yield work.result()
        finally:
            # Cancelled, closed early or finished: a pipeline still running must not persist.
            self._cancel.set()
            self._release()
