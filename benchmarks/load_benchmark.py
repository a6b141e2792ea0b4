"""How long `facility check` takes on a campus, against the YAML parser alone.

    uv run python benchmarks/load_benchmark.py [N ...] [--runs R] [--ready] [--rows-as-blocks]
                                               [--no-html] [--no-startup] [--out-dir D]

For each N (default 1,000, 10,000 and 100,000 racks) it writes the synthetic campus of
``generate_campus.py`` (``--ready``: the variant whose racks pass 2N) and prints, per N:

- the file size;
- ``parse``: ``yaml.load(text, Loader=yaml.CSafeLoader)`` alone — PyYAML with libyaml's C
  parser, the well-kept YAML parser of the Python world, the text read beforehand — as a
  program would call it (collector on), and ``no gc`` the same with the cyclic garbage
  collector disabled (its own speed); ``rs`` the same file through the young Rust parser
  ``yaml_rs`` (0.1.x, not a dependency) when it is installed, for reference;
- ``load``: ``load_site`` (read, parse with the line and column of every value, validate,
  resolve) and its parts: ``read``, ``valid.`` (pydantic) and ``resolve``;
- ``audit`` (every rule of the default profile), ``json`` (the JSON result streamed to a file)
  and the share of failing findings;
- ``check``: ``facility check FILE -o result.json`` end to end in one process, its ratio to
  ``parse`` and to ``no gc`` (the target at 10,000 racks: at most 4x the bare parse), and its
  peak memory (VmHWM);
- ``html``: ``facility check FILE -o report.html`` end to end, the file's size and peak memory,
  and the seconds headless Chromium takes to load it (less an empty page), if installed.

Every measurement runs in a fresh subprocess, so caches are cold as in a real run and peak
memory is the process's own. Median of ``--runs`` runs (default 3) up to 10,000 racks, one run
above. Then it times ``facility check examples/hall-b3.yaml`` end to end (median of 5), with and
without ``uv run``, and the import time of ``facility.cli`` and ``facility.model.load``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from generate_campus import write_campus  # noqa: E402

DEFAULT_SIZES = (1_000, 10_000, 100_000)
MOMENT = dt.datetime(2026, 11, 29, tzinfo=dt.UTC)  # report date: fixed, reports reproduce


# --- worker side: one measurement per process ------------------------------------------------


def _peak_kb() -> int:
    """Peak resident set of this process, in kB (VmHWM; ru_maxrss where /proc is missing)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def _worker(mode: str, file: str) -> dict[str, float]:
    if mode == "baseline":  # what the interpreter and imports cost on their own
        import yaml  # imported for its cost

        import facility.model.load  # noqa: F401

        return {}
    if mode in ("parse", "parse-no-gc"):
        import gc

        import yaml

        text = Path(file).read_text(encoding="utf-8")
        if mode == "parse-no-gc":
            gc.disable()
        start = time.perf_counter()
        yaml.load(text, Loader=yaml.CSafeLoader)
        return {"parse": time.perf_counter() - start}
    if mode == "parse-rs":
        try:
            import yaml_rs  # type: ignore[import-not-found]
        except ImportError:
            return {"parse": float("nan")}
        text = Path(file).read_text(encoding="utf-8")
        start = time.perf_counter()
        yaml_rs.loads(text)
        return {"parse": time.perf_counter() - start}
    if mode == "parse-ryml":  # rapidyaml's C++ parser into its own tree (no Python objects)
        try:
            import ryml  # type: ignore[import-not-found]
        except ImportError:
            return {"parse": float("nan")}
        raw = Path(file).read_bytes()
        start = time.perf_counter()
        ryml.parse_in_arena(raw)
        return {"parse": time.perf_counter() - start}
    if mode in ("load", "load-gc-off"):
        import gc

        import yaml

        from facility.model import load

        times: dict[str, float] = {}

        def timed(name, function):
            def wrapper(*args, **kwargs):
                start = time.perf_counter()
                try:
                    return function(*args, **kwargs)
                finally:
                    times[name] = times.get(name, 0.0) + time.perf_counter() - start

            return wrapper

        # load_site looks these up in its module at call time; the wrappers cost ~1 µs each.
        load.read_document = timed("read", load.read_document)
        load.validate_document = timed("validate", load.validate_document)
        load.resolve = timed("resolve", load.resolve)
        if mode == "load-gc-off":
            gc.disable()
        start = time.perf_counter()
        site = load.load_site(file)
        times["load_site"] = time.perf_counter() - start
        times["racks"] = len(site.racks)
        return times
    if mode == "phases":  # the steps of `facility check -o result.json`, timed one by one
        import tempfile as _tempfile

        from facility.engine.evaluate import audit, default_profile
        from facility.engine.rules import load_rules
        from facility.engine.waivers import apply_waivers
        from facility.model.load import load_site
        from facility.report.context import ReportInput
        from facility.report.json_report import iter_report_json
        from facility.report.write import write_atomically

        start = time.perf_counter()
        site = load_site(file)
        loaded = time.perf_counter()
        ruleset = load_rules(profile=default_profile(site))
        result = audit(site, ruleset)
        audited = time.perf_counter()
        waivers = apply_waivers(result, list(site.waivers), MOMENT.date(), {})
        report = ReportInput(result, site, ruleset, waivers, MOMENT)
        with _tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp) / "result.json"
            write_atomically(out, iter_report_json(report))
            size = out.stat().st_size
        done = time.perf_counter()
        return {
            "load": loaded - start,
            "audit": audited - loaded,
            "json": done - audited,
            "findings": len(result.findings),
            "failing": sum(1 for f in result.findings if f.status == "fail"),
            "json_mb": size / 1e6,
        }
    if mode in ("cli-json", "cli-html"):  # the real command, in this process, end to end
        import tempfile as _tempfile

        from facility.cli import app

        suffix = "json" if mode == "cli-json" else "html"
        out = Path(file).with_suffix(f".{suffix}")  # kept: the HTML is opened in a browser
        argv = ["check", file, "-o", str(out), "--fail-on", "never"]
        argv += ["--generated-at", MOMENT.isoformat()]
        start = time.perf_counter()
        app(argv, standalone_mode=False)
        elapsed = time.perf_counter() - start
        return {"wall": elapsed, "mb": out.stat().st_size / 1e6}
    if mode in ("cli-failures", "cli-headroom", "cli-diff"):  # the other commands, end to end
        import contextlib

        from facility.cli import app

        if mode == "cli-failures":
            argv = ["failures", file, "-f", "json"]
        elif mode == "cli-headroom":  # one more gb300 rack in the first hall's first zone
            argv = ["headroom", file, "--rack-type", "gb300", "--zone", _first_zone(file)]
            argv += ["-f", "json"]
        else:  # FILE is "old.json+new.json": two results of `facility check`
            old, new = file.split("+")
            argv = ["diff", old, new, "-f", "json"]
        with tempfile.TemporaryDirectory() as tmp:  # to a file: a campus's output is large
            out = Path(tmp) / "out.json"
            with out.open("w", encoding="utf-8") as sink, contextlib.redirect_stdout(sink):
                start = time.perf_counter()
                try:
                    app(argv, standalone_mode=False)
                except SystemExit as done:  # exit 1: a check failed; 2 is not a measurement
                    if done.code not in (None, 0, 1):
                        raise
                elapsed = time.perf_counter() - start
            return {"wall": elapsed, "mb": out.stat().st_size / 1e6}
    raise SystemExit(f"unknown worker mode {mode}")


def _first_zone(file: str) -> str:
    """The first floor zone's id in a generated campus (H01-Z01, or H001-Z01 from 10,000
    racks on: the hall ids widen with the campus)."""
    with open(file, encoding="utf-8") as text:
        zones = False
        for line in text:
            if line.startswith("floor_zones:"):
                zones = True
            elif zones and line.startswith("  - id: "):
                return line.split(": ", 1)[1].strip()
    raise SystemExit(f"{file}: no floor zone")


# --- driver side -------------------------------------------------------------------------------


def measure(mode: str, file: Path | str) -> dict[str, float]:
    """Run one measurement in a fresh interpreter; return its timings and peak memory (MB)."""
    out = subprocess.run(
        [sys.executable, __file__, "--worker", mode, str(file)],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def median_runs(mode: str, file: Path | str, runs: int) -> dict[str, float]:
    results = [measure(mode, file) for _ in range(runs)]
    return {key: statistics.median(r[key] for r in results) for key in results[0]}


CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--host-resolver-rules=MAP * ~NOTFOUND",
]


def browser_open(page: Path, runs: int = 3) -> float | None:
    """Seconds headless Chromium takes to load and lay out ``page`` (``--dump-dom`` returns
    after the load event), less what it takes for an empty page; None without Chromium."""
    import shutil

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return None
    blank = page.with_name("blank.html")
    blank.write_text("<!doctype html><title>blank</title>", encoding="utf-8")

    def once(target: Path) -> float:
        with tempfile.TemporaryDirectory() as profile:
            start = time.perf_counter()
            subprocess.run(
                [
                    chromium,
                    *CHROMIUM_FLAGS,
                    f"--user-data-dir={profile}",
                    "--dump-dom",
                    target.as_uri(),
                ],
                check=True,
                capture_output=True,
            )
            return time.perf_counter() - start

    return statistics.median(once(page) - once(blank) for _ in range(runs))


def wall(command: list[str], runs: int, env: dict[str, str] | None = None) -> float:
    """Median wall-clock seconds of ``command`` (output discarded; must exit 0 or 1), after
    one run to warm the byte-code and file caches."""
    times = []
    subprocess.run(command, cwd=ROOT, capture_output=True, env=env)
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, env=env)
        times.append(time.perf_counter() - start)
        if done.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr.decode()}")
    return statistics.median(times)


IMPORT_PROBE = """
import json, time
t0 = time.perf_counter()
import facility.cli
t1 = time.perf_counter()
import facility.model.load
t2 = time.perf_counter()
print(json.dumps({"cli": t1 - t0, "load": t2 - t1}))
"""


def startup(runs: int = 5) -> None:
    print(f"\nStart-up (wall clock, median of {runs} after a warm-up run):")
    example = "examples/hall-b3.yaml"
    facility = str(Path(sys.executable).parent / "facility")
    cached = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    # No byte code to read (an empty cache directory) and none written: every module compiled
    # on every run, as where PYTHONDONTWRITEBYTECODE is set and nothing was ever compiled.
    nothing = tempfile.mkdtemp(prefix="facility-no-pyc-")
    uncached = {**cached, "PYTHONDONTWRITEBYTECODE": "1", "PYTHONPYCACHEPREFIX": nothing}
    rows = [
        ("python -c pass (bare interpreter)", [sys.executable, "-c", "pass"], cached),
        (f"facility check {example}", [facility, "check", example], cached),
        (f"uv run facility check {example}", ["uv", "run", "facility", "check", example], cached),
        (
            "facility check, no byte code cached (every module compiled each run)",
            [facility, "check", example],
            uncached,
        ),
    ]
    for label, command, env in rows:
        print(f"  {label:<70} {wall(command, runs, env) * 1000:7.0f} ms")
    probes = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", IMPORT_PROBE], cwd=ROOT, capture_output=True, text=True
        )
        probes.append(json.loads(out.stdout))
    cli = statistics.median(p["cli"] for p in probes)
    load = statistics.median(p["load"] for p in probes)
    print(f"  import facility.cli{'':<43} {cli * 1000:7.0f} ms")
    print(
        f"  then import facility.model.load (pydantic, yaml, models){'':<6} {load * 1000:7.0f} ms"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sizes", nargs="*", type=int, help="rack counts (default 1e3 1e4 1e5)")
    parser.add_argument("--runs", type=int, default=3, help="runs per N up to 10,000 (median)")
    parser.add_argument("--rows-as-blocks", action="store_true", help="concise rows: form")
    parser.add_argument("--out-dir", type=Path, help="keep the files here (default: a temp dir)")
    parser.add_argument("--no-startup", action="store_true", help="skip the start-up timings")
    parser.add_argument(
        "--ready", action="store_true", help="the campus variant whose racks pass 2N (80 A PDUs)"
    )
    parser.add_argument("--no-html", action="store_true", help="skip the HTML report timing")
    parser.add_argument(
        "--failing-only", action="store_true", help="only the campus whose GB300 rows fail 2N"
    )
    parser.add_argument("--no-others", action="store_true", help="skip failures, headroom and diff")
    parser.add_argument("--worker", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        result = _worker(*args.worker)
        result["peak_mb"] = _peak_kb() / 1024
        print(json.dumps(result))
        return

    sizes = args.sizes or list(DEFAULT_SIZES)
    variants = [True] if args.ready else [False] if args.failing_only else [False, True]
    with tempfile.TemporaryDirectory(prefix="facility-bench-") as tmp:
        out_dir = args.out_dir or Path(tmp)
        form = "rows-as-blocks" if args.rows_as_blocks else "one entry per rack"
        base = measure("baseline", "-")
        print(
            f"{form}; Python {sys.version.split()[0]}, "
            f"parser: PyYAML {__import__('yaml').__version__} CSafeLoader (libyaml); native: "
            f"rapidyaml (ryml) and yaml_rs when installed (uv run --with rapidyaml --with yaml-rs); "
            f"baseline process after imports: {base['peak_mb']:.0f} MB"
        )
        head = (
            f"{'N':>7} {'campus':>7} {'MB':>5} |{'parse s':>8} {'no gc':>6} {'rs':>5}"
            f" {'ryml':>5} {'load s':>7} |"
            f" {'read':>6} {'valid.':>6} {'resolve':>7} |"
            f" {'audit':>6} {'json':>6} {'fail %':>6} |"
            f" {'check':>7} {'÷parse':>6} {'÷native':>7} {'peak':>8} {'JSON MB':>7} {'÷site':>5} |"
            f" {'html s':>7} {'MB':>5} {'peak':>8} {'open s':>6}"
        )
        others: list[str] = []
        print(head)
        print("-" * len(head))
        for n in sizes:
            results: dict[bool, Path] = {}
            for ready in variants:
                name = f"campus-{n}{'-rows' if args.rows_as_blocks else ''}"
                file = out_dir / f"{name}{'-ready' if ready else ''}.yaml"
                write_campus(n, file, rows_as_blocks=args.rows_as_blocks, ready=ready)
                runs = args.runs if n <= 10_000 else 1
                parse = median_runs("parse", file, runs)
                no_gc = median_runs("parse-no-gc", file, runs)
                rust = median_runs("parse-rs", file, runs)
                ryml = median_runs("parse-ryml", file, runs)
                load = median_runs("load", file, runs)
                phases = median_runs("phases", file, runs)
                check = median_runs("cli-json", file, runs)
                results[ready] = file.with_suffix(".json")
                html = median_runs("cli-html", file, runs) if not args.no_html else None
                if int(load["racks"]) != n:
                    raise SystemExit(f"loaded {load['racks']} racks, expected {n}")
                opened = browser_open(file.with_suffix(".html"), runs) if html else None
                html_cols = (
                    f" {html['wall']:>7.2f} {html['mb']:>5.1f} {html['peak_mb']:>5.0f} MB"
                    if html
                    else f" {'-':>7} {'-':>5} {'-':>8}"
                ) + (f" {opened:>6.2f}" if opened is not None else f" {'-':>6}")
                natives = [t for t in (rust["parse"], ryml["parse"]) if t == t]  # not NaN
                native = min(natives) if natives else float("nan")
                site_mb = file.stat().st_size / 1e6
                print(
                    f"{n:>7,} {'ready' if ready else 'failing':>7} {site_mb:>5.1f} |"
                    f"{parse['parse']:>8.2f} {no_gc['parse']:>6.2f} {rust['parse']:>5.2f}"
                    f" {ryml['parse']:>5.2f} {load['load_site']:>7.2f} |"
                    f" {load['read']:>6.2f} {load['validate']:>6.2f}"
                    f" {load['resolve']:>7.2f} |"
                    f" {phases['audit']:>6.2f} {phases['json']:>6.2f}"
                    f" {100 * phases['failing'] / phases['findings']:>6.1f} |"
                    f" {check['wall']:>7.2f} {check['wall'] / parse['parse']:>6.2f}"
                    f" {check['wall'] / native:>7.1f}"
                    f" {check['peak_mb']:>5.0f} MB {check['mb']:>7.1f}"
                    f" {check['mb'] / site_mb:>5.1f} |" + html_cols,
                    flush=True,
                )
                if not args.no_others:
                    failures = median_runs("cli-failures", file, runs)
                    headroom = median_runs("cli-headroom", file, runs)
                    audited = load["load_site"] + phases["audit"]  # a site loaded and audited
                    others.append(
                        f"{n:>7,} {'ready' if ready else 'failing':>7} |"
                        f" {failures['wall']:>8.2f} {failures['wall'] / check['wall']:>6.2f}"
                        f" {failures['wall'] / audited:>6.2f}"
                        f" {failures['wall'] / native:>7.1f} {failures['peak_mb']:>5.0f} MB |"
                        f" {headroom['wall']:>8.2f} {headroom['wall'] / check['wall']:>6.2f}"
                        f" {headroom['wall'] / audited:>6.2f}"
                        f" {headroom['peak_mb']:>5.0f} MB |"
                    )
            if not args.no_others and len(results) == 2:
                pair = f"{results[False]}+{results[True]}"
                diff = median_runs("cli-diff", pair, args.runs if n <= 10_000 else 1)
                others.append(
                    f"{n:>7,} {'diff':>7} |{'':>37}|{'':>32}|"
                    f" {diff['wall']:>7.2f} {diff['wall'] / native:>7.1f}"
                    f" {diff['peak_mb']:>5.0f} MB"
                )
    print(
        "parse = yaml.load(CSafeLoader) on the text already read (the reference); rs = yaml_rs."
        "loads, ryml = rapidyaml's parse_in_arena, when installed (native: the faster);\n"
        "load = load_site: read, hash, parse with a source position per value, validate, "
        "resolve.\n"
        "read = the file read, decoded and parsed (libyaml's events to plain data with the line "
        "and column of every value); valid. = pydantic; resolve = references, rows, PDUs.\n"
        "audit = every rule of the default profile; json = the JSON result streamed to a file; "
        "fail % = failing findings.\n"
        "check = `facility check FILE -o result.json` end to end in one process (wall), "
        "÷parse = check over parse, ÷native over the native parse (target at 10,000 racks: "
        "≤ 4), peak = its peak RSS, JSON MB its result and ÷site that over the site file;\n"
        "html = `facility check FILE -o report.html` end to end, with the file's size and peak "
        "RSS; open = headless Chromium loading it (less an empty page), if installed."
    )
    if others:
        print(
            f"\n{'N':>7} {'campus':>7} | {'failures':>8} {'÷check':>6} {'÷audit':>6}"
            f" {'÷native':>7} {'peak':>8} | {'headroom':>8} {'÷check':>6} {'÷audit':>6}"
            f" {'peak':>8} |"
            f" {'diff s':>7} {'÷native':>7} {'peak':>8}"
        )
        print("\n".join(others))
        print(
            "failures = `facility failures FILE -f json`; headroom = `facility headroom FILE "
            "--rack-type gb300 --zone <the first zone> -f json`; diff = `facility diff` of the failing "
            "and the ready campus's JSON results (-f json); ÷check over `check -o result.json`, "
            "÷audit over load + audit above (the targets: failures ≤ 3, headroom ≤ 2)."
        )
    if not args.no_startup:
        startup()


if __name__ == "__main__":
    main()
