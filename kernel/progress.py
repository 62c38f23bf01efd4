"""Progress of long management commands: a rich progress bar on a terminal, plain lines otherwise.

Result lines (one per file or document) go through ``line`` so they print above the bar on
a terminal and to the command's stdout in a log or a pipe.
"""
from __future__ import annotations

import sys
import time
from typing import TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class CommandProgress:
    """``total`` units of work; ``advance`` after each, ``note`` for the running figures."""

    def __init__(self, total: int, *, stdout, label: str = "files", every: int = 10,
                 terminal: bool | None = None, stream: TextIO | None = None) -> None:
        self.total, self.label, self.every = total, label, every
        self.stdout = stdout
        self.stream = stream or sys.stderr
        self.terminal = (self.stream.isatty() and sys.stdout.isatty()) if terminal is None else terminal
        self.done = 0
        self.started = time.monotonic()
        self._bar: Progress | None = None
        self._task = None

    def __enter__(self) -> "CommandProgress":
        if self.terminal:
            self._bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TextColumn("{task.fields[note]}"), TimeElapsedColumn(),
                                 console=Console(file=self.stream), transient=True)
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=self.total, note="")
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None

    def line(self, text: str) -> None:
        if self._bar is not None:
            self._bar.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            self.stdout.write(text)

    def update(self, *, done: int, note: str = "") -> None:
        """Set the completed count; without a terminal, one line every ``every`` units and at the end."""
        advanced = done != self.done
        self.done = done
        if self._bar is not None:
            self._bar.update(self._task, completed=done, note=note)
        elif advanced and (done == self.total or done % self.every == 0):
            self.stream.write(f"[{done}/{self.total} {self.label}] {note}".rstrip() + "\n")
            self.stream.flush()

    @property
    def elapsed(self) -> float:
        return max(time.monotonic() - self.started, 1e-6)
