"""First aid and medpacs (injuries-and-healing.md §6): the difficulty of a medpac for each
campaign option, what a success does, the [RC] difficulty numbers and Accelerate Healing; split
from :mod:`rules.injuries.healing` (which re-exports every name), where the medpac uses and
lock-outs carried between days live (``HealingState``, ``record_medpac``)."""

from __future__ import annotations

from rules.difficulty import (
    DIFFICULT,
    EASY,
    MODERATE,
    VERY_EASY,
    DifficultyLevel,
    shift,
)
from rules.injuries.wounds import InjuryError, WoundLevel, _check_track, _level, wound_ladder
from rules.ruleset import RuleSet

__all__ = [
    "ACCELERATE_HEALING_BONUS",
    "accelerate_healing_applies",
    "first_aid_difficulty",
    "kd6_distribution",
    "medpac_difficulty",
    "medpac_locks_out",
    "medpac_success_level",
    "rc_medpac_number",
]

W = WoundLevel


# ---------------------------------------------------------------------------------------------
# First aid and medpacs (§6)
# ---------------------------------------------------------------------------------------------
_MEDPAC_BASE = {
    # [2E-STD, not in sources] R&E medpac table (§6.1)
    W.stunned: VERY_EASY,
    W.wounded: EASY,
    W.wounded_twice: EASY,
    W.incapacitated: MODERATE,
    W.mortally_wounded: DIFFICULT,
}
_FIRST_AID = {
    "revive_stunned": EASY,  # [HOUSE §3 = 2E text]
    "revive_incapacitated": MODERATE,  # [HOUSE §3 = 2E text]
    "stabilise_mortally_wounded": MODERATE,  # [UPG]
}
_RC_MEDPAC_NUMBERS = {
    # [RC] Medpac Use Difficulty Scale
    W.wounded: (6, 10),
    W.incapacitated: (11, 15),
    W.mortally_wounded: (16, 20),
}
ACCELERATE_HEALING_BONUS = 2
"""[RC] Accelerate Healing: +2 to each of its two medpac or natural-healing rolls."""


def first_aid_difficulty(task: str) -> DifficultyLevel:
    """First aid without a medpac (IH-13): ``revive_stunned`` Easy, ``revive_incapacitated``
    Moderate, ``stabilise_mortally_wounded`` Moderate."""
    try:
        return _FIRST_AID[task]
    except KeyError:
        raise InjuryError(
            f"unknown first aid task {task!r}; choose {', '.join(_FIRST_AID)}"
        ) from None


def medpac_difficulty(
    level: WoundLevel,
    *,
    ruleset: RuleSet,
    earlier_uses: int = 0,
    pack_uses: int = 0,
    fastflesh: bool = False,
    critical_shift: int = 0,
) -> DifficultyLevel:
    """The first aid difficulty of a medpac on a patient at ``level`` (``stunned`` also covers a
    stun knock-out).

    2E ([2E-STD]): very easy / easy / easy / moderate / difficult, +1 level for each medpac
    already used on him within the day. [HOUSE §7, §8] (IH-14): also +1 level when this pack was
    used before (no pack more than twice) and -1 level for a fastflesh pack. ``critical_shift``:
    :func:`critical_heal_shift`. [RC] uses numbers: :func:`rc_medpac_number`."""
    if ruleset.medpac_rules == "rc":
        raise InjuryError("Rules Companion medpacs use difficulty numbers: see rc_medpac_number")
    level = _level(level)
    if level not in _MEDPAC_BASE:
        raise InjuryError(f"a medpac does nothing for a '{level}' patient")
    if earlier_uses < 0 or pack_uses < 0:
        raise InjuryError("medpac uses cannot be negative")
    levels = earlier_uses + critical_shift
    if ruleset.medpac_rules == "house":
        if pack_uses >= 2:
            raise InjuryError("no medpac can be used more than twice")
        levels += (1 if pack_uses else 0) - (1 if fastflesh else 0)
    elif pack_uses or fastflesh:
        raise InjuryError("a Second Edition medpac is used up at once and has no fastflesh kind")
    return shift(_MEDPAC_BASE[level], levels, ruleset=ruleset)


def medpac_locks_out(total: int, difficulty_number: int, *, ruleset: RuleSet) -> bool:
    """[2E-STD] missing by more than 10 means no more medpacs on him for 24 hours (kept in
    [HOUSE], where a fastflesh pack may still be used; not stated in [RC])."""
    return ruleset.medpac_rules != "rc" and difficulty_number - total > 10


def medpac_success_level(
    level: WoundLevel, *, ruleset: RuleSet, fastflesh: bool = False
) -> WoundLevel:
    """The patient's level after a successful medpac: one level better ([2E-STD]; [RC]
    suggested; a stun is cured). [HOUSE §2]: an incapacitated patient only wakes (a fastflesh
    pack heals him one level) and a mortally wounded one is only held for 30 minutes
    (:func:`stabilisation_deadline`); both stay at their level."""
    level = _level(level)
    if level not in _MEDPAC_BASE:
        raise InjuryError(f"a medpac does nothing for a '{level}' patient")
    if level is not W.stunned:
        _check_track(level, ruleset, "level")
    house_hold = level in (W.incapacitated, W.mortally_wounded)
    if ruleset.medpac_rules == "house" and not fastflesh and house_hold:
        return level
    if level is W.stunned:
        return W.none
    ladder = wound_ladder(ruleset=ruleset)
    return ladder[ladder.index(level) - 1]


def rc_medpac_number(
    level: WoundLevel,
    base: int,
    *,
    earlier_today: int = 0,
    accelerate_healing: bool = False,
) -> int:
    """[RC] medpac difficulty number: the GM's number inside the level's scale (wounded 6–10,
    incapacitated 11–15, mortally wounded 16–20; keep it with the wound), +3 for each medpac
    already used that day. With Accelerate Healing the second one is not raised; a third is +6
    (IH-15)."""
    level = _level(level)
    if level not in _RC_MEDPAC_NUMBERS:
        raise InjuryError(f"the Rules Companion gives no medpac number for a '{level}' patient")
    low, high = _RC_MEDPAC_NUMBERS[level]
    if not low <= base <= high:
        raise InjuryError(
            f"a medpac on a {level.label.lower()} patient is {low}-{high}, not {base}"
        )
    if earlier_today < 0:
        raise InjuryError("medpac uses cannot be negative")
    if accelerate_healing and earlier_today == 1:
        return base
    return base + 3 * earlier_today


def accelerate_healing_applies(*, ruleset: RuleSet) -> bool:
    """[RC] Accelerate Healing's two rolls at +2 (§6.3, §7.3) are the Rules Companion's: they
    apply in a campaign using the RC's medpac and healing rules (``medpac_rules = "rc"``)."""
    return ruleset.medpac_rules == "rc"


def kd6_distribution(count: int) -> dict[int, float]:
    """P(sum = n) of ``count`` plain six-sided dice (a random difficulty's dice, A6)."""
    if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= 60:
        raise InjuryError("roll 0 to 60 dice")
    dist = {0: 1.0}
    for _ in range(count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6
        dist = nxt
    return dist
