"""Getting somewhere: vehicle speeds in km/h, astrogation and hyperspace travel
(vehicles-and-starships.md §4, §8). Movement itself (speeds, terrain, fatigue rolls,
collisions, ramming and the [RC] speed actions) is shared with characters in
:mod:`rules.movement`.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from rules.craft._common import CraftError, HyperdriveState
from rules.movement import Speed, speed_info
from rules.ruleset import RuleSet

__all__ = [
    "ASTROGATION_MINUTES",
    "AstrogationSituation",
    "astrogation_difficulty",
    "astrogation_minutes",
    "hyperspace_travel_time",
    "rc_astrogation_difficulty",
    "vehicle_kmh",
]


# ---------------------------------------------------------------------------------------------
# Speeds
# ---------------------------------------------------------------------------------------------
def vehicle_kmh(kmh: int, speed: Speed | str, *, ruleset: RuleSet) -> Fraction:
    """Km/h at a speed from a Move listing's kmh, which is the all-out speed [UPG] (V5: all-out
    K, high K/2, cruising K/4, cautious K/8); [HOUSE] speeds by the same ratio of Move
    (ambiguity 7: high ¾, fast ½, normal ¼)."""
    if kmh < 0:
        raise CraftError("a speed in km/h cannot be negative")
    return kmh * speed_info(speed, ruleset=ruleset).multiple / 4


# ---------------------------------------------------------------------------------------------
# Astrogation
# ---------------------------------------------------------------------------------------------
AstrogationSituation = Literal[
    "known_route", "emergency", "known_systems", "new_destination", "lost"
]
#: Calculation times in minutes [UPG] (001 l.508-512); None = "a few hours", the GM decides;
#: an emergency jump takes one round (5 seconds).
ASTROGATION_MINUTES: dict[str, Fraction | None] = {
    "known_route": Fraction(1),
    "emergency": Fraction(1, 12),
    "known_systems": Fraction(30),
    "new_destination": None,
    "lost": Fraction(24 * 60),
}


def astrogation_minutes(
    situation: AstrogationSituation, hyperdrive: HyperdriveState = "ok"
) -> Fraction | None:
    """Time to calculate a jump [UPG]; a lightly damaged hyperdrive doubles it."""
    if situation not in ASTROGATION_MINUTES:
        raise CraftError(f"unknown astrogation situation {situation!r}")
    if hyperdrive == "disabled":
        raise CraftError("the hyperdrives are disabled: no jump until they are repaired")
    minutes = ASTROGATION_MINUTES[situation]
    if minutes is None or hyperdrive != "damaged" or situation == "emergency":
        return minutes
    return minutes * 2


def astrogation_difficulty(
    base: int, *, emergency: bool = False, hyperdrive: HyperdriveState = "ok"
) -> int:
    """Astrogation difficulty after [UPG] modifiers: an emergency (one-round) jump doubles it;
    a lightly damaged hyperdrive adds +10 to a one-round jump (after doubling, ambiguity 9); a
    heavily damaged one +10 to every jump; disabled hyperdrives allow none."""
    if base < 0:
        raise CraftError("a difficulty cannot be negative")
    if hyperdrive == "disabled":
        raise CraftError("the hyperdrives are disabled: no jump until they are repaired")
    difficulty = base * 2 if emergency else base
    if hyperdrive == "heavily_damaged" or (hyperdrive == "damaged" and emergency):
        difficulty += 10
    return difficulty


def rc_astrogation_difficulty(base: int, listed_hours: int, planned_hours: int) -> int:
    """[RC]: +1 per hour saved from the listed duration, -1 per extra hour; no trip is shorter
    than one hour (000 l.1312-1328). Without a nav computer a standard trip is Very Difficult."""
    if planned_hours < 1:
        raise CraftError("no hyperspace trip takes less than one hour")
    return base + listed_hours - planned_hours


def hyperspace_travel_time(base: Fraction | int, multiplier: float) -> Fraction:
    """Trip time = base duration × hyperdrive multiplier. An assumption: the sources treat the
    multiplier as a ship stat but do not print the formula (ambiguity 12)."""
    if multiplier <= 0:
        raise CraftError("this ship has no working hyperdrive")
    return Fraction(base) * Fraction(multiplier).limit_denominator(4)
