"""Reports are written all or none, and only where a report may go (issue 14).

Faults are injected into the renames and the writes; every outcome is checked byte for byte
and for stray temporary or backup files. Then the command line: outputs given twice, devices
and FIFOs, outputs over any input of the run (bases, waivers, rules, profiles; by symbolic or
hard link too), and paths the system refuses — exit 2, a message naming the path, no traceback.
"""

from __future__ import annotations

import errno
import os
import shutil
import signal
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from facility.engine.rules import bundled_rules_dir
from facility.report.write import WriteError, write_all_atomically

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
OLD = {"report.html": b"old html\n", "result.json": b'{"old": true}\n', "report.md": b"old md\n"}
runner = CliRunner()


def _old_files(directory: Path, names: list[str]) -> list[Path]:
    paths = []
    for name in names:
        (directory / name).write_bytes(OLD[name])
        paths.append(directory / name)
    return paths


def _assert_as_before(directory: Path, existing: list[str]) -> None:
    """Every file that was there has its old bytes; nothing else is there (no report created,
    no .tmp, no backup)."""
    assert sorted(p.name for p in directory.iterdir()) == sorted(existing)
    for name in existing:
        assert (directory / name).read_bytes() == OLD[name], name


def _fail_rename(monkeypatch, nth: int, error: BaseException) -> list[str]:
    """Make the ``nth`` rename of a staged file into place raise ``error``; others work."""
    real = os.replace
    calls: list[str] = []

    def replace(src, dst, *args, **kwargs):
        if str(src).endswith(".tmp"):
            calls.append(str(dst))
            if len(calls) == nth:
                raise error
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return calls


def _jobs(directory: Path, names: list[str]) -> list[tuple[Path, Callable[[], str]]]:
    return [(directory / name, lambda name=name: f"new {name}\n") for name in names]


# --- all or none: the renames --------------------------------------------------------------------

NAMES = ["report.html", "result.json", "report.md"]


@pytest.mark.parametrize("links", [True, False], ids=["hard-link-backup", "rename-backup"])
@pytest.mark.parametrize(
    ("existing", "nth"),
    [
        (NAMES, 2),  # every target existed; the second rename fails
        (NAMES, 3),  # two already replaced must both come back
        (["result.json"], 2),  # the first target is new: it is removed again
        (["report.html"], 2),  # the failing target did not exist
        ([], 3),  # all new: none stays
    ],
)
def test_a_failed_rename_restores_every_target_already_replaced(
    tmp_path, monkeypatch, links, existing, nth
) -> None:
    _old_files(tmp_path, existing)
    if not links:  # a file system without hard links: the old file is moved aside instead
        monkeypatch.setattr(os, "link", _no_links)
    _fail_rename(monkeypatch, nth, OSError(errno.EIO, os.strerror(errno.EIO)))
    with pytest.raises(WriteError) as raised:
        write_all_atomically(_jobs(tmp_path, NAMES))
    _assert_as_before(tmp_path, existing)
    assert str(raised.value) == (
        f"cannot write {tmp_path / NAMES[nth - 1]}: Input/output error; no file was replaced"
    )


def _no_links(*_args: object, **_kwargs: object) -> None:
    raise PermissionError(errno.EPERM, os.strerror(errno.EPERM))


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt(), SystemExit(143)])
def test_an_interruption_between_the_renames_is_undone(tmp_path, monkeypatch, interrupt) -> None:
    # Ctrl-C, or SIGTERM / SIGHUP (facility.cli raises Terminated, a BaseException), arriving
    # after the first report was renamed into place: it is put back, backups removed.
    _old_files(tmp_path, NAMES)
    _fail_rename(monkeypatch, 2, interrupt)
    with pytest.raises(type(interrupt)):
        write_all_atomically(_jobs(tmp_path, NAMES))
    _assert_as_before(tmp_path, NAMES)


def test_the_terminated_signal_of_the_cli_is_undone_too(tmp_path, monkeypatch) -> None:
    from facility.cli import Terminated

    _old_files(tmp_path, NAMES)
    _fail_rename(monkeypatch, 3, Terminated(signal.SIGTERM))
    with pytest.raises(Terminated):
        write_all_atomically(_jobs(tmp_path, NAMES))
    _assert_as_before(tmp_path, NAMES)


def test_success_replaces_every_target_and_leaves_no_backup(tmp_path) -> None:
    _old_files(tmp_path, ["report.html"])
    outside = tmp_path / "published.html"
    os.link(tmp_path / "report.html", outside)  # another name of the old report: kept as it was
    write_all_atomically(_jobs(tmp_path, NAMES))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([*NAMES, "published.html"])
    for name in NAMES:
        assert (tmp_path / name).read_text(encoding="utf-8") == f"new {name}\n"
    assert outside.read_bytes() == OLD["report.html"]


def test_a_restore_that_fails_too_keeps_the_old_content_and_says_where(
    tmp_path, monkeypatch
) -> None:
    # A double fault: the second rename fails, then putting the first report back fails. The
    # previous content is not thrown away: it stays in the backup the message names.
    _old_files(tmp_path, NAMES)
    real = os.replace
    renamed: list[str] = []

    def replace(src, dst, *args, **kwargs):
        if str(src).endswith(".tmp"):
            renamed.append(str(dst))
            if len(renamed) == 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if str(src).endswith(".bak"):
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(WriteError) as raised:
        write_all_atomically(_jobs(tmp_path, NAMES))
    backups = [p for p in tmp_path.iterdir() if p.name.endswith(".bak")]
    assert len(backups) == 1 and backups[0].read_bytes() == OLD["report.html"]
    assert str(raised.value) == (
        f"cannot write {tmp_path / 'result.json'}: No space left on device; "
        f"{tmp_path / 'report.html'} could not be restored (Input/output error); its previous "
        f"content is in {backups[0]}"
    )
    assert (tmp_path / "result.json").read_bytes() == OLD["result.json"]


# --- all or none: the staging ----------------------------------------------------------------------


@pytest.mark.parametrize("error", [OSError("disk full"), RuntimeError("a defect")])
def test_a_renderer_failing_on_the_second_file_replaces_nothing(tmp_path, error) -> None:
    _old_files(tmp_path, NAMES)

    def broken() -> Iterator[str]:
        yield "half of it"
        raise error

    jobs = _jobs(tmp_path, NAMES)
    jobs[1] = (jobs[1][0], broken)
    with pytest.raises(type(error)) as raised:
        write_all_atomically(jobs)
    if isinstance(error, OSError):
        assert str(raised.value) == (
            f"cannot write {tmp_path / 'result.json'}: disk full; no file was replaced"
        )
    else:
        assert raised.value is error  # a defect is not dressed up as a write error
    _assert_as_before(tmp_path, NAMES)


class _FullDisk:
    """A file handle whose writes fail with ENOSPC, as on a full disk."""

    def __init__(self, handle) -> None:
        self.handle = handle

    def __enter__(self) -> _FullDisk:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()

    def write(self, _text: str) -> int:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    writelines = write


def _fill_the_disk_at(monkeypatch, nth: int) -> None:
    real = os.fdopen
    opened: list[int] = []

    def fdopen(fd, *args, **kwargs):
        handle = real(fd, *args, **kwargs)
        opened.append(fd)
        return _FullDisk(handle) if len(opened) == nth else handle

    monkeypatch.setattr(os, "fdopen", fdopen)


@pytest.mark.parametrize(("nth", "name"), [(1, "report.html"), (2, "result.json")])
def test_a_full_disk_names_the_file_and_says_nothing_was_replaced(
    tmp_path, monkeypatch, nth, name
) -> None:
    _old_files(tmp_path, ["report.html", "result.json"])
    monkeypatch.chdir(tmp_path)
    _fill_the_disk_at(monkeypatch, nth)
    result = runner.invoke(
        app, ["check", str(EXAMPLES / "small-ready.yaml"), "-o", "report.html", "-o", "result.json"]
    )
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr == (
        f"error: cannot write {name}: No space left on device; no file was replaced\n"
    )
    _assert_as_before(tmp_path, ["report.html", "result.json"])


def test_a_failed_rename_through_the_command_line(tmp_path, monkeypatch) -> None:
    _old_files(tmp_path, ["report.html", "result.json"])
    monkeypatch.chdir(tmp_path)
    _fail_rename(monkeypatch, 2, OSError(errno.EXDEV, os.strerror(errno.EXDEV)))
    result = runner.invoke(
        app, ["check", str(EXAMPLES / "small-ready.yaml"), "-o", "report.html", "-o", "result.json"]
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "error: cannot write result.json: Invalid cross-device link; no file was replaced\n"
    )
    _assert_as_before(tmp_path, ["report.html", "result.json"])


def test_ctrl_c_between_the_renames_exits_130_with_the_old_reports(tmp_path, monkeypatch) -> None:
    _old_files(tmp_path, ["report.html", "result.json"])
    monkeypatch.chdir(tmp_path)
    _fail_rename(monkeypatch, 2, KeyboardInterrupt())
    result = runner.invoke(
        app, ["check", str(EXAMPLES / "small-ready.yaml"), "-o", "report.html", "-o", "result.json"]
    )
    assert result.exit_code == 130
    _assert_as_before(tmp_path, ["report.html", "result.json"])


# --- outputs: twice, devices, FIFOs ------------------------------------------------------------------


def _check(directory: Path, *outputs: str, extra=()) -> object:
    args = ["check", str(EXAMPLES / "small-ready.yaml"), *extra]
    for output in outputs:
        args += ["-o", output]
    return runner.invoke(app, args)


def _refused(result, message: str) -> None:
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr == f"error: {message}\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)


@pytest.mark.parametrize(
    ("outputs", "message"),
    [
        (["r.html", "r.html"], "the output r.html is given twice"),
        (["r.json", "./r.json"], "the output r.json is given twice"),  # pathlib drops ./
        (["r.json", "sub/../r.json"], "the outputs r.json and sub/../r.json are the same file"),
        (["r.json", "link.json"], "the outputs r.json and link.json are the same file"),
        (["hard.json", "old.json"], "the outputs hard.json and old.json are the same file"),
    ],
)
def test_the_same_output_twice_is_refused_before_anything_is_written(
    tmp_path, monkeypatch, outputs, message
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.json").symlink_to("r.json")  # dangling until r.json is written
    (tmp_path / "old.json").write_bytes(b"old\n")
    os.link("old.json", "hard.json")
    before = {p.name: (p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    # two formats: not merely the same report written twice
    args = ["check", str(EXAMPLES / "small-ready.yaml"), "-f", "json", "-f", "html"]
    for output in outputs:
        args += ["-o", output]
    _refused(runner.invoke(app, args), message)
    after = {p.name: (p.read_bytes() if p.is_file() else None) for p in tmp_path.iterdir()}
    assert after == before


def test_a_fifo_as_output_is_refused_and_never_opened(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    os.mkfifo("r.json")  # opening it to write would block the run; replacing it would lose it
    _refused(
        _check(tmp_path, "r.json"),
        "refusing to write to r.json: it is a device, FIFO or socket, not a regular file (a "
        "report replaces its target, it is never written into one)",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.json"]
    assert os.path.exists("r.json") and not os.path.isfile("r.json")


def test_dev_null_is_refused(tmp_path, monkeypatch) -> None:
    # Refused, not special-cased: an atomic write renames a file over its target, which for
    # /dev/null (as root) would replace the device node with a report. To discard the report,
    # leave out -o. The guard keeps a regression from ever touching the real node.
    real = os.replace

    def guarded(src, dst, *args, **kwargs):
        assert not str(dst).startswith("/dev/"), "a rename over a device node"
        return real(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", guarded)
    message = (
        "refusing to write to /dev/null: it is a device, FIFO or socket, not a regular file (a "
        "report replaces its target, it is never written into one)"
    )
    _refused(_check(tmp_path, "/dev/null", extra=["-f", "json"]), message)
    assert not any(name.endswith(".tmp") for name in os.listdir("/dev"))


def test_a_device_node_is_refused(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        os.mknod("null.json", 0o666 | 0o020000, os.makedev(1, 3))  # a character device
    except PermissionError:
        pytest.skip("creating a device node needs root")
    _refused(
        _check(tmp_path, "null.json"),
        "refusing to write to null.json: it is a device, FIFO or socket, not a regular file (a "
        "report replaces its target, it is never written into one)",
    )
    assert os.path.exists("null.json") and not os.path.isfile("null.json")


# --- outputs never replace an input ----------------------------------------------------------------


@pytest.fixture
def layered(tmp_path, monkeypatch) -> Path:
    """Hall B3 as a base and a cooling overlay, a waiver file, a rule directory and a profile,
    all copied into the working directory."""
    shutil.copytree(EXAMPLES / "layered", tmp_path / "layered")
    (tmp_path / "waivers.yaml").write_text("waivers: []\n", encoding="utf-8")
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "XYZ-001.yaml").write_text(CUSTOM_RULE, encoding="utf-8")
    shutil.copy(bundled_rules_dir() / "profiles" / "supernode.yaml", tmp_path / "mine.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


CUSTOM_RULE = """\
code: XYZ-001
name: custom.floor_pressure
title: The floor carries the rack
area: floor
scope: rack
severity: warning
observed: footprint_pressure
limit: zone_uniform_load_rating
condition: observed <= limit
requirement: The floor carries the rack
why: A floor that cannot carry the rack sags.
references: ["IBM site planning"]
"""
RUN = ["--waivers", "waivers.yaml", "--rules", "rules", "--profile", "mine.yaml"]


def _snapshot(directory: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(directory)): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not p.is_symlink()
    }


@pytest.mark.parametrize(
    "output",
    [
        "layered/cooling.yaml",  # the site file
        "layered/hall-b3-base.yaml",  # a base it extends
        "layered/../layered/hall-b3-base.yaml",  # spelled otherwise
        "waivers.yaml",  # a --waivers file
        "rules/XYZ-001.yaml",  # a rule file of --rules
        "mine.yaml",  # the profile
        "base-link.yaml",  # a symbolic link to the base
        "base-hard.yaml",  # a hard link to the base
        "bundled-hard.yaml",  # a hard link to a bundled rule file
        "profile-hard.yaml",  # a hard link to the bundled profile a base run would read
    ],
)
def test_an_output_never_replaces_an_input_of_the_run(layered, output) -> None:
    (layered / "base-link.yaml").symlink_to("layered/hall-b3-base.yaml")
    os.link("layered/hall-b3-base.yaml", "base-hard.yaml")
    os.link(next(bundled_rules_dir().rglob("PWR-001.yaml")), "bundled-hard.yaml")
    os.link(bundled_rules_dir() / "profiles" / "supernode.yaml", "profile-hard.yaml")
    extra = RUN if output != "profile-hard.yaml" else RUN[:4]  # the bundled profile then
    before = _snapshot(layered)
    result = runner.invoke(
        app,
        ["check", "layered/cooling.yaml", *extra, "-f", "json", "-f", "json", "-o", "r.json",
         "-o", output],
    )  # fmt: skip
    _refused(result, f"refusing to write the report over the input file {output}")
    assert _snapshot(layered) == before  # r.json not written either


def test_the_layered_run_itself_writes_its_reports(layered) -> None:
    result = runner.invoke(app, ["check", "layered/cooling.yaml", *RUN, "-o", "r.json"])
    assert result.exit_code == 1, result.stderr  # Hall B3: not ready
    assert (layered / "r.json").is_file()


# --- outputs the system refuses ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "reason"),
    [
        ("x" * 300 + ".json", "File name too long"),
        ("loop.json", "Too many levels of symbolic links"),
        ("no-such-directory/r.json", "No such file or directory"),
        ("a-file/r.json", "Not a directory"),
        ("a-directory", "Is a directory"),
        (".", "Is a directory"),
    ],
)
def test_an_output_the_system_refuses_names_the_path(tmp_path, monkeypatch, output, reason):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "loop.json").symlink_to("loop.json")
    (tmp_path / "a-file").write_bytes(b"x")
    (tmp_path / "a-directory").mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    result = _check(tmp_path, "r.html", output, extra=["-f", "html", "-f", "json"])
    _refused(result, f"cannot write {output}: {reason}; no file was replaced")
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_a_nul_byte_in_an_output_is_refused(tmp_path, monkeypatch) -> None:
    # The command line refuses it while reading the option (a usage error, exit 2); the
    # library names the path the same way as any other it cannot write.
    monkeypatch.chdir(tmp_path)
    result = _check(tmp_path, "r.html", "r\x00.json")
    assert result.exit_code == 2 and result.stdout == ""
    assert "embedded null byte" in result.stderr and "Traceback" not in result.output
    with pytest.raises(WriteError) as raised:
        write_all_atomically([*_jobs(tmp_path, ["report.html"]), (Path("r\x00.json"), str)])
    assert str(raised.value) == "cannot write r\x00.json: embedded null byte; no file was replaced"
    assert list(tmp_path.iterdir()) == []


def test_a_name_just_under_the_limit_is_written(tmp_path) -> None:
    # The temporary and backup names beside it must not be what breaks the limit.
    target = tmp_path / ("x" * 250 + ".json")
    target.write_bytes(b"old\n")
    write_all_atomically([(target, lambda: "new\n")])
    assert target.read_bytes() == b"new\n"
    assert [p.name for p in tmp_path.iterdir()] == [target.name]
