"""What single Force powers do: difficulties by mass, time, proximity and relationship, and the
results of a roll against them ([RC] write-ups, force.md §6.2).

Difficulty levels are :class:`rules.difficulty.DifficultyLevel` values; numbers added to them
(proximity, relationship, the +5 per factor of ten in telekinesis) are plain ints.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from rules.difficulty import (
    DIFFICULT,
    EASY,
    HEROIC,
    MODERATE,
    VERY_DIFFICULT,
    VERY_EASY,
    DifficultyError,
    DifficultyLevel,
    parse_level,
)
from rules.force.skills import ForceError
from rules.ruleset import RuleSet
from rules.time import weeks_to_days

__all__ = [
    "PROXIMITY",
    "RELATIONSHIP",
    "TransferForce",
    "absorb_dissipate_difficulty",
    "dim_senses_penalty",
    "emptiness_bonus",
    "emptiness_may_roll_out",
    "farseeing_accuracy",
    "farseeing_control_modifier",
    "force_of_will",
    "force_use_while_asleep",
    "inflict_pain_result",
    "instinctive_astrogation_difficulty",
    "postcognition_difficulty",
    "postcognition_result",
    "projective_telepathy_difficulties",
    "raise_level",
    "rc_fixed_difficulty_level",
    "receptive_telepathy_result",
    "telekinesis_difficulty",
    "transfer_force",
    "transfer_force_stasis_days",
]

When = Literal["past", "present", "future"]

PROXIMITY: Final = {
    "touching": 0,
    "line_of_sight": 2,
    "out_of_sight_100m": 5,
    "up_to_10km": 7,
    "up_to_1000km": 10,
    "same_planet": 15,
    "same_system": 20,
    "other_system": 30,
}
"""[2E-STD, not in sources] proximity modifiers (force.md §1.4)."""

RELATIONSHIP: Final = {
    "close_relatives": 0,
    "close_friends": 2,
    "friends": 5,
    "acquaintances": 7,
    "slight_acquaintances": 10,
    "met_once": 12,
    "by_reputation": 15,
    "strangers": 20,
    "strangers_other_species": 30,
}
"""[2E-STD, not in sources] relationship modifiers (force.md §1.4)."""

_RC_LEGACY = {5: VERY_EASY, 10: EASY, 15: MODERATE, 20: DIFFICULT, 30: VERY_DIFFICULT}


def rc_fixed_difficulty_level(number: int) -> DifficultyLevel:
    """[RC] 1st Ed fixed power difficulties as levels: 5 VE, 10 E, 15 M, 20 D, 30 VD."""
    try:
        return _RC_LEGACY[number]
    except KeyError:
        raise ForceError(
            f"{number} is not a 1st Edition power difficulty (5, 10, 15, 20, 30)"
        ) from None


def raise_level(level: DifficultyLevel | str, steps: int = 1) -> DifficultyLevel:
    """A difficulty level ``steps`` higher (Moderate -> Difficult), capped at Heroic."""
    try:
        start = parse_level(level)
    except DifficultyError:
        raise ForceError(f"{level!r} is not a difficulty level") from None
    ordinal = max(0, start.ordinal + steps)
    if ordinal > HEROIC.ordinal:
        ordinal = max(HEROIC.ordinal, start.ordinal)  # capped at Heroic; Heroic+N stays put
    return DifficultyLevel(ordinal)


def telekinesis_difficulty(mass_kg: float) -> tuple[DifficultyLevel, int]:
    """[RC] telekinesis by mass: (level, number added). VE up to 1 kg, E to 10 kg, M to
    100 kg, D to 1 t, then +5 for each further factor of 10. Proximity is added separately."""
    if mass_kg <= 0:
        raise ForceError("the mass to lift must be more than 0 kg")
    for limit, level in ((1, VERY_EASY), (10, EASY), (100, MODERATE), (1000, DIFFICULT)):
        if mass_kg <= limit:
            return level, 0
    extra, ceiling = 0, 1000.0
    while mass_kg > ceiling:
        extra += 5
        ceiling *= 10
    return DIFFICULT, extra


def postcognition_difficulty(hours_ago: float) -> DifficultyLevel:
    """[RC] Easy under two hours, Moderate to a week, Difficult to two years, then Very
    Difficult."""
    if hours_ago < 0:
        raise ForceError("postcognition reads the past, not the future")
    if hours_ago < 2:
        return EASY
    if hours_ago <= 24 * 7:
        return MODERATE
    if hours_ago <= 24 * 365 * 2:
        return DIFFICULT
    return VERY_DIFFICULT


def _multiple(roll: int, difficulty: int) -> int:
    """How many times the difficulty the roll reaches (0 if below it)."""
    if difficulty <= 0:
        raise ForceError("a difficulty number must be at least 1")
    return roll // difficulty


def postcognition_result(roll: int, difficulty: int) -> str:
    """[RC]: > difficulty muddled; >= 2x clear but the main sense wavers; >= 3x as if present
    (">" read as ">=", A-F9)."""
    return ("nothing", "muddled", "good impression", "as if present")[
        min(3, _multiple(roll, difficulty))
    ]


def farseeing_control_modifier(when: When) -> int:
    """[RC] farseeing control difficulty: +5 to see the past, +10 the future."""
    return {"past": 5, "present": 0, "future": 10}[when]


def farseeing_accuracy(roll: int, difficulty: int, when: When) -> str:
    """[RC] farseeing accuracy (force.md §6.2): "none", "50%", "75%" or "all"."""
    m = min(3, _multiple(roll, difficulty))
    if when == "future":
        return ("none", "50%", "75%", "all")[m]
    return ("none", "75%", "all", "all")[m]


def inflict_pain_result(alter_roll: int, difficulty: int) -> str:
    """[RC] inflict pain: >= 1x 1 stun, >= 2x 2 stun, >= 3x unconscious."""
    return ("no effect", "1 stun", "2 stun", "unconscious")[
        min(3, _multiple(alter_roll, difficulty))
    ]


def dim_senses_penalty(alter_roll: int, difficulty: int) -> int:
    """[RC] dim other's senses: dice off Perception, hide/sneak and search (1 to 3)."""
    return min(3, _multiple(alter_roll, difficulty))


def receptive_telepathy_result(roll: int, difficulty: int) -> str:
    """[RC]: >= difficulty surface thoughts; >= 2x may probe memories."""
    return ("nothing", "surface thoughts", "probe memories")[min(2, _multiple(roll, difficulty))]


def force_of_will(will_roll: int, power_difficulty: int, attack_roll: int) -> str:
    """[RC] force of will: the protection number is the power roll plus the hostile power's
    difficulty; below the difficulty no effect, below protection "blocked" (force of will then
    loses 1D), otherwise full effect."""
    if attack_roll < power_difficulty:
        return "no effect"
    if attack_roll < will_roll + power_difficulty:
        return "blocked"
    return "full effect"


def absorb_dissipate_difficulty(moderate_number: int, damage_roll: int) -> int:
    """[RC] against a blaster bolt: Moderate plus the blaster's damage roll."""
    return moderate_number + damage_roll


def projective_telepathy_difficulties(
    very_easy_number: int,
    proximity: int,
    relationship: int,
    cannot_verbalize: bool = False,
    resisting_roll: int | None = None,
) -> tuple[int, int]:
    """[RC] (control, sense) difficulties: control VE + proximity (+5 if the user cannot
    verbalize); sense VE + relationship, or the resisting target's roll + relationship."""
    control = very_easy_number + proximity + (5 if cannot_verbalize else 0)
    sense = (very_easy_number if resisting_roll is None else resisting_roll) + relationship
    return control, sense


def instinctive_astrogation_difficulty(power_succeeded: bool) -> DifficultyLevel:
    """[RC] astrogation without a nav computer on a standard trip."""
    return VERY_EASY if power_succeeded else VERY_DIFFICULT


def emptiness_bonus(dark_side_points: int, hours_empty: float) -> tuple[int, float]:
    """[RC] after emptiness: +6 to all Force skill rolls, minus 1 per Dark Side Point, for as
    long as he was empty. Returns (bonus, hours)."""
    return max(0, 6 - dark_side_points), hours_empty


def emptiness_may_roll_out(
    hours_elapsed: float, hours_intended: float, non_stun_damage: bool = False
) -> bool:
    """[RC] a roll to come out: when the stated time has passed (then once an hour), or at once
    when the body takes non-stun damage (stun damage does not count)."""
    return non_stun_damage or hours_elapsed >= hours_intended


@dataclass(frozen=True, slots=True)
class TransferForce:
    force_point_spent: bool
    force_point_returned: bool
    death_rolls: bool


def transfer_force(control_succeeded: bool, alter_succeeded: bool) -> TransferForce:
    """[RC] if both rolls succeed the user spends a Force Point (heroic, so it returns) and the
    mortally wounded target makes no death rolls."""
    ok = control_succeeded and alter_succeeded
    return TransferForce(ok, ok, not ok)


def transfer_force_stasis_days(*, ruleset: RuleSet) -> int:
    """[HOUSE] the Force-induced stasis lasts 6 weeks (30 days in the 5-day House week)."""
    return weeks_to_days(6, ruleset=ruleset)


def force_use_while_asleep() -> tuple[bool, bool]:
    """[HOUSE] a sleeping Jedi: (may use powers, gets resistance rolls) = (False, True)."""
    return False, True
