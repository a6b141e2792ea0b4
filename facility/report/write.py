"""Writing output files all or none, and never over an input or into a device.

Every file of a run is first written in full to a temporary file beside its target. Only then
are the targets replaced, one rename each; an existing target is first given a second name (a
hard link, or a rename where the file system has none) so that, if any replacement fails or the
run is interrupted, every target already replaced gets its previous content back and a target
that did not exist is removed again. No temporary or backup file is left behind.

Before anything is written, the outputs are checked: two outputs that are the same file (also
spelled differently, through a symbolic link or as a hard link), an output that is an input of
the run, a directory, a device node, FIFO or socket (``/dev/null`` too: a rename would replace
the device node itself, not write into it), and a path the system refuses are errors naming the
path as it was given.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import signal
import stat
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from facility.messages import Join, Message

# How much of a target's name its temporary and backup names keep: a name close to the
# system's limit (255 bytes) must not fail only because ".name.XXXXXXXX.tmp" is longer.
_NAME_KEPT = 80


class WriteError(OSError):
    """An output could not be written; the message names it and says what became of the others."""


class _Interrupted(KeyboardInterrupt):
    """A signal arrived while the targets were being replaced: they were all put back."""


# The signals that interrupt a run (Ctrl-C, SIGTERM, SIGHUP). While the targets are being
# replaced, and while temporary and backup files are removed, they are held back: a signal
# arriving between a rename and its bookkeeping would leave a target that is never restored
# or a backup never removed. Once the renames are done, a signal held back undoes them all.
_HELD = frozenset(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


@contextlib.contextmanager
def _signals_held() -> Iterator[Callable[[], bool]]:
    """Hold back the interrupting signals in the block (delivered when it ends); yields a
    function that tells whether one arrived meanwhile. Where signals cannot be masked (not
    POSIX, or not the main thread), nothing is held and nothing is seen as arrived."""
    can_mask = (
        hasattr(signal, "pthread_sigmask") and threading.current_thread() is threading.main_thread()
    )
    if not can_mask:
        yield lambda: False
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield lambda: bool(signal.sigpending() & _HELD)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a held signal is delivered now


@dataclass(frozen=True, slots=True)
class _Target:
    given: Path  # as the user wrote it, for messages
    path: Path  # resolved: where the file is written
    status: os.stat_result | None  # of the existing file, None when there is none


def write_atomically(
    path: Path, text: str | Iterable[str], *, protected: tuple[Path, ...] = ()
) -> None:
    """Write ``text`` (a string, or pieces of one) to ``path`` via a temporary file and a rename.

    A reader never sees half a file, and an interrupted run leaves the old file intact.
    Refuses to write over any of ``protected`` (the input files of the run).
    """
    write_all_atomically([(path, lambda: text)], protected=protected)


def write_all_atomically(
    jobs: Sequence[tuple[Path, Callable[[], str | bytes | Iterable[str]]]],
    *,
    protected: Iterable[Path] = (),
) -> None:
    """Write several files all or none: each is rendered (``jobs``' callables, called one at a
    time, so a large report streams to disk instead of being held whole) into a temporary file
    beside its target; only when every one is complete are the targets replaced, and if one
    replacement fails (or the run is interrupted), those already replaced are restored.

    Raises ValueError (a refused output) or :class:`WriteError` (the system could not write
    one), each with a :class:`~facility.messages.Message` naming the path, before any target
    was replaced, or after every replaced one was restored.
    """
    targets = _targets([path for path, _render in jobs], tuple(protected))
    staged: list[str] = []
    current = targets[0] if targets else None
    try:
        for target, (_path, render) in zip(targets, jobs, strict=True):
            current = target
            staged.append(_stage(target.path, render()))
        _replace(list(zip(staged, targets, strict=True)))
    except WriteError:
        raise
    except OSError as error:  # staging: nothing was replaced
        assert current is not None
        raise _cannot_write(current.given, error) from error
    finally:
        with _signals_held():
            for temporary in staged:
                Path(temporary).unlink(missing_ok=True)  # gone already when it was renamed in


def _cannot_write(path: Path, error: BaseException, notes: Sequence[Message] = ()) -> WriteError:
    """The error for ``path``; ``notes``: the targets that could not be put back, if any."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    if not notes:
        return WriteError(
            Message(
                "cannot write %(path)s: %(reason)s; no file was replaced",
                path=str(path),
                reason=reason,
            )
        )
    head = Message("cannot write %(path)s: %(reason)s", path=str(path), reason=reason)
    return WriteError(Join([head, *notes]))


# --- checking the outputs ------------------------------------------------------------------------


def _targets(paths: Sequence[Path], protected: tuple[Path, ...]) -> list[_Target]:
    if not paths:  # nothing is written (a report on stdout): no input to look up
        return []
    inputs = [found for found in map(_input, protected) if found is not None]
    targets: list[_Target] = []
    for path in paths:
        target = _output(path)
        for other in inputs:
            if _same(target, other):
                raise ValueError(
                    Message(
                        "refusing to write the report over the input file %(path)s",
                        path=str(path),
                    )
                )
        for earlier in targets:
            if _same(target, earlier):
                if str(earlier.given) == str(path):
                    raise ValueError(Message("the output %(path)s is given twice", path=str(path)))
                raise ValueError(
                    Message(
                        "the outputs %(path)s and %(other)s are the same file",
                        path=str(earlier.given),
                        other=str(path),
                    )
                )
        targets.append(target)
    return targets


def _output(path: Path) -> _Target:
    """Where ``path`` is written, refused with a message naming it when it cannot be."""
    try:
        resolved = path.resolve()
        try:
            status: os.stat_result | None = os.stat(path)  # follows links: /dev/stdout too
        except FileNotFoundError:
            status = None  # a new file (or a link to one): its directory must exist
        if status is None:
            # Its directory as the system reads the name ("a/../r.json" needs a directory
            # "a"), and as the file is written (at the end of a link).
            for parent in (os.stat(path.parent), os.stat(resolved.parent)):
                if not stat.S_ISDIR(parent.st_mode):
                    raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))
    except RuntimeError as error:  # pathlib before 3.13: "Symlink loop from ..."
        raise _cannot_write(path, OSError(errno.ELOOP, os.strerror(errno.ELOOP))) from error
    except (OSError, ValueError) as error:  # too long, a loop, no such directory, a NUL byte
        raise _cannot_write(path, error) from error
    if status is not None and stat.S_ISDIR(status.st_mode):
        raise _cannot_write(path, OSError(errno.EISDIR, os.strerror(errno.EISDIR)))
    if status is not None and not stat.S_ISREG(status.st_mode):
        raise ValueError(
            Message(
                "refusing to write to %(path)s: it is a device, FIFO or socket, not a regular "
                "file (a report replaces its target, it is never written into one)",
                path=str(path),
            )
        )
    return _Target(path, resolved, status)


def _input(path: Path) -> _Target | None:
    try:
        return _Target(path, path.resolve(), os.stat(path))
    except FileNotFoundError:
        return _Target(path, path.resolve(), None)
    except (OSError, ValueError, RuntimeError):  # not a path an output can be either
        return None


def _same(one: _Target, other: _Target) -> bool:
    """The same file: the same resolved path, or the same device and inode (a hard link)."""
    if one.path == other.path:
        return True
    if one.status is None or other.status is None:
        return False
    return (one.status.st_dev, one.status.st_ino) == (other.status.st_dev, other.status.st_ino)


# --- staging and replacing -----------------------------------------------------------------------


def _stage(target: Path, text: str | bytes | Iterable[str]) -> str:
    """Write ``text`` (or bytes: a PDF) to a new temporary file beside ``target``; return
    its name."""
    fd, temporary = tempfile.mkstemp(
        prefix=f".{target.name[:_NAME_KEPT]}.", suffix=".tmp", dir=target.parent
    )
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(temporary, 0o666 & ~umask)  # mkstemp makes 0600; a report is an ordinary file
        if isinstance(text, bytes):
            with os.fdopen(fd, "wb") as binary:
                binary.write(text)
            return temporary
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            if isinstance(text, str):
                handle.write(text)
            else:
                handle.writelines(text)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return temporary


@dataclass(slots=True)
class _Backup:
    name: str
    linked: bool  # a second name of the target (which is still there), else the target renamed


def _replace(pairs: list[tuple[str, _Target]]) -> None:
    """Rename each staged file over its target; on any failure (or interruption) put back
    every target replaced so far, then raise. Removes every backup it made, except one it
    could not put back (the error then says where that file's previous content is)."""
    with _signals_held() as interrupted:
        _replace_all(pairs, interrupted)


def _replace_all(pairs: list[tuple[str, _Target]], interrupted: Callable[[], bool]) -> None:
    backups: dict[int, _Backup] = {}
    replaced: list[int] = []
    kept: set[int] = set()
    given = pairs[0][1].given if pairs else Path()
    try:
        try:
            for i, (temporary, target) in enumerate(pairs):
                given = target.given
                backup = _back_up(target.path)
                if backup is not None:
                    backups[i] = backup
                os.replace(temporary, target.path)
                replaced.append(i)
            if interrupted():  # held back during the renames: the run stops, nothing replaced
                raise _Interrupted
        except BaseException as error:
            paths = [target.path for _temporary, target in pairs]
            unrestored = _restore(paths, replaced, backups)
            kept.update(unrestored)
            if not isinstance(error, OSError):
                raise
            notes = [
                Message(
                    "%(target)s could not be restored (%(reason)s); its previous content is in "
                    "%(backup)s",
                    target=str(pairs[i][1].given),
                    reason=reason,
                    backup=backups[i].name,
                )
                for i, reason in unrestored.items()
            ]
            raise _cannot_write(given, error, notes) from error
    finally:
        for i, backup in backups.items():
            if i not in kept:
                Path(backup.name).unlink(missing_ok=True)


def _back_up(target: Path) -> _Backup | None:
    """Give an existing ``target`` a second name beside it; None when it does not exist."""
    for _attempt in range(100):
        name = str(target.with_name(f".{target.name[:_NAME_KEPT]}.{secrets.token_hex(4)}.bak"))
        try:
            os.link(target, name)
            return _Backup(name, linked=True)
        except FileExistsError:
            continue
        except FileNotFoundError:
            return None
        except OSError:  # no hard links here (FAT, some network file systems): move it aside
            break
    prefix = f".{target.name[:_NAME_KEPT]}."
    fd, name = tempfile.mkstemp(prefix=prefix, suffix=".bak", dir=target.parent)
    os.close(fd)
    try:
        os.replace(target, name)
    except FileNotFoundError:
        Path(name).unlink(missing_ok=True)
        return None
    except BaseException:
        Path(name).unlink(missing_ok=True)
        raise
    return _Backup(name, linked=False)


def _restore(paths: list[Path], replaced: list[int], backups: dict[int, _Backup]) -> dict[int, str]:
    """Put every target back as it was; return those that could not be, with the reason."""
    failed: dict[int, str] = {}
    for i in reversed(replaced):
        try:
            if i in backups:
                os.replace(backups[i].name, paths[i])
            else:
                paths[i].unlink(missing_ok=True)  # it did not exist before this run
        except OSError as error:
            if i in backups:
                failed[i] = error.strerror or str(error)
    for i, backup in backups.items():
        if i in replaced or backup.linked:
            continue  # a link beside an untouched target is removed afterwards
        try:
            os.replace(backup.name, paths[i])  # moved aside, then its replacement failed
        except OSError as error:
            failed[i] = error.strerror or str(error)
    return failed
