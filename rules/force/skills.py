"""Force-sensitivity, the Force skills and learning powers; the power table.

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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, cast

from rules.advancement import ImprovementCost, improvement_cost
from rules.dice import DieCode
from rules.errors import RulesError
from rules.ruleset import RuleSet

__all__ = [
    "FORCE_SKILLS",
    "HOUSE_NEVER_FORCE_SENSITIVE",
    "TRADITIONAL_POWERS",
    "ForceError",
    "ForcePower",
    "ForceSensitivity",
    "check_learning_through_force",
    "check_power_for_pip",
    "check_power_room",
    "extra_power_cost",
    "first_die_powers",
    "force_power",
    "force_powers",
    "force_sensitivity",
    "force_skill_cost",
    "learned_through_force",
    "learning_through_force_modifier",
    "power_skill_penalty",
    "power_slots_used",
    "power_teaching_count",
    "power_total",
    "starting_power_problems",
    "unlearned_power_difficulty",
]

FORCE_SKILLS: Final = ("control", "sense", "alter")
"""The three Force skills, as the engine and the database name them."""

DarkSideUse = Literal["never", "always", "if_used_to_harm"]


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
    """(skill, difficulty text) for each skill rolled; the text names levels and modifiers
    ("Very Easy + proximity"), so it stays text."""
    effect: str
    dark_side: DarkSideUse
    keep_up: bool
    source: str
    edition: str
    chapter: str = ""
    note: str = ""

    def difficulty_for(self, skill: str) -> str:
        return dict(self.difficulty).get(skill.lower(), "not in the sources")


_DATA = Path(__file__).parent.parent / "data" / "force_powers.json"


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
            dark_side=cast(DarkSideUse, p["dark_side"]),
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
HOUSE_NEVER_FORCE_SENSITIVE: Final = frozenset({"coynite", "houk", "klingon", "wookiee"})
"""[HOUSE] creation item 2 (004 l.96)."""


@dataclass(frozen=True, slots=True)
class ForceSensitivity:
    allowed: bool
    cost: int | None
    """Character Points after creation (None: not bought with points)."""
    note: str = ""


def force_sensitivity(species: str, *, ruleset: RuleSet, droid: bool = False) -> ForceSensitivity:
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
    *,
    ruleset: RuleSet,
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
        ruleset=ruleset,
        teacher=teacher,
        used_last_adventure=used_last_adventure,
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
TRADITIONAL_POWERS: Final = {
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


def first_die_powers(skill: str, *, ruleset: RuleSet) -> int:
    """Powers gained with the first die in a Force skill: [UPG] one (001 l.590); [RC] three,
    traditionally :data:`TRADITIONAL_POWERS` (000 l.4310)."""
    _skill(skill)
    return 3 if ruleset.force_power_learning == "rc_mastery" else 1


def starting_power_problems(
    powers: Iterable[str],
    force_skills: Mapping[str, DieCode | str],
    *,
    ruleset: RuleSet,
) -> list[str]:
    """What is wrong with the powers a new character chooses, given its Force skill codes
    (``{"control": "1D"}``): a power not in the list, a power that uses a skill the character
    lacks, or more powers than the first die in each skill gives (:func:`first_die_powers`;
    the House Rules set no such count, powers are also learned through the Force)."""
    names = list(powers)
    codes = {_skill(s): DieCode.parse(c) for s, c in force_skills.items()}
    problems = []
    for name in names:
        try:
            power = force_power(name)
        except ForceError:
            problems.append(f"{name} is not a Force power in the list")
            continue
        missing = [s for s in power.skills if s not in codes]
        if missing:
            problems.append(f"{power.name} needs {' and '.join(missing)}")
    if ruleset.force_power_learning != "house":
        allowed = sum(first_die_powers(s, ruleset=ruleset) for s, c in codes.items() if c.dice >= 1)
        if len(names) > allowed:
            problems.append(
                f"{len(names)} Force powers chosen; the first die in each Force skill gives "
                f"{allowed} in all"
            )
    return problems


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


def extra_power_cost(*, ruleset: RuleSet, teacher: bool = True) -> ImprovementCost:
    """A power without a skill pip: [UPG] 5 CP (001 l.596); [RC] free from a teacher or
    1 skill point self-taught, one week either way."""
    return improvement_cost("force_power", None, ruleset=ruleset, teacher=teacher)


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
    codes: Mapping[str, DieCode | str],
    mastered: Iterable[str | ForcePower],
    new: str | ForcePower,
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
    dark_side_points: int, jedi: bool = True, *, ruleset: RuleSet
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
    *,
    ruleset: RuleSet,
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
        check_learning_through_force(dark_side_points, jedi, ruleset=ruleset)
        return difficulty + learning_through_force_modifier(successes_so_far)
    raise ForceError("a Jedi cannot use a power that has not been learned")
