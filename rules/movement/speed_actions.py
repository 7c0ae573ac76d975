"""The Rules Companion's speed actions ([RC] 000 l.492-927, movement.md §6): declaring speed
and overspeed actions, the movement roll and its difficulty, distances by scale, losing
control, maneuvers, ramming and the collision chart. Used instead of the Second Edition speeds
when the campaign plays the Rules Companion.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.dice import DieCode, effective_pool
from rules.movement._common import Distance, MovementError, metres
from rules.ruleset import RuleSet

__all__ = [
    "RcCollisionRow",
    "RcLossOfControl",
    "RcMovementDeclaration",
    "RcRamResult",
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
]


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
    raise MovementError(f"{mover!r} is not a Rules Companion mover; choose {names}")


def rc_max_speed_actions(base_speed_code: DieCode | str) -> int:
    """Speed actions a mover may declare: the dice of its base speed code, pips rounded up
    (2D+1 allows 3). Base speed code: a creature's or vehicle's speed code, a character's
    Dexterity on land or swimming in water."""
    code = DieCode.parse(base_speed_code)
    if code.dice < 0 or code.pips < 0:
        raise MovementError(f"a speed code cannot be negative ({code})")
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
        raise MovementError("speed and overspeed actions cannot be negative")
    if speed_actions > limit:
        raise MovementError(
            f"a base speed code of {base_speed_code} allows {limit} speed actions; "
            "declare overspeed actions to go faster"
        )
    if overspeed and speed_actions < limit:
        raise MovementError(f"declare all {limit} speed actions before any overspeed action")
    return RcMovementDeclaration(speed_actions, overspeed, maneuver, ram)


def rc_movement_pool(
    skill: DieCode | str,
    actions: int,
    *,
    ruleset: RuleSet,
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
        raise MovementError("overspeed actions cannot be negative")
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
        raise MovementError("a movement needs at least one speed action")
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
        raise MovementError("speed dice cannot be negative")
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
    *,
    ruleset: RuleSet,
) -> RcLossOfControl:
    """[RC] failing a movement roll: for every 3 points missed one speed action was not taken.

    ``rc_loss_of_control_point`` (MV-14): ``as_example`` puts the loss in action n − k (the
    printed landspeeder example); ``as_text`` at the start of action n − k + 1."""
    if margin < 1:
        raise MovementError("a failed movement roll misses by 1 or more")
    if distance_actions < 1:
        raise MovementError("a movement needs at least one speed action")
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
        raise MovementError("the loser of a ram is a character or a vehicle")
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
    return metres(distance_m, "distance") < rc_distance_per_action(mover)


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
        raise MovementError(
            f"speed actions must be a whole number, 0 or more, not {speed_actions!r}"
        )
    rows = _RC_COLLISIONS[_RC_SCALES[_rc_scale(mover)][0]]
    actions = max(1, speed_actions)
    for first, last, dice, low, high in rows:
        if first <= actions <= last:
            return RcCollisionRow(DieCode(dice), low, high)
    _, _, dice, low, high = rows[-1]
    return RcCollisionRow(DieCode(dice), low, high)
