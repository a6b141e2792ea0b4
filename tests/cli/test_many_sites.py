"""Many sites in one `facility check` run (issue 17): several files, a directory, stdin; a
report per site, the portfolio summary, outputs per site with {site}, one JSON and one SARIF
document for all, --jobs, and the exit code the worst of the sites'."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from facility.cli import app
from tests.report_machine.test_sarif import assert_valid

EXAMPLES = Path(__file__).parents[2] / "examples"
AT = ("--generated-at", "2026-11-29T12:00:00Z")
runner = CliRunner()

# Hall B3 is NOT READY (exit 1): README. What the small pod gets, and every count, is that
# site checked alone (the rule set's to change: see row() and alone()).
VERDICT_WORDS = {
    "not-ready": ["NOT", "READY"],
    "incomplete": ["INCOMPLETE"],
    "ready-with-warnings": ["READY", "WITH", "WARNINGS"],
    "ready": ["READY"],
}
BAD = "racks: 3\n"  # two problems: racks is no list, and there is no site:


def run(*args: object, **kwargs):
    return runner.invoke(app, [str(a) for a in args], **kwargs)


@pytest.fixture
def halls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory with Hall B3, the small ready pod and nothing above it to configure them;
    the working directory, so the sites are named as given."""
    (tmp_path / ".git").mkdir()
    for name in ("hall-b3.yaml", "small-ready.yaml"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def alone(name: str, *args: str):
    """``facility check NAME -f json``: its exit code and JSON result."""
    out = run("check", name, "-f", "json", *args, *AT)
    return out.exit_code, json.loads(out.stdout)


def row(name: str) -> list[str]:
    """The portfolio row a site must get: its verdict, counts and exit code checked alone."""
    alone = run("check", name, "-f", "json", *AT)
    result = json.loads(alone.stdout)
    counts = [str(result["counts"][k]) for k in ("fail", "pass", "not_evaluated", "waived")]
    return [name, *VERDICT_WORDS[result["verdict"]], *counts, str(alone.exit_code)]


def rows(stdout: str) -> list[list[str]]:
    """The portfolio table's rows, as words."""
    table = stdout[stdout.index("PORTFOLIO:") :].split("\n\n")[0].splitlines()[2:]
    return [line.split() for line in table]


def test_several_sites_each_report_then_the_portfolio(halls):
    out = run("check", "hall-b3.yaml", "small-ready.yaml", *AT)
    assert out.exit_code == 1, out.output  # the worst: Hall B3 fails
    alone = [run("check", name, *AT).stdout for name in ("hall-b3.yaml", "small-ready.yaml")]
    # each site's report as a run of its own gives it, one after the other, then the summary
    assert out.stdout.startswith(alone[0] + "\n" + alone[1] + "\n")
    assert "PORTFOLIO: 2 sites" in out.stdout
    assert rows(out.stdout) == [row("hall-b3.yaml"), row("small-ready.yaml")]
    assert rows(out.stdout)[0][1:3] == ["NOT", "READY"] and rows(out.stdout)[0][-1] == "1"
    last = out.stdout.rstrip().splitlines()[-1]
    assert last.startswith("portfolio: NOT READY — 1 not ready") or "— 2 not ready" in last
    assert last.endswith("; exit 1")


def test_a_bad_site_among_good_ones_exits_2_and_the_others_are_reported(halls):
    (halls / "bad.yaml").write_text(BAD)
    out = run("check", "small-ready.yaml", "bad.yaml", "hall-b3.yaml", *AT)
    assert out.exit_code == 2  # bad input is worse than a failing check
    assert "bad.yaml:1:1: racks: " in out.stderr
    assert "bad.yaml:1:1: site: missing required field 'site'" in out.stderr
    assert "bad.yaml: 2 problems found; none of its reports was written." in out.stderr
    assert "bad.yaml — bad input, not checked: 2 problems" in out.stdout
    table = rows(out.stdout)
    assert table[0] == row("small-ready.yaml")
    assert table[1] == ["bad.yaml", "BAD", "INPUT", "—", "—", "—", "—", "2"]
    assert table[2] == row("hall-b3.yaml")
    last = out.stdout.rstrip().splitlines()[-1]
    assert last.startswith("portfolio: BAD INPUT — 1 bad input, ") and last.endswith("; exit 2")


def test_no_site_failing_exits_0(halls):
    # --fail-on never: no site adds to the exit code, whatever its verdict (Hall B3's stays)
    out = run("check", "hall-b3.yaml", "small-ready.yaml", "--fail-on", "never", *AT)
    assert out.exit_code == 0, out.output
    assert [r[-1] for r in rows(out.stdout)] == ["0", "0"]
    assert rows(out.stdout)[0][1:3] == ["NOT", "READY"]
    assert out.stdout.rstrip().endswith("; exit 0")


def test_a_directory_is_its_site_files_sorted_and_not_its_subdirectories(halls):
    (halls / "sub").mkdir()
    (halls / "sub" / "bad.yaml").write_text(BAD)  # below: not read
    (halls / "notes.txt").write_text("not a site")
    (halls / ".hidden.yaml").write_text(BAD)
    out = run("check", ".", *AT)
    assert out.exit_code == 1, out.output
    assert [row[0] for row in rows(out.stdout)] == ["hall-b3.yaml", "small-ready.yaml"]


def test_a_directory_of_one_file_is_still_a_portfolio(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    shutil.copy(EXAMPLES / "small-ready.yaml", tmp_path / "pod.yaml")
    monkeypatch.chdir(tmp_path)
    out = run("check", ".", "-f", "json", *AT)
    assert out.exit_code == alone("pod.yaml")[0], out.output
    doc = json.loads(out.stdout)
    assert doc["schema"] == "facility-portfolio/1"
    assert doc["sites"] == [alone("pod.yaml")[1]]


def test_a_directory_leaves_out_the_bases_of_its_files(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    layered = tmp_path / "layered"
    shutil.copytree(EXAMPLES / "layered", layered)
    monkeypatch.chdir(tmp_path)
    out = run("check", "layered", *AT)
    # cooling.yaml over hall-b3-base.yaml is Hall B3 (docs/layering.md): its verdict, exit 1
    assert out.exit_code == 1, out.output
    assert [row[0] for row in rows(out.stdout)] == ["layered/cooling.yaml"]
    assert (
        "not checked alone: layered/hall-b3-base.yaml, a base of layered/cooling.yaml "
        "(checked with it)" in out.stdout
    )
    assert "PORTFOLIO: 1 site" in out.stdout
    # named on the command line, a base is checked like any file
    named = run("check", "layered/hall-b3-base.yaml", "layered/cooling.yaml", *AT)
    assert [row[0] for row in rows(named.stdout)] == [
        "layered/hall-b3-base.yaml",
        "layered/cooling.yaml",
    ]


def test_files_that_extend_each_other_are_both_checked(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    (tmp_path / "a.yaml").write_text("extends: b.yaml\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\n")
    monkeypatch.chdir(tmp_path)
    out = run("check", ".", *AT)
    assert out.exit_code == 2
    assert "a.yaml:1:" in out.stderr and "b.yaml:1:" in out.stderr  # the cycle, from each


def test_an_empty_directory_is_bad_input(tmp_path):
    out = run("check", tmp_path, *AT)
    assert out.exit_code == 2
    assert "the directory holds no site file (*.yaml, *.yml, *.json)" in out.stderr


def test_stdin_is_one_site_named_stdin(halls):
    text = (halls / "small-ready.yaml").read_text()
    out = run("check", "-", "-f", "json", *AT, input=text)
    code, result_of_file = alone("small-ready.yaml")
    assert out.exit_code == code, out.output
    result = json.loads(out.stdout)
    assert result["site"]["file"] == "<stdin>"
    assert result["counts"] == result_of_file["counts"]
    assert result["verdict"] == result_of_file["verdict"]
    bad = run("check", "-", *AT, input=BAD)
    assert bad.exit_code == 2
    assert "error: <stdin>:1:1: racks: " in bad.stderr
    assert "nothing was written" in bad.stderr


def test_stdin_extends_relative_to_the_working_directory(tmp_path, monkeypatch):
    (tmp_path / ".git").mkdir()
    shutil.copytree(EXAMPLES / "layered", tmp_path / "layered")
    monkeypatch.chdir(tmp_path / "layered")
    piped = run("check", "-", "-f", "json", *AT, input=Path("cooling.yaml").read_text())
    given = run("check", "cooling.yaml", "-f", "json", *AT)
    assert piped.exit_code == given.exit_code == 1, piped.output
    one, other = json.loads(piped.stdout), json.loads(given.stdout)
    assert one["counts"] == other["counts"]
    assert one["counts"]["fail"] > 0


def test_stdin_among_files(halls):
    text = (halls / "small-ready.yaml").read_text()
    out = run("check", "hall-b3.yaml", "-", *AT, input=text)
    assert out.exit_code == 1
    assert rows(out.stdout)[1][0] == "<stdin>"
    twice = run("check", "-", "-", *AT, input=text)
    assert twice.exit_code == 2
    assert "'-' (stdin) is given twice" in twice.stderr


def test_outputs_per_site_with_the_placeholder(halls):
    out = run("check", "hall-b3.yaml", "small-ready.yaml", "-o", "out/{site}.json", *AT)
    assert out.exit_code == 2  # out/ does not exist: nothing written
    (halls / "out").mkdir()
    out = run(
        "check", "hall-b3.yaml", "small-ready.yaml", "-o", "out/{site}.json",
        "-o", "out/{site}.html", *AT,
    )  # fmt: skip
    assert out.exit_code == 1, out.output
    assert sorted(p.name for p in (halls / "out").iterdir()) == [
        "hall-b3.html", "hall-b3.json", "small-ready.html", "small-ready.json",
    ]  # fmt: skip
    for name in ("hall-b3", "small-ready"):
        alone = run("check", f"{name}.yaml", "-f", "json", *AT).stdout
        assert (halls / "out" / f"{name}.json").read_text() == alone  # as a run of its own


def test_an_output_without_placeholder_that_needs_one_is_refused(halls):
    out = run("check", "hall-b3.yaml", "small-ready.yaml", "-o", "report.html", *AT)
    assert out.exit_code == 2
    assert (
        "report.html: with several sites, a html report is written per site: put {site} in "
        "its name (out/{site}.html)" in out.stderr
    )
    assert not (halls / "report.html").exists()
    html = run("check", "hall-b3.yaml", "small-ready.yaml", "-f", "html", *AT)
    assert html.exit_code == 2
    assert "with several sites, stdout takes text, json or sarif" in html.stderr


def test_two_sites_of_one_name_cannot_share_the_placeholder(halls):
    (halls / "b").mkdir()
    shutil.copy(halls / "small-ready.yaml", halls / "b" / "small-ready.yaml")
    out = run("check", "small-ready.yaml", "b/small-ready.yaml", "-o", "{site}.json", *AT)
    assert out.exit_code == 2
    assert "would both be {site} = 'small-ready'" in out.stderr
    assert not (halls / "small-ready.json").exists()


def test_one_json_document_for_every_site(halls):
    (halls / "bad.yaml").write_text(BAD)
    out = run("check", "hall-b3.yaml", "bad.yaml", "small-ready.yaml", "-f", "json", *AT)
    assert out.exit_code == 2
    doc = json.loads(out.stdout)
    assert doc["schema"] == "facility-portfolio/1"
    assert (doc["verdict"], doc["exit_code"]) == ("error", 2)
    pod_code, pod = alone("small-ready.yaml")
    assert [(s["site"], s["verdict"], s["exit_code"]) for s in doc["summary"]] == [
        ("hall-b3.yaml", "not-ready", 1),
        ("bad.yaml", "error", 2),
        ("small-ready.yaml", pod["verdict"], pod_code),
    ]
    assert doc["summary"][1]["counts"] is None  # not checked: no counts, never zeros
    hall = alone("hall-b3.yaml")[1]
    assert doc["summary"][0]["counts"] == {
        k: hall["counts"][k] for k in ("fail", "pass", "not_evaluated", "waived")
    }
    assert doc["sites"][0] == hall
    assert doc["sites"][2] == pod
    assert doc["sites"][1]["verdict"] == "error"
    assert doc["sites"][1]["errors"][0]["file"] == "bad.yaml"
    # the same document in a file
    written = run(
        "check", "hall-b3.yaml", "bad.yaml", "small-ready.yaml", "-o", "all.json", *AT
    )  # fmt: skip
    assert written.exit_code == 2
    assert (halls / "all.json").read_text() == out.stdout


def test_one_sarif_log_with_a_run_per_site(halls):
    (halls / "bad.yaml").write_text(BAD)
    out = run("check", "hall-b3.yaml", "bad.yaml", "small-ready.yaml", "-o", "all.sarif", *AT)
    assert out.exit_code == 2
    log = json.loads((halls / "all.sarif").read_text())
    assert_valid(log)
    runs = log["runs"]
    # a category of its own per run: GitHub refuses several runs of one tool in one category
    assert [r["automationDetails"]["id"] for r in runs] == [
        "facility/hall-b3/", "facility/bad/", "facility/small-ready/",
    ]  # fmt: skip
    assert [r["invocations"][0]["executionSuccessful"] for r in runs] == [True, False, True]
    alone = json.loads(run("check", "hall-b3.yaml", "-f", "sarif", *AT).stdout)["runs"][0]
    assert {k: v for k, v in runs[0].items() if k != "automationDetails"} == alone
    pod = json.loads(run("check", "small-ready.yaml", "-f", "sarif", *AT).stdout)["runs"][0]
    assert runs[2]["results"] == pod["results"]


@pytest.mark.slow  # worker processes start for each run
@pytest.mark.parametrize("formats", [("json",), ("text", "sarif")])
def test_jobs_give_the_output_of_one_process(halls, formats):
    (halls / "bad.yaml").write_text(BAD)
    sites = ("hall-b3.yaml", "bad.yaml", "small-ready.yaml")
    for fmt in formats:
        one = run("check", *sites, "-f", fmt, "--jobs", "1", *AT)
        two = run("check", *sites, "-f", fmt, "--jobs", "2", *AT)
        assert (two.exit_code, two.stdout) == (one.exit_code, one.stdout), fmt
        assert two.stderr == one.stderr
    if formats != ("json",):
        return
    assert run("check", *sites, "--jobs", "0", *AT).exit_code == 2  # 0: one per CPU
    assert run("check", *sites, "--jobs", "-1", *AT).exit_code == 2  # a usage error
    assert "Invalid value for '--jobs'" in run("check", *sites, "--jobs", "-1", *AT).stderr


def test_baselines_per_site(halls):
    out = run("check", "hall-b3.yaml", "small-ready.yaml", "--write-baseline", "base.json", *AT)
    assert out.exit_code == 2
    assert "--write-baseline base.json serves both hall-b3.yaml and small-ready.yaml" in out.stderr
    assert not (halls / "base.json").exists()
    out = run(
        "check", "hall-b3.yaml", "small-ready.yaml", "--write-baseline", "base-{site}.json", *AT
    )  # fmt: skip
    assert out.exit_code == 1
    assert (halls / "base-hall-b3.json").read_text() == run(
        "check", "hall-b3.yaml", "-f", "json", *AT
    ).stdout
    # against them, every known failure is baselined: exit 0
    again = run("check", "hall-b3.yaml", "small-ready.yaml", "--baseline", "base-{site}.json", *AT)
    assert again.exit_code == 0, again.output
    shared = run("check", "hall-b3.yaml", "small-ready.yaml", "--baseline", "base-hall-b3.json")
    assert shared.exit_code == 2
    assert "a baseline is the result of one site" in shared.stderr


def test_each_site_reads_its_own_configuration(halls):
    (halls / "strict").mkdir()
    shutil.copy(halls / "small-ready.yaml", halls / "strict" / "pod.yaml")
    # fail-on never there: Hall B3 copied there exits 0 even though it fails
    shutil.copy(halls / "hall-b3.yaml", halls / "strict" / "hall.yaml")
    (halls / "strict" / "facility.toml").write_text('fail-on = "never"\n')
    out = run("check", "hall-b3.yaml", "strict/hall.yaml", *AT)
    assert out.exit_code == 1  # hall-b3.yaml has no configuration: it fails
    assert [row[-1] for row in rows(out.stdout)] == ["1", "0"]
    (halls / "strict" / "facility.toml").write_text('fail_on = "never"\n')  # a bad key
    out = run("check", "hall-b3.yaml", "strict/hall.yaml", "-f", "json", *AT)
    assert out.exit_code == 2
    doc = json.loads(out.stdout)
    assert doc["sites"][1]["errors"][0]["file"].endswith("facility.toml")
    assert doc["sites"][0]["verdict"] == "not-ready"  # the other site is still checked


def test_one_text_file_for_every_site(halls):
    out = run("check", "hall-b3.yaml", "small-ready.yaml", "-o", "all.txt", *AT)
    assert out.exit_code == 1
    assert (halls / "all.txt").read_text() == out.stdout  # stdout is no terminal: no colour


def _sleep(seconds: float) -> float:
    """A worker's task for the test below (spawned workers import this module)."""
    import time

    time.sleep(seconds)
    return seconds


def test_an_interrupted_run_stops_its_workers():
    import multiprocessing
    import signal

    from facility.portfolio import run_all

    outcomes = run_all(_sleep, [0.0, 600.0, 600.0], jobs=2)
    assert next(outcomes) == 0.0
    workers = multiprocessing.active_children()
    assert workers  # still at their 600 s tasks
    outcomes.close()  # what Ctrl-C or SIGTERM does to the loop over the outcomes
    # terminated, not waited for (they would have exited 0 in ten minutes)
    assert all(w.exitcode == -signal.SIGTERM for w in workers), [w.exitcode for w in workers]
    assert multiprocessing.active_children() == []


def test_ctrl_c_writes_nothing(halls, monkeypatch):
    import facility.commands.check_many as check_many

    real = check_many.check_task
    calls = []

    def interrupted(task):
        calls.append(task)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(check_many, "check_task", interrupted)
    (halls / "out").mkdir()
    out = run("check", "hall-b3.yaml", "small-ready.yaml", "-o", "out/{site}.html", *AT)
    assert out.exit_code == 130
    assert list((halls / "out").iterdir()) == []  # the first site's report is not written


def test_one_site_names_its_files_with_the_placeholder_too(halls):
    out = run(
        "check", "hall-b3.yaml", "-o", "{site}.json", "--write-baseline", "b-{site}.json", *AT
    )
    assert out.exit_code == 1
    assert (halls / "hall-b3.json").read_text() == (halls / "b-hall-b3.json").read_text()
    assert not list(halls.glob("{site}*"))


def test_a_quoted_pattern_is_the_files_it_matches(halls):
    out = run("check", "*.yaml", *AT)  # as a shell that does not expand it passes it
    assert [r[0] for r in rows(out.stdout)] == ["hall-b3.yaml", "small-ready.yaml"]
    none = run("check", "nothing-*.yaml", *AT)
    assert none.exit_code == 2
    assert "error: nothing-*.yaml: no site file matches the pattern" in none.stderr


def test_configuration_files_must_agree_on_the_outputs(halls):
    for name in ("a", "b"):
        (halls / name).mkdir()
        shutil.copy(halls / "small-ready.yaml", halls / name / f"{name}.yaml")
        (halls / name / "facility.toml").write_text(
            f'format = ["json"]\noutput = ["{name}.json"]\n'
        )
    out = run("check", "a/a.yaml", "b/b.yaml", *AT)
    assert out.exit_code == 2
    assert (
        "b/b.yaml: its configuration file names other outputs than that of a/a.yaml; name the "
        "outputs on the command line (-o)" in out.stderr
    )
    assert not (halls / "a" / "a.json").exists()
    given = run("check", "a/a.yaml", "b/b.yaml", "-o", "{site}.sarif", *AT)  # the command line's
    assert given.exit_code in (0, 1), given.output
    assert sorted(p.name for p in halls.glob("*.sarif")) == ["a.sarif", "b.sarif"]


def test_a_refused_output_writes_nothing_for_any_site(halls):
    (halls / "bad.yaml").write_text(BAD)
    out = run(
        "check", "bad.yaml", "hall-b3.yaml", "-o", "all.sarif",
        "-f", "sarif", "-f", "json", "-o", "hall-b3.yaml", *AT,
    )  # fmt: skip
    assert out.exit_code == 2
    assert "refusing to write the report over the input file hall-b3.yaml" in out.stderr
    assert "bad.yaml: 2 problems found; none of its reports was written." in out.stderr
    assert not (halls / "all.sarif").exists() and out.stdout == ""


def test_a_negative_jobs_count_is_a_usage_error(halls):
    result = run("check", "hall-b3.yaml", "small-ready.yaml", "--jobs", "-1", *AT)
    assert result.exit_code == 2 and "Invalid value for '--jobs'" in result.stderr


def test_each_sites_sort_keys_go_with_it(tmp_path: Path) -> None:
    """natural_key's cache holds a site's ids while its reports are made, not for the rest of
    a portfolio run: after two sites, only what the portfolio summary sorted is left."""
    from facility.report.anchors import natural_key

    natural_key.cache_clear()
    done = run("check", EXAMPLES / "hall-b3.yaml", *AT, "-o", tmp_path / "b3.html")
    assert done.exit_code == 1, done.output
    one_site = natural_key.cache_info().currsize
    assert one_site > 100  # Hall B3's racks, PDUs, loops… sorted for its report
    natural_key.cache_clear()
    both = [EXAMPLES / "hall-b3.yaml", EXAMPLES / "small-ready.yaml"]
    done = run("check", *both, *AT, "-o", tmp_path / "{site}.html")
    assert done.exit_code == 1, done.output
    assert natural_key.cache_info().currsize < one_site / 10
