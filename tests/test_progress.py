"""The progress line: only on a terminal, only after the delay, erased at the end."""

from __future__ import annotations

import io
import time

from facility.progress import Progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_nothing_on_a_pipe_even_for_slow_work() -> None:
    stream = io.StringIO()  # isatty() is False: a pipe, a file, CI logs
    with Progress(stream, delay=0.0, interval=0.01) as progress:
        progress.phase("loading site.yaml")
        time.sleep(0.1)
    assert stream.getvalue() == ""


def test_nothing_when_the_work_ends_before_the_delay() -> None:
    stream = _Terminal()
    with Progress(stream, delay=5.0, interval=0.01) as progress:
        progress.phase("loading site.yaml")
    assert stream.getvalue() == ""


def test_a_line_rewritten_in_place_then_erased() -> None:
    stream = _Terminal()
    with Progress(stream, delay=0.0, interval=0.01) as progress:
        progress.phase("checking 10,000 racks: rule 3 of 29")
        deadline = time.monotonic() + 5
        while "rule 3 of 29" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    written = stream.getvalue()
    assert "\rfacility: checking 10,000 racks: rule 3 of 29 (0 s)" in written.replace("\x1b[K", "")
    assert "\n" not in written  # one line, redrawn with a carriage return
    assert written.endswith("\r\x1b[K")  # erased before the report or an error is printed


def test_a_broken_stderr_does_not_break_the_run() -> None:
    class _Broken(_Terminal):
        def write(self, text: str) -> int:
            raise OSError("broken pipe")

    with Progress(_Broken(), delay=0.0, interval=0.01) as progress:
        progress.phase("loading")
        time.sleep(0.05)


def test_a_file_name_cannot_send_escapes_to_the_terminal() -> None:
    stream = _Terminal()
    with Progress(stream, delay=0.0, interval=0.01) as progress:
        progress.phase("loading evil\x1b]8;;http://x\x07.yaml")
        deadline = time.monotonic() + 5
        while "evil" not in stream.getvalue() and time.monotonic() < deadline:
            time.sleep(0.01)
    written = stream.getvalue()
    assert "loading evil\\x1b]8;;http://x\\x07.yaml" in written
    assert "\x07" not in written and written.count("\x1b") == written.count("\x1b[K")
