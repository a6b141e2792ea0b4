"""The NetBox mapping's work grows linearly with the site (issue: 10,000 racks mapped in under
10 s on one core): counted, never timed.

The sites are benchmarks/netbox_generate.py's: copies of recorded NetBox objects (Hall B3's
racks, one location per 100 racks; every 10th rack an in-rack PDU whose outlets feed servers,
copied from the 'shapes' recording), with fresh ids and names. A 400-rack site is exactly two
200-rack sites' worth of objects, so a mapping that does a fixed amount of work per object
reads at most twice as many fields on the larger one (less: the site, the device types and
the report's fixed gaps do not double). A mapping that searched a list for every rack (every
port per rack, every feed per port …) would read about four times as many.

Work is counted as reads of the objects' fields (``obj[key]``, ``get``, ``in``, iteration), on
every object of the snapshot: the mapping's first step copies the snapshot's lists but keeps
the objects, so counting list iterations would only see that step. (Checked against two
deliberately quadratic variants, since removed: searching every port, or every outlet, for
each rack's power walk reads 3.6 to 3.8 times as many fields on the larger site.)
"""

from __future__ import annotations

import sys
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from facility.imports.netbox import Snapshot, map_site

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "benchmarks"))
from netbox_generate import KINDS, generate  # noqa: E402

pytestmark = pytest.mark.slow  # generated sites of growing size

SOURCE = "NetBox 4.7.3 at http://127.0.0.1:58001, site synthetic"
READS: Counter[str] = Counter()  # snapshot key → field reads


class _Counted(dict):
    """A NetBox object that counts every read of its fields under its kind."""

    __slots__ = ("kind",)

    def __init__(self, kind: str, obj: dict) -> None:
        super().__init__(obj)
        self.kind = kind

    def __getitem__(self, key):
        READS[self.kind] += 1
        return super().__getitem__(key)

    def get(self, key, default=None):
        READS[self.kind] += 1
        return super().get(key, default)

    def __contains__(self, key) -> bool:
        READS[self.kind] += 1
        return super().__contains__(key)

    def __iter__(self):
        READS[self.kind] += len(self)
        return super().__iter__()

    def keys(self):
        READS[self.kind] += len(self)
        return super().keys()

    def values(self):
        READS[self.kind] += len(self)
        return super().values()

    def items(self):
        READS[self.kind] += len(self)
        return super().items()


def _counted(responses: dict) -> Snapshot:
    lists = {k: [_Counted(k, o) for o in responses[k]] for k in KINDS}
    status, site = _Counted("status", responses["status"]), _Counted("site", responses["site"])
    return Snapshot(status, site, **lists)


@cache
def _reads(n_racks: int) -> tuple[Counter[str], Counter[str]]:
    """Field reads per kind while mapping the generated site of ``n_racks``, and its objects
    per kind; the mapping is checked to hold every rack."""
    snap = _counted(generate(n_racks))
    READS.clear()
    doc, _ = map_site(snap, SOURCE)
    assert len(doc["racks"]) == n_racks
    return Counter(READS), Counter({k: len(getattr(snap, k)) for k in KINDS})


def test_counting_changes_nothing_and_sees_every_object() -> None:
    plain = map_site(Snapshot(**generate(200)), SOURCE)
    assert map_site(_counted(generate(200)), SOURCE) == plain
    reads, objects = _reads(200)
    # Every object is read, at least for its id (outlets too: the load is walked through
    # them); were the mapping to read copies of the objects, nothing would be counted and the
    # bound below would hold vacuously.
    for kind in KINDS:
        assert reads[kind] >= objects[kind] > 0, (kind, reads[kind], objects[kind])


def test_mapping_work_grows_linearly_with_racks() -> None:
    small, small_objects = _reads(200)
    large, large_objects = _reads(400)
    assert all(large_objects[k] <= 2 * small_objects[k] for k in KINDS)  # twice, at most
    total = sum(small.values()), sum(large.values())
    assert total[1] <= 2 * total[0], f"{total[0]:,} → {total[1]:,} reads: {dict(large)}"
    # Kind by kind, so that a search over a small kind (outlets, panels) cannot hide in the
    # total; 1 % slack for a few reads that are not per object.
    for kind in ("status", "site", *KINDS):
        assert large[kind] <= 2.01 * small[kind] + 10, (kind, small[kind], large[kind])
