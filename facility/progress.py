"""A progress line on stderr for long runs.

Shown only when stderr is a terminal and the work has already taken more than a second (a
quick audit prints nothing extra, and nothing ever reaches a pipe, a file or CI logs). One
line, rewritten in place by a background thread and erased when the work ends, so it never
mixes with the report on stdout or with the error messages that follow it.
"""

from __future__ import annotations

import sys
import threading
import time
from types import TracebackType
from typing import TextIO

from facility.printable import printable

DELAY_S = 1.0  # show nothing for work that ends sooner
INTERVAL_S = 0.2  # redraw period
_ERASE = "\r\x1b[K"  # to the start of the line, clear it


class Progress:
    """``with Progress() as progress: progress.phase("loading site.yaml")``.

    ``phase`` may be called as often as wanted; drawing is the thread's job.
    """

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        enabled: bool | None = None,
        delay: float = DELAY_S,
        interval: float = INTERVAL_S,
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = _is_terminal(self.stream) if enabled is None else enabled
        self.delay = delay
        self.interval = interval
        self._text = ""
        self._shown = False
        self._start = time.monotonic()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def phase(self, text: str) -> None:
        """What is being done now ('auditing 12,000 racks'); control characters (a file name
        can hold any) are shown escaped, never sent to the terminal."""
        self._text = printable(text)

    def __enter__(self) -> Progress:
        if self.enabled:
            self._start = time.monotonic()
            self._thread = threading.Thread(target=self._run, name="progress", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
            self._thread = None
        if self._shown:
            self._write(_ERASE)
            self._shown = False

    def _run(self) -> None:
        if self._stop.wait(self.delay):
            return
        while not self._stop.is_set():
            elapsed = time.monotonic() - self._start
            self._write(f"{_ERASE}facility: {self._text} ({elapsed:.0f} s)")
            self._shown = True
            self._stop.wait(self.interval)

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stderr: drawing is not worth dying
            self._stop.set()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
