"""Injuries and healing: the wound ladder, stun, dying, House critical injuries, medpacs,
natural healing and bacta tanks (injuries-and-healing.md).

Everything here is a pure function over small immutable values. Time is counted in combat
rounds for fights (one round is about five seconds, so a minute is 12 rounds), in minutes for
first aid, and in days for natural healing. Dice that the GM rolls (knock-out lengths, death
rolls, bacta times) are plain dice with no Wild Die (dice-and-core.md A6).

The damage chart itself (damage total against resistance total) is in :mod:`rules.combat`;
this module starts from its result, a :class:`WoundLevel`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from rules.advancement import max_cp_per_roll
from rules.dice import DiceSource, DieCode
from rules.difficulty import (
    DIFFICULT,
    EASY,
    HEROIC,
    MODERATE,
    VERY_EASY,
    DifficultyLevel,
    shift,
)
from rules.ruleset import RuleSet

__all__ = [
    "BACTA_TIMES",
    "CRITICAL_TABLES",
    "ROUNDS_PER_MINUTE",
    "CriticalInjury",
    "Duration",
    "HealingRoll",
    "Stun",
    "StunState",
    "WoundEffects",
    "WoundLevel",
    "apply_wound",
    "bacta_difficulty",
    "bacta_failure_level",
    "bacta_time",
    "critical_attribute",
    "critical_deadline_passed",
    "critical_heal_shift",
    "critical_injury",
    "critical_table_for",
    "death_roll_dice",
    "dies_on_death_roll",
    "first_aid_difficulty",
    "healing_cp_dice",
    "house_wound_dice",
    "maim_instead_of_death",
    "medpac_difficulty",
    "medpac_locks_out",
    "medpac_success_level",
    "mortal_outcome",
    "natural_healing_interval",
    "natural_healing_result",
    "next_natural_healing_roll",
    "rc_medpac_number",
    "roll_death",
    "stabilisation_deadline",
    "stun_penalty",
    "stun_state",
    "stuns_affecting",
    "weeks_to_days",
    "worsen",
    "wound_effects",
    "wound_penalty",
]

ROUNDS_PER_MINUTE = 12
"""[WIKI] a round is about five seconds."""

STUN_AFFECTS_ROUNDS = 30 * ROUNDS_PER_MINUTE
"""[HOUSE §2, §3 = 2E text] a stun keeps "affecting" a character for 30 minutes."""

DAYS_PER_MONTH = 35
"""[2E-STD] "one month (35 standard days)"; [HOUSE] "1 month (35 days)"."""


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------
class WoundLevel(StrEnum):
    """A damage-chart result and, without ``stunned``, a character's place on the wound track.

    ``str()`` and ``.name`` are the same lowercase word. Stun is a separate track: a
    ``stunned`` result never changes a character's wound level (injuries-and-healing.md §2.1).
    """

    none = "none"
    stunned = "stunned"
    wounded = "wounded"
    wounded_twice = "wounded_twice"
    incapacitated = "incapacitated"
    mortally_wounded = "mortally_wounded"
    killed = "killed"

    @property
    def rank(self) -> int:
        """Severity, 0 (none) to 6 (killed); ``stunned`` sits between none and wounded."""
        return _RANK[self]

    @property
    def label(self) -> str:
        """The game's words: ``Mortally wounded``."""
        return self.value.replace("_", " ").capitalize()

    @property
    def on_wound_track(self) -> bool:
        """True for the levels a character can be at (everything but ``stunned``)."""
        return self is not WoundLevel.stunned


_RANK = {level: i for i, level in enumerate(WoundLevel)}
W = WoundLevel  # short alias used in the tables below


@dataclass(frozen=True, slots=True)
class Duration:
    """A length of time rolled on plain dice, such as ``2D minutes`` or ``10D minutes``."""

    dice: int
    unit: Literal["rounds", "minutes", "hours", "days"]

    def __post_init__(self) -> None:
        if self.dice < 1:
            raise ValueError("a rolled duration needs at least 1D")

    def __str__(self) -> str:
        return f"{self.dice}D {self.unit}"

    def roll(self, rng: DiceSource) -> int:
        """The length in ``unit``: the sum of ``dice`` plain dice (a GM roll, no Wild Die)."""
        return sum(rng.d6() for _ in range(self.dice))

    def roll_rounds(self, rng: DiceSource) -> int:
        """The length in combat rounds (12 a minute); only for rounds and minutes."""
        amount = self.roll(rng)
        if self.unit == "rounds":
            return amount
        if self.unit == "minutes":
            return amount * ROUNDS_PER_MINUTE
        raise ValueError(f"{self} is too long to count in combat rounds")


# ---------------------------------------------------------------------------------------------
# The wound ladder (§2)
# ---------------------------------------------------------------------------------------------
def _check_track(level: WoundLevel, ruleset: RuleSet, what: str) -> None:
    if level is W.wounded_twice and not ruleset.wounded_twice_level:
        raise ValueError(f"{what}: this campaign's wound ladder has no 'wounded twice' level")


def apply_wound(
    current_level: WoundLevel, new_result: WoundLevel, ruleset: RuleSet = RuleSet()
) -> WoundLevel:
    """The wound level after a new damage result ([UPG] [HOUSE §3 = 2E text] [RC]).

    Wounded + wounded = wounded twice (the [RC] ladder: incapacitated); wounded twice + wounded
    = incapacitated; incapacitated + wounded or worse = mortally wounded; mortally wounded +
    incapacitated or worse = killed; otherwise the worse of the two (IH-2). A ``stunned`` or
    ``none`` result leaves the level as it is (stuns are tracked with :func:`stun_state`)."""
    current_level, new_result = WoundLevel(current_level), WoundLevel(new_result)
    if not current_level.on_wound_track:
        raise ValueError("'stunned' is not a wound level; a stunned character is at 'none'")
    _check_track(current_level, ruleset, "current level")
    _check_track(new_result, ruleset, "new result")
    if new_result in (W.none, W.stunned):
        return current_level
    if W.killed in (current_level, new_result):
        return W.killed
    if current_level is W.mortally_wounded and new_result.rank >= W.incapacitated.rank:
        return W.killed
    if current_level is W.incapacitated:
        return max(W.mortally_wounded, new_result, key=_RANK.__getitem__)
    if current_level is W.wounded_twice and new_result is W.wounded:
        return W.incapacitated
    if current_level is W.wounded and new_result is W.wounded:
        return W.wounded_twice if ruleset.wounded_twice_level else W.incapacitated
    return max(current_level, new_result, key=_RANK.__getitem__)


def worsen(level: WoundLevel, steps: int, ruleset: RuleSet = RuleSet()) -> WoundLevel:
    """``steps`` levels down the wound track (wounded twice is skipped on the [RC] ladder);
    past mortally wounded is killed. Used by the bacta "+2 levels" failure (IH-30)."""
    ladder = _ladder(ruleset)
    level = WoundLevel(level)
    if not level.on_wound_track:
        raise ValueError("'stunned' is not a wound level")
    _check_track(level, ruleset, "level")
    return ladder[min(len(ladder) - 1, ladder.index(level) + steps)]


def _ladder(ruleset: RuleSet) -> tuple[WoundLevel, ...]:
    return tuple(
        lvl
        for lvl in WoundLevel
        if lvl.on_wound_track and (ruleset.wounded_twice_level or lvl is not W.wounded_twice)
    )


# ---------------------------------------------------------------------------------------------
# Effects of each level (§3)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class WoundEffects:
    """What a level does: dice off every skill and attribute roll, and what happens this round."""

    level: WoundLevel
    penalty_dice: int
    falls_prone: bool = False
    knockback_m: tuple[int, int] | None = None
    loses_rest_of_round: bool = False
    loses_next_round: bool = False
    can_act: bool = True
    conscious: bool = True
    unconscious_for: Duration | None = None
    death_rolls: bool = False


def wound_penalty(level: WoundLevel, ruleset: RuleSet = RuleSet()) -> int:
    """Dice off every skill and attribute roll (not off Strength to resist damage [WIKI]):
    stunned 1 (this round and the next), wounded 1, wounded twice 2 [UPG], none for the rest
    (from incapacitated on the character cannot act at all)."""
    return wound_effects(level, ruleset).penalty_dice


def wound_effects(level: WoundLevel, ruleset: RuleSet = RuleSet()) -> WoundEffects:
    """The effects of a wound level: 2E text ([WIKI] [UPG] [HOUSE §3]) or, with
    ``wound_effects = "house"``, the House list ([HOUSE §2]: knock-back, and a second wound
    also costs the next round; IH-8)."""
    level = WoundLevel(level)
    if level is not W.stunned:
        _check_track(level, ruleset, "level")
    house = ruleset.wound_effects == "house"
    out_cold = {"can_act": False, "conscious": False, "loses_rest_of_round": True}
    match level:
        case W.none:
            return WoundEffects(level, 0)
        case W.stunned:
            return WoundEffects(level, 1)
        case W.wounded if house:
            return WoundEffects(level, 1, knockback_m=(1, 1), loses_rest_of_round=True)
        case W.wounded:
            return WoundEffects(level, 1, falls_prone=True, loses_rest_of_round=True)
        case W.wounded_twice:
            return WoundEffects(
                level, 2, falls_prone=True, loses_rest_of_round=True, loses_next_round=house
            )
        case W.incapacitated:
            return WoundEffects(
                level,
                0,
                falls_prone=True,
                knockback_m=(1, 3) if house else None,
                unconscious_for=Duration(10, "minutes"),
                **out_cold,
            )
        case W.mortally_wounded:
            return WoundEffects(
                level,
                0,
                falls_prone=True,
                knockback_m=(1, 3) if house else None,
                death_rolls=True,
                **out_cold,
            )
    return WoundEffects(level, 0, falls_prone=True, **out_cold)  # killed


# ---------------------------------------------------------------------------------------------
# Stun (§4)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Stun:
    """One stun result taken in combat round ``round``: 1 point in 2E, 1 or 2 in [RC]."""

    round: int
    points: int = 1

    def __post_init__(self) -> None:
        if self.points < 1:
            raise ValueError("a stun is at least one point")


@dataclass(frozen=True, slots=True)
class StunState:
    penalty_dice: int
    """Dice off every action this round (never off Strength to resist damage)."""
    affecting: int
    """2E: stuns still "affecting" (30 minutes); [RC]: active stun points."""
    knocked_out: bool
    immobile: bool = False
    """[RC] only: no Dexterity actions."""
    knockout_for: Duration | None = None


def stun_penalty(stuns: Iterable[Stun], now_round: int) -> int:
    """Dice off actions: each stun counts for the round it was taken and the next one
    ([HOUSE §2, §3 = 2E text], [RC]); several stuns add up (IH-3)."""
    return sum(s.points for s in stuns if s.round <= now_round <= s.round + 1)


def stuns_affecting(
    stuns: Iterable[Stun], now_round: int, *, rested_through: int | None = None
) -> int:
    """2E: stuns still "affecting" the character: taken in the last 30 minutes and not cleared
    by a one-minute rest. ``rested_through``: the round in which a full minute (12 rounds) of
    rest ended; stuns taken before it no longer count (IH-4)."""
    return sum(
        s.points
        for s in stuns
        if s.round <= now_round < s.round + STUN_AFFECTS_ROUNDS
        and (rested_through is None or s.round > rested_through)
    )


def stun_state(
    stuns: Iterable[Stun],
    now_round: int,
    *,
    strength: DieCode | str,
    dexterity: DieCode | str | None = None,
    stamina: DieCode | str | None = None,
    rested_through: int | None = None,
    ruleset: RuleSet = RuleSet(),
) -> StunState:
    """Penalty and knock-out from stuns.

    2E ([HOUSE §2, §3 = 2E text]): unconscious for 2D minutes once the stuns affecting him reach
    the dice of his Strength (3D+2 → 3). [RC] (``stun_knockout = "rc_dex_stamina"``): immobile
    while the stun points taken this round reach his Dexterity dice; unconscious once the active
    stun points reach his stamina dice, or Strength dice without stamina (IH-6; 2D minutes)."""
    stuns = tuple(stuns)
    penalty = stun_penalty(stuns, now_round)
    if ruleset.stun_knockout == "rc_dex_stamina":
        this_round = sum(s.points for s in stuns if s.round == now_round)
        immobile = dexterity is not None and this_round >= max(1, DieCode.parse(dexterity).dice)
        limit = DieCode.parse(stamina if stamina is not None else strength).dice
        out = penalty >= max(1, limit)
        return StunState(penalty, penalty, out, immobile, Duration(2, "minutes") if out else None)
    affecting = stuns_affecting(stuns, now_round, rested_through=rested_through)
    out = affecting >= max(1, DieCode.parse(strength).dice)
    return StunState(penalty, affecting, out, False, Duration(2, "minutes") if out else None)


# ---------------------------------------------------------------------------------------------
# Mortally wounded: death rolls and stabilising (§3.2)
# ---------------------------------------------------------------------------------------------
def death_roll_dice(*, end_is_nigh: bool = False) -> int:
    """2D at the end of each round; 1D with the [HOUSE] critical "The end is Nigh"."""
    return 1 if end_is_nigh else 2


def dies_on_death_roll(roll_total: int, rounds_mortally_wounded: int) -> bool:
    """[HOUSE §2, §3] [RC] he dies if the roll is less than the rounds he has been mortally
    wounded (the round of wounding counts as 1, IH-10)."""
    if rounds_mortally_wounded < 1:
        raise ValueError("the first death roll comes at the end of the round of wounding (n = 1)")
    return roll_total < rounds_mortally_wounded


def roll_death(
    rounds_mortally_wounded: int, rng: DiceSource, *, end_is_nigh: bool = False
) -> tuple[int, bool]:
    """Roll the death roll (plain dice) → ``(total, dies)``."""
    total = sum(rng.d6() for _ in range(death_roll_dice(end_is_nigh=end_is_nigh)))
    return total, dies_on_death_roll(total, rounds_mortally_wounded)


def stabilisation_deadline(
    stabilised_at_minute: int,
    *,
    last_medpac_minute: int | None = None,
    ruleset: RuleSet = RuleSet(),
) -> int:
    """The minute by which a stabilised, mortally wounded character must be treated.

    [UPG] a Moderate first aid total stabilises him; he dies unless a medpac or bacta tank is
    used within one hour. [HOUSE] (``mw_stabilise = "house"``) a medpac only holds him for 30
    minutes from its use and never treats him (IH-12)."""
    if ruleset.mw_stabilise == "house" and last_medpac_minute is not None:
        return last_medpac_minute + 30
    return stabilised_at_minute + 60


def mortal_outcome(
    stabilised_at_minute: int,
    now_minute: int,
    *,
    treated_at_minute: int | None = None,
    last_medpac_minute: int | None = None,
    ruleset: RuleSet = RuleSet(),
) -> Literal["treated", "waiting", "dies"]:
    """Whether a stabilised patient has been saved in time (IH-11): ``treated`` once a treating
    roll succeeded by the deadline, ``dies`` once the deadline passed without one."""
    deadline = stabilisation_deadline(
        stabilised_at_minute, last_medpac_minute=last_medpac_minute, ruleset=ruleset
    )
    if treated_at_minute is not None and treated_at_minute <= deadline:
        return "treated"
    return "dies" if now_minute >= deadline else "waiting"


# ---------------------------------------------------------------------------------------------
# [HOUSE] critical injuries (§5)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CriticalInjury:
    table: WoundLevel
    name: str
    effect: str
    deadline: Duration | None = None
    """Untreated for this long → permanent (or, for internal bleeding, death)."""


def _crit(
    table: WoundLevel, rows: Mapping[tuple[int, ...], tuple[str, str]], **deadlines: Duration
) -> dict[int, CriticalInjury]:
    out: dict[int, CriticalInjury] = {}
    for rolls, (name, effect) in rows.items():
        for r in rolls:
            out[r] = CriticalInjury(table, name, effect, deadlines.get(name))
    return out


CRITICAL_TABLES: dict[WoundLevel, dict[int, CriticalInjury]] = {
    # [HOUSE §3] 004 l.176-216
    W.stunned: _crit(
        W.stunned,
        {
            (1,): ("Slowed Down", "an extra -1D to initiative rolls"),
            (2, 3): ("Sudden Jolt", "Moderate Strength roll or drop whatever is held"),
            (4,): ("Distracted", "no free actions"),
            (5,): ("Off Balance", "Move -2"),
            (6,): ("Stinger", "difficulty of the next action +1 level"),
        },
    ),
    W.wounded: _crit(
        W.wounded,
        {
            (2, 3): ("Head Ringer", "Knowledge and Perception rolls +1 difficulty level"),
            (4, 5): ("Fearsome Wound", "Strength rolls +1 difficulty level"),
            (6, 7): ("Agonizing Wound", "Dexterity rolls +1 difficulty level"),
            (8, 9): ("Dazed", "cannot take multiple actions in a round"),
            (10,): ("Hamstring", "Move halved"),
            (11,): ("Overpowered", "the attacker may attack again with no multiple-action penalty"),
            (12,): ("Winded", "always acts last in the round, whatever the initiative"),
        },
    ),
    W.incapacitated: _crit(
        W.incapacitated,
        {
            (1, 2): ("Crippled", "one limb crippled until healed or replaced; -3D using it"),
            (3,): ("Deafness", "auditory checks +5 difficulty levels"),
            (4,): ("Horrific Injury", "roll on the attribute table: that attribute -1D"),
            (5,): ("Temporarily Lame", "Move -7"),
            (6,): ("Blinded", "vision-based checks +5 difficulty levels"),
        },
        Deafness=Duration(2, "days"),
        Blinded=Duration(2, "days"),
    ),
    W.mortally_wounded: _crit(
        W.mortally_wounded,
        {
            (1,): ("Maimed", "a limb is permanently lost"),
            (2,): ("Gruesome Injury", "roll on the attribute table: that attribute -1D for good"),
            (3,): ("Paralysis", "completely immobile but conscious"),
            (4, 5): (
                "Internal Bruising/Bleeding",
                "-2D to Strength to resist damage; dies within 36 hours untreated",
            ),
            (6,): ("The end is Nigh", "death rolls use 1D instead of 2D"),
        },
        Paralysis=Duration(1, "days"),
    ),
}
CRITICAL_TABLES[W.wounded_twice] = CRITICAL_TABLES[W.wounded]

INTERNAL_BLEEDING_HOURS = 36
_ATTRIBUTES = (
    # [HOUSE] 2D attribute table; the source prints "1-3" for Knowledge (IH-22: 2-3)
    ((2, 3), "Knowledge"),
    ((4, 5), "Perception"),
    ((6, 7), "Mechanical"),
    ((8, 9), "Technical"),
    ((10, 11), "Dexterity"),
    ((12,), "Strength"),
)


def critical_table_for(level_inflicted: WoundLevel) -> tuple[WoundLevel, int] | None:
    """The table and the dice to roll for a hit that leaves this level ([HOUSE §3], IH-20):
    stunned 1D, wounded or wounded twice 2D, incapacitated 1D, mortally wounded 1D; a hit with
    no effect or a killing hit has no critical."""
    level = WoundLevel(level_inflicted)
    if level in (W.none, W.killed):
        return None
    table = W.wounded if level is W.wounded_twice else level
    return table, 2 if table is W.wounded else 1


def critical_injury(level_inflicted: WoundLevel, roll: int) -> CriticalInjury:
    """The critical injury for a roll on the table of the level the hit inflicted."""
    found = critical_table_for(level_inflicted)
    if found is None:
        raise ValueError(f"a '{level_inflicted}' result has no critical injury table")
    table, dice = found
    try:
        return CRITICAL_TABLES[table][roll]
    except KeyError:
        raise ValueError(
            f"{roll} cannot be rolled on {dice}D for the {table.label} table"
        ) from None


def critical_attribute(roll: int) -> str:
    """The [HOUSE] attribute table (2D) for Horrific and Gruesome injuries."""
    for rolls, attribute in _ATTRIBUTES:
        if roll in rolls:
            return attribute
    raise ValueError(f"{roll} cannot be rolled on 2D")


def critical_heal_shift(table: WoundLevel) -> int:
    """Difficulty levels added to the medpac or bacta roll that heals the wound (§5.2):
    stunned 0, wounded 1, incapacitated 1 (bacta or surgery only), mortally wounded 2."""
    table = W.wounded if table is W.wounded_twice else WoundLevel(table)
    shifts = {W.stunned: 0, W.wounded: 1, W.incapacitated: 1, W.mortally_wounded: 2}
    if table not in shifts:
        raise ValueError(f"there is no '{table}' critical injury table")
    return shifts[table]


def critical_deadline_passed(deadline: int, now: int, *, treated_at: int | None = None) -> bool:
    """True when an untreated critical (Deafness, Blinded, Paralysis: days; internal bleeding:
    36 hours) has run out: no treatment before the deadline and the deadline has come."""
    if treated_at is not None and treated_at < deadline:
        return False
    return now >= deadline


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
        raise ValueError(
            f"unknown first aid task {task!r}; choose {', '.join(_FIRST_AID)}"
        ) from None


def medpac_difficulty(
    level: WoundLevel,
    ruleset: RuleSet = RuleSet(),
    *,
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
        raise ValueError("Rules Companion medpacs use difficulty numbers: see rc_medpac_number")
    level = WoundLevel(level)
    if level not in _MEDPAC_BASE:
        raise ValueError(f"a medpac does nothing for a '{level}' patient")
    if earlier_uses < 0 or pack_uses < 0:
        raise ValueError("medpac uses cannot be negative")
    levels = earlier_uses + critical_shift
    if ruleset.medpac_rules == "house":
        if pack_uses >= 2:
            raise ValueError("no medpac can be used more than twice")
        levels += (1 if pack_uses else 0) - (1 if fastflesh else 0)
    elif pack_uses or fastflesh:
        raise ValueError("a Second Edition medpac is used up at once and has no fastflesh kind")
    return shift(_MEDPAC_BASE[level], levels)


def medpac_locks_out(total: int, difficulty_number: int, ruleset: RuleSet = RuleSet()) -> bool:
    """[2E-STD] missing by more than 10 means no more medpacs on him for 24 hours (kept in
    [HOUSE], where a fastflesh pack may still be used; not stated in [RC])."""
    return ruleset.medpac_rules != "rc" and difficulty_number - total > 10


def medpac_success_level(
    level: WoundLevel, ruleset: RuleSet = RuleSet(), *, fastflesh: bool = False
) -> WoundLevel:
    """The patient's level after a successful medpac: one level better ([2E-STD]; [RC]
    suggested; a stun is cured). [HOUSE §2]: an incapacitated patient only wakes (a fastflesh
    pack heals him one level) and a mortally wounded one is only held for 30 minutes
    (:func:`stabilisation_deadline`); both stay at their level."""
    level = WoundLevel(level)
    if level not in _MEDPAC_BASE:
        raise ValueError(f"a medpac does nothing for a '{level}' patient")
    if level is not W.stunned:
        _check_track(level, ruleset, "level")
    house_hold = level in (W.incapacitated, W.mortally_wounded)
    if ruleset.medpac_rules == "house" and not fastflesh and house_hold:
        return level
    if level is W.stunned:
        return W.none
    ladder = _ladder(ruleset)
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
    level = WoundLevel(level)
    if level not in _RC_MEDPAC_NUMBERS:
        raise ValueError(f"the Rules Companion gives no medpac number for a '{level}' patient")
    low, high = _RC_MEDPAC_NUMBERS[level]
    if not low <= base <= high:
        raise ValueError(f"a medpac on a {level.label.lower()} patient is {low}-{high}, not {base}")
    if earlier_today < 0:
        raise ValueError("medpac uses cannot be negative")
    if accelerate_healing and earlier_today == 1:
        return base
    return base + 3 * earlier_today


# ---------------------------------------------------------------------------------------------
# Natural healing (§7)
# ---------------------------------------------------------------------------------------------
Activity = Literal["rest", "active", "easy"]


def natural_healing_interval(
    level: WoundLevel, ruleset: RuleSet = RuleSet(), *, easy: bool = False
) -> int:
    """Days of rest before each natural-healing roll ([2E-STD], [UPG] for wounded twice):
    wounded and wounded twice 3, incapacitated two weeks (``days_per_week``: 14, or 10 in a
    House campaign, IH-28), mortally wounded one month (35 days); doubled when taking it easy."""
    level = WoundLevel(level)
    _check_track(level, ruleset, "level")
    days = {
        W.wounded: 3,
        W.wounded_twice: 3,
        W.incapacitated: 2 * ruleset.days_per_week,
        W.mortally_wounded: DAYS_PER_MONTH,
    }.get(level)
    if days is None:
        raise ValueError(f"a '{level}' character makes no natural-healing roll")
    return days * (2 if easy else 1)


def natural_healing_result(
    level: WoundLevel, strength_total: int, ruleset: RuleSet = RuleSet()
) -> WoundLevel:
    """The level after a natural-healing Strength roll ([2E-STD] chart with the [UPG] changes):

    wounded: ≤4 wounded twice, 5–6 same, ≥7 healed; wounded twice (the wounded row): ≤4
    incapacitated, ≥7 wounded; incapacitated: ≤6 mortally wounded, 7–8 same, ≥9 wounded twice;
    mortally wounded: ≤6 killed, 7–8 same, ≥9 incapacitated. Without a wounded-twice level the
    chart skips it (IH-30)."""
    level = WoundLevel(level)
    natural_healing_interval(level, ruleset)  # validates the level
    ladder = _ladder(ruleset)
    worse_at, better_at = (4, 7) if level in (W.wounded, W.wounded_twice) else (6, 9)
    step = -1 if strength_total >= better_at else 1 if strength_total <= worse_at else 0
    return ladder[ladder.index(level) + step]


@dataclass(frozen=True, slots=True)
class HealingRoll:
    day: int
    pool: DieCode
    """Strength, with -1D for an active period or +1D for taking it easy."""
    modifier_dice: int


def next_natural_healing_roll(
    level: WoundLevel,
    start_day: int,
    strength: DieCode | str,
    activity: Callable[[int], Activity] | Mapping[int, Activity],
    ruleset: RuleSet = RuleSet(),
    *,
    horizon_days: int = 400,
) -> HealingRoll:
    """When the next natural-healing roll falls due, and with which dice (§7.2, IH-17).

    ``start_day`` is the day the current level began or the last roll was made. ``activity``
    gives each later day's activity (a mapping defaults to ``rest``). One active day after the
    start spoils the period (roll at -1D when the interval is up); a period spent taking it easy
    waits twice as long and rolls at +1D."""
    if isinstance(activity, Mapping):
        table = activity

        def look(day: int) -> Activity:
            return table.get(day, "rest")

    else:
        look = activity
    strength = DieCode.parse(strength)
    spoiled = False
    for day in range(start_day + 1, start_day + horizon_days + 1):
        today = look(day)
        if today not in ("rest", "active", "easy"):
            raise ValueError(f"day {day}: activity must be rest, active or easy, not {today!r}")
        spoiled = spoiled or today == "active"
        easy = today == "easy" and not spoiled
        if day >= start_day + natural_healing_interval(level, ruleset, easy=easy):
            mod = 1 if easy else -1 if spoiled else 0
            pool = strength.pool_add(DieCode(mod)) if mod > 0 else strength.minus_dice(-mod)
            return HealingRoll(day, pool, mod)
    raise ValueError(f"no natural-healing roll falls due within {horizon_days} days")


def healing_cp_dice(cp_per_roll: int, cp_on_hand: int, ruleset: RuleSet = RuleSet()) -> int:
    """Character Point dice on a natural-healing Strength roll (IH-26, H-72).

    [UPG] "all rolls" may take CP; the background job cannot ask, so only the number set in
    advance (``cp_per_roll``) is used, capped at the attribute-use limit ([UPG] 001 l.307-311,
    [HOUSE]: 2) and at the CP on hand. An [RC] campaign has no Character Points: 0. The caller
    deducts the dice rolled in the same transaction as the roll."""
    if cp_per_roll < 0 or cp_on_hand < 0:
        raise ValueError("Character Points cannot be negative")
    if ruleset.advancement_table == "rc_skill_points":
        return 0
    limit = max_cp_per_roll("attribute", ruleset)
    return min(cp_per_roll, cp_on_hand, cp_per_roll if limit is None else limit)


def weeks_to_days(weeks: int, ruleset: RuleSet = RuleSet()) -> int:
    """Weeks in days by the campaign calendar ([HOUSE] a week is 5 days, IH-28); e.g. the
    [HOUSE] Transfer Force stasis of 6 weeks."""
    return weeks * ruleset.days_per_week


# ---------------------------------------------------------------------------------------------
# Bacta tanks (§8)
# ---------------------------------------------------------------------------------------------
BACTA_TIMES: dict[str, dict[WoundLevel, Duration]] = {
    "house": {  # [HOUSE §9]
        W.wounded: Duration(1, "hours"),
        W.wounded_twice: Duration(2, "hours"),
        W.incapacitated: Duration(4, "hours"),
        W.mortally_wounded: Duration(2, "days"),
    },
    "2e_std": {  # [2E-STD, not in sources]; wounded twice borrowed from [HOUSE] (IH-19)
        W.wounded: Duration(1, "hours"),
        W.wounded_twice: Duration(2, "hours"),
        W.incapacitated: Duration(4, "hours"),
        W.mortally_wounded: Duration(1, "days"),
    },
}


def bacta_time(level: WoundLevel, ruleset: RuleSet = RuleSet()) -> Duration:
    """How long a successful bacta treatment takes (``bacta_times``)."""
    try:
        return BACTA_TIMES[ruleset.bacta_times][WoundLevel(level)]
    except KeyError:
        raise ValueError(f"a bacta tank has nothing to heal on a '{level}' patient") from None


def bacta_difficulty(*, medicine: bool, critical_shift: int = 0) -> DifficultyLevel:
    """[HOUSE §9] Very Easy (A) Medicine for any level; without it a Heroic first aid or
    Technical roll. Critical injuries add levels (:func:`critical_heal_shift`)."""
    return shift(VERY_EASY if medicine else HEROIC, critical_shift)


def bacta_failure_level(
    level: WoundLevel, *, medicine: bool, ruleset: RuleSet = RuleSet()
) -> WoundLevel:
    """A failed bacta roll: [HOUSE §9] without (A) Medicine the wound level rises by two
    (incapacitated or worse → killed); a trained doctor's failure changes nothing (IH-19)."""
    level = WoundLevel(level)
    return level if medicine else worsen(level, 2, ruleset)


# ---------------------------------------------------------------------------------------------
# Other [HOUSE] rules
# ---------------------------------------------------------------------------------------------
def maim_instead_of_death(
    force_points: int, ruleset: RuleSet = RuleSet()
) -> tuple[WoundLevel, int]:
    """[HOUSE §6] Maiming: a character who would be killed may spend a Force Point to lose a
    limb instead; he stays mortally wounded and counts as stabilised (IH-27).
    Returns ``(level, Force Points left)``."""
    if not ruleset.maiming_for_fp:
        raise ValueError("this campaign does not use the maiming rule")
    if force_points < 1:
        raise ValueError("maiming instead of death costs a Force Point, and he has none")
    return W.mortally_wounded, force_points - 1


def house_wound_dice(hit_result: WoundLevel) -> int:
    """[HOUSE §2] the dice label of a hit's own result: wounded -1D, wounded twice -2D,
    incapacitated -2D, mortally wounded -3D; a killing hit counts as -3D too (IH-24). A display
    label, not a roll penalty; feed it to :func:`rules.equipment.gear_must_roll` for the
    severe-wound gear check ("a -3D wound in one hit")."""
    return {
        W.wounded: 1,
        W.wounded_twice: 2,
        W.incapacitated: 2,
        W.mortally_wounded: 3,
        W.killed: 3,
    }.get(WoundLevel(hit_result), 0)
