"""Every file that decided a verdict, with the SHA-256 of its bytes as read.

The sign-off and the JSON result list them one by one — each site layer, each waiver file,
each profile and rule file in effect, the configuration file and the baseline — so that one
input hash can never sign two verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Role = Literal["site", "waivers", "profile", "rule", "config", "baseline"]


@dataclass(frozen=True, slots=True)
class InputFile:
    role: Role
    file: str  # as given; a bundled rule or profile relative to the package ("rules/…")
    sha256: str
    bundled: bool = False  # shipped with facility (its version names it)
