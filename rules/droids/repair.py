"""Repairing a damaged droid (issue 19).

A droid's damage is its place on the wound track; droids do not heal, they are repaired. The
sources give no droid repair table: **our reading** (not in the sources) is that a droid
repair roll (droid repair, else Technical) against the level below repairs the droid fully
(back to no damage), the work before each roll being an hour (like a hyperdrive, §5.3):

========================== ============
Damage                     Repair roll
========================== ============
Wounded                    Easy
Wounded twice              Moderate
Incapacitated              Moderate
Mortally wounded           Difficult
========================== ============

A droid that is undamaged (or only stunned) has nothing to repair; a destroyed ("killed")
droid cannot be repaired. The cost is the GM's (credits, 0 by default), paid on success.
"""

from __future__ import annotations

from rules.difficulty import DIFFICULT, EASY, MODERATE, DifficultyLevel
from rules.droids.design import DroidError
from rules.injuries import WoundLevel

__all__ = ["DROID_REPAIR_DIFFICULTY", "DROID_REPAIR_MINUTES", "droid_repair_difficulty"]

DROID_REPAIR_MINUTES = 60
"""Our reading: an hour of work before each droid repair roll."""

DROID_REPAIR_DIFFICULTY: dict[WoundLevel, DifficultyLevel] = {
    WoundLevel.wounded: EASY,
    WoundLevel.wounded_twice: MODERATE,
    WoundLevel.incapacitated: MODERATE,
    WoundLevel.mortally_wounded: DIFFICULT,
}
"""Our reading (not in the sources): the repair roll by the droid's damage."""


def droid_repair_difficulty(level: WoundLevel | str) -> DifficultyLevel:
    """The repair roll's level for a droid at ``level``; :class:`DroidError` when there is
    nothing to repair or nothing left to."""
    try:
        wound = WoundLevel(level)
    except ValueError:
        raise DroidError(f"unknown damage level {level!r}") from None
    if wound is WoundLevel.killed:
        raise DroidError("the droid is destroyed: there is nothing left to repair")
    found = DROID_REPAIR_DIFFICULTY.get(wound)
    if found is None:
        raise DroidError("the droid is not damaged: there is nothing to repair")
    return found
