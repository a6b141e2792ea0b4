"""How long loading a campus site file takes, against the YAML parser alone.

    uv run python benchmarks/load_benchmark.py [N ...] [--runs R] [--rows-as-blocks] [--out-dir D]

For each N (default 1,000, 10,000 and 100,000 racks) it writes the synthetic campus of
``generate_campus.py`` and prints, per N:

- the file size;
- ``parse``: ``yaml.load(text, Loader=yaml.CSafeLoader)`` alone (libyaml's C parser and PyYAML's
  constructor: the fastest well-kept YAML parser installed; the text is read beforehand);
- ``load_site``: read + parse + validate + resolve, as ``facility check`` does it, and its ratio
  to ``parse``;
- where ``load_site`` spends its time: ``compose`` (libyaml builds the node tree), ``build``
  (the Python walk to plain data with a source position for every value, plus read and
  decode), ``validate`` (pydantic) and ``resolve`` (references, rows to racks, PDUs);
- ``audit``, ``json``, ``check``: the rules of the supernode profile over the loaded site,
  the JSON result, and load + audit + JSON together (what ``facility check -f json`` does),
  with its ratio to ``parse`` (the target at 10,000 racks is at most 4);
- peak memory (VmHWM) of the process that did each measurement, and of one that only imported.

Every measurement runs in a fresh subprocess, so caches are cold as in a real run and peak
memory is the process's own. Median of ``--runs`` runs (default 3) up to 10,000 racks, one run
above. Then it times ``uv run facility check examples/hall-b3.yaml`` end to end (median of 5)
and the import time of ``facility.cli`` and ``facility.model.load``.
"""

from __future__ import annotations

import argparse
import json
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
    if mode == "parse":
        import yaml

        text = Path(file).read_text(encoding="utf-8")
        start = time.perf_counter()
        yaml.load(text, Loader=yaml.CSafeLoader)
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
        # The catalog's own small YAML files are composed too; they are part of a real load.
        yaml.compose = timed("compose", yaml.compose)
        load.read_document = timed("read", load.read_document)
        load.validate_document = timed("validate", load.validate_document)
        load.resolve = timed("resolve", load.resolve)
        if mode == "load-gc-off":
            gc.disable()
        start = time.perf_counter()
        site = load.load_site(file)
        times["load_site"] = time.perf_counter() - start
        times["build"] = times.pop("read") - times["compose"]
        times["racks"] = len(site.racks)
        return times
    if mode == "check":  # what `facility check -f json` does: load, rules, audit, JSON
        from facility.engine.evaluate import audit
        from facility.engine.rules import load_rules
        from facility.model.load import load_site
        from facility.report.json_report import render_json

        start = time.perf_counter()
        site = load_site(file)
        loaded = time.perf_counter()
        ruleset = load_rules(profile="supernode")
        result = audit(site, ruleset)
        audited = time.perf_counter()
        text = render_json(result)
        done = time.perf_counter()
        return {
            "load": loaded - start,
            "audit": audited - loaded,
            "json": done - audited,
            "check": done - start,
            "findings": len(result.findings),
            "json_mb": len(text.encode()) / 1e6,
        }
    raise SystemExit(f"unknown worker mode {mode}")


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


def wall(command: list[str], runs: int) -> float:
    """Median wall-clock seconds of ``command`` (output discarded; must exit 0 or 1)."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, capture_output=True)
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
    print(f"\nStart-up (wall clock, median of {runs}):")
    example = "examples/hall-b3.yaml"
    rows = [
        ("python -c pass (bare interpreter)", [sys.executable, "-c", "pass"]),
        (f"uv run facility check {example}", ["uv", "run", "facility", "check", example]),
        (
            f".venv/bin/facility check {example} (no uv)",
            [str(Path(sys.executable).parent / "facility"), "check", example],
        ),
    ]
    for label, command in rows:
        print(f"  {label:<62} {wall(command, runs) * 1000:7.0f} ms")
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
    parser.add_argument("--worker", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        result = _worker(*args.worker)
        result["peak_mb"] = _peak_kb() / 1024
        print(json.dumps(result))
        return

    sizes = args.sizes or list(DEFAULT_SIZES)
    with tempfile.TemporaryDirectory(prefix="facility-bench-") as tmp:
        out_dir = args.out_dir or Path(tmp)
        form = "rows-as-blocks" if args.rows_as_blocks else "one entry per rack"
        base = measure("baseline", "-")
        print(
            f"load_site vs YAML parse ({form}); Python {sys.version.split()[0]}, "
            f"parser: PyYAML {__import__('yaml').__version__} CSafeLoader (libyaml); "
            f"baseline process after imports: {base['peak_mb']:.0f} MB"
        )
        head = (
            f"{'N':>8} {'MB':>6} {'runs':>4} | {'parse s':>8} {'load_site s':>11} {'ratio':>6} |"
            f" {'compose':>8} {'build':>7} {'validate':>8} {'resolve':>7} |"
            f" {'audit s':>7} {'json s':>6} {'check s':>7} {'÷parse':>6} |"
            f" {'peak parse':>10} {'peak load':>9} {'peak check':>10}"
        )
        print(head)
        print("-" * len(head))
        for n in sizes:
            file = out_dir / f"campus-{n}{'-rows' if args.rows_as_blocks else ''}.yaml"
            write_campus(n, file, rows_as_blocks=args.rows_as_blocks)
            runs = args.runs if n <= 10_000 else 1
            parse = median_runs("parse", file, runs)
            load = median_runs("load", file, runs)
            check = median_runs("check", file, runs)
            if int(load["racks"]) != n:
                raise SystemExit(f"loaded {load['racks']} racks, expected {n}")
            print(
                f"{n:>8,} {file.stat().st_size / 1e6:>6.1f} {runs:>4} |"
                f" {parse['parse']:>8.2f} {load['load_site']:>11.2f}"
                f" {load['load_site'] / parse['parse']:>6.2f} |"
                f" {load['compose']:>8.2f} {load['build']:>7.2f} {load['validate']:>8.2f}"
                f" {load['resolve']:>7.2f} |"
                f" {check['audit']:>7.2f} {check['json']:>6.2f} {check['check']:>7.2f}"
                f" {check['check'] / parse['parse']:>6.2f} |"
                f" {parse['peak_mb']:>7.0f} MB {load['peak_mb']:>6.0f} MB {check['peak_mb']:>7.0f} MB",
                flush=True,
            )
    print(
        "parse = yaml.load(CSafeLoader) on the text already read; load_site includes reading, "
        "hashing and the catalog.\ncompose = libyaml node tree (C) inside load_site; build = "
        "node tree to plain data and source map (Python), with read/decode.\n"
        "audit = all rules of the supernode profile; json = the JSON result; check = load + "
        "audit + json, as `facility check -f json`;\n÷parse = check time over the bare parse "
        "time of the same file (the target at 10,000 racks is ≤ 4)."
    )
    if not args.no_startup:
        startup()


if __name__ == "__main__":
    main()
