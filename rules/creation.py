"""Character creation budgets as a pure validator for the character wizard.

:func:`check_creation` takes proposed attribute and skill codes plus the species limits and
returns every problem in words a player understands ("Dexterity 5D is above the species
maximum 4D", "Attributes use 19D of 18D", "Skills: 1D left to spend") with the budgets left.
It is meant to be called on every step of the wizard, so an unfinished character simply shows
what is still to do.

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

from rules import reference
from rules.dice import DieCode
from rules.force import force_sensitivity
from rules.ruleset import RuleSet

__all__ = [
    "ATTRIBUTES",
    "HOUSE_TIMELINE_BONUS",
    "HUMAN",
    "CreationReport",
    "HouseStartingPoints",
    "SkillPick",
    "SpeciesLimits",
    "attribute_pips_moved",
    "check_creation",
    "check_party",
    "house_skill_cap_problem",
    "house_starting_points",
    "proposed_maximum_problem",
    "proposed_minimum_problem",
    "proposed_move_problem",
    "proposed_species_problems",
    "skill_attribute",
    "starting_credits",
    "starting_force_points",
]

ATTRIBUTES = ("Dexterity", "Knowledge", "Mechanical", "Perception", "Strength", "Technical")

PC_ATTRIBUTE_DICE = DieCode(18)
NPC_ATTRIBUTE_DICE = DieCode(12)  # [RC] 000 l.2300-2303
SKILL_DICE = DieCode(7)  # [2E-STD]; [HOUSE] "the initial 7D"
MAX_ADDED_PER_SKILL = DieCode(2)  # [2E-STD]
SPECIALIZATION_PIPS_PER_SKILL_DIE = 9  # [2E-STD] 1D of skill dice = 3D of specializations
HOUSE_SKILL_CAP = DieCode(6)  # [HOUSE] creation item 7
HOUSE_SPECIALIZATION_CAP = DieCode(8)
HOUSE_MAX_MOVED_PIPS = 3  # [HOUSE] creation item 8
HOUSE_MAX_SPECIALIZATIONS = 3


def skill_attribute(name: str) -> str | None:
    """The attribute a standard skill belongs to, from the reference skill list
    (``rules/data/attributes_skills.json``); None for a skill it does not know."""
    try:
        found = reference.skill(name)
    except reference.ReferenceDataError:
        return None
    return found.attribute.capitalize() if found.attribute else None


HOUSE_TIMELINE_BONUS = {"5 BBY": 800}
"""[HOUSE] creation item 3: extra CP for PCs joining later (new PCs from 3/27/16 = 5 BBY)."""


@dataclass(frozen=True, slots=True)
class SpeciesLimits:
    """Attribute minimum and maximum per attribute, and Move."""

    name: str
    limits: tuple[tuple[str, DieCode, DieCode], ...]
    move: int = 10

    @classmethod
    def uniform(cls, name: str, minimum: str, maximum: str, move: int = 10) -> SpeciesLimits:
        lo, hi = DieCode.parse(minimum), DieCode.parse(maximum)
        return cls(name, tuple((a, lo, hi) for a in ATTRIBUTES), move)

    @classmethod
    def of(cls, name: str, limits: Mapping[str, tuple[str, str]], move: int = 10) -> SpeciesLimits:
        missing = [a for a in ATTRIBUTES if a not in limits]
        if missing:
            raise ValueError(f"{name}: no limits given for {', '.join(missing)}")
        rows = tuple(
            (a, DieCode.parse(limits[a][0]), DieCode.parse(limits[a][1])) for a in ATTRIBUTES
        )
        return cls(name, rows, move)

    @classmethod
    def from_reference(cls, species: reference.Species) -> SpeciesLimits:
        """Limits from a ``rules.reference`` species record (``species_by_name("Human")``)."""
        if species.attributes is None:
            raise ValueError(f"{species.name}: the sources give no attribute limits; enter them")
        rows = dict(species.attributes)
        return cls(
            species.name,
            tuple((a, rows[a.lower()].minimum, rows[a.lower()].maximum) for a in ATTRIBUTES),
            species.move or 10,
        )

    @classmethod
    def not_entered(cls, name: str, move: int = 10) -> SpeciesLimits:
        """A species whose limits nobody has entered yet: no attribute code is outside them
        (the caller says what is missing); never another species' numbers."""
        return cls(name, tuple((a, DieCode(0), DieCode(99)) for a in ATTRIBUTES), move)

    def range_of(self, attribute: str) -> tuple[DieCode, DieCode]:
        for name, lo, hi in self.limits:
            if name == attribute:
                return lo, hi
        raise ValueError(f"{attribute!r} is not an attribute")  # pragma: no cover


HUMAN = SpeciesLimits.uniform("Human", "2D", "4D")
"""Humans: 2D-4D in every attribute, Move 10 [2E-STD]."""


# ---------------------------------------------------------------------------------------------
# What a player may propose alone
# ---------------------------------------------------------------------------------------------
PROPOSED_MINIMUM_FLOOR = DieCode(1)
PROPOSED_MAXIMUM_CEILING = DieCode(4)
PROPOSED_MAX_MOVE = 10
"""The sources print limits only for Humans and Wookiees (``rules/data/species.json``); for every
other species "the GM enters them from the species' sourcebook entry". A player's own proposal
for such a species (or a custom one) is held to what the printed species give a player
character: every minimum at least 1D (no attribute is below 1D; the Wookiee minima), every
maximum at most 4D and Move at most 10 (the human maximum and Move, §2.1). Wider limits are the
GM's to set."""

STARTING_CREDITS = 1000
"""Starting credits a player may take at creation. The sources print no figure (the House Rules
only spend "starting credits" on gear, 004 l.64); 1,000 is Datapad's default, the GM awards
more through the ledger."""


def proposed_species_problems(species: SpeciesLimits) -> list[str]:
    """What in a player's proposed species limits only the GM may set (empty when every
    minimum is at least :data:`PROPOSED_MINIMUM_FLOOR`, every maximum at most
    :data:`PROPOSED_MAXIMUM_CEILING` and Move at most :data:`PROPOSED_MAX_MOVE`)."""
    problems = []
    for attribute, lo, hi in species.limits:
        problems += [
            proposed_minimum_problem(attribute, lo),
            proposed_maximum_problem(attribute, hi),
        ]
    problems.append(proposed_move_problem(species.move))
    return [p for p in problems if p]


def proposed_minimum_problem(attribute: str, minimum: DieCode) -> str | None:
    if minimum < PROPOSED_MINIMUM_FLOOR:
        return (
            f"{attribute} minimum {minimum}: every attribute has at least {PROPOSED_MINIMUM_FLOOR}"
        )
    return None


def proposed_maximum_problem(attribute: str, maximum: DieCode) -> str | None:
    if maximum > PROPOSED_MAXIMUM_CEILING:
        return (
            f"{attribute} maximum {maximum}: a player may propose at most "
            f"{PROPOSED_MAXIMUM_CEILING}, the human maximum; higher limits are the GM's to set"
        )
    return None


def proposed_move_problem(move: int) -> str | None:
    if move > PROPOSED_MAX_MOVE:
        return (
            f"Move {move}: a player may propose at most {PROPOSED_MAX_MOVE}, the human Move; "
            "a faster species is the GM's to set"
        )
    return None


def starting_credits(ruleset: RuleSet) -> int:
    """The most credits a player's character may start with (:data:`STARTING_CREDITS` under
    every preset; the GM awards more through the ledger)."""
    return STARTING_CREDITS


@dataclass(frozen=True, slots=True)
class SkillPick:
    """A skill (or specialization) chosen at creation, as the code written on the sheet.

    ``attribute`` may be left out for skills in the reference skill list. A specialization names
    the skill it comes from; it is bought above that skill's code, or above the attribute when
    the base skill is not taken. Advanced skills are bought from 0D."""

    name: str
    code: DieCode | str
    attribute: str | None = None
    specialization_of: str | None = None
    advanced: bool = False


@dataclass(frozen=True, slots=True)
class CreationReport:
    problems: tuple[str, ...]
    attribute_dice_left: DieCode
    skill_dice_left: DieCode
    specialization_dice_left: DieCode
    character_points: int | None
    force_points: int | None
    dark_side_points: int = 0
    cp_slot: int | None = None
    extra_cp_slot: int = 0
    notes: tuple[str, ...] = field(default=())

    @property
    def ok(self) -> bool:
        return not self.problems


def _d(pips: int) -> str:
    return str(DieCode.from_pips(pips))


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------
def attribute_pips_moved(
    template: Mapping[str, DieCode | str], proposed: Mapping[str, DieCode | str]
) -> int:
    """Pips moved from one attribute to another: the sum of the rises over the template."""
    return sum(
        max(0, DieCode.parse(proposed.get(a, t)).total_pips - DieCode.parse(t).total_pips)
        for a, t in template.items()
    )


def _attribute_problems(
    attrs: Mapping[str, DieCode],
    species: SpeciesLimits,
    ruleset: RuleSet,
    npc: bool,
    template: Mapping[str, DieCode] | None,
) -> tuple[list[str], int]:
    problems: list[str] = []
    for name in attrs:
        if name not in ATTRIBUTES:
            problems.append(f"{name!r} is not an attribute; use {', '.join(ATTRIBUTES)}")
    for name in ATTRIBUTES:
        if name not in attrs:
            problems.append(f"{name} has no code yet")
            continue
        code = attrs[name]
        lo, hi = species.range_of(name)
        if code > hi:
            problems.append(f"{name} {code} is above the species maximum {hi}")
        elif code < lo:
            problems.append(f"{name} {code} is below the species minimum {lo}")
    used = sum(attrs.get(a, DieCode()).total_pips for a in ATTRIBUTES)
    if template is not None and ruleset.creation_rules == "rc_templates" and not npc:
        # [RC] alien PC: the NPC template plus 1D in each of the six attributes.
        budget = sum(template[a].total_pips for a in ATTRIBUTES) + 6 * 3
        for a in ATTRIBUTES:
            if a in attrs and attrs[a] != template[a] + DieCode(1):
                problems.append(
                    f"{a} must be the template's {template[a]} plus 1D "
                    f"({template[a] + DieCode(1)}): 1D of the 6D goes to each attribute"
                )
    elif template is not None and ruleset.creation_rules == "house":
        budget = sum(template[a].total_pips for a in ATTRIBUTES)
        moved = attribute_pips_moved(template, attrs)
        if moved > HOUSE_MAX_MOVED_PIPS:
            problems.append(
                f"{moved} pips moved between attributes; at most {HOUSE_MAX_MOVED_PIPS} (1D) "
                "may be moved at creation"
            )
    else:
        budget = (NPC_ATTRIBUTE_DICE if npc else PC_ATTRIBUTE_DICE).total_pips
    if used > budget:
        problems.append(f"Attributes use {_d(used)} of {_d(budget)}")
    elif used < budget and all(a in attrs for a in ATTRIBUTES):
        problems.append(f"Attributes: {_d(budget - used)} left to spend")
    return problems, budget - used


# ---------------------------------------------------------------------------------------------
# Skills
# ---------------------------------------------------------------------------------------------
def house_skill_cap_problem(
    name: str, code: DieCode | str, specialization: bool = False
) -> str | None:
    """[HOUSE] creation item 7: no skill above 6D at the start; specializations and Talents up
    to 8D."""
    c = DieCode.parse(code)
    cap = HOUSE_SPECIALIZATION_CAP if specialization else HOUSE_SKILL_CAP
    if c > cap:
        what = "specialization" if specialization else "skill"
        return f"{name} {c} is above the House starting limit of {cap} for a {what}"
    return None


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
        base_name = pick.specialization_of or pick.name
        attribute = pick.attribute or skill_attribute(base_name)
        if attribute is None and pick.specialization_of in by_name:
            attribute = by_name[pick.specialization_of].attribute
        if attribute is None:
            problems.append(f"say which attribute {base_name} belongs to")
            continue
        if attribute not in ATTRIBUTES:
            problems.append(f"{pick.name}: {attribute!r} is not an attribute")
            continue
        attr_code = attrs.get(attribute, DieCode())
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
                problems.append(f"{pick.name} {code} is below its attribute {attribute} {base}")
            elif not pick.advanced and added > MAX_ADDED_PER_SKILL.total_pips:
                problems.append(
                    f"{pick.name} {code} adds {_d(added)} to {attribute} {base}; at most "
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
    left = SKILL_DICE.total_pips - spent
    if left < 0:
        problems.append(f"Skills use {_d(spent)} of {SKILL_DICE}")
    elif left > 0 and skills:
        problems.append(f"Skills: {_d(left)} left to spend")
    spec_left = max(0, traded_dice * SPECIALIZATION_PIPS_PER_SKILL_DIE - spec_pips)
    return problems, left, spec_left


# ---------------------------------------------------------------------------------------------
# Starting points
# ---------------------------------------------------------------------------------------------
def starting_force_points(force_sensitive: bool = False, droid: bool = False) -> int:
    """[2E-STD] 1 Force Point, 2 if Force-sensitive; [RC] every PC droid starts with 1."""
    if droid:
        return 1
    return 2 if force_sensitive else 1


@dataclass(frozen=True, slots=True)
class HouseStartingPoints:
    total: int
    cp_slot: int
    extra_cp_slot: int
    problems: tuple[str, ...] = ()


def house_starting_points(
    background_cp: int = 0,
    dark_side_points: int = 0,
    cyber_points: int = 0,
    timeline_bonus: int = 0,
    ruleset: RuleSet = RuleSet.preset("house"),
) -> HouseStartingPoints:
    """[HOUSE] creation items 3-6 summed as A-C9 suggests: 10 free + ``house_extra_cp`` (20) +
    background (5-20) + 10 per Dark Side Point (at most 5) + 5 per Cyber Point + the timeline
    bonus. At most 20 go in the Character Point slot; the rest in the Extra slot."""
    problems = []
    if background_cp and not 5 <= background_cp <= 20:
        problems.append(f"a background is worth 5 to 20 CP, not {background_cp}")
    if not 0 <= dark_side_points <= 5:
        problems.append(
            f"{dark_side_points} Dark Side Points taken; at most 5 may be taken at creation"
        )
    if cyber_points < 0 or timeline_bonus < 0:
        problems.append("Cyber Points and timeline bonuses cannot be negative")
    total = (
        10
        + ruleset.house_extra_cp
        + background_cp
        + 10 * min(max(dark_side_points, 0), 5)
        + 5 * max(cyber_points, 0)
        + max(timeline_bonus, 0)
    )
    slot = min(total, 20)
    return HouseStartingPoints(total, slot, total - slot, tuple(problems))


# ---------------------------------------------------------------------------------------------
# The validator
# ---------------------------------------------------------------------------------------------
def check_creation(
    attributes: Mapping[str, DieCode | str],
    skills: Iterable[SkillPick] = (),
    species: SpeciesLimits = HUMAN,
    ruleset: RuleSet = RuleSet(),
    *,
    npc: bool = False,
    template: Mapping[str, DieCode | str] | None = None,
    force_sensitive: bool = False,
    dark_side_points: int = 0,
    cyber_points: int = 0,
    background_cp: int = 0,
    timeline_bonus: int = 0,
) -> CreationReport:
    """Check a proposed character and report every problem and the budgets left.

    ``template`` is the species/NPC template the attributes start from: under the House Rules
    at most 3 pips may be moved from it; under the Rules Companion an alien PC adds 1D to each
    of its attributes. Without a template the 18D (NPC 12D) budget applies."""
    attrs = {name: DieCode.parse(code) for name, code in attributes.items()}
    tmpl = {a: DieCode.parse(c) for a, c in template.items()} if template is not None else None
    if tmpl is not None and any(a not in tmpl for a in ATTRIBUTES):
        raise ValueError("a template must give all six attributes")
    problems, attr_left = _attribute_problems(attrs, species, ruleset, npc, tmpl)
    picks = list(skills)
    # One skill whatever its case: "Blaster" and "blaster" are the same skill.
    first: dict[str, str] = {}
    for p in picks:
        first.setdefault(p.name.casefold(), p.name)
    names = Counter(p.name.casefold() for p in picks)
    problems += [f"{first[n]} is chosen {k} times" for n, k in names.items() if k > 1]
    skill_problems, skill_left, spec_left = _skill_problems(picks, attrs, ruleset)
    problems += skill_problems
    notes: list[str] = []
    if force_sensitive:
        fs = force_sensitivity(species.name, ruleset)
        if not fs.allowed:
            problems.append(fs.note)
        elif fs.note and "Gotal" in fs.note:
            notes.append(fs.note)
    dsp = dark_side_points
    if ruleset.creation_rules == "house":
        start = house_starting_points(background_cp, dsp, cyber_points, timeline_bonus, ruleset)
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
    fp = starting_force_points(force_sensitive)
    return CreationReport(
        problems=tuple(problems),
        attribute_dice_left=DieCode.from_pips(attr_left),
        skill_dice_left=DieCode.from_pips(skill_left),
        specialization_dice_left=DieCode.from_pips(spec_left),
        character_points=cp,
        force_points=fp,
        dark_side_points=dsp,
        cp_slot=slot,
        extra_cp_slot=extra,
        notes=tuple(notes),
    )


# ---------------------------------------------------------------------------------------------
# House party limits
# ---------------------------------------------------------------------------------------------
_HOUSE_BANNED = {
    "dark_side": "Dark Side characters are not allowed (rare exceptions by the GM)",
    "time_lord": "Time Lords are not allowed",
    "superhero": "comic-book super heroes are not allowed",
    "immortal_mandalorian": "Immortal Mandalorians are not allowed",
}
_HOUSE_PARTY_LIMITS = {"jedi": 2, "force_sensitive": 1, "space_marine": 1, "immortal": 1}
_PARTY_WORDS = {
    "jedi": "Jedi",
    "force_sensitive": "Force Sensitive",
    "space_marine": "Space Marine",
    "immortal": "Immortal",
}


def check_party(
    character_types: Iterable[str],
    campaign_started: bool = False,
    ruleset: RuleSet = RuleSet.preset("house"),
) -> list[str]:
    """[HOUSE] party limits at the start of a campaign: at most two Jedi, one Force Sensitive on
    top of them, one Space Marine and one Immortal; any number of Force Attuned. Some types are
    never allowed. Returns the problems (empty when the party is fine)."""
    if ruleset.creation_rules != "house":
        return []
    counts = Counter(t.strip().lower().replace(" ", "_") for t in character_types)
    problems = [text for key, text in _HOUSE_BANNED.items() if counts[key]]
    if campaign_started:
        return problems
    for key, limit in _HOUSE_PARTY_LIMITS.items():
        if counts[key] > limit:
            problems.append(
                f"{counts[key]} {_PARTY_WORDS[key]} characters; at most {limit} at the start "
                "of a campaign"
            )
    return problems
