"""The Force: sensitivity, skills, learning powers, Force Points and the Dark Side.

Power learning follows ``RuleSet.force_power_learning``: ``"upg"`` (one power per Force-skill
pip chosen by the teacher, or 5 CP; unlearned powers cannot be used), ``"house"`` (as UPG plus
learning through the Force after ten successes) or ``"rc_mastery"`` (power totals of 3 per die
and 1 per pip; unmastered powers at +5). The master table of powers is
``rules/data/force_powers.json`` (Rules Companion write-ups; 2E R&E write-ups are not in the
sources and have to be entered from the rulebook, force.md A-F15).
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rules.advancement import (
    ImprovementCost,
    cp_and_fp_same_round_allowed,
    improvement_cost,
)
from rules.dice import DiceSource, DieCode, explode
from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "DIFFICULTY_LEVELS",
    "FORCE_SKILLS",
    "PROXIMITY",
    "RELATIONSHIP",
    "TRADITIONAL_POWERS",
    "Atonement",
    "ConsumptionCheck",
    "DarkSideCall",
    "ForceError",
    "ForcePointOutcome",
    "ForcePower",
    "ForceSensitivity",
    "Redemption",
    "TransferForce",
    "absorb_dissipate_difficulty",
    "atone",
    "check_force_point_spend",
    "check_learning_through_force",
    "check_power_for_pip",
    "check_power_room",
    "consumption_check",
    "cp_damage_gives_dark_side_point",
    "dark_side_call_difficulty",
    "dim_senses_penalty",
    "emptiness_bonus",
    "emptiness_may_roll_out",
    "extra_power_cost",
    "farseeing_accuracy",
    "farseeing_control_modifier",
    "first_die_powers",
    "force_of_will",
    "force_point_outcome",
    "force_point_pool",
    "force_power",
    "force_powers",
    "force_sensitivity",
    "force_skill_cost",
    "force_use_while_asleep",
    "inflict_pain_result",
    "instinctive_astrogation_difficulty",
    "is_consumed",
    "learned_through_force",
    "learning_through_force_modifier",
    "lure_pool",
    "lure_refused_level",
    "postcognition_difficulty",
    "postcognition_result",
    "power_gives_dark_side_point",
    "power_skill_penalty",
    "power_slots_used",
    "power_teaching_count",
    "power_total",
    "projective_telepathy_difficulties",
    "raise_level",
    "rc_fixed_difficulty_level",
    "receptive_telepathy_result",
    "redeem",
    "resolve_dark_side_call",
    "telekinesis_difficulty",
    "transfer_force",
    "transfer_force_stasis_days",
    "unlearned_power_difficulty",
]

FORCE_SKILLS = ("control", "sense", "alter")
DIFFICULTY_LEVELS = ("Very Easy", "Easy", "Moderate", "Difficult", "Very Difficult", "Heroic")


class ForceError(RulesError):
    """A use of the Force the rules do not allow, explained for the player."""


# ---------------------------------------------------------------------------------------------
# The power table
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ForcePower:
    """One power from ``rules/data/force_powers.json``."""

    name: str
    skills: tuple[str, ...]
    difficulty: tuple[tuple[str, str], ...]
    """(skill, difficulty text) for each skill rolled."""
    effect: str
    dark_side: Literal["never", "always", "if_used_to_harm"]
    keep_up: bool
    source: str
    edition: str
    chapter: str = ""
    note: str = ""

    def difficulty_for(self, skill: str) -> str:
        return dict(self.difficulty).get(skill.lower(), "not in the sources")


_DATA = Path(__file__).parent / "data" / "force_powers.json"


@functools.cache
def force_powers() -> tuple[ForcePower, ...]:
    """Every power named in the sources (force.md §6.1)."""
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    return tuple(
        ForcePower(
            name=p["name"],
            skills=tuple(p["skills"]),
            difficulty=tuple(p["difficulty"].items()),
            effect=p["effect"],
            dark_side=p["dark_side"],
            keep_up=p["keep_up"],
            source=p["source"],
            edition=p["edition"],
            chapter=p.get("chapter", ""),
            note=p.get("note", ""),
        )
        for p in raw["powers"]
    )


def force_power(name: str | ForcePower) -> ForcePower:
    """Look a power up by name, ignoring case and punctuation spacing."""
    if isinstance(name, ForcePower):
        return name
    key = " ".join(name.lower().split())
    for power in force_powers():
        if power.name.lower() == key:
            return power
    raise ForceError(f"there is no Force power called {name!r}")


# ---------------------------------------------------------------------------------------------
# Force-sensitivity and Force skills
# ---------------------------------------------------------------------------------------------
HOUSE_NEVER_FORCE_SENSITIVE = frozenset({"coynite", "houk", "klingon", "wookiee"})
"""[HOUSE] creation item 2 (004 l.96)."""


@dataclass(frozen=True, slots=True)
class ForceSensitivity:
    allowed: bool
    cost: int | None
    """Character Points after creation (None: not bought with points)."""
    note: str = ""


def force_sensitivity(
    species: str, ruleset: RuleSet = RuleSet(), droid: bool = False
) -> ForceSensitivity:
    """May this character become Force-sensitive, and at what cost?

    [UPG] 20 CP, never lost (001 l.39). [HOUSE] 20 CP, but never Coynites, Houk, Klingons or
    Wookiees; Gotals may, and their cones stop working (004 l.96). [RC] Force skills come only
    from a teacher or master (000 l.4240). Droids never have Force skills (000 l.2468)."""
    if droid:
        return ForceSensitivity(False, None, "droids may never have Force skills")
    name = species.strip().lower().rstrip("s")
    if ruleset.creation_rules == "house" and name in HOUSE_NEVER_FORCE_SENSITIVE:
        return ForceSensitivity(False, None, f"{species} cannot be Force-sensitive")
    if ruleset.force_power_learning == "rc_mastery":
        return ForceSensitivity(True, None, "Force skills are learned from a teacher or master")
    note = "Force-sensitivity can never be lost"
    if ruleset.creation_rules == "house" and name == "gotal":
        note = "a Force-sensitive Gotal's cones become desensitized and stop working"
    return ForceSensitivity(True, 20, note)


def force_skill_cost(
    current: DieCode | str,
    ruleset: RuleSet = RuleSet(),
    teacher: bool = True,
    used_last_adventure: bool = False,
    teacher_code: DieCode | str | None = None,
    extra_cp: int = 0,
) -> ImprovementCost:
    """One pip of control, sense or alter: the number before the D, doubled without a teacher
    ([UPG] 001 l.592; [RC] also above the teacher's code, 000 l.4282-4297)."""
    return improvement_cost(
        "force_skill",
        current,
        ruleset,
        teacher,
        used_last_adventure,
        extra_cp=extra_cp,
        teacher_code=teacher_code,
    )


def power_skill_penalty(power: str | ForcePower, other_actions: int = 0) -> int:
    """Dice off each Force-skill roll: every skill a power uses is rolled in the same round, so
    each use beyond the first is another action (-1D each) ([RC] "Powers as Skills")."""
    p = force_power(power)
    if other_actions < 0:
        raise ForceError("other actions cannot be negative")
    return max(0, len(p.skills) - 1) + other_actions


# ---------------------------------------------------------------------------------------------
# Learning powers
# ---------------------------------------------------------------------------------------------
TRADITIONAL_POWERS = {
    "control": ("Control Pain", "Remain Conscious", "Force of Will"),
    "sense": ("Life Sense", "Magnify Senses", "Receptive Telepathy"),
    "alter": ("Control Another's Pain", "Shift Sense", "Telekinesis"),
}
"""[RC] the three powers mastered with 1D in a skill (000 l.4315-4330)."""


def _skill(skill: str) -> str:
    key = skill.strip().lower()
    if key not in FORCE_SKILLS:
        raise ForceError(f"{skill!r} is not a Force skill; choose control, sense or alter")
    return key


def first_die_powers(skill: str, ruleset: RuleSet = RuleSet()) -> int:
    """Powers gained with the first die in a Force skill: [UPG] one (001 l.590); [RC] three,
    traditionally :data:`TRADITIONAL_POWERS` (000 l.4310)."""
    _skill(skill)
    return 3 if ruleset.force_power_learning == "rc_mastery" else 1


def power_teaching_count(power: str | ForcePower) -> int:
    """[UPG] "A power that uses two Force skills counts as two powers when being taught";
    three-skill powers count three (A-F2)."""
    return max(1, len(force_power(power).skills))


def check_power_for_pip(improved_skill: str, power: str | ForcePower) -> None:
    """[UPG] the power taught on a skill pip "must use the improved skill" (001 l.594)."""
    skill = _skill(improved_skill)
    p = force_power(power)
    if skill not in p.skills:
        raise ForceError(
            f"{p.name} does not use {skill}, so it cannot be taught for a pip of {skill}"
        )


def extra_power_cost(ruleset: RuleSet = RuleSet(), teacher: bool = True) -> ImprovementCost:
    """A power without a skill pip: [UPG] 5 CP (001 l.596); [RC] free from a teacher or
    1 skill point self-taught, one week either way."""
    return improvement_cost("force_power", None, ruleset, teacher)


def power_total(code: DieCode | str) -> int:
    """[RC] the most powers a skill can hold: 3 per die plus 1 per pip (3D+2 -> 11)."""
    c = DieCode.parse(code)
    return 3 * c.dice + c.pips


def power_slots_used(powers: Iterable[str | ForcePower]) -> dict[str, int]:
    """[RC] powers counted against each skill's total; a multi-skill power counts once against
    every skill it uses (telekinetic kill: one control, one sense, one alter)."""
    used: Counter[str] = Counter({s: 0 for s in FORCE_SKILLS})
    for power in powers:
        used.update(force_power(power).skills)
    return dict(used)


def check_power_room(
    codes: dict[str, DieCode | str], mastered: Iterable[str | ForcePower], new: str | ForcePower
) -> None:
    """[RC] raise if mastering ``new`` would pass a skill's power total."""
    p = force_power(new)
    used = power_slots_used([*mastered, p])
    for skill in p.skills:
        code = DieCode.parse(codes.get(skill, DieCode()))
        if used[skill] > power_total(code):
            raise ForceError(
                f"{skill} {code} holds {power_total(code)} powers; {p.name} would make "
                f"{used[skill]}"
            )


def learning_through_force_modifier(successes_so_far: int) -> int:
    """[HOUSE] creation item 10: +5 for "not mastered" and +10 for "not known", the latter
    dropping by 1 after each success down to +1 (A-F4)."""
    if not 0 <= successes_so_far < 10:
        raise ForceError("learning through the Force counts 0 to 9 earlier successes")
    return 5 + (10 - successes_so_far)


def learned_through_force(successes: int) -> bool:
    """[HOUSE] after 10 successful uses the Force grants the power."""
    return successes >= 10


def check_learning_through_force(
    dark_side_points: int, jedi: bool = True, ruleset: RuleSet = RuleSet()
) -> None:
    """[HOUSE] only a "Jedi" with no Dark Side Points may learn a power through the Force."""
    if ruleset.force_power_learning != "house":
        raise ForceError("learning powers through the Force is a House rule")
    if not jedi:
        raise ForceError("only a Jedi (in deed or by title) may learn powers through the Force")
    if dark_side_points > 0:
        raise ForceError("a Jedi who has Dark Side Points cannot learn powers through the Force")


def unlearned_power_difficulty(
    difficulty: int,
    ruleset: RuleSet = RuleSet(),
    successes_so_far: int = 0,
    dark_side_points: int = 0,
    jedi: bool = True,
) -> int:
    """The difficulty (or, for an opposed power, the opponent's roll) when using a power not
    learned: [UPG] not allowed (001 l.602); [RC] +5 (000 l.4358); [HOUSE] +5 and +10..+1 while
    learning through the Force."""
    mode = ruleset.force_power_learning
    if mode == "rc_mastery":
        return difficulty + 5
    if mode == "house":
        check_learning_through_force(dark_side_points, jedi, ruleset)
        return difficulty + learning_through_force_modifier(successes_so_far)
    raise ForceError("a Jedi cannot use a power that has not been learned")


# ---------------------------------------------------------------------------------------------
# Difficulties and power results
# ---------------------------------------------------------------------------------------------
PROXIMITY = {
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

RELATIONSHIP = {
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

_RC_LEGACY = {5: "Very Easy", 10: "Easy", 15: "Moderate", 20: "Difficult", 30: "Very Difficult"}


def rc_fixed_difficulty_level(number: int) -> str:
    """[RC] 1st Ed fixed power difficulties as levels: 5 VE, 10 E, 15 M, 20 D, 30 VD."""
    try:
        return _RC_LEGACY[number]
    except KeyError:
        raise ForceError(
            f"{number} is not a 1st Edition power difficulty (5, 10, 15, 20, 30)"
        ) from None


def raise_level(level: str, steps: int = 1) -> str:
    """A difficulty level ``steps`` higher (Moderate -> Difficult), capped at Heroic."""
    try:
        i = DIFFICULTY_LEVELS.index(level)
    except ValueError:
        raise ForceError(f"{level!r} is not a difficulty level") from None
    return DIFFICULTY_LEVELS[min(len(DIFFICULTY_LEVELS) - 1, i + steps)]


def telekinesis_difficulty(mass_kg: float) -> tuple[str, int]:
    """[RC] telekinesis by mass: (level, number added). VE up to 1 kg, E to 10 kg, M to
    100 kg, D to 1 t, then +5 for each further factor of 10. Proximity is added separately."""
    if mass_kg <= 0:
        raise ForceError("the mass to lift must be more than 0 kg")
    for limit, level in ((1, "Very Easy"), (10, "Easy"), (100, "Moderate"), (1000, "Difficult")):
        if mass_kg <= limit:
            return level, 0
    extra, limit = 0, 1000.0
    while mass_kg > limit:
        extra += 5
        limit *= 10
    return "Difficult", extra


def postcognition_difficulty(hours_ago: float) -> str:
    """[RC] Easy under two hours, Moderate to a week, Difficult to two years, then Very
    Difficult."""
    if hours_ago < 0:
        raise ForceError("postcognition reads the past, not the future")
    if hours_ago < 2:
        return "Easy"
    if hours_ago <= 24 * 7:
        return "Moderate"
    if hours_ago <= 24 * 365 * 2:
        return "Difficult"
    return "Very Difficult"


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


def farseeing_control_modifier(when: Literal["past", "present", "future"]) -> int:
    """[RC] farseeing control difficulty: +5 to see the past, +10 the future."""
    return {"past": 5, "present": 0, "future": 10}[when]


def farseeing_accuracy(
    roll: int, difficulty: int, when: Literal["past", "present", "future"]
) -> str:
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


def instinctive_astrogation_difficulty(power_succeeded: bool) -> str:
    """[RC] astrogation without a nav computer on a standard trip."""
    return "Very Easy" if power_succeeded else "Very Difficult"


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


def transfer_force_stasis_days(ruleset: RuleSet = RuleSet()) -> int:
    """[HOUSE] the Force-induced stasis lasts 6 weeks (30 days in the 5-day House week)."""
    return 6 * ruleset.days_per_week


def force_use_while_asleep() -> tuple[bool, bool]:
    """[HOUSE] a sleeping Jedi: (may use powers, gets resistance rolls) = (False, True)."""
    return False, True


# ---------------------------------------------------------------------------------------------
# Force Points
# ---------------------------------------------------------------------------------------------
def force_point_pool(code: DieCode | str) -> DieCode:
    """[RC] a Force Point doubles a code, pips kept as pips: 5D+2 -> 10D+4."""
    return DieCode.parse(code).doubled()


FPUse = Literal["heroic", "selfish", "evil", "atonement", "transfer_force", "dark_side_call"]


@dataclass(frozen=True, slots=True)
class ForcePointOutcome:
    returned_at_end_of_adventure: bool
    dark_side_points: int
    spend_this_round: bool = False


def force_point_outcome(use: FPUse) -> ForcePointOutcome:
    """What happens to a spent Force Point: heroic use comes back at the end of the adventure,
    selfish use is lost, evil use is lost and gives a Dark Side Point ([2E-STD]); atonement and
    transfer Force count as heroic, and a point from calling on the Dark Side must be spent in
    that round ([RC])."""
    table = {
        "heroic": ForcePointOutcome(True, 0),
        "selfish": ForcePointOutcome(False, 0),
        "evil": ForcePointOutcome(False, 1),
        "atonement": ForcePointOutcome(True, 0),
        "transfer_force": ForcePointOutcome(True, 0),
        "dark_side_call": ForcePointOutcome(False, 0, spend_this_round=True),
    }
    try:
        return table[use]
    except KeyError:
        raise ForceError(
            f"unknown Force Point use {use!r}; choose one of {', '.join(table)}"
        ) from None


def check_force_point_spend(
    force_points_this_round: int, cp_this_round: int, ruleset: RuleSet = RuleSet()
) -> None:
    """Raise if another Force Point may not be spent this round: one per round ([2E-STD]) and
    never with Character Points ([UPG] 001 l.313)."""
    if force_points_this_round >= 1:
        raise ForceError("only one Force Point may be spent in a round")
    if cp_this_round > 0 and not cp_and_fp_same_round_allowed(ruleset):
        raise ForceError(
            "a character uses Character Points or a Force Point in a round, never both"
        )


# ---------------------------------------------------------------------------------------------
# The Dark Side
# ---------------------------------------------------------------------------------------------
def power_gives_dark_side_point(power: str | ForcePower, used_to_harm: bool = False) -> bool:
    """[RC] injure/kill, inflict pain and telekinetic kill always give a Dark Side Point;
    telekinesis when used to injure or attack."""
    p = force_power(power)
    return p.dark_side == "always" or (p.dark_side == "if_used_to_harm" and used_to_harm)


CPTarget = Literal["being", "droid", "empty_vehicle"]


def cp_damage_gives_dark_side_point(
    target: CPTarget, stun: bool = False, ruleset: RuleSet = RuleSet()
) -> bool:
    """[HOUSE] 004 l.139: CP on a damage roll against another being gives a Dark Side Point;
    not against an empty vehicle or a droid, nor on stun damage."""
    if target not in ("being", "droid", "empty_vehicle"):
        raise ForceError("the target is a being, a droid or an empty vehicle")
    return ruleset.cp_spend_limits == "house" and target == "being" and not stun


def is_consumed(dark_side_points: int, die: int, ruleset: RuleSet = RuleSet()) -> bool:
    """The consumption check on gaining a Dark Side Point: [RC] consumed if the die is less than
    or equal to the total (000 l.4057); [2E-STD] less than (``dsp_check``, A-F6)."""
    if dark_side_points < 0:
        raise ForceError("Dark Side Points cannot be negative")
    return die <= dark_side_points if ruleset.dsp_check == "le" else die < dark_side_points


@dataclass(frozen=True, slots=True)
class ConsumptionCheck:
    dice: tuple[int, ...]
    total: int
    consumed: bool


def consumption_check(
    dark_side_points: int, rng: DiceSource, ruleset: RuleSet = RuleSet()
) -> ConsumptionCheck:
    """The GM's 1D roll; with ``dsp_check_wild_die`` a 6 explodes and a 1 counts as 1."""
    dice = explode(rng)[0] if ruleset.dsp_check_wild_die else [rng.d6()]
    total = sum(dice)
    return ConsumptionCheck(tuple(dice), total, is_consumed(dark_side_points, total, ruleset))


def dark_side_call_difficulty(
    earlier_calls_this_adventure: int,
    harms_living_being: bool = True,
    ruleset: RuleSet = RuleSet(),
) -> int:
    """[RC] calling on the Dark Side: 6, +3 per earlier call this adventure, +10 if no declared
    action is meant to harm a living being (000 l.3992-4000)."""
    if not ruleset.calling_on_dark_side:
        raise ForceError("calling on the Dark Side is not used in this campaign")
    if earlier_calls_this_adventure < 0:
        raise ForceError("earlier calls cannot be negative")
    return 6 + 3 * earlier_calls_this_adventure + (0 if harms_living_being else 10)


@dataclass(frozen=True, slots=True)
class DarkSideCall:
    success: bool
    force_points: int
    dark_side_points: int
    spend_this_round: bool


def resolve_dark_side_call(roll_total: int, difficulty: int) -> DarkSideCall:
    """[RC] success: +1 Force Point (to be used this round) and +1 Dark Side Point; failure:
    neither. A free action either way."""
    ok = roll_total >= difficulty
    return DarkSideCall(ok, int(ok), int(ok), ok)


def lure_pool(
    code: DieCode | str,
    dark_side_points: int,
    accept: bool = True,
    gone_over: bool = False,
    ruleset: RuleSet = RuleSet(),
) -> DieCode:
    """[UPG] the Lure of the Dark Side: +1D per Dark Side Point on a Force skill roll, unless
    refused or the character has gone over (001 l.602-606)."""
    base = DieCode.parse(code)
    if not ruleset.lure_of_dark_side or not accept or gone_over or dark_side_points <= 0:
        return base
    return base.pool_add(DieCode(dark_side_points))


def lure_refused_level(level: str, steps: int = 1) -> str:
    """[UPG] refusing the Lure raises every Force power difficulty at least one level (A-F7)."""
    return raise_level(level, steps)


@dataclass(frozen=True, slots=True)
class Atonement:
    dark_side_points: int
    force_points: int
    force_point_regained_at_end: bool = True


def atone(
    dark_side_points: int,
    force_points: int,
    atoned_this_adventure: bool = False,
    force_point_from_dark_side: bool = False,
) -> Atonement:
    """[RC] atonement: spend one Force Point (not one from calling on the Dark Side) to remove one
    Dark Side Point, at most once per adventure; heroic, so the point returns at the end of the
    adventure (000 l.4114-4145). The only atonement procedure in the sources."""
    if atoned_this_adventure:
        raise ForceError("only one Dark Side Point can be atoned for per adventure")
    if dark_side_points <= 0:
        raise ForceError("there is no Dark Side Point to atone for")
    if force_points <= 0:
        raise ForceError("atonement needs a Force Point to spend")
    if force_point_from_dark_side:
        raise ForceError("a Force Point from calling on the Dark Side cannot be used to atone")
    return Atonement(dark_side_points - 1, force_points - 1)


@dataclass(frozen=True, slots=True)
class Redemption:
    dark_side_points: int
    force_points: int = 0
    character_points: int = 0


def redeem(dark_side_points: int, force_points: int, character_points: int) -> Redemption:
    """[UPG] returning to the light: a Force Point spent selflessly; the character then loses all
    Force Points and Character Points and the Dark Side total drops to five (001 l.620,
    002 l.471); never raised to five (A-F16)."""
    if force_points <= 0:
        raise ForceError("redemption needs a Force Point spent selflessly")
    if character_points < 0 or dark_side_points < 0:
        raise ForceError("points cannot be negative")
    return Redemption(min(dark_side_points, 5))
