"""Repairing equipment and damage to it: the [UPG] and [HOUSE] repair tables, working at a
normal, prepared or rushed pace, and the [HOUSE] rule that a severe wound makes carried gear
roll its Body (droids-and-equipment.md §5, §8)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.dice import DiceSource, DieCode, Roll, roll
from rules.difficulty import DIFFICULT as D
from rules.difficulty import EASY as E
from rules.difficulty import MODERATE as M
from rules.difficulty import VERY_DIFFICULT as VD
from rules.difficulty import DifficultyLevel
from rules.equipment._common import EquipmentError, as_int, percent_of, upg_multiplier
from rules.ruleset import RuleSet

__all__ = [
    "REPAIR_SYSTEMS",
    "GearCheck",
    "RepairRequirement",
    "gear_must_roll",
    "gear_survives",
    "repair_requirement",
    "work_pace",
]


# ---------------------------------------------------------------------------------------------
# Repairs (droids-and-equipment.md §5)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RepairRequirement:
    """A repair's roll, cost and first-roll time. ``credits``/``percent`` None: not given."""

    system: str
    difficulty: DifficultyLevel
    percent: int | None
    credits: int | None
    first_roll_minutes: int
    note: str = ""


FIRST_REPAIR_ROLL = 15  # [UPG] "The first repair roll is made after 15 minutes of work."
ONE_HOUR = 60  # [UPG] hyperdrive and mechanical-failure repairs: one hour of work
#: Repair rows by dice lost (or moves lost): (difficulty, % of original value) [UPG]/[HOUSE].
_MANEUVER_REPAIR = {1: (E, 10), 2: (M, 15), 3: (D, 20)}  # [UPG] row 3 is "-3D or more"
_MANEUVER_REPAIR_HOUSE = {**_MANEUVER_REPAIR, 4: (VD, 30)}  # [HOUSE] stops at -4D
_MOVES_REPAIR = {1: (E, 10), 2: (M, 15), 3: (D, 20), 4: (VD, 25)}
_SHIELD_REPAIR = {1: (E, 5), 2: (M, 5), 3: (D, 5), 4: (VD, 10)}  # row 4 is "-4D or more"
_WEAPON_REPAIR = {"light": (E, 15), "heavy": (M, 25), "severe": (VD, 35)}
_DRIVE_REPLACEMENT = (D, 35)  # [UPG] destroyed drive: Difficult, 35% of the craft's value
REPAIR_SYSTEMS = (
    "drive",
    "hyperdrive",
    "mechanical_failure",
    "maneuverability",
    "moves",
    "shields",
    "weapon",
)


def _row(
    table: dict[int, tuple[DifficultyLevel, int]], amount: object, what: str
) -> tuple[DifficultyLevel, int]:
    lost = as_int(amount, what)
    if lost < 1:
        raise EquipmentError(f"{what}: nothing to repair (lost {lost})")
    return table[min(lost, max(table))]


def repair_requirement(
    system: str,
    damage: object = None,
    *,
    ruleset: RuleSet,
    base_value: int | None = None,
    hired_multiplier: int = 1,
) -> RepairRequirement:
    """The repair roll and cost for one damaged system ([UPG] or [HOUSE] table).

    ``damage``: dice lost (maneuverability, shields), moves lost (moves), or the weapon's state
    (light / heavy / severe / destroyed). ``base_value``: the craft's original value, or the
    weapon's own cost for a weapon. Someone else's work costs double or triple."""
    if system not in REPAIR_SYSTEMS:
        raise EquipmentError(
            f"unknown system {system!r}; choose one of {', '.join(REPAIR_SYSTEMS)}"
        )
    multiplier = upg_multiplier(hired_multiplier)
    first, note = FIRST_REPAIR_ROLL, ""
    percent: int | None
    if system == "drive":
        difficulty, percent = _DRIVE_REPLACEMENT
        note = "replace the destroyed drive"
    elif system in ("hyperdrive", "mechanical_failure"):
        difficulty, percent, first = M, None, ONE_HOUR
        note = "cost not given in the sources: the GM sets it"
    elif system == "maneuverability":
        table = _MANEUVER_REPAIR_HOUSE if ruleset.repair_tables == "house" else _MANEUVER_REPAIR
        difficulty, percent = _row(table, damage, "maneuverability dice lost")
    elif system == "moves":
        if as_int(damage, "moves lost") >= 5:
            if ruleset.lost_moves_5_repair == "upg_table":
                difficulty, percent = D, 100
            else:
                difficulty, percent = _DRIVE_REPLACEMENT
            note = "drive destroyed: it must be replaced"
        else:
            difficulty, percent = _row(_MOVES_REPAIR, damage, "moves lost")
    elif system == "shields":
        difficulty, percent = _row(_SHIELD_REPAIR, damage, "shield dice lost")
    else:
        state = str(damage).strip().lower()
        if state == "destroyed":
            raise EquipmentError("a destroyed weapon may not be repaired; replace it")
        if state not in _WEAPON_REPAIR:
            raise EquipmentError("a weapon is lightly ('light'), heavily or severely damaged")
        difficulty, percent = _WEAPON_REPAIR[state]
    credits = None
    if percent is not None:
        if base_value is None or base_value < 0:
            raise EquipmentError(f"repairing {system} costs {percent}% of the original value")
        credits = percent_of(percent, base_value, multiplier)
    return RepairRequirement(system, difficulty, percent, credits, first, note)


def work_pace(
    minutes: int,
    skill: DieCode | str,
    pace: Literal["normal", "prepared", "rushed"] = "normal",
    *,
    ruleset: RuleSet,
    repair: bool = True,
) -> tuple[int, DieCode]:
    """[WIKI] preparing takes twice as long for +1D; rushing takes half the time and rolls half
    the skill (Danik: 1 hour at 6D rushed -> 30 minutes at 3D, E29). The Rules Companion
    (``ruleset.preparing == "rc_prepare_round"``) forbids preparing for repairs."""
    if minutes < 0:
        raise EquipmentError("work time cannot be negative")
    code = DieCode.parse(skill)
    if pace == "normal":
        return minutes, code
    if pace == "prepared":
        if repair and ruleset.preparing == "rc_prepare_round":
            raise EquipmentError("under the Rules Companion, repairs cannot be prepared for")
        return minutes * 2, code + DieCode(1)
    if pace == "rushed":
        return minutes // 2, code.halved()
    raise EquipmentError("pace is 'normal', 'prepared' or 'rushed'")


# ---------------------------------------------------------------------------------------------
# [HOUSE] severe wounds and equipment (droids-and-equipment.md §8)
# ---------------------------------------------------------------------------------------------
HOUSE_SEVERE_WOUND_DICE = 3  # a -3D wound in one hit (mortally wounded)
HOUSE_MAX_CP_PER_ITEM = 2  # "up to two Character Points per weapon"


@dataclass(frozen=True, slots=True)
class GearCheck:
    """One item's Body roll against the hit's damage; ties survive (ambiguity 20)."""

    roll: Roll
    damage: int

    @property
    def survived(self) -> bool:
        return self.roll.total >= self.damage


def gear_must_roll(
    wound_dice: int,
    *,
    ruleset: RuleSet,
    area_effect: bool,
    gm_extends: bool = False,
) -> bool:
    """[HOUSE] a -3D wound in one hit makes all carried equipment roll Body "for area affect
    blasts, but depending on weapon used": area hits by default, others if the GM says so.
    Off unless ``ruleset.severe_wound_gear_check``."""
    if not ruleset.severe_wound_gear_check:
        return False
    return wound_dice >= HOUSE_SEVERE_WOUND_DICE and (area_effect or gm_extends)


def gear_survives(
    damage_total: int,
    body: DieCode | str | None = None,
    *,
    ruleset: RuleSet,
    rng: DiceSource,
    weapon: bool = True,
    cp: int = 0,
) -> GearCheck:
    """[HOUSE] roll an item's Body (+1D per Character Point, at most 2) against the damage.

    Weapons without a printed Body use ``ruleset.default_weapon_strength`` ([HOUSE] 2D; 2D if
    unset); other gear needs its Body given (not in sources)."""
    if not 0 <= cp <= HOUSE_MAX_CP_PER_ITEM:
        raise EquipmentError("a player may spend 0 to 2 Character Points to save each item")
    if body is None:
        if not weapon:
            raise EquipmentError("this item has no Body code: the GM must give one")
        body = ruleset.default_weapon_strength or "2D"
    result = roll(body, ruleset=ruleset, rng=rng, cp_dice=cp)
    return GearCheck(result, damage_total)
