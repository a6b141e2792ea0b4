"""How long the NetBox import's offline part takes on a large site, against reading NetBox's
answers alone.

    uv run python benchmarks/netbox_mapping.py [--racks N ...] [--runs R] [--cpu C] [--gc-on]

For each N (default 1,000 and 10,000 racks) it generates the NetBox 4.7.3 responses of a site
of N racks (``netbox_generate.py``: copies of recorded objects with fresh ids and names, Hall
B3's racks, one location per 100 racks, every 10th rack an in-rack PDU whose outlets feed
servers), serialises them with ``json.dumps`` in pages of 1,000 objects as NetBox's list
endpoints send them, and times, in a fresh process pinned to one CPU:

- ``loads``: ``json.loads`` of those pages — what reading NetBox's answers costs (the
  baseline);
- ``map``: ``map_site(snapshot, source)``, NetBox objects → our site document and report;
- ``render``: ``render(document, report)``, the YAML file with its header;
- ``check``: ``check_document(text)``, the text loaded as a site file (parse, validate,
  resolve), as ``facility import netbox`` does before it writes;
- ``start``: before those, the same three steps on a 10-rack site: the one-time cost of the
  first calls in a process (imports; pint's unit registry, built on the first conversion).

Times are the CPU seconds of that one core (``time.process_time``: what the steps cost, not
what the machine's other work made them wait); the wall clock of the same runs and the load
average follow the table. It prints the ratio map ÷ loads, the size of the answers and of the
file, the resident set once the answers are parsed and its peak while mapping, rendering and
checking, and whether the issue's target holds: 10,000 racks mapped in under 10 s on one
core, NetBox's response time excluded (start + map; the whole offline import is start + map +
render + check). Median of ``--runs`` runs (default 3; 1 above 10,000 racks). As the command
runs, the garbage collector is paused while the answers are read and again while mapping,
rendering and checking (:func:`facility.gcpause.paused_gc`); ``--gc-on`` keeps it running.
"""

from __future__ import annotations

import argparse
import contextlib
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

from netbox_generate import KINDS, PDU_EVERY, generate  # noqa: E402

DEFAULT_SIZES = (1_000, 10_000)
PAGE = 1_000  # objects per page (NetBox's MAX_PAGE_SIZE default)
TARGET_RACKS, TARGET_SECONDS = 10_000, 10.0
URL = "http://127.0.0.1:58001"


# --- memory ------------------------------------------------------------------------------


def _status_kb(field: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:  # pragma: no cover - not Linux
        pass
    return None


def _rss_mb() -> float:
    kb = _status_kb("VmRSS")
    return (kb if kb is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024


def _reset_peak() -> bool:
    """Start VmHWM (peak resident set) afresh from the current RSS (Linux ≥ 4.0)."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as clear:
            clear.write("5")
        return True
    except OSError:  # pragma: no cover - not Linux, or not allowed
        return False


def _peak_mb() -> float:
    kb = _status_kb("VmHWM")
    return (kb if kb is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024


# --- the pages NetBox would send ---------------------------------------------------------


def write_pages(n_racks: int, out: Path) -> dict[str, float]:
    """Write the site's responses to ``out``, one JSON page per line (``kind<TAB>page``):
    list endpoints in pages of ``PAGE`` objects ({count, next, previous, results})."""
    responses = generate(n_racks)
    objects = 0
    size = 0
    with out.open("w", encoding="utf-8") as file:
        for kind in ("status", "site"):
            text = json.dumps(responses[kind])
            size += len(text)
            file.write(f"{kind}\t{text}\n")
        for kind in KINDS:
            items = responses[kind]
            objects += len(items)
            endpoint = f"{URL}/api/dcim/{kind.replace('_', '-')}/"
            for start in range(0, max(1, len(items)), PAGE):
                after = start + PAGE
                page = {
                    "count": len(items),
                    "next": f"{endpoint}?limit={PAGE}&offset={after}"
                    if after < len(items)
                    else None,
                    "previous": f"{endpoint}?limit={PAGE}&offset={start - PAGE}" if start else None,
                    "results": items[start:after],
                }
                text = json.dumps(page)
                size += len(text)
                file.write(f"{kind}\t{text}\n")
    return {"objects": objects, "json_mb": size / 1e6}


# --- worker: one size, in a fresh process ------------------------------------------------


def _worker(pages_file: str, cpu: int, gc_on: bool) -> dict[str, float]:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {cpu})
    from facility.imports.netbox import Snapshot, check_document, map_site, render

    times: dict[str, float] = {}

    def timed(name: str, function, *args):
        """``function(*args)``, its CPU time in times[name], its wall clock in name_wall."""
        wall, cpu_time = time.perf_counter(), time.process_time()
        result = function(*args)
        times[name] = time.process_time() - cpu_time
        times[f"{name}_wall"] = time.perf_counter() - wall
        return result

    def warm_up() -> None:
        small = json.loads(json.dumps(generate(PDU_EVERY)))
        document, report = map_site(Snapshot(**small), "NetBox (warm-up)")
        check_document(render(document, report), "warm-up.yaml")

    # First calls pay one-time costs (imports, the unit registry pint builds for the first
    # conversion): paid here, on a 10-rack site, and reported apart as start-up.
    timed("startup", warm_up)
    pages = []
    with open(pages_file, encoding="utf-8") as file:
        for line in file:
            kind, _, text = line.rstrip("\n").partition("\t")
            pages.append((kind, text))
    from facility.gcpause import paused_gc

    pause = contextlib.nullcontext if gc_on else paused_gc
    with pause():
        parsed = timed("loads", lambda: [(kind, json.loads(text)) for kind, text in pages])
    lists: dict[str, list] = {kind: [] for kind in KINDS}
    single: dict[str, dict] = {}
    for kind, value in parsed:
        if kind in lists:
            lists[kind].extend(value["results"])
        else:
            single[kind] = value
    del parsed
    snapshot = Snapshot(status=single["status"], site=single["site"], **lists)
    version = single["status"].get("netbox-version")
    source = f"NetBox {version} at {URL}, site {single['site']['slug']}"
    rss_loaded = _rss_mb()
    exact_peak = _reset_peak()

    with pause():  # as facility import netbox does
        document, report = timed("map", map_site, snapshot, source)
        text = timed("render", render, document, report)
        timed("check", check_document, text, "netbox-import.yaml")
    return times | {
        "racks_mapped": len(document.get("racks", [])),
        "rack_types": len(document.get("rack_types", [])),
        "report_entries": len(report.entries),
        "yaml_mb": len(text.encode("utf-8")) / 1e6,
        "rss_loaded_mb": rss_loaded,
        "peak_mb": _peak_mb(),
        "peak_exact": float(exact_peak),
        "load_average": os.getloadavg()[0],
    }


def measure(pages: Path, cpu: int, gc_on: bool) -> dict[str, float]:
    argv = [sys.executable, __file__, "--worker", str(pages), "--cpu", str(cpu)]
    out = subprocess.run(
        [*argv, *(["--gc-on"] if gc_on else [])],
        check=True,
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--racks", type=int, nargs="+", help="rack counts (default 1,000 and 10,000)"
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per size up to 10,000 (median)")
    allowed = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else [0]
    parser.add_argument(
        "--cpu", type=int, default=allowed[-1], help="the CPU to pin each run to (default: last)"
    )
    parser.add_argument(
        "--gc-on",
        action="store_true",
        help="keep the garbage collector running (the command pauses it)",
    )
    parser.add_argument("--worker", metavar="PAGES", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.worker:
        print(json.dumps(_worker(args.worker, args.cpu, args.gc_on)))
        return

    sizes = args.racks or list(DEFAULT_SIZES)
    if min(sizes) < 1:
        parser.error("--racks: at least 1")
    print(
        f"Python {sys.version.split()[0]}, one process per run pinned to CPU {args.cpu}, "
        f"garbage collector {'on' if args.gc_on else 'paused as the command pauses it'}; median of {args.runs} "
        "run(s) up to 10,000 racks, one above; CPU seconds of that one core"
    )
    head = (
        f"{'racks':>7} {'objects':>9} {'JSON MB':>8} |{'loads s':>8} |{'map s':>7}"
        f" {'render s':>8} {'check s':>8} | {'map÷loads':>9} {'all÷loads':>9} |"
        f" {'start s':>7} | {'YAML MB':>7} {'RSS MB':>7} {'peak MB':>7}"
    )
    print(head)
    print("-" * len(head))
    results: dict[int, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="facility-netbox-bench-") as tmp:
        for n in sizes:
            pages = Path(tmp) / f"netbox-{n}.pages"
            sizes_of = write_pages(n, pages)
            runs = args.runs if n <= 10_000 else 1
            each = [measure(pages, args.cpu, args.gc_on) for _ in range(runs)]
            r = {key: statistics.median(e[key] for e in each) for key in each[0]}
            r |= sizes_of
            results[n] = r
            pages.unlink()
            if int(r["racks_mapped"]) != n:
                raise SystemExit(f"{n} racks generated, {int(r['racks_mapped'])} mapped")
            whole = r["map"] + r["render"] + r["check"]
            print(
                f"{n:>7,} {int(r['objects']):>9,} {r['json_mb']:>8.1f} |{r['loads']:>8.2f} |"
                f"{r['map']:>7.2f} {r['render']:>8.2f} {r['check']:>8.2f} |"
                f" {r['map'] / r['loads']:>9.2f} {whole / r['loads']:>9.2f} |"
                f" {r['startup']:>7.2f} | {r['yaml_mb']:>7.2f} {r['rss_loaded_mb']:>7.0f}"
                f" {r['peak_mb']:>7.0f}",
                flush=True,
            )
    exact = all(r["peak_exact"] for r in results.values())
    print(
        "objects = every object of the ten list endpoints; JSON MB = the pages as sent; "
        "loads = json.loads of every page (the baseline);\n"
        "map = map_site, render = render (YAML), check = check_document (parse, validate, "
        "resolve); all = map + render + check;\n"
        "start = the one-time cost of the first calls in a process (imports, the unit "
        "registry), paid on a 10-rack site before the timed steps;\n"
        "RSS = resident set with the pages' text and the snapshot held; peak = "
        + (
            "the highest resident set during map, render and check."
            if exact
            else "the process's peak resident set (VmHWM could not be reset)."
        )
    )
    print("Wall clock of the same runs (the machine's other work included):")
    for n, r in results.items():
        steps = ", ".join(
            f"{step} {r[f'{step}_wall']:.2f} s" for step in ("loads", "map", "render", "check")
        )
        print(f"  {n:>7,} racks: {steps}; load average {r['load_average']:.1f}")
    if TARGET_RACKS in results:
        r = results[TARGET_RACKS]
        mapped = r["startup"] + r["map"]
        whole = mapped + r["render"] + r["check"]
        verdict = "met" if mapped < TARGET_SECONDS else "NOT met"
        print(
            f"Target: {TARGET_RACKS:,} racks mapped in under {TARGET_SECONDS:.0f} s on one core "
            f"(NetBox's response time excluded): {verdict}: start-up + map_site = "
            f"{r['startup']:.2f} + {r['map']:.2f} = {mapped:.2f} s of CPU. The whole offline "
            f"import (start-up, map, render, check) takes {whole:.2f} s "
            f"({'under' if whole < TARGET_SECONDS else 'over'} {TARGET_SECONDS:.0f} s); reading "
            f"NetBox's answers (json.loads) {r['loads']:.2f} s more."
        )
    else:
        print(f"Target ({TARGET_RACKS:,} racks in under {TARGET_SECONDS:.0f} s): not measured.")


if __name__ == "__main__":
    main()
