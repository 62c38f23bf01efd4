"""Run one untrusted parse in a child process bounded in time and memory.

A hostile or broken file can make a parser loop, recurse or allocate without
end. ``run_bounded`` runs ``function(*args, report)`` in a fresh child (the
``forkserver`` start method: the child is forked from a small server process,
never from a worker holding models and connections) whose address space is
capped with ``RLIMIT_AS``; the parent waits at most ``timeout_seconds``, and
the clock starts again whenever the child calls ``report(done, total)`` (OCR
reports each page read, so a long scan is bounded per page, a stuck parse as
a whole). On the bound the child is killed and a domain error says which bound
it met; the caller's process goes on with the next file.

The child's return value and the exceptions it raises cross a pipe, so both
must pickle (an exception that does not is re-raised as ``ParseCrashed``).
``timeout_seconds=0`` runs ``function`` in this process, unbounded (tests and
debugging only).
"""
from __future__ import annotations

import multiprocessing
import signal
import time
from typing import Any, Callable

from kernel.errors import Unprocessable


class ParseBoundExceeded(Unprocessable):
    """A file's parse met one of its bounds; nothing was stored."""

    code = "parse_bound_exceeded"


class ParseTimedOut(ParseBoundExceeded):
    code = "parse_timeout"


class ParseOutOfMemory(ParseBoundExceeded):
    code = "parse_memory_exceeded"


class ParseCrashed(ParseBoundExceeded):
    code = "parse_crashed"


_MB = 1024 * 1024


def _child(conn, memory_mb: int, function: Callable, args: tuple) -> None:
    if memory_mb:
        import resource

        limit = memory_mb * _MB
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    def report(done: int, total: int) -> None:
        conn.send(("progress", (done, total)))

    try:
        result = function(*args, report)
    except MemoryError:
        conn.send(("memory", None))
    except BaseException as exc:  # noqa: BLE001 - every failure crosses to the parent
        try:
            conn.send(("error", exc))
        except Exception:
            conn.send(("crash", f"{type(exc).__name__}: {exc}"[:300]))
    else:
        try:
            conn.send(("ok", result))
        except MemoryError:
            conn.send(("memory", None))
    finally:
        conn.close()


def _signal_name(exitcode: int) -> str:
    try:
        return signal.Signals(-exitcode).name
    except ValueError:
        return f"exit code {exitcode}"


def run_bounded(function: Callable, args: tuple, *, timeout_seconds: float, memory_mb: int,
                on_progress: Callable[[int, int], None] | None = None, what: str = "parsing",
                preload: tuple[str, ...] = ()) -> Any:
    """``function(*args, report)`` in a bounded child; its result, or its exception re-raised here.

    Raises ``ParseTimedOut`` ("parsing took longer than N s"), ``ParseOutOfMemory`` ("parsing needed
    more than N MB") or ``ParseCrashed`` (the child died without an answer). ``preload``: modules the
    fork server imports once, so each child starts with them (a hint: the first call's list is kept)."""
    if not timeout_seconds:
        return function(*args, on_progress or (lambda done, total: None))
    context = multiprocessing.get_context("forkserver")
    if preload:
        context.set_forkserver_preload(list(preload))
    receiver, sender = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sender, memory_mb, function, args), daemon=True,
                              name="aceh-rag-parse")
    process.start()
    sender.close()
    deadline = time.monotonic() + timeout_seconds
    try:
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not receiver.poll(remaining):
                if time.monotonic() < deadline:
                    continue
                raise ParseTimedOut(f"Refused: {what} took longer than {timeout_seconds:g} s "
                                    f"(ACEH_RAG_INGESTION__PARSE_TIMEOUT_SECONDS)")
            try:
                kind, value = receiver.recv()
            except (EOFError, OSError):
                process.join(5)
                code = process.exitcode
                if memory_mb and code is not None and code < 0 and -code in (signal.SIGKILL, signal.SIGABRT):
                    raise _out_of_memory(what, memory_mb) from None
                raise ParseCrashed(f"Refused: the {what} process died without an answer "
                                   f"({_signal_name(code) if code is not None else 'no exit code'})") from None
            if kind == "progress":
                deadline = time.monotonic() + timeout_seconds
                if on_progress:
                    on_progress(*value)
            elif kind == "ok":
                return value
            elif kind == "error":
                raise value
            elif kind == "memory":
                raise _out_of_memory(what, memory_mb)
            else:
                raise ParseCrashed(f"Refused: {what} failed ({value})")
    finally:
        receiver.close()
        if process.is_alive():
            process.kill()
        process.join(5)


def _out_of_memory(what: str, memory_mb: int) -> ParseOutOfMemory:
    return ParseOutOfMemory(f"Refused: {what} needed more than {memory_mb:,} MB "
                            f"(ACEH_RAG_INGESTION__PARSE_MEMORY_MB)")
