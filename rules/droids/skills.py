"""Improving and adding droid skills [RC] (droids-and-equipment.md §2.5-§2.6): the price of a
pip (:func:`droid_skill_cost`), a new skill priced as an advancement in a Rules Companion
campaign (:func:`droid_new_skill_improvement`), and what a droid pays or is refused on top of
any character's improvement (:func:`droid_improvement_credits`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from rules.advancement import ImprovementCost
from rules.dice import DieCode
from rules.droids.building import check_droid_skill
from rules.droids.design import DroidError
from rules.ruleset import RuleSet

#: [RC] a new droid skill costs its skill points plus 1,000 credits (chip burns, software).
NEW_DROID_SKILL_CREDITS: Final = 1000
#: The improvements (:data:`rules.advancement.KINDS`) a droid can never have [RC] §2.6.
FORCE_IMPROVEMENTS: Final = frozenset(
    {"force_skill", "new_force_skill", "force_power", "force_sensitivity"}
)
#: The improvements that add a skill to the sheet: each is a new droid skill [RC] §2.5.
NEW_SKILL_IMPROVEMENTS: Final = frozenset(
    {"new_skill", "new_specialization", "new_advanced", "new_advanced_specialization"}
)
_SKILL_IMPROVEMENTS: Final = NEW_SKILL_IMPROVEMENTS | {
    "skill",
    "specialization",
    "advanced",
    "advanced_specialization",
}


@dataclass(frozen=True, slots=True)
class DroidSkillCost:
    """The price of one pip of droid skill: points (skill points in [RC], Character Points
    otherwise) and credits."""

    points: int
    credits: int
    new_skill: bool
    result: DieCode


def _rc(ruleset: RuleSet) -> bool:
    return ruleset.advancement_table == "rc_skill_points"


def droid_skill_cost(
    name: str,
    current: DieCode | str | None,
    attribute: DieCode | str,
    *,
    ruleset: RuleSet,
) -> DroidSkillCost:
    """The price of raising a droid skill one pip, or of adding it (``current`` None).

    Points: the number before the D of the code being raised, "just as any other character's
    skills" [RC]; a new skill is raised from its attribute's code. In a Rules Companion
    campaign (``advancement_table == "rc_skill_points"``) a new skill also costs 1,000
    credits [RC]; other rulesets have no droid rule and charge no credits (the general
    character-advancement rules apply). Force skills and codes above 13D are refused."""
    base = DieCode.parse(attribute)
    start = base if current is None else DieCode.parse(current)
    if start < base:
        raise DroidError(f"{name} ({start}) cannot be below its attribute ({base})")
    result = start.plus_pips(1)
    check_droid_skill(name, result)
    return DroidSkillCost(
        points=max(1, start.dice),
        credits=NEW_DROID_SKILL_CREDITS if current is None and _rc(ruleset) else 0,
        new_skill=current is None,
        result=result,
    )


def droid_new_skill_improvement(
    name: str, attribute: DieCode | str, *, ruleset: RuleSet
) -> ImprovementCost:
    """A new droid skill as an advancement (:class:`rules.advancement.ImprovementCost`): the
    points of :func:`droid_skill_cost` (skill points in a Rules Companion campaign, where the
    character rules price no new skill), one pip above the attribute. The time is not in the
    sources (§2.5): ``None``, so the gamemaster sets it. The credits are
    :func:`droid_improvement_credits`'."""
    price = droid_skill_cost(name, None, attribute, ruleset=ruleset)
    notes = ("[RC] plus 1,000 credits for chip burns, new software and attachments",)
    return ImprovementCost(
        kind="new_skill",
        current=DieCode.parse(attribute),
        new=price.result,
        base_character_points=price.points,
        base_training_days=None,
        currency="skill points" if _rc(ruleset) else "Character Points",
        notes=notes if price.credits else (),
    )


def droid_improvement_credits(
    kind: str, name: str, new: DieCode | str | int | None, *, ruleset: RuleSet
) -> int:
    """What a droid pays in credits for an improvement of ``kind`` (:data:`rules.advancement.
    KINDS`) of ``name`` to ``new``, priced otherwise as any character's, refusing what a droid
    can never have: Force skills, Force powers and Force-sensitivity [RC] §2.6, a skill of a
    Force skill's name, a skill above 13D [RC] §2.1. A new skill costs 1,000 credits in a
    Rules Companion campaign [RC] §2.5, nothing in other rulesets (no droid rule there)."""
    if kind in FORCE_IMPROVEMENTS:
        raise DroidError("droids may never have Force skills, Force powers or Force-sensitivity")
    if kind in _SKILL_IMPROVEMENTS and isinstance(new, (DieCode, str)):
        check_droid_skill(name, new)
    return NEW_DROID_SKILL_CREDITS if kind in NEW_SKILL_IMPROVEMENTS and _rc(ruleset) else 0
