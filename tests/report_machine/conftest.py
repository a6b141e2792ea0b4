"""Fixtures of the machine-output tests: Hall B3 audited as `facility check` does it."""

from ._hall_b3 import lines, report

__all__ = ["lines", "report"]
