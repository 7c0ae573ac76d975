"""Speeds, terrain and the movement roll, acceleration, Lost Moves and the Move value.

Second Edition R&E ([UPG]) gives every mover a Move (metres per round) and four speeds:
cautious (½ Move), cruising (1×), high speed (2×) and all-out (4×); the terrain level and the
speed decide whether a roll is needed and at which difficulty (movement.md §1). The House
Rules ([HOUSE]) use five speeds (``ruleset.speed_level_set``). Terrain and roll difficulties
are ``rules.difficulty.DifficultyLevel`` values; distances are exact ``Fraction`` metres.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from rules.difficulty import MODERATE, DifficultyLevel
from rules.movement._common import (
    Distance,
    MovementError,
    Mover,
    is_vehicle,
    metres,
    terrain_level,
)
from rules.ruleset import RuleSet

__all__ = [
    "ManeuverComplexity",
    "MoveCheck",
    "MoveEffect",
    "Speed",
    "SpeedInfo",
    "SpeedOptions",
    "actions_this_round",
    "effective_move",
    "full_distance",
    "house_knockback",
    "maneuver_difficulty",
    "maneuver_modifier_range",
    "movement_check",
    "partial_move_range",
    "speed_cap",
    "speed_info",
    "speed_kmh",
    "speed_options",
    "speeds",
]


# ---------------------------------------------------------------------------------------------
# Speeds
# ---------------------------------------------------------------------------------------------
class Speed(StrEnum):
    """The speed a mover picks for its one move of the round ([UPG]; [HOUSE] five speeds)."""

    CAUTIOUS = "cautious"
    CRUISING = "cruising"
    NORMAL = "normal"
    FAST = "fast"
    HIGH = "high"
    ALL_OUT = "all_out"


@dataclass(frozen=True, slots=True)
class SpeedInfo:
    """One speed of the campaign's speed set: its level (stopped is 0), its multiple of Move
    and which terrain rule it uses (``cautious``, ``cruising``, ``high``, ``all_out`` or
    ``house_high``)."""

    speed: Speed
    level: int
    multiple: Fraction
    terrain_rule: str


_UPG4 = (  # [UPG] 001 l.399-427
    SpeedInfo(Speed.CAUTIOUS, 1, Fraction(1, 2), "cautious"),
    SpeedInfo(Speed.CRUISING, 2, Fraction(1), "cruising"),
    SpeedInfo(Speed.HIGH, 3, Fraction(2), "high"),
    SpeedInfo(Speed.ALL_OUT, 4, Fraction(4), "all_out"),
)
_HOUSE5 = (  # [HOUSE] 004 l.291-299; terrain for Normal/Fast as [UPG] cruising/high (§1.11)
    SpeedInfo(Speed.CAUTIOUS, 1, Fraction(1, 2), "cautious"),
    SpeedInfo(Speed.NORMAL, 2, Fraction(1), "cruising"),
    SpeedInfo(Speed.FAST, 3, Fraction(2), "high"),
    SpeedInfo(Speed.HIGH, 4, Fraction(3), "house_high"),
    SpeedInfo(Speed.ALL_OUT, 5, Fraction(4), "all_out"),
)


def _speed_set(ruleset: RuleSet) -> tuple[SpeedInfo, ...]:
    return _HOUSE5 if ruleset.speed_level_set == "house5" else _UPG4


def speeds(*, ruleset: RuleSet) -> tuple[Speed, ...]:
    """The campaign's speeds, slowest first: [UPG] four, [HOUSE] five."""
    return tuple(info.speed for info in _speed_set(ruleset))


def speed_info(speed: Speed | str, *, ruleset: RuleSet) -> SpeedInfo:
    """Level, multiple of Move and terrain rule of a speed; accepts "all-out", "high speed"."""
    return _lookup(speed, _speed_set(ruleset))


def _lookup(speed: Speed | str, infos: tuple[SpeedInfo, ...]) -> SpeedInfo:
    text = str(speed).strip().lower().replace("-", "_").replace(" ", "_")
    text = {"high_speed": "high", "allout": "all_out"}.get(text, text)
    for info in infos:
        if info.speed.value == text:
            return info
    names = ", ".join(i.speed.value.replace("_", "-") for i in infos)
    raise MovementError(f"{speed!r} is not a speed in this campaign; choose {names}")


def full_distance(move: Distance, speed: Speed | str, *, ruleset: RuleSet) -> Fraction:
    """Metres covered in a round at this speed: Move × ½, 1, 2, 4 [UPG] (House High 3×)."""
    return metres(move, "Move") * speed_info(speed, ruleset=ruleset).multiple


def partial_move_range(
    move: Distance, speed: Speed | str, *, ruleset: RuleSet
) -> tuple[Fraction, Fraction]:
    """Shortest and longest distance allowed at this speed [UPG] "between half and the full
    move speed"; cautious is "up to half their Move", so it starts at 0 (MV-1)."""
    full = full_distance(move, speed, ruleset=ruleset)
    cautious = speed_info(speed, ruleset=ruleset).speed is Speed.CAUTIOUS
    low = Fraction(0) if cautious else full / 2
    return low, full


def speed_kmh(move: Distance, speed: Speed | str, *, ruleset: RuleSet) -> Fraction:
    """(derived) km/h of a speed: metres per 5-second round [WIKI] × 0.72."""
    return full_distance(move, speed, ruleset=ruleset) * Fraction(72, 100)


# ---------------------------------------------------------------------------------------------
# Terrain and the movement roll
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Whether a move needs a roll, against which difficulty level, and whether the move counts
    as an action for the multiple action penalty."""

    roll_needed: bool
    difficulty: DifficultyLevel | None
    counts_as_action: bool

    @property
    def difficulty_name(self) -> str | None:
        """Display name: Difficult, Heroic+10 … (None when no roll is needed)."""
        return None if self.difficulty is None else str(self.difficulty)


def _levels(terrain: DifficultyLevel, shift: int) -> DifficultyLevel:
    return DifficultyLevel(terrain.ordinal + shift)


def _terrain_rule(
    rule: str, terrain: DifficultyLevel, vehicle: bool, ruleset: RuleSet
) -> MoveCheck:
    easy = terrain <= MODERATE
    if rule == "house_high":  # [HOUSE] prints no terrain rule for High (3x), §1.11
        rule = {"as_fast": "high", "as_all_out": "all_out"}.get(ruleset.house_high_terrain, rule)
    if rule == "cautious":  # [UPG] free in VE-M; D+ rolled one level lower, an action
        if easy:
            return MoveCheck(False, None, False)
        free = ruleset.speed_level_set == "house5" and ruleset.house_cautious_hard_terrain == "free"
        return MoveCheck(True, _levels(terrain, -1), not free)
    if rule == "cruising":  # [UPG] VE-M crossed automatically
        return MoveCheck(False, None, True) if easy else MoveCheck(True, terrain, True)
    if rule == "high":  # [UPG] "Characters must roll" in VE-M (MV-3 for vehicles); D+ +1 level
        if easy and vehicle and not ruleset.vehicle_rolls_high_speed_easy_terrain:
            return MoveCheck(False, None, True)
        return MoveCheck(True, _levels(terrain, 0 if easy else 1), True)
    if rule == "all_out":  # [UPG] VE-M +1 level, D+ +2 levels
        return MoveCheck(True, _levels(terrain, 1 if easy else 2), True)
    return MoveCheck(
        True, _levels(terrain, 1), True
    )  # house_high "interpolate": +1 level everywhere


def movement_check(
    speed: Speed | str,
    terrain: DifficultyLevel | str,
    *,
    ruleset: RuleSet,
    mover: Mover = "character",
    complex_maneuver: bool = False,
) -> MoveCheck:
    """The terrain × speed matrix [UPG] (movement.md §1.3).

    ``complex_maneuver``: a maneuver beyond the basics (§1.6) is rolled even where the speed
    alone needs no roll, at the terrain level (suggestion, §8.2); the free cautious move then
    still costs no action."""
    info = speed_info(speed, ruleset=ruleset)
    level = terrain_level(terrain)
    check = _terrain_rule(info.terrain_rule, level, is_vehicle(mover), ruleset)
    if complex_maneuver and not check.roll_needed:
        return MoveCheck(True, level, check.counts_as_action)
    return check


def actions_this_round(
    speed: Speed | str,
    terrain: DifficultyLevel | str,
    other_actions: int,
    *,
    ruleset: RuleSet,
    mover: Mover = "character",
) -> int:
    """Actions declared this round, the move included when it counts as one [UPG]; this is the
    number the multiple action penalty uses for every roll, the movement roll too (§1.9).

    All-out movement must be the only action, not even a dodge or parry [UPG]."""
    if isinstance(other_actions, bool) or not isinstance(other_actions, int) or other_actions < 0:
        raise MovementError(
            f"other actions must be a whole number, 0 or more, not {other_actions!r}"
        )
    info = speed_info(speed, ruleset=ruleset)
    if info.speed is Speed.ALL_OUT and other_actions:
        raise MovementError("a mover going all-out may do nothing else that round, not even dodge")
    check = movement_check(speed, terrain, ruleset=ruleset, mover=mover)
    return other_actions + (1 if check.counts_as_action else 0)


class ManeuverComplexity(StrEnum):
    """How hard a maneuver beyond straight lines and a couple of turns is [UPG] (§1.6)."""

    FAIRLY_EASY = "fairly_easy"
    SOMEWHAT_DIFFICULT = "somewhat_difficult"
    VERY_DIFFICULT = "very_difficult"
    ALMOST_IMPOSSIBLE = "almost_impossible"


_MANEUVER_MODIFIERS: dict[ManeuverComplexity, tuple[int, int | None]] = {  # [UPG] 001 l.437-443
    ManeuverComplexity.FAIRLY_EASY: (1, 5),
    ManeuverComplexity.SOMEWHAT_DIFFICULT: (6, 10),
    ManeuverComplexity.VERY_DIFFICULT: (11, 15),
    ManeuverComplexity.ALMOST_IMPOSSIBLE: (16, None),
}


def maneuver_modifier_range(complexity: ManeuverComplexity | str) -> tuple[int, int | None]:
    """The modifier band added to the movement difficulty (None: no upper limit)."""
    try:
        return _MANEUVER_MODIFIERS[ManeuverComplexity(complexity)]
    except ValueError:
        names = ", ".join(c.value for c in ManeuverComplexity)
        raise MovementError(
            f"{complexity!r} is not a maneuver complexity; choose {names}"
        ) from None


def maneuver_difficulty(
    difficulty: int, complexity: ManeuverComplexity | str, modifier: int
) -> int:
    """The movement difficulty number plus the GM's maneuver modifier, which must lie in the
    band for the maneuver's complexity [UPG] (the [HOUSE] "Added to roll" header: MV-11)."""
    low, high = maneuver_modifier_range(complexity)
    if modifier < low or (high is not None and modifier > high):
        band = f"+{low} or more" if high is None else f"+{low} to +{high}"
        raise MovementError(f"a {ManeuverComplexity(complexity).value} maneuver adds {band}")
    return difficulty + modifier


# ---------------------------------------------------------------------------------------------
# Acceleration, Lost Moves and the Move value
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SpeedOptions:
    """What a mover may do this round: the speeds allowed (slowest first) and whether it may
    come to a stop."""

    speeds: tuple[Speed, ...]
    may_stop: bool

    @property
    def fastest(self) -> Speed | None:
        return self.speeds[-1] if self.speeds else None

    @property
    def slowest(self) -> Speed | None:
        return self.speeds[0] if self.speeds else None


def speed_cap(lost_moves: int, *, ruleset: RuleSet, mover: Mover = "character") -> Speed | None:
    """The fastest speed allowed by the Lost Moves a mover carries [UPG] (they add together).

    −1: high speed; −2: cruising; −3: cautious; a vehicle at −4 (drive disabled) or −5
    (destroyed) cannot move: None. A character or creature at −4 or worse is treated as −3
    (MV-24). [HOUSE] five speeds: −1 High, −2 Normal (or Fast, ``house_lost_moves_cruising``),
    −3 Cautious (MV-28)."""
    if isinstance(lost_moves, bool) or not isinstance(lost_moves, int) or lost_moves < 0:
        raise MovementError(f"Lost Moves are a whole number, 0 or more, not {lost_moves!r}")
    vehicle = is_vehicle(mover)
    if lost_moves == 0:
        return Speed.ALL_OUT
    if vehicle and lost_moves >= 4:
        return None
    lost = min(lost_moves, 3)
    if ruleset.speed_level_set == "house5":
        cruising = Speed.FAST if ruleset.house_lost_moves_cruising == "fast" else Speed.NORMAL
        return {1: Speed.HIGH, 2: cruising, 3: Speed.CAUTIOUS}[lost]
    return {1: Speed.HIGH, 2: Speed.CRUISING, 3: Speed.CAUTIOUS}[lost]


def speed_options(
    previous: Speed | str | None,
    *,
    ruleset: RuleSet,
    mover: Mover = "character",
    lost_moves: int = 0,
) -> SpeedOptions:
    """Speeds reachable from last round's speed (``None``: stopped).

    Characters and creatures change speed by up to two levels a round, vehicles and starships
    by one [UPG]. With ``standstill_is_level`` stopped is a level below cautious, so stopping is
    limited too (MV-2); otherwise a stopped mover counts as cautious and may always stop. A
    mover stopped by a movement failure or a collision passes ``previous=None``. Lost Moves cap
    the speed; if the cap lies below every reachable speed, the cap wins (suggestion)."""
    step = 1 if is_vehicle(mover) else 2
    if previous is None:
        before = 0 if ruleset.standstill_is_level else 1
    else:
        before = speed_info(previous, ruleset=ruleset).level
    cap = speed_cap(lost_moves, ruleset=ruleset, mover=mover)
    cap_level = 0 if cap is None else speed_info(cap, ruleset=ruleset).level
    allowed = [i for i in _speed_set(ruleset) if i.level <= cap_level]
    reachable = tuple(i.speed for i in allowed if abs(i.level - before) <= step)
    may_stop = not ruleset.standstill_is_level or before <= step
    if allowed and not reachable:
        return SpeedOptions(tuple(i.speed for i in allowed), True)
    return SpeedOptions(reachable, may_stop or cap is None)


class MoveEffect(StrEnum):
    """[HOUSE] injuries that change the Move value (004 l.156-205)."""

    OFF_BALANCE = "off_balance"  # Stunned critical 5: Move reduced by 2
    HAMSTRING = "hamstring"  # Wounded critical 10: Move halved
    TEMPORARILY_LAME = "temporarily_lame"  # Incapacitated critical 5: Move reduced by 7
    RAISED_BY_MEDPAC = "raised_by_medpac"  # incapacitated, medpac: half the normal Move
    REVIVED_BY_FIRST_AID = "revived_by_first_aid"  # Moderate first aid: 1/4 normal Move


_MOVE_FACTORS = {
    MoveEffect.HAMSTRING: Fraction(1, 2),
    MoveEffect.RAISED_BY_MEDPAC: Fraction(1, 2),
    MoveEffect.REVIVED_BY_FIRST_AID: Fraction(1, 4),
}
_MOVE_REDUCTIONS = {MoveEffect.OFF_BALANCE: 2, MoveEffect.TEMPORARILY_LAME: 7}


def effective_move(
    move: Distance, effects: Iterable[MoveEffect | str] = (), *, ruleset: RuleSet
) -> Fraction:
    """Move after [HOUSE] injury effects, never below 0 (no movement).

    ``move_mod_order`` (MV-30): ``halve_then_subtract`` multiplies by every fraction first
    (the incapacitated limits are worded against the normal Move), then subtracts."""
    value = metres(move, "Move")
    factor, reduction = Fraction(1), 0
    for raw in effects:
        try:
            effect = MoveEffect(raw)
        except ValueError:
            names = ", ".join(e.value for e in MoveEffect)
            raise MovementError(f"{raw!r} is not a Move effect; choose {names}") from None
        factor *= _MOVE_FACTORS.get(effect, Fraction(1))
        reduction += _MOVE_REDUCTIONS.get(effect, 0)
    if ruleset.move_mod_order == "subtract_then_halve":
        return max(Fraction(0), value - reduction) * factor
    return max(Fraction(0), value * factor - reduction)


_KNOCKBACK = {  # [HOUSE] 004 l.153-157, metres (low, high)
    "stunned": (0, 0),
    "wounded": (1, 1),
    "wounded_twice": (0, 0),
    "incapacitated": (1, 3),
    "mortally_wounded": (1, 3),
}


def house_knockback(wound_level: str) -> tuple[int, int]:
    """[HOUSE] metres a character is knocked back by a wound: wounded 1, incapacitated and
    mortally wounded 1-3 (the GM picks or rolls within the range)."""
    key = wound_level.strip().lower().replace(" ", "_").replace("-", "_")
    if key not in _KNOCKBACK:
        choices = ", ".join(_KNOCKBACK)
        raise MovementError(f"{wound_level!r} is not a wound level; choose {choices}")
    return _KNOCKBACK[key]
