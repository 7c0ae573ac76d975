"""Starship combat beyond the damage chart: the Rules Companion's evasion, shielding and
missiles, and tractor beams ([UPG] and [RC]) (vehicles-and-starships.md §6, §7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.craft._common import CraftError
from rules.dice import DiceSource, DieCode

__all__ = [
    "TRACTOR_BANDS",
    "TRACTOR_UNRESISTED_UNITS",
    "FullEvasion",
    "TractorResult",
    "combat_evasion_difficulty",
    "full_evasion",
    "hull_resistance_code",
    "missile_difficulty",
    "missile_difficulty_dice",
    "rc_tractor_breaks_free",
    "rc_tractor_escape_code",
    "shield_number",
    "shielded_hit",
    "tractor_beam",
]


# ---------------------------------------------------------------------------------------------
# Starship combat: evasion, shielding, missiles [RC]
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FullEvasion:
    """What a pilot's full evasion does to his own ship's crew this round [RC] (000
    l.1395-1411): gunners add the whole evasion roll to their difficulty; any other action aboard
    is +5 (or the roll, if smaller); shielding rolls are -5 (or the roll, if smaller)."""

    attacker_difficulty: int
    own_gunners_difficulty: int
    other_actions_difficulty: int
    shielding_penalty: int


def full_evasion(evasion_roll: int) -> FullEvasion:
    """Full evasion with roll ``evasion_roll`` (V30: 12 -> +12 / +5 / -5; 3 -> +3 / +3 / -3).
    The roll is added to the attacker's difficulty."""
    if evasion_roll < 0:
        raise CraftError("an evasion roll cannot be negative")
    small = min(5, evasion_roll)
    return FullEvasion(evasion_roll, evasion_roll, small, small)


def combat_evasion_difficulty(base_difficulty: int, evasion_roll: int) -> int:
    """A combat evasion works like a combat dodge: the defender uses his piloting + maneuver roll
    or the original difficulty, whichever he prefers (the higher) [RC] (V10: 18 vs 6 -> 18)."""
    return max(base_difficulty, evasion_roll)


def shield_number(difficulty: int, shields_roll: int) -> int:
    """Attacker's difficulty (base or evasion) + the shields roll [RC] (V10: 18 + 16 = 34)."""
    return difficulty + shields_roll


def shielded_hit(
    attack_roll: int, difficulty: int, shields: int | None = None
) -> Literal["miss", "shields", "hull"]:
    """Where an attack lands [RC] (V10): below the difficulty a miss; from the difficulty up to
    below the shield number a hit with the shield dice added to the hull roll; at or above the
    shield number (or with no shielding roll, ``shields`` None) a hit on the hull alone."""
    if attack_roll < difficulty:
        return "miss"
    if shields is not None and attack_roll < shields:
        return "shields"
    return "hull"


def hull_resistance_code(
    hull: DieCode, shields: DieCode | None, hit: Literal["shields", "hull"], *, ion: bool = False
) -> DieCode:
    """The code rolled to resist a hit: hull, plus the shield dice when the shields held [RC];
    ion cannons are resisted by the hull alone, whatever the shields (000 l.1476-1485)."""
    if hit == "shields" and shields is not None and not ion:
        return hull.pool_add(shields)
    return hull


def missile_difficulty_dice(target_speed_actions: int) -> DieCode:
    """Missiles and torpedoes: +1D to the difficulty for each speed action the target ship is
    taking [RC] (000 l.1489-1497); it costs the target's pilot nothing (V32: 3 actions -> +3D,
    rolled and added to the difficulty, ambiguity 10)."""
    if target_speed_actions < 0:
        raise CraftError("speed actions cannot be negative")
    return DieCode(target_speed_actions)


def missile_difficulty(base: int, target_speed_actions: int, *, rng: DiceSource) -> int:
    """Roll the missile dice (no Wild Die: a difficulty roll) and add them to ``base``."""
    dice = missile_difficulty_dice(target_speed_actions).dice
    return base + sum(rng.d6() for _ in range(dice))


# ---------------------------------------------------------------------------------------------
# Tractor beams
# ---------------------------------------------------------------------------------------------
#: A captured ship that does not resist is reeled in five space units a round [UPG].
TRACTOR_UNRESISTED_UNITS = 5
#: [UPG] margin of the beam's roll over the hull roll -> (space units reeled in, Moves lost).
TRACTOR_BANDS: tuple[tuple[int, int, int], ...] = (
    (16, 4, 4),
    (13, 3, 3),
    (9, 2, 2),
    (4, 1, 1),
    (0, 0, 0),
)


@dataclass(frozen=True, slots=True)
class TractorResult:
    """A resisting ship's round in a tractor beam: free, or held and reeled in."""

    broke_free: bool
    units_reeled: int = 0
    moves_lost: int = 0


def tractor_beam(beam_roll: int, hull_roll: int) -> TractorResult:
    """[UPG]: the beam's damage roll against the hull roll. Hull higher: free. Otherwise by the
    margin: 0-3 held, no change (V23, ambiguity 11); 4-8 one unit and -1 Move; 9-12 two and -2;
    13-15 three and -3; 16+ four and -4 (V22, V27)."""
    if beam_roll < hull_roll:
        return TractorResult(broke_free=True)
    margin = beam_roll - hull_roll
    units, moves = next((u, m) for low, u, m in TRACTOR_BANDS if margin >= low)
    return TractorResult(False, units, moves)


def rc_tractor_escape_code(sublight: DieCode, successful_overspeeds: int = 0) -> DieCode:
    """[RC]: the trapped ship rolls its sublight code against the beam's Strength, +1D for each
    successful overspeed action (for this opposed roll only)."""
    if successful_overspeeds < 0:
        raise CraftError("overspeed actions cannot be negative")
    return sublight.pool_add(DieCode(successful_overspeeds))


def rc_tractor_breaks_free(sublight_roll: int, beam_roll: int) -> bool:
    """[RC]: free only if the sublight roll is larger than the beam's Strength roll."""
    return sublight_roll > beam_roll
