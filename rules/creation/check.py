"""The creation validator and its budgets.

:func:`check_creation` takes proposed attribute and skill codes (and Force skills and powers)
plus the species limits and returns every problem in words a player understands ("Dexterity 5D
is above the species maximum 4D", "Attributes use 19D of 18D", "Skills: 1D left to spend") with
the budgets, what is used and what is left. It is meant to be called on every step of a wizard,
so an unfinished character simply shows what is still to do.

Budgets by ``RuleSet.creation_rules`` (characters-and-advancement.md §2):

* ``"2e_std"``: 18D of attributes (NPCs 12D, [RC]) within the species limits, 7D of skill dice
  with at most 2D added to one skill, 1D of skill dice traded for 3D of specializations,
  5 Character Points, 1 Force Point (2 if Force-sensitive) [2E-STD, not in sources].
* ``"house"``: as 2E, but attributes come from a template with at most 3 pips moved, no skill
  above 6D (specializations 8D), at most 1D traded for three +1D specializations, and the House
  starting Character Points (004 l.94-104).
* ``"rc_templates"``: PC 18D / NPC 12D; an alien PC is a Sourcebook NPC template with 1D added to
  each attribute (000 l.2288-2303).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final

from rules import reference
from rules.creation.house import (
    HOUSE_MAX_MOVED_PIPS,
    HOUSE_MAX_SPECIALIZATIONS,
    house_skill_cap_problem,
    house_starting_points,
)
from rules.creation.species import HUMAN, CreationError, SpeciesLimits
from rules.dice import DieCode
from rules.errors import RulesError
from rules.force import FORCE_SKILLS, force_sensitivity, starting_power_problems
from rules.ruleset import RuleSet
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES, attribute_key

__all__ = [
    "MAX_ADDED_PER_SKILL",
    "NPC_ATTRIBUTE_DICE",
    "PC_ATTRIBUTE_DICE",
    "SKILL_DICE",
    "SPECIALIZATION_PIPS_PER_SKILL_DIE",
    "STARTING_CREDITS",
    "CreationReport",
    "SkillPick",
    "attribute_budget",
    "attribute_pips_moved",
    "check_creation",
    "skill_attribute",
    "skill_budget",
    "starting_credits",
    "starting_force_points",
]

PC_ATTRIBUTE_DICE: Final = DieCode(18)
NPC_ATTRIBUTE_DICE: Final = DieCode(12)  # [RC] 000 l.2300-2303
SKILL_DICE: Final = DieCode(7)  # [2E-STD]; [HOUSE] "the initial 7D"
MAX_ADDED_PER_SKILL: Final = DieCode(2)  # [2E-STD]; also the most in one Force skill
SPECIALIZATION_PIPS_PER_SKILL_DIE: Final = 9  # [2E-STD] 1D of skill dice = 3D of specializations

STARTING_CREDITS: Final = 1000
"""Starting credits a player may take at creation. The sources print no figure (the House Rules
only spend "starting credits" on gear, 004 l.64); 1,000 is Datapad's default, the GM awards
more through the ledger."""

_LABELS = ", ".join(ATTRIBUTE_LABELS.values())


def skill_attribute(name: str) -> str | None:
    """The attribute a standard skill belongs to (``"dexterity"``), from the reference skill
    list (``rules/data/attributes_skills.json``); None for a skill it does not know."""
    try:
        found = reference.skill(name)
    except reference.ReferenceDataError:
        return None
    return found.attribute or None


def starting_credits(*, ruleset: RuleSet) -> int:
    """The most credits a player's character may start with (:data:`STARTING_CREDITS` under
    every preset; the GM awards more through the ledger)."""
    return STARTING_CREDITS


def _template_codes(template: Mapping[str, DieCode | str]) -> dict[str, DieCode]:
    codes = {}
    for name, code in template.items():
        codes[_key(name)] = DieCode.parse(code)
    if any(a not in codes for a in ATTRIBUTES):
        raise CreationError("a template must give all six attributes")
    return codes


def attribute_budget(
    *, ruleset: RuleSet, npc: bool, template: Mapping[str, DieCode | str] | None = None
) -> DieCode:
    """The attribute dice a new character spends: 18D for a player character, 12D for an NPC;
    with a species/NPC ``template``, the template's dice under the House Rules (pips are only
    moved) and the template plus 6D for a Rules Companion alien PC."""
    if template is not None and ruleset.creation_rules in ("house", "rc_templates"):
        total = sum(c.total_pips for c in _template_codes(template).values())
        if ruleset.creation_rules == "house":
            return DieCode.from_pips(total)
        if not npc:
            return DieCode.from_pips(total + 6 * 3)
    return NPC_ATTRIBUTE_DICE if npc else PC_ATTRIBUTE_DICE


def skill_budget(*, ruleset: RuleSet) -> DieCode:
    """The skill dice a new character spends: 7D under every preset ([2E-STD]; [HOUSE] "the
    initial 7D"), Force skills included."""
    return SKILL_DICE


@dataclass(frozen=True, slots=True)
class SkillPick:
    """A skill (or specialization) chosen at creation, as the code written on the sheet.

    ``attribute`` (any case) may be left out for skills in the reference skill list. A
    specialization names the skill it comes from; it is bought above that skill's code, or
    above the attribute when the base skill is not taken. Advanced skills are bought from 0D."""

    name: str
    code: DieCode | str
    attribute: str | None = None
    specialization_of: str | None = None
    advanced: bool = False


@dataclass(frozen=True, slots=True)
class CreationReport:
    """Everything a wizard shows about a proposed character: the problems, and for attributes
    and skills the budget, what is left (negative when overspent) and what is used."""

    problems: tuple[str, ...]
    attribute_dice_left: DieCode
    skill_dice_left: DieCode
    specialization_dice_left: DieCode
    character_points: int | None
    force_points: int | None
    attribute_dice_budget: DieCode = PC_ATTRIBUTE_DICE
    skill_dice_budget: DieCode = SKILL_DICE
    dark_side_points: int = 0
    cp_slot: int | None = None
    extra_cp_slot: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def attribute_dice_used(self) -> DieCode:
        return DieCode.from_pips(
            self.attribute_dice_budget.total_pips - self.attribute_dice_left.total_pips
        )

    @property
    def skill_dice_used(self) -> DieCode:
        return DieCode.from_pips(
            self.skill_dice_budget.total_pips - self.skill_dice_left.total_pips
        )


def _d(pips: int) -> str:
    return str(DieCode.from_pips(pips))


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------
def attribute_pips_moved(
    template: Mapping[str, DieCode | str], proposed: Mapping[str, DieCode | str]
) -> int:
    """Pips moved from one attribute to another: the sum of the rises over the template."""
    tmpl = {_key(a): DieCode.parse(c) for a, c in template.items()}
    codes = {_key(a): DieCode.parse(c) for a, c in proposed.items()}
    return sum(max(0, codes.get(a, t).total_pips - t.total_pips) for a, t in tmpl.items())


def _key(name: str) -> str:
    try:
        return attribute_key(name)
    except RulesError:
        raise CreationError(f"{name!r} is not an attribute") from None


def _attribute_codes(
    attributes: Mapping[str, DieCode | str],
) -> tuple[dict[str, DieCode], list[str]]:
    codes: dict[str, DieCode] = {}
    problems = []
    for name, code in attributes.items():
        try:
            key = attribute_key(name)
        except RulesError:
            DieCode.parse(code)
            problems.append(f"{name!r} is not an attribute; use {_LABELS}")
            continue
        if key in codes:
            problems.append(f"{ATTRIBUTE_LABELS[key]} is given twice")
            continue
        codes[key] = DieCode.parse(code)
    return codes, problems


def _attribute_problems(
    attrs: Mapping[str, DieCode],
    species: SpeciesLimits,
    ruleset: RuleSet,
    npc: bool,
    template: Mapping[str, DieCode] | None,
) -> tuple[list[str], int, int]:
    """Problems, the budget in pips and the pips left."""
    problems: list[str] = []
    for name in ATTRIBUTES:
        label = ATTRIBUTE_LABELS[name]
        if name not in attrs:
            problems.append(f"{label} has no code yet")
            continue
        code = attrs[name]
        lo, hi = species.range_of(name)
        if code > hi:
            problems.append(f"{label} {code} is above the species maximum {hi}")
        elif code < lo:
            problems.append(f"{label} {code} is below the species minimum {lo}")
    used = sum(attrs.get(a, DieCode()).total_pips for a in ATTRIBUTES)
    budget = attribute_budget(ruleset=ruleset, npc=npc, template=template).total_pips
    if template is not None and ruleset.creation_rules == "rc_templates" and not npc:
        # [RC] alien PC: the NPC template plus 1D in each of the six attributes.
        for a in ATTRIBUTES:
            if a in attrs and attrs[a] != template[a] + DieCode(1):
                problems.append(
                    f"{ATTRIBUTE_LABELS[a]} must be the template's {template[a]} plus 1D "
                    f"({template[a] + DieCode(1)}): 1D of the 6D goes to each attribute"
                )
    elif template is not None and ruleset.creation_rules == "house":
        moved = attribute_pips_moved(template, attrs)
        if moved > HOUSE_MAX_MOVED_PIPS:
            problems.append(
                f"{moved} pips moved between attributes; at most {HOUSE_MAX_MOVED_PIPS} (1D) "
                "may be moved at creation"
            )
    if used > budget:
        problems.append(f"Attributes use {_d(used)} of {_d(budget)}")
    elif used < budget and all(a in attrs for a in ATTRIBUTES):
        problems.append(f"Attributes: {_d(budget - used)} left to spend")
    return problems, budget, budget - used


# ---------------------------------------------------------------------------------------------
# Skills
# ---------------------------------------------------------------------------------------------
def _pick_attribute(pick: SkillPick, by_name: Mapping[str, SkillPick]) -> str | None:
    base_name = pick.specialization_of or pick.name
    attribute = pick.attribute or skill_attribute(base_name)
    base = pick.specialization_of
    if attribute is None and base is not None and base in by_name:
        attribute = by_name[base].attribute
    return attribute


def _skill_problems(
    skills: Sequence[SkillPick], attrs: Mapping[str, DieCode], ruleset: RuleSet
) -> tuple[list[str], int, int]:
    """Problems, skill pips left, specialization pips left."""
    problems: list[str] = []
    house = ruleset.creation_rules == "house"
    by_name = {s.name: s for s in skills if s.specialization_of is None}
    spent = 0
    spec_pips = 0
    spec_count = 0
    for pick in skills:
        code = DieCode.parse(pick.code)
        attribute = _pick_attribute(pick, by_name)
        if attribute is None:
            problems.append(f"say which attribute {pick.specialization_of or pick.name} belongs to")
            continue
        try:
            key = attribute_key(attribute)
        except RulesError:
            problems.append(f"{pick.name}: {attribute!r} is not an attribute")
            continue
        label = ATTRIBUTE_LABELS[key]
        attr_code = attrs.get(key, DieCode())
        if pick.specialization_of is not None:
            base_pick = by_name.get(pick.specialization_of)
            base = DieCode.parse(base_pick.code) if base_pick else attr_code
            added = code.total_pips - base.total_pips
            spec_count += 1
            if added <= 0:
                problems.append(f"{pick.name} {code} must be above {pick.specialization_of} {base}")
            elif house and added != 3:
                problems.append(
                    f"{pick.name} {code}: a House starting specialization is "
                    f"{pick.specialization_of} {base} plus 1D ({base + DieCode(1)})"
                )
            spec_pips += max(0, added)
            cap = house_skill_cap_problem(pick.name, code, specialization=True) if house else None
        else:
            base = DieCode() if pick.advanced else attr_code
            added = code.total_pips - base.total_pips
            if added < 0:
                problems.append(f"{pick.name} {code} is below its attribute {label} {base}")
            elif not pick.advanced and added > MAX_ADDED_PER_SKILL.total_pips:
                problems.append(
                    f"{pick.name} {code} adds {_d(added)} to {label} {base}; at most "
                    f"{MAX_ADDED_PER_SKILL} may be added to one skill at creation"
                )
            spent += max(0, added)
            cap = house_skill_cap_problem(pick.name, code) if house else None
        if cap:
            problems.append(cap)
    traded_dice = -(-spec_pips // SPECIALIZATION_PIPS_PER_SKILL_DIE)
    if house and spec_count > HOUSE_MAX_SPECIALIZATIONS:
        problems.append(
            f"{spec_count} specializations; the House Rules allow 1D of skill dice for at most "
            f"{HOUSE_MAX_SPECIALIZATIONS} specializations at +1D"
        )
    if house:
        traded_dice = min(traded_dice, 1)
    spent += traded_dice * 3
    budget = skill_budget(ruleset=ruleset)
    left = budget.total_pips - spent
    if left < 0:
        problems.append(f"Skills use {_d(spent)} of {budget}")
    elif left > 0 and skills:
        problems.append(f"Skills: {_d(left)} left to spend")
    spec_left = max(0, traded_dice * SPECIALIZATION_PIPS_PER_SKILL_DIE - spec_pips)
    return problems, left, spec_left


def _force_picks(
    force_skills: Mapping[str, DieCode | str],
) -> tuple[dict[str, DieCode], list[SkillPick], list[str]]:
    """Force skill codes by skill, the picks they are bought as (advanced, from 0D, with skill
    dice) and the problems: not a Force skill, more than 2D in one."""
    codes: dict[str, DieCode] = {}
    picks: list[SkillPick] = []
    problems: list[str] = []
    for name, value in force_skills.items():
        key = name.strip().casefold()
        if key not in FORCE_SKILLS:
            problems.append(f"{name!r} is not a Force skill; choose control, sense or alter")
            continue
        code = DieCode.parse(value)
        codes[key] = code
        # The attribute is not used: an advanced pick is bought from 0D.
        picks.append(SkillPick(f"{key} (Force)", code, "perception", advanced=True))
        if code > MAX_ADDED_PER_SKILL:
            problems.append(
                f"{key.capitalize()} {code}: at most {MAX_ADDED_PER_SKILL} may be put in one "
                "Force skill at creation"
            )
    return codes, picks, problems


# ---------------------------------------------------------------------------------------------
# Starting points and the validator
# ---------------------------------------------------------------------------------------------
def starting_force_points(force_sensitive: bool = False, droid: bool = False) -> int:
    """[2E-STD] 1 Force Point, 2 if Force-sensitive; [RC] every PC droid starts with 1."""
    if droid:
        return 1
    return 2 if force_sensitive else 1


def check_creation(
    attributes: Mapping[str, DieCode | str],
    skills: Iterable[SkillPick] = (),
    species: SpeciesLimits = HUMAN,
    *,
    ruleset: RuleSet,
    npc: bool = False,
    template: Mapping[str, DieCode | str] | None = None,
    force_sensitive: bool = False,
    force_skills: Mapping[str, DieCode | str] | None = None,
    force_powers: Iterable[str] = (),
    dark_side_points: int = 0,
    cyber_points: int = 0,
    background_cp: int = 0,
    timeline_bonus: int = 0,
) -> CreationReport:
    """Check a proposed character and report every problem and the budgets.

    ``attributes`` are keyed by attribute in any case (``"dexterity"`` or ``"Dexterity"``).
    ``template`` is the species/NPC template the attributes start from: under the House Rules
    at most 3 pips may be moved from it; under the Rules Companion an alien PC adds 1D to each
    of its attributes. Without a template the 18D (NPC 12D) budget applies
    (:func:`attribute_budget`). ``force_skills`` (``{"control": "1D"}``) are bought with skill
    dice from 0D, at most 2D each; ``force_powers`` are the powers chosen with them
    (:func:`rules.force.starting_power_problems`). Both need ``force_sensitive``."""
    attrs, problems = _attribute_codes(attributes)
    tmpl = _template_codes(template) if template is not None else None
    attr_problems, attr_budget, attr_left = _attribute_problems(attrs, species, ruleset, npc, tmpl)
    problems += attr_problems
    picks = list(skills)
    force_codes, force_picks, force_problems = _force_picks(force_skills or {})
    powers = list(force_powers)
    if (force_codes or powers) and not force_sensitive:
        force_problems.insert(0, "only a Force-sensitive character starts with Force skills")
    force_problems += starting_power_problems(powers, force_codes, ruleset=ruleset)
    picks += force_picks
    # One skill whatever its case: "Blaster" and "blaster" are the same skill.
    first: dict[str, str] = {}
    for p in picks:
        first.setdefault(p.name.casefold(), p.name)
    names = Counter(p.name.casefold() for p in picks)
    problems += [f"{first[n]} is chosen {k} times" for n, k in names.items() if k > 1]
    skill_problems, skill_left, spec_left = _skill_problems(picks, attrs, ruleset)
    problems += skill_problems + force_problems
    notes: list[str] = []
    if force_sensitive:
        fs = force_sensitivity(species.name, ruleset=ruleset)
        if not fs.allowed:
            problems.append(fs.note)
        elif fs.note and "Gotal" in fs.note:
            notes.append(fs.note)
    dsp = dark_side_points
    if ruleset.creation_rules == "house":
        start = house_starting_points(
            background_cp, dsp, cyber_points, timeline_bonus, ruleset=ruleset
        )
        problems += start.problems
        cp: int | None = start.total
        slot: int | None = start.cp_slot
        extra = start.extra_cp_slot
    else:
        if dsp:
            problems.append("a new character starts with no Dark Side Points")
        cp = 5 if ruleset.creation_rules == "2e_std" else None
        slot, extra = cp, 0
        if cp is None:
            notes.append("the Rules Companion gives no starting skill points; the GM sets them")
    return CreationReport(
        problems=tuple(problems),
        attribute_dice_left=DieCode.from_pips(attr_left),
        skill_dice_left=DieCode.from_pips(skill_left),
        specialization_dice_left=DieCode.from_pips(spec_left),
        character_points=cp,
        force_points=starting_force_points(force_sensitive),
        attribute_dice_budget=DieCode.from_pips(attr_budget),
        skill_dice_budget=skill_budget(ruleset=ruleset),
        dark_side_points=dsp,
        cp_slot=slot,
        extra_cp_slot=extra,
        notes=tuple(notes),
    )
