"""Crew stations and the rolls made from them: which skill a station rolls and the craft's
code added to it (vehicles-and-starships.md §2: maneuverability for piloting and dodges,
fire control for gunnery, the shield code for shields).

A crew member rolls his skill plus the craft's code. The codes are added as dice and pips
without carrying pips into dice, as every roll in play [RC] (4D+1 plus 1D+2 rolls 5D+3).
Without the skill he rolls the attribute it belongs to (Mechanical for all of these).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.craft._common import CraftError
from rules.craft.stats import CraftStats
from rules.dice import DieCode
from rules.scale import Scale

__all__ = [
    "PILOTING_SKILLS",
    "STATION_ROLES",
    "StationRoll",
    "combined_code",
    "gunnery_skill",
    "piloting_skill",
    "shields_skill",
    "station_roll",
]

StationRole = Literal["pilot", "copilot", "gunner", "shields", "sensors", "engineer"]
STATION_ROLES: tuple[StationRole, ...] = (
    "pilot",
    "copilot",
    "gunner",
    "shields",
    "sensors",
    "engineer",
)
#: The piloting skills a stat block may name (Second Edition skill names).
PILOTING_SKILLS = (
    "starfighter piloting",
    "space transports",
    "capital ship piloting",
    "repulsorlift operation",
    "walker operation",
    "ground vehicle operation",
)


def piloting_skill(stats: CraftStats) -> str:
    """The skill that flies or drives the craft: the stat block's own choice, else by kind and
    scale (a capital ship: capital ship piloting; a starfighter-scale starship: starfighter
    piloting; a walker: walker operation; any other vehicle: repulsorlift operation)."""
    if stats.piloting_skill:
        return stats.piloting_skill
    if stats.kind == "capital" or stats.scale >= Scale.CAPITAL:
        return "capital ship piloting"
    if stats.kind == "starship":
        return "starfighter piloting"
    if stats.scale == Scale.WALKER:
        return "walker operation"
    return "repulsorlift operation"


def gunnery_skill(stats: CraftStats) -> str:
    """The gunnery skill for the craft's weapons: capital ship gunnery on a capital ship,
    vehicle blasters on a vehicle, starship gunnery otherwise."""
    if stats.kind == "capital" or stats.scale >= Scale.CAPITAL:
        return "capital ship gunnery"
    if stats.kind == "vehicle":
        return "vehicle blasters"
    return "starship gunnery"


def shields_skill(stats: CraftStats) -> str:
    """Capital ship shields on a capital ship, starship shields otherwise."""
    if stats.kind == "capital" or stats.scale >= Scale.CAPITAL:
        return "capital ship shields"
    return "starship shields"


def combined_code(skill: DieCode, craft_code: DieCode | None) -> DieCode:
    """The skill plus the craft's code, dice to dice and pips to pips (pips do not carry into
    dice during play). A code the stat block does not print adds nothing."""
    if craft_code is None:
        return skill
    return DieCode(skill.dice + craft_code.dice, skill.pips + craft_code.pips)


@dataclass(frozen=True, slots=True)
class StationRoll:
    """What a station rolls: the skill's name, the craft's code added to it and its name
    (``maneuverability``, ``fire control``, ``shields``), and a label for the dice log."""

    action: str
    skill: str
    craft_code: DieCode | None
    craft_code_name: str


def station_roll(
    stats: CraftStats, role: str, weapon_index: int | None = None
) -> StationRoll | None:
    """The roll a station makes, None for a station with no roll of the craft's own (sensors,
    engineer). A :class:`CraftError` for a gunner without a weapon of this craft, or for a
    shields station on a craft without shields."""
    if role in ("pilot", "copilot"):
        return StationRoll(
            "piloting", piloting_skill(stats), stats.maneuverability, "maneuverability"
        )
    if role == "gunner":
        if weapon_index is None or not 0 <= weapon_index < len(stats.weapons):
            raise CraftError(f"{stats.name} has no such weapon")
        weapon = stats.weapons[weapon_index]
        return StationRoll(weapon.name, gunnery_skill(stats), weapon.fire_control, "fire control")
    if role == "shields":
        if stats.shields is None:
            raise CraftError(f"{stats.name} has no shields")
        return StationRoll("shields", shields_skill(stats), stats.shields, "shields")
    if role in STATION_ROLES:
        return None
    raise CraftError(f"{role!r} is not a crew station")
