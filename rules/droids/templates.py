"""The [RC] R2 and 3PO stat blocks (``rules/data/droids.json``) as designs to start from."""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType

from rules.droids.design import DroidDesign

_DATA = Path(__file__).parent.parent / "data" / "droids.json"


@cache
def load_droid_templates() -> Mapping[str, DroidDesign]:
    """The [RC] R2 and 3PO stat blocks from ``rules/data/droids.json``, keyed ``r2``, ``3po``:
    R2 uses 34D of its 35D budget (the source's 1D is unexplained), 3PO exactly 35D."""
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    return MappingProxyType(
        {key: DroidDesign.from_json(value) for key, value in raw["droids"].items()}
    )
