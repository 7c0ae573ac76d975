"""Movement, chases and falling for characters, creatures and vehicles (movement.md).

Second Edition R&E ([UPG]) gives every mover a Move (metres per round) and four speeds:
cautious (½ Move), cruising (1×), high speed (2×) and all-out (4×); the terrain level and the
speed decide whether a roll is needed and at which difficulty. The House Rules ([HOUSE]) use
five speeds (``ruleset.speed_level_set``). The Rules Companion ([RC]) replaces all of this with
speed actions (the ``rc_`` functions at the end of the module).

Difficulty levels are ordinals as in ``dice-and-core.md`` §3.5: Very Easy 0 … Heroic 5,
Heroic+10 6, Heroic+20 7. Distances are exact ``Fraction`` metres (Move 11 cautious is 5½ m).
Damage results are ``DieCode`` values; ``0D`` means no damage.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from fractions import Fraction
from typing import Literal

from rules.dice import DieCode, effective_pool
from rules.difficulty import DifficultyLevel
from rules.ruleset import RuleSet

__all__ = [
    "CHARACTER_FAILURE_ROWS",
    "FALLING_DAMAGE",
    "VEHICLE_FAILURE_ROWS",
    "FailureRow",
    "FatigueFailure",
    "ManeuverComplexity",
    "MoveCheck",
    "MoveEffect",
    "MovementFailure",
    "RamResult",
    "RcCollisionRow",
    "RcLossOfControl",
    "RcMovementDeclaration",
    "RcRamResult",
    "Speed",
    "SpeedInfo",
    "SpeedOptions",
    "Terrain",
    "actions_this_round",
    "chase_gap",
    "chase_status",
    "collision_damage",
    "effective_move",
    "falling_damage",
    "fatigue_difficulty",
    "fatigue_failure",
    "fatigue_interval_minutes",
    "fatigue_rolls",
    "full_distance",
    "house_knockback",
    "maneuver_difficulty",
    "maneuver_modifier_range",
    "movement_check",
    "movement_failure",
    "partial_move_range",
    "ram_result",
    "rc_collision_row",
    "rc_crawl_distance",
    "rc_declare_movement",
    "rc_distance_per_action",
    "rc_loss_of_control",
    "rc_maneuver_reserved",
    "rc_max_speed_actions",
    "rc_may_ram",
    "rc_movement_difficulty",
    "rc_movement_pool",
    "rc_partial_range",
    "rc_ram",
    "rc_unopposed_maneuver",
    "rc_walking_distance",
    "speed_cap",
    "speed_info",
    "speed_kmh",
    "speed_options",
    "speeds",
]

Mover = Literal["character", "creature", "vehicle", "starship"]
Distance = int | Fraction

_MOVERS = ("character", "creature", "vehicle", "starship")


class Terrain(IntEnum):
    """How hard the ground is to cross: a difficulty level (Very Easy 0 … Heroic 5)."""

    VERY_EASY = 0
    EASY = 1
    MODERATE = 2
    DIFFICULT = 3
    VERY_DIFFICULT = 4
    HEROIC = 5

    def __str__(self) -> str:
        return str(DifficultyLevel(self.value))


def _terrain(terrain: Terrain | int) -> Terrain:
    try:
        return Terrain(terrain)
    except ValueError:
        raise ValueError(
            f"terrain must be a difficulty level from Very Easy (0) to Heroic (5), not {terrain!r}"
        ) from None


def _vehicle(mover: str) -> bool:
    if mover not in _MOVERS:
        raise ValueError(f"a mover is a character, creature, vehicle or starship, not {mover!r}")
    return mover in ("vehicle", "starship")


def _metres(value: Distance | float, what: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | Fraction):
        raise ValueError(f"{what} must be a number of metres, not {value!r}")
    if value < 0:
        raise ValueError(f"{what} cannot be negative ({value})")
    return Fraction(value)


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


def speeds(ruleset: RuleSet = RuleSet()) -> tuple[Speed, ...]:
    """The campaign's speeds, slowest first: [UPG] four, [HOUSE] five."""
    return tuple(info.speed for info in _speed_set(ruleset))


def speed_info(speed: Speed | str, ruleset: RuleSet = RuleSet()) -> SpeedInfo:
    """Level, multiple of Move and terrain rule of a speed; accepts "all-out", "high speed"."""
    return _lookup(speed, _speed_set(ruleset))


def _lookup(speed: Speed | str, infos: tuple[SpeedInfo, ...]) -> SpeedInfo:
    text = str(speed).strip().lower().replace("-", "_").replace(" ", "_")
    text = {"high_speed": "high", "allout": "all_out"}.get(text, text)
    for info in infos:
        if info.speed.value == text:
            return info
    names = ", ".join(i.speed.value.replace("_", "-") for i in infos)
    raise ValueError(f"{speed!r} is not a speed in this campaign; choose {names}")


def full_distance(move: Distance, speed: Speed | str, ruleset: RuleSet = RuleSet()) -> Fraction:
    """Metres covered in a round at this speed: Move × ½, 1, 2, 4 [UPG] (House High 3×)."""
    return _metres(move, "Move") * speed_info(speed, ruleset).multiple


def partial_move_range(
    move: Distance, speed: Speed | str, ruleset: RuleSet = RuleSet()
) -> tuple[Fraction, Fraction]:
    """Shortest and longest distance allowed at this speed [UPG] "between half and the full
    move speed"; cautious is "up to half their Move", so it starts at 0 (MV-1)."""
    full = full_distance(move, speed, ruleset)
    low = Fraction(0) if speed_info(speed, ruleset).speed is Speed.CAUTIOUS else full / 2
    return low, full


def speed_kmh(move: Distance, speed: Speed | str, ruleset: RuleSet = RuleSet()) -> Fraction:
    """(derived) km/h of a speed: metres per 5-second round [WIKI] × 0.72."""
    return full_distance(move, speed, ruleset) * Fraction(72, 100)


# ---------------------------------------------------------------------------------------------
# Terrain and the movement roll
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Whether a move needs a roll, against which difficulty level, and whether the move counts
    as an action for the multiple action penalty."""

    roll_needed: bool
    difficulty_level: int | None
    counts_as_action: bool

    @property
    def difficulty(self) -> DifficultyLevel | None:
        """The level as a ``rules.difficulty.DifficultyLevel`` (None when no roll is needed)."""
        return None if self.difficulty_level is None else DifficultyLevel(self.difficulty_level)

    @property
    def difficulty_name(self) -> str | None:
        """Display name: Difficult, Heroic+10 … (None when no roll is needed)."""
        return None if self.difficulty is None else str(self.difficulty)


def _terrain_rule(rule: str, terrain: int, vehicle: bool, ruleset: RuleSet) -> MoveCheck:
    easy = terrain <= Terrain.MODERATE
    if rule == "house_high":  # [HOUSE] prints no terrain rule for High (3x), §1.11
        rule = {"as_fast": "high", "as_all_out": "all_out"}.get(ruleset.house_high_terrain, rule)
    if rule == "cautious":  # [UPG] free in VE-M; D+ rolled one level lower, an action
        if easy:
            return MoveCheck(False, None, False)
        free = ruleset.speed_level_set == "house5" and ruleset.house_cautious_hard_terrain == "free"
        return MoveCheck(True, terrain - 1, not free)
    if rule == "cruising":  # [UPG] VE-M crossed automatically
        return MoveCheck(False, None, True) if easy else MoveCheck(True, terrain, True)
    if rule == "high":  # [UPG] "Characters must roll" in VE-M (MV-3 for vehicles); D+ +1 level
        if easy and vehicle and not ruleset.vehicle_rolls_high_speed_easy_terrain:
            return MoveCheck(False, None, True)
        return MoveCheck(True, terrain if easy else terrain + 1, True)
    if rule == "all_out":  # [UPG] VE-M +1 level, D+ +2 levels
        return MoveCheck(True, terrain + (1 if easy else 2), True)
    return MoveCheck(True, terrain + 1, True)  # house_high "interpolate": +1 level everywhere


def movement_check(
    speed: Speed | str,
    terrain: Terrain | int,
    ruleset: RuleSet = RuleSet(),
    *,
    mover: Mover = "character",
    complex_maneuver: bool = False,
) -> MoveCheck:
    """The terrain × speed matrix [UPG] (movement.md §1.3).

    ``complex_maneuver``: a maneuver beyond the basics (§1.6) is rolled even where the speed
    alone needs no roll, at the terrain level (suggestion, §8.2); the free cautious move then
    still costs no action."""
    info = speed_info(speed, ruleset)
    check = _terrain_rule(info.terrain_rule, _terrain(terrain), _vehicle(mover), ruleset)
    if complex_maneuver and not check.roll_needed:
        return MoveCheck(True, int(terrain), check.counts_as_action)
    return check


def actions_this_round(
    speed: Speed | str,
    terrain: Terrain | int,
    other_actions: int,
    ruleset: RuleSet = RuleSet(),
    *,
    mover: Mover = "character",
) -> int:
    """Actions declared this round, the move included when it counts as one [UPG]; this is the
    number the multiple action penalty uses for every roll, the movement roll too (§1.9).

    All-out movement must be the only action, not even a dodge or parry [UPG]."""
    if isinstance(other_actions, bool) or not isinstance(other_actions, int) or other_actions < 0:
        raise ValueError(f"other actions must be a whole number, 0 or more, not {other_actions!r}")
    info = speed_info(speed, ruleset)
    if info.speed is Speed.ALL_OUT and other_actions:
        raise ValueError("a mover going all-out may do nothing else that round, not even dodge")
    check = movement_check(speed, terrain, ruleset, mover=mover)
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
        raise ValueError(f"{complexity!r} is not a maneuver complexity; choose {names}") from None


def maneuver_difficulty(
    difficulty: int, complexity: ManeuverComplexity | str, modifier: int
) -> int:
    """The movement difficulty number plus the GM's maneuver modifier, which must lie in the
    band for the maneuver's complexity [UPG] (the [HOUSE] "Added to roll" header: MV-11)."""
    low, high = maneuver_modifier_range(complexity)
    if modifier < low or (high is not None and modifier > high):
        band = f"+{low} or more" if high is None else f"+{low} to +{high}"
        raise ValueError(f"a {ManeuverComplexity(complexity).value} maneuver adds {band}")
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


def speed_cap(
    lost_moves: int, ruleset: RuleSet = RuleSet(), *, mover: Mover = "character"
) -> Speed | None:
    """The fastest speed allowed by the Lost Moves a mover carries [UPG] (they add together).

    −1: high speed; −2: cruising; −3: cautious; a vehicle at −4 (drive disabled) or −5
    (destroyed) cannot move: None. A character or creature at −4 or worse is treated as −3
    (MV-24). [HOUSE] five speeds: −1 High, −2 Normal (or Fast, ``house_lost_moves_cruising``),
    −3 Cautious (MV-28)."""
    if isinstance(lost_moves, bool) or not isinstance(lost_moves, int) or lost_moves < 0:
        raise ValueError(f"Lost Moves are a whole number, 0 or more, not {lost_moves!r}")
    vehicle = _vehicle(mover)
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
    ruleset: RuleSet = RuleSet(),
    *,
    mover: Mover = "character",
    lost_moves: int = 0,
) -> SpeedOptions:
    """Speeds reachable from last round's speed (``None``: stopped).

    Characters and creatures change speed by up to two levels a round, vehicles and starships
    by one [UPG]. With ``standstill_is_level`` stopped is a level below cautious, so stopping is
    limited too (MV-2); otherwise a stopped mover counts as cautious and may always stop. A
    mover stopped by a movement failure or a collision passes ``previous=None``. Lost Moves cap
    the speed; if the cap lies below every reachable speed, the cap wins (suggestion)."""
    step = 1 if _vehicle(mover) else 2
    if previous is None:
        before = 0 if ruleset.standstill_is_level else 1
    else:
        before = speed_info(previous, ruleset).level
    cap = speed_cap(lost_moves, ruleset, mover=mover)
    cap_level = 0 if cap is None else speed_info(cap, ruleset).level
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
    move: Distance, effects: Iterable[MoveEffect | str] = (), ruleset: RuleSet = RuleSet()
) -> Fraction:
    """Move after [HOUSE] injury effects, never below 0 (no movement).

    ``move_mod_order`` (MV-30): ``halve_then_subtract`` multiplies by every fraction first
    (the incapacitated limits are worded against the normal Move), then subtracts."""
    value = _metres(move, "Move")
    factor, reduction = Fraction(1), 0
    for raw in effects:
        try:
            effect = MoveEffect(raw)
        except ValueError:
            names = ", ".join(e.value for e in MoveEffect)
            raise ValueError(f"{raw!r} is not a Move effect; choose {names}") from None
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
        raise ValueError(f"{wound_level!r} is not a wound level; choose {', '.join(_KNOCKBACK)}")
    return _KNOCKBACK[key]


# ---------------------------------------------------------------------------------------------
# Long-distance movement and fatigue
# ---------------------------------------------------------------------------------------------
def _fatigue_speed(speed: Speed | str, ruleset: RuleSet) -> str | None:
    info = speed_info(speed, ruleset)
    if info.speed is Speed.ALL_OUT:
        return "all_out"
    if info.multiple >= 2:  # [UPG] high speed; [HOUSE] Fast (2x) and High (3x)
        return "high"
    return None


def fatigue_interval_minutes(
    speed: Speed | str, ruleset: RuleSet = RuleSet(), *, mover: Mover = "character"
) -> int | None:
    """Minutes between fatigue rolls [UPG]: characters and animals roll stamina every minute
    all-out, every 10 minutes at high speed; vehicles roll body strength every 10 minutes
    all-out, every hour at high speed. Slower speeds never tire (None)."""
    kind = _fatigue_speed(speed, ruleset)
    if kind is None:
        return None
    if _vehicle(mover):
        return 10 if kind == "all_out" else 60
    return 1 if kind == "all_out" else 10


def fatigue_difficulty(roll_number: int) -> int:
    """Difficulty level of the n-th fatigue roll: Very Easy, then one level more each [UPG]."""
    if isinstance(roll_number, bool) or not isinstance(roll_number, int) or roll_number < 1:
        raise ValueError(f"fatigue rolls are counted from 1, not {roll_number!r}")
    return roll_number - 1


def fatigue_rolls(
    speed: Speed | str, minutes: int, ruleset: RuleSet = RuleSet(), *, mover: Mover = "character"
) -> tuple[int, ...]:
    """Difficulty levels of the fatigue rolls due after ``minutes`` at one speed, one at the end
    of each full interval (MV-8)."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 0:
        raise ValueError(f"minutes must be a whole number, 0 or more, not {minutes!r}")
    interval = fatigue_interval_minutes(speed, ruleset, mover=mover)
    if interval is None:
        return ()
    return tuple(fatigue_difficulty(n) for n in range(1, minutes // interval + 1))


@dataclass(frozen=True, slots=True)
class FatigueFailure:
    """What a failed fatigue roll costs: minutes of rest (None: the GM decides) or, for a
    vehicle failing by 11+, a mechanical failure needing a repair roll and an hour of work."""

    rest_minutes: int | None
    mechanical_failure: bool = False
    repair_difficulty: Terrain | None = None
    repair_minutes: int = 0


def fatigue_failure(
    margin: int,
    minutes_moving: int,
    speed: Speed | str,
    ruleset: RuleSet = RuleSet(),
    *,
    mover: Mover = "character",
) -> FatigueFailure:
    """Result of a fatigue roll missed by ``margin`` after ``minutes_moving`` at ``speed``.

    [UPG] all-out: rest twice as long as the time spent moving; vehicles failing by 11 or more
    suffer a mechanical failure instead (Moderate repair, at least one hour). High speed prints
    no result: ``high_speed_fatigue_failure`` (MV-8)."""
    if margin < 1:
        raise ValueError("a failed roll misses by 1 or more")
    if minutes_moving < 0:
        raise ValueError("minutes moving cannot be negative")
    if fatigue_interval_minutes(speed, ruleset, mover=mover) is None:
        raise ValueError("cautious and cruising movement never call for fatigue rolls")
    if _vehicle(mover) and margin >= 11:
        return FatigueFailure(None, True, Terrain.MODERATE, 60)
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
#: with the vehicle rules (rules.ships); a starship with nothing to hit spins out of control
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
    ruleset: RuleSet = RuleSet(),
    *,
    mover: Mover = "character",
    table: Sequence[FailureRow] | None = None,
) -> MovementFailure:
    """Result of a movement roll missed by ``margin`` (difficulty − total).

    "Halfway/one-quarter through her Move" is read as the distance planned this round (MV-5).
    ``table`` replaces the default rows (the GM's own Second Edition table)."""
    if isinstance(margin, bool) or not isinstance(margin, int) or margin < 1:
        raise ValueError(f"a failed movement roll misses by 1 or more, not {margin!r}")
    planned = _metres(planned_distance, "planned distance")
    info = speed_info(speed, ruleset)
    vehicle = _vehicle(mover)
    rows = (
        table
        if table is not None
        else (VEHICLE_FAILURE_ROWS if vehicle else CHARACTER_FAILURE_ROWS)
    )
    row = next((r for r in rows if r.low <= margin and (r.high is None or margin <= r.high)), None)
    if row is None:
        raise ValueError(f"the movement-failure table has no row for a miss by {margin}")
    all_out = info.speed is Speed.ALL_OUT
    damage = DieCode()
    if row.damage == "collision":
        damage = collision_damage(info.speed, ruleset, mover=mover)
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
    speed: Speed | str | int, ruleset: RuleSet = RuleSet(), *, mover: str = "character"
) -> DieCode:
    """Damage a mover takes when it hits something, by its speed at impact.

    ``ruleset.collision_table``: [UPG] and [HOUSE] take a speed and a character, creature,
    vehicle or starship (the vehicle column is at the vehicle's own scale); [RC] takes the
    declared speed actions and a mover from the RC chart (``rc_collision_row``)."""
    if ruleset.collision_table == "rc":
        if not isinstance(speed, int) or isinstance(speed, bool):
            raise ValueError("Rules Companion collisions are read by the number of speed actions")
        return rc_collision_row(speed, mover).damage
    vehicle = _vehicle(mover)
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
    ruleset: RuleSet = RuleSet(),
    *,
    gravity: Literal["standard", "high", "low"] = "standard",
) -> DieCode:
    """Falling damage [WIKI], at the scale of the thing that falls; resisted with Strength or
    body strength.

    Under 3 m: no damage (0D); fractions of a metre round down. High gravity raises the damage
    ``gravity_shift_levels`` rows, low gravity lowers it; below the first row is no damage,
    above the 9D row each row adds 2D (MV-12)."""
    metres = int(_metres(distance_m, "distance fallen"))
    if gravity not in ("standard", "high", "low"):
        raise ValueError(f"gravity is standard, high or low, not {gravity!r}")
    if ruleset.gravity_shift_levels < 0:
        raise ValueError("gravity_shift_levels must be 0 or more")
    row = sum(1 for shortest, _ in FALLING_DAMAGE if metres >= shortest) - 1
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
        start
        + _metres(quarry_moved, "quarry distance")
        - _metres(pursuer_moved, "pursuer distance")
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


# ---------------------------------------------------------------------------------------------
# Rules Companion speed actions [RC] 000 l.492-927
# ---------------------------------------------------------------------------------------------
#: Metres per successful speed action, by the scale whose speed code is used (lowest first).
_RC_SCALES = (
    ("character", 10),
    ("walker", 100),
    ("repulsorlift", 250),
    ("starfighter", 10_000),
)
_RC_ALIASES = {"creature": "character", "capital_ship": "starfighter", "speeder": "repulsorlift"}


def _rc_scale(mover: str) -> int:
    key = _RC_ALIASES.get(mover, mover)
    for index, (name, _) in enumerate(_RC_SCALES):
        if name == key:
            return index
    names = "character, creature, walker, repulsorlift (speeder), starfighter, capital_ship"
    raise ValueError(f"{mover!r} is not a Rules Companion mover; choose {names}")


def rc_max_speed_actions(base_speed_code: DieCode | str) -> int:
    """Speed actions a mover may declare: the dice of its base speed code, pips rounded up
    (2D+1 allows 3). Base speed code: a creature's or vehicle's speed code, a character's
    Dexterity on land or swimming in water."""
    code = DieCode.parse(base_speed_code)
    if code.dice < 0 or code.pips < 0:
        raise ValueError(f"a speed code cannot be negative ({code})")
    return code.normalized().dice + (1 if code.normalized().pips else 0)


@dataclass(frozen=True, slots=True)
class RcMovementDeclaration:
    """A round's declared movement: speed and overspeed actions, maneuver and ramming."""

    speed_actions: int
    overspeed: int = 0
    maneuver: bool = False
    ram: bool = False

    @property
    def distance_actions(self) -> int:
        """Speed actions of distance covered if the movement roll succeeds."""
        return self.speed_actions + self.overspeed

    @property
    def movement_actions(self) -> int:
        """Actions these count for the multiple action penalty."""
        return self.distance_actions + int(self.maneuver) + int(self.ram)


def rc_declare_movement(
    base_speed_code: DieCode | str,
    speed_actions: int,
    *,
    overspeed: int = 0,
    maneuver: bool = False,
    ram: bool = False,
) -> RcMovementDeclaration:
    """Check a declaration: speed actions up to the base speed code; overspeed only once every
    allowed speed action is declared (MV-27)."""
    limit = rc_max_speed_actions(base_speed_code)
    if speed_actions < 0 or overspeed < 0:
        raise ValueError("speed and overspeed actions cannot be negative")
    if speed_actions > limit:
        raise ValueError(
            f"a base speed code of {base_speed_code} allows {limit} speed actions; "
            "declare overspeed actions to go faster"
        )
    if overspeed and speed_actions < limit:
        raise ValueError(f"declare all {limit} speed actions before any overspeed action")
    return RcMovementDeclaration(speed_actions, overspeed, maneuver, ram)


def rc_movement_pool(
    skill: DieCode | str,
    actions: int,
    ruleset: RuleSet = RuleSet(),
    *,
    speed_code: DieCode | str | None = None,
) -> DieCode:
    """The movement roll: operator skill (dodge on land, swimming in water for a character on
    foot) plus the speed code of a vehicle or mount, less 1D per action beyond the first,
    taken from the combined pool (MV-15)."""
    return effective_pool(skill, actions=actions, bonus=speed_code, ruleset=ruleset)


def rc_movement_difficulty(
    difficulty: int,
    *,
    overspeed: int = 0,
    regaining_control: bool = False,
    stopped_by_collision: bool = False,
    ram_modifier: int = 0,
) -> int:
    """The movement difficulty: the GM's number, +3 per overspeed action, +5 when regaining
    control lost last round (not if the mover was stopped by a collision or other
    consequence of losing control), plus a ramming penalty (+5/+10, ``rc_ram``)."""
    if overspeed < 0:
        raise ValueError("overspeed actions cannot be negative")
    regain = 5 if regaining_control and not stopped_by_collision else 0
    return difficulty + 3 * overspeed + regain + ram_modifier


def rc_distance_per_action(mover: str = "character", *, secondary_medium: bool = False) -> int:
    """Metres per successful speed action: 10 character/creature, 100 AT-AT walker, 250
    repulsorlift, 10,000 starfighter or capital ship. Outside its main medium a mover drops
    one scale; at the character scale it makes 2 m (a human swimming)."""
    index = _rc_scale(mover)
    if not secondary_medium:
        return _RC_SCALES[index][1]
    return _RC_SCALES[index - 1][1] if index else 2


def rc_partial_range(
    actions: int, mover: str = "character", *, secondary_medium: bool = False
) -> tuple[int, int]:
    """Shortest and longest distance for ``actions`` movement actions: every action but the last
    covers its full distance; the last covers at least 1 m (characters, creatures) or one
    action of the scale below (vehicles: an AT-AT at least 10 m)."""
    if actions < 1:
        raise ValueError("a movement needs at least one speed action")
    per = rc_distance_per_action(mover, secondary_medium=secondary_medium)
    index = _rc_scale(mover)
    least = min(per, _RC_SCALES[index - 1][1]) if index else 1
    return (actions - 1) * per + least, actions * per


def rc_walking_distance(mover: str = "character") -> int:
    """Longest half-speed ("walking") move: 5 m for a character, which costs no action; 50 m
    AT-AT, 125 m landspeeder, 5,000 m starfighter (MV-16)."""
    return rc_distance_per_action(mover) // 2


def rc_crawl_distance(speed_dice: int) -> int:
    """A prone character crawls 2 m per declared die of speed (a movement action)."""
    if speed_dice < 0:
        raise ValueError("speed dice cannot be negative")
    return 2 * speed_dice


@dataclass(frozen=True, slots=True)
class RcLossOfControl:
    """Where a failed movement roll lost control: ``actions_not_taken`` (one per 3 points
    missed), the speed action during which control went (0: before moving) and the range of
    metres covered by then."""

    actions_not_taken: int
    lost_in_action: int
    distance: tuple[int, int]


def rc_loss_of_control(
    margin: int,
    distance_actions: int,
    distance_per_action: int = 10,
    ruleset: RuleSet = RuleSet(),
) -> RcLossOfControl:
    """[RC] failing a movement roll: for every 3 points missed one speed action was not taken.

    ``rc_loss_of_control_point`` (MV-14): ``as_example`` puts the loss in action n − k (the
    printed landspeeder example); ``as_text`` at the start of action n − k + 1."""
    if margin < 1:
        raise ValueError("a failed movement roll misses by 1 or more")
    if distance_actions < 1:
        raise ValueError("a movement needs at least one speed action")
    n, d = distance_actions, distance_per_action
    k = min(n, margin // 3)
    if ruleset.rc_loss_of_control_point == "as_text":
        at = n - k + 1
        return RcLossOfControl(k, at, ((at - 1) * d, (at - 1) * d))
    at = n - k
    return RcLossOfControl(k, at, ((at - 1) * d, at * d) if at else (0, 0))


def rc_maneuver_reserved(
    winner_roll: int, loser_roll: int, *, declared_speed_actions: int | None = None
) -> int:
    """Speed actions the winner of opposed maneuver rolls may hold back until after the
    opponent moves: > loser 1, > 2× 2, > 3× 3; a tie gives none; never more than declared."""
    if winner_roll > 3 * loser_roll:
        reserved = 3
    elif winner_roll > 2 * loser_roll:
        reserved = 2
    elif winner_roll > loser_roll:
        reserved = 1
    else:
        reserved = 0
    if declared_speed_actions is not None:
        reserved = min(reserved, declared_speed_actions)
    return reserved


def rc_unopposed_maneuver(movement_succeeded: bool) -> int:
    """A maneuver no opponent answers wins as "> 2× loser's roll" (2 reserved) once the
    movement roll succeeds; a failed movement roll reserves nothing (MV-18)."""
    return 2 if movement_succeeded else 0


@dataclass(frozen=True, slots=True)
class RcRamResult:
    """The loser of a ramming contest and what happens to it: an added movement difficulty and
    the result if its movement roll then fails or succeeds, or an immediate result."""

    loser: Literal["rammer", "target"] | None
    difficulty_modifier: int = 0
    if_movement_fails: str | None = None
    if_movement_succeeds: str | None = None
    immediate: str | None = None
    occupants_take_collision_damage: bool = False


_RAM_WORDS = {
    "character": ("wounded", "incapacitated", "mortally wounded"),
    "vehicle": ("heavily damaged", "severely damaged", "destroyed"),
}


def rc_ram(rammer_roll: int, target_roll: int, *, loser_kind: str = "character") -> RcRamResult:
    """[RC] Ramming Actions Chart: opposed operator skill + body strength (hull) rolls; the
    lower roller loses, the rammer included (MV-19); a tie does nothing."""
    if loser_kind not in _RAM_WORDS:
        raise ValueError("the loser of a ram is a character or a vehicle")
    wounded, incapacitated, mortal = _RAM_WORDS[loser_kind]
    if rammer_roll == target_roll:
        return RcRamResult(None)
    loser: Literal["rammer", "target"] = "target" if rammer_roll > target_roll else "rammer"
    high, low = max(rammer_roll, target_roll), min(rammer_roll, target_roll)
    if high > 3 * low:
        return RcRamResult(loser, immediate=mortal)
    if high > 2 * low:
        return RcRamResult(loser, 10, incapacitated, wounded, None, True)
    return RcRamResult(loser, 5, wounded)


def rc_may_ram(distance_m: Distance, mover: str = "character") -> bool:
    """A ram is allowed only when the opponent is less than one full movement action away."""
    return _metres(distance_m, "distance") < rc_distance_per_action(mover)


@dataclass(frozen=True, slots=True)
class RcCollisionRow:
    """A row of the RC Collision Damage Chart: damage and the printed km/h band (display)."""

    damage: DieCode
    kmh_low: int
    kmh_high: int | None


#: [RC] Collision Damage Chart (000 l.846-874): (first, last speed actions, damage dice, km/h).
#: The speeder 3D row prints "261 - 540"; read as 361-540 (the bands are contiguous and two
#: speeder actions are 360 km/h). Past the last row: the last row (suggestion).
_RC_COLLISIONS: dict[str, tuple[tuple[int, int, int, int, int | None], ...]] = {
    "character": ((1, 1, 2, 4, 7), (2, 3, 3, 8, 21), (4, 7, 5, 22, 50), (8, 10, 6, 51, 70)),
    "walker": ((1, 1, 6, 51, 70), (2, 2, 7, 71, 145), (3, 3, 8, 146, 200), (4, 4, 9, 201, 360)),
    "repulsorlift": (
        (1, 1, 8, 146, 200),
        (2, 2, 9, 201, 360),
        (3, 3, 10, 361, 540),
        (4, 4, 11, 541, 720),
        (5, 5, 12, 721, 900),
        (6, 6, 14, 901, None),
    ),
    "starfighter": ((1, 1, 14, 901, None),),
}


def rc_collision_row(speed_actions: int, mover: str = "character") -> RcCollisionRow:
    """The RC collision row for the declared speed actions, overspeed included (MV-20); a
    walking character (0 actions) uses the first row."""
    if isinstance(speed_actions, bool) or speed_actions < 0:
        raise ValueError(f"speed actions must be a whole number, 0 or more, not {speed_actions!r}")
    rows = _RC_COLLISIONS[_RC_SCALES[_rc_scale(mover)][0]]
    actions = max(1, speed_actions)
    for first, last, dice, low, high in rows:
        if first <= actions <= last:
            return RcCollisionRow(DieCode(dice), low, high)
    _, _, dice, low, high = rows[-1]
    return RcCollisionRow(DieCode(dice), low, high)
