"""Pausing Python's cyclic garbage collector around large, acyclic work."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector while building a large, acyclic structure.

    Parsing creates millions of objects and no reference cycles; each automatic collection
    re-scans them all (half the load time of a 10,000-rack file). Reference counting still
    frees everything as usual; the collector resumes afterwards.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        # What was built stays alive for the rest of the run: move it out of the collector's
        # sight, so the next automatic collection does not scan it all again.
        gc.freeze()
        if was_enabled:
            gc.enable()
