"""What can go wrong on the move, and the long run: fatigue, movement failures, collisions,
Second Edition ramming, falling and chases (movement.md §2–§5).

Damage results are ``DieCode`` values (``0D``: no damage); difficulty levels are
``rules.difficulty.DifficultyLevel`` values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from rules.dice import DieCode
from rules.difficulty import MODERATE, DifficultyLevel
from rules.movement._common import Distance, MovementError, Mover, is_vehicle, metres
from rules.movement.speed_actions import rc_collision_row
from rules.movement.speeds import _HOUSE5, _UPG4, Speed, _lookup, speed_info
from rules.ruleset import RuleSet

__all__ = [
    "CHARACTER_FAILURE_ROWS",
    "FALLING_DAMAGE",
    "VEHICLE_FAILURE_ROWS",
    "FailureRow",
    "FatigueFailure",
    "MovementFailure",
    "RamResult",
    "chase_gap",
    "chase_status",
    "collision_damage",
    "falling_damage",
    "fatigue_difficulty",
    "fatigue_failure",
    "fatigue_interval_minutes",
    "fatigue_rolls",
    "movement_failure",
    "ram_result",
]


# ---------------------------------------------------------------------------------------------
# Long-distance movement and fatigue
# ---------------------------------------------------------------------------------------------
def _fatigue_speed(speed: Speed | str, ruleset: RuleSet) -> str | None:
    info = speed_info(speed, ruleset=ruleset)
    if info.speed is Speed.ALL_OUT:
        return "all_out"
    if info.multiple >= 2:  # [UPG] high speed; [HOUSE] Fast (2x) and High (3x)
        return "high"
    return None


def fatigue_interval_minutes(
    speed: Speed | str, *, ruleset: RuleSet, mover: Mover = "character"
) -> int | None:
    """Minutes between fatigue rolls [UPG]: characters and animals roll stamina every minute
    all-out, every 10 minutes at high speed; vehicles roll body strength every 10 minutes
    all-out, every hour at high speed. Slower speeds never tire (None)."""
    kind = _fatigue_speed(speed, ruleset)
    if kind is None:
        return None
    if is_vehicle(mover):
        return 10 if kind == "all_out" else 60
    return 1 if kind == "all_out" else 10


def fatigue_difficulty(roll_number: int) -> DifficultyLevel:
    """Difficulty level of the n-th fatigue roll: Very Easy, then one level more each [UPG]."""
    if isinstance(roll_number, bool) or not isinstance(roll_number, int) or roll_number < 1:
        raise MovementError(f"fatigue rolls are counted from 1, not {roll_number!r}")
    return DifficultyLevel(roll_number - 1)


def fatigue_rolls(
    speed: Speed | str, minutes: int, *, ruleset: RuleSet, mover: Mover = "character"
) -> tuple[DifficultyLevel, ...]:
    """Difficulty levels of the fatigue rolls due after ``minutes`` at one speed, one at the end
    of each full interval (MV-8)."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
        raise MovementError(f"minutes must be a whole number, 0 or more, not {minutes!r}")
    interval = fatigue_interval_minutes(speed, ruleset=ruleset, mover=mover)
    if interval is None:
        return ()
    return tuple(fatigue_difficulty(n) for n in range(1, minutes // interval + 1))


@dataclass(frozen=True, slots=True)
class FatigueFailure:
    """What a failed fatigue roll costs: minutes of rest (None: the GM decides) or, for a
    vehicle failing by 11+, a mechanical failure needing a repair roll and an hour of work."""

    rest_minutes: int | None
    mechanical_failure: bool = False
    repair_difficulty: DifficultyLevel | None = None
    repair_minutes: int = 0


def fatigue_failure(
    margin: int,
    minutes_moving: int,
    speed: Speed | str,
    *,
    ruleset: RuleSet,
    mover: Mover = "character",
) -> FatigueFailure:
    """Result of a fatigue roll missed by ``margin`` after ``minutes_moving`` at ``speed``.

    [UPG] all-out: rest twice as long as the time spent moving; vehicles failing by 11 or more
    suffer a mechanical failure instead (Moderate repair, at least one hour). High speed prints
    no result: ``high_speed_fatigue_failure`` (MV-8)."""
    if margin < 1:
        raise MovementError("a failed roll misses by 1 or more")
    if minutes_moving < 0:
        raise MovementError("minutes moving cannot be negative")
    if fatigue_interval_minutes(speed, ruleset=ruleset, mover=mover) is None:
        raise MovementError("cautious and cruising movement never call for fatigue rolls")
    if is_vehicle(mover) and margin >= 11:
        return FatigueFailure(None, True, MODERATE, 60)
    high = _fatigue_speed(speed, ruleset) == "high"
    if high and ruleset.high_speed_fatigue_failure == "gm":
        return FatigueFailure(None)
    return FatigueFailure(2 * minutes_moving)


# ---------------------------------------------------------------------------------------------
# Movement failures and collisions
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class FailureRow:
    """One row of a movement-failure table, by how much the roll was missed.

    ``distance`` is the fraction of the planned distance covered; ``damage`` is ``none``,
    ``all_out_1d`` (1D when moving all-out), ``fall`` (1D at all-out only when
    ``tumble_damage_rows = 7_15``) or ``collision`` (collision damage for the speed)."""

    low: int
    high: int | None
    name: str
    distance: Fraction
    stance: Literal["standing", "kneeling", "prone"]
    lose_rest_of_round: bool
    lose_next_round: bool
    penalty_dice_next_round: int
    damage: Literal["none", "all_out_1d", "fall", "collision"]
    in_sources: bool


#: Character movement failures. 7-10 and 11-15 [UPG] 001 l.448-451 ([HOUSE] same); the other
#: rows of Second Edition p.95 are not in the sources: GM placeholders (MV-4), stance after a
#: Minor Tumble prone (MV-7).
CHARACTER_FAILURE_ROWS: tuple[FailureRow, ...] = (
    FailureRow(1, 6, "Stumble", Fraction(1, 2), "standing", False, False, 0, "none", False),
    FailureRow(7, 10, "Fall", Fraction(1, 2), "kneeling", True, False, 2, "fall", True),
    FailureRow(11, 15, "Minor Tumble", Fraction(1, 4), "prone", True, True, 0, "all_out_1d", True),
    FailureRow(
        16, None, "Major Tumble", Fraction(1, 4), "prone", True, True, 0, "collision", False
    ),
)

#: Vehicle (and starship, [UPG] 001 l.520) movement failures: the Second Edition table is not in
#: the sources, so these rows are GM placeholders. Vehicle damage from a collision is resolved
#: with the vehicle rules (rules.craft); a starship with nothing to hit spins out of control
#: for the rest of the round and the next [UPG].
VEHICLE_FAILURE_ROWS: tuple[FailureRow, ...] = (
    FailureRow(
        1, 10, "Loss of control", Fraction(1, 2), "standing", False, False, 0, "none", False
    ),
    FailureRow(
        11, None, "Collision", Fraction(1, 2), "standing", True, True, 0, "collision", False
    ),
)


@dataclass(frozen=True, slots=True)
class MovementFailure:
    """What a failed movement roll did: distance covered (metres), stance, actions lost,
    penalty next round, damage (0D: none) and whether the row is printed in the sources."""

    name: str
    distance: Fraction
    stance: str
    lose_rest_of_round: bool
    lose_next_round: bool
    penalty_dice_next_round: int
    damage: DieCode
    collision: bool
    in_sources: bool


def movement_failure(
    margin: int,
    speed: Speed | str,
    planned_distance: Distance,
    *,
    ruleset: RuleSet,
    mover: Mover = "character",
    table: Sequence[FailureRow] | None = None,
) -> MovementFailure:
    """Result of a movement roll missed by ``margin`` (difficulty − total).

    "Halfway/one-quarter through her Move" is read as the distance planned this round (MV-5).
    ``table`` replaces the default rows (the GM's own Second Edition table)."""
    if isinstance(margin, bool) or not isinstance(margin, int) or margin < 1:
        raise MovementError(f"a failed movement roll misses by 1 or more, not {margin!r}")
    planned = metres(planned_distance, "planned distance")
    info = speed_info(speed, ruleset=ruleset)
    vehicle = is_vehicle(mover)
    rows = (
        table
        if table is not None
        else (VEHICLE_FAILURE_ROWS if vehicle else CHARACTER_FAILURE_ROWS)
    )
    row = next((r for r in rows if r.low <= margin and (r.high is None or margin <= r.high)), None)
    if row is None:
        raise MovementError(f"the movement-failure table has no row for a miss by {margin}")
    all_out = info.speed is Speed.ALL_OUT
    damage = DieCode()
    if row.damage == "collision":
        damage = collision_damage(info.speed, ruleset=ruleset, mover=mover)
    elif all_out and (
        row.damage == "all_out_1d"
        or (row.damage == "fall" and ruleset.tumble_damage_rows == "7_15")
    ):
        damage = DieCode(1)
    return MovementFailure(
        name=row.name,
        distance=planned * row.distance,
        stance=row.stance,
        lose_rest_of_round=row.lose_rest_of_round,
        lose_next_round=row.lose_next_round,
        penalty_dice_next_round=row.penalty_dice_next_round,
        damage=damage,
        collision=row.damage == "collision",
        in_sources=row.in_sources,
    )


#: Collision damage by speed: (character, vehicle). [UPG] 001 l.456-461; [HOUSE] 004 l.338-343,
#: where the row the House labels "Cruise" is the Fast (2x) speed (MV-10).
_COLLISION_UPG = {
    Speed.CAUTIOUS: (1, 2),
    Speed.CRUISING: (2, 4),
    Speed.HIGH: (3, 6),
    Speed.ALL_OUT: (4, 10),
}
_COLLISION_HOUSE = {
    Speed.CAUTIOUS: (1, 2),
    Speed.NORMAL: (2, 4),
    Speed.FAST: (3, 6),
    Speed.HIGH: (4, 8),
    Speed.ALL_OUT: (6, 10),
}


def collision_damage(
    speed: Speed | str | int, *, ruleset: RuleSet, mover: str = "character"
) -> DieCode:
    """Damage a mover takes when it hits something, by its speed at impact.

    ``ruleset.collision_table``: [UPG] and [HOUSE] take a speed and a character, creature,
    vehicle or starship (the vehicle column is at the vehicle's own scale); [RC] takes the
    declared speed actions and a mover from the RC chart (``rc_collision_row``)."""
    if ruleset.collision_table == "rc":
        if not isinstance(speed, int) or isinstance(speed, bool):
            raise MovementError(
                "Rules Companion collisions are read by the number of speed actions"
            )
        return rc_collision_row(speed, mover).damage
    if isinstance(speed, int):
        raise MovementError(f"{speed!r} is not a speed; name one, such as cruising")
    vehicle = is_vehicle(mover)
    table = _COLLISION_HOUSE if ruleset.collision_table == "house" else _COLLISION_UPG
    info = _lookup(speed, _HOUSE5 if table is _COLLISION_HOUSE else _UPG4)
    return DieCode(table[info.speed][1 if vehicle else 0])


@dataclass(frozen=True, slots=True)
class RamResult:
    """A 2E ramming roll: ``rammed``, ``ram_fails`` (safe movement) or ``movement_failure``
    with the margin missed against the original difficulty."""

    outcome: Literal["rammed", "ram_fails", "movement_failure"]
    margin: int = 0


def ram_result(difficulty: int, total: int) -> RamResult:
    """[UPG] ramming: +10 to the movement difficulty (and −1D for the extra action). A total
    that beats (≥, MV-26) the new difficulty rams; below the original difficulty it is a
    movement failure; in between the mover crosses safely but the ram fails."""
    if total >= difficulty + 10:
        return RamResult("rammed")
    if total >= difficulty:
        return RamResult("ram_fails")
    return RamResult("movement_failure", difficulty - total)


# ---------------------------------------------------------------------------------------------
# Falling
# ---------------------------------------------------------------------------------------------
#: [WIKI] 003 l.214-222: (shortest fall in metres, dice of damage) at standard gravity.
FALLING_DAMAGE: tuple[tuple[int, int], ...] = ((3, 2), (7, 3), (13, 4), (19, 5), (31, 7), (51, 9))


def falling_damage(
    distance_m: Distance | float,
    *,
    ruleset: RuleSet,
    gravity: Literal["standard", "high", "low"] = "standard",
) -> DieCode:
    """Falling damage [WIKI], at the scale of the thing that falls; resisted with Strength or
    body strength.

    Under 3 m: no damage (0D); fractions of a metre round down. High gravity raises the damage
    ``gravity_shift_levels`` rows, low gravity lowers it; below the first row is no damage,
    above the 9D row each row adds 2D (MV-12)."""
    fallen = int(metres(distance_m, "distance fallen"))
    if gravity not in ("standard", "high", "low"):
        raise MovementError(f"gravity is standard, high or low, not {gravity!r}")
    if ruleset.gravity_shift_levels < 0:
        raise MovementError("gravity_shift_levels must be 0 or more")
    row = sum(1 for shortest, _ in FALLING_DAMAGE if fallen >= shortest) - 1
    if row < 0:
        return DieCode()
    row += {"standard": 0, "high": 1, "low": -1}[gravity] * ruleset.gravity_shift_levels
    if row < 0:
        return DieCode()
    last = len(FALLING_DAMAGE) - 1
    if row > last:
        return DieCode(FALLING_DAMAGE[last][1] + 2 * (row - last))
    return DieCode(FALLING_DAMAGE[row][1])


# ---------------------------------------------------------------------------------------------
# Chases (suggested loop from the [UPG] movement rules, §5.2)
# ---------------------------------------------------------------------------------------------
def chase_gap(gap: Distance, quarry_moved: Distance, pursuer_moved: Distance) -> Fraction:
    """The gap after a round: it grows by what the quarry covered and shrinks by what the
    pursuer covered (both moving the same way)."""
    start = Fraction(gap)
    return (
        start + metres(quarry_moved, "quarry distance") - metres(pursuer_moved, "pursuer distance")
    )


def chase_status(
    gap: Distance, *, escape_distance: Distance | None = None
) -> Literal["caught", "escaped", "chasing"]:
    """``caught`` once the gap is 0 or less; ``escaped`` beyond the GM's escape distance (out of
    sight, beyond sensor or weapon range: MV-21); otherwise ``chasing``."""
    if gap <= 0:
        return "caught"
    if escape_distance is not None and gap > escape_distance:
        return "escaped"
    return "chasing"
