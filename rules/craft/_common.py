"""What every craft module shares: the error and the kinds of craft."""

from __future__ import annotations

from typing import Literal

from rules.errors import RulesError

CraftKind = Literal["vehicle", "starship", "capital"]
HyperdriveState = Literal["ok", "damaged", "heavily_damaged", "disabled"]


class CraftError(RulesError):
    """A vehicle or starship question that cannot be answered as asked."""
