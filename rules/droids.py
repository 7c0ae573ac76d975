"""Building and improving droids with the Rules Companion's building dice [RC].

Second Edition R&E has no droid-building rule in Datapad's sources, so these are the
[RC] rules (droids-and-equipment.md §2): all six attributes start at 1D and everything else
is paid from a budget of building dice (35D for an NPC droid, 65D for a player-character
droid). Costs are counted in whole dice, as every example in the source is (ambiguity 3).

The R2 and 3PO stat blocks are reference data in ``rules/data/droids.json``;
:func:`load_droid_templates` turns them into :class:`DroidDesign` values.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rules.dice import DieCode
from rules.errors import RulesError
from rules.force import FORCE_SKILLS
from rules.ruleset import RuleSet
from rules.traits import ATTRIBUTES, attribute_key

__all__ = [
    "DROID_SKILL_CAP",
    "NEW_DROID_SKILL_CREDITS",
    "BuildingDice",
    "DroidDesign",
    "DroidError",
    "DroidItem",
    "DroidSkill",
    "DroidSkillCost",
    "armor_building_dice",
    "attribute_building_dice",
    "building_dice",
    "building_dice_budget",
    "droid_skill_cost",
    "droid_starting_force_points",
    "item_building_dice",
    "load_droid_templates",
    "skill_building_dice",
    "skill_from_building_dice",
    "speed_building_dice",
    "validate_droid",
]

#: Every droid starts with 1D in each of the six attributes (:data:`rules.traits.ATTRIBUTES`)
#: [RC].
BASE_ATTRIBUTE = DieCode(1)
NO_ARMOR = DieCode()
NPC_BUILDING_DICE = 35  # [RC] "Non-player character Droids receive 35D"
PC_BUILDING_DICE = 65  # [RC] "Player character Droids receive 65D"
ATTRIBUTE_DICE_PER_DIE = 5  # [RC] 5D of building dice per +1D of attribute
SPEED_DICE_PER_DIE = 3  # [RC] 3D per +1D of speed code above Dexterity
ARMOR_DICE_PER_DIE = 3  # [RC] 3D per +1D of armor
ITEM_DICE = 1  # [RC] 1D per item or tool, +1D per extra function or unusual feature
#: [RC] "Current limits of Droid technology do not allow skills higher than 13D".
DROID_SKILL_CAP = DieCode(13)
#: [RC] a new droid skill costs its skill points plus 1,000 credits (chip burns, software).
NEW_DROID_SKILL_CREDITS = 1000
#: Items that give a droid some form of vision (macrobinoculars need one) [RC].
VISION_WORDS = ("photoreceptor", "video sensor", "visual sensor", "optical sensor")


class DroidError(RulesError):
    """A droid design or droid improvement the [RC] rules do not allow."""


def _attribute(name: str, skill: str | None = None) -> str:
    try:
        return attribute_key(name)
    except RulesError:
        where = f"{skill}: " if skill else ""
        raise DroidError(
            f"{where}{name!r} is not an attribute; choose one of {', '.join(ATTRIBUTES)}"
        ) from None


def _whole_dice(code: DieCode, what: str) -> int:
    if code.pips:
        raise DroidError(
            f"{what} is {code}: building dice buy whole dice only (no pips), e.g. {code.dice}D"
        )
    return code.dice


# ---------------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class DroidItem:
    """A piece of built-in equipment: ``quantity`` items at 1D each, plus 1D per extra
    ``features`` (a second function or an unusual feature) [RC].

    A set of legs is one method of locomotion (quantity 1); each arm and each video sensor
    counts separately (two arms: quantity 2)."""

    name: str
    quantity: int = 1
    features: int = 0
    vision: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise DroidError("every droid item needs a name")
        if self.quantity < 1:
            raise DroidError(f"{self.name}: a droid carries at least one of an item")
        if self.features < 0:
            raise DroidError(f"{self.name}: extra features cannot be negative")

    @property
    def gives_vision(self) -> bool:
        lowered = self.name.lower()
        return self.vision or any(word in lowered for word in VISION_WORDS)

    @property
    def needs_vision(self) -> bool:
        return "macrobinocular" in self.name.lower()


@dataclass(frozen=True, slots=True)
class DroidSkill:
    """A skill as printed on the sheet: ``code`` is the full code (attribute + dice added)."""

    name: str
    attribute: str
    code: DieCode | str

    def __post_init__(self) -> None:
        object.__setattr__(self, "code", DieCode.parse(self.code))
        object.__setattr__(self, "attribute", _attribute(self.attribute, self.name))

    @property
    def die_code(self) -> DieCode:
        """``code`` as a DieCode (it is parsed on creation)."""
        return DieCode.parse(self.code)


@dataclass(frozen=True, slots=True)
class DroidDesign:
    """A droid as built: attributes, skills, equipment, speed code and armor."""

    name: str
    player_character: bool = False
    dexterity: DieCode = BASE_ATTRIBUTE
    knowledge: DieCode = BASE_ATTRIBUTE
    mechanical: DieCode = BASE_ATTRIBUTE
    perception: DieCode = BASE_ATTRIBUTE
    strength: DieCode = BASE_ATTRIBUTE
    technical: DieCode = BASE_ATTRIBUTE
    speed: DieCode | None = None
    """Speed code; ``None`` means "equal to Dexterity" (nothing bought)."""
    armor: DieCode = NO_ARMOR
    skills: tuple[DroidSkill, ...] = ()
    items: tuple[DroidItem, ...] = ()

    def attribute(self, name: str) -> DieCode:
        code: DieCode = getattr(self, _attribute(name))
        return code

    @property
    def speed_code(self) -> DieCode:
        """The speed code in play: the one bought, or Dexterity (implied by [RC] movement)."""
        return self.dexterity if self.speed is None else self.speed


@dataclass(frozen=True, slots=True)
class BuildingDice:
    """Where a droid's building dice went, in whole dice."""

    attributes: int
    speed: int
    armor: int
    skills: int
    equipment: int
    budget: int

    @property
    def total(self) -> int:
        return self.attributes + self.speed + self.armor + self.skills + self.equipment

    @property
    def unspent(self) -> int:
        """Dice left over (negative when over budget)."""
        return self.budget - self.total

    @property
    def over_budget(self) -> bool:
        return self.total > self.budget


@dataclass(frozen=True, slots=True)
class DroidSkillCost:
    """The price of one pip of droid skill: points (skill points in [RC], Character Points
    otherwise) and credits."""

    points: int
    credits: int
    new_skill: bool
    result: DieCode


# ---------------------------------------------------------------------------------------------
# Building dice [RC]
# ---------------------------------------------------------------------------------------------
def building_dice_budget(player_character: bool) -> int:
    """[RC] 35D of building dice for an NPC droid, 65D for a player-character droid."""
    return PC_BUILDING_DICE if player_character else NPC_BUILDING_DICE


def droid_starting_force_points(player_character: bool) -> int:
    """[RC] "All player character Droids begin with one Force point"; NPC droids none."""
    return 1 if player_character else 0


def attribute_building_dice(code: DieCode | str) -> int:
    """[RC] 5D of building dice per 1D above the free 1D (Dexterity 3D costs 10D)."""
    code = DieCode.parse(code)
    if code < BASE_ATTRIBUTE:
        raise DroidError(f"a droid attribute cannot be below 1D (got {code})")
    return _whole_dice(code - BASE_ATTRIBUTE, "an attribute increase") * ATTRIBUTE_DICE_PER_DIE


def speed_building_dice(speed: DieCode | str | None, dexterity: DieCode | str) -> int:
    """[RC] 3D of building dice per 1D of speed code above the droid's Dexterity."""
    dexterity = DieCode.parse(dexterity)
    if speed is None:
        return 0
    speed = DieCode.parse(speed)
    if speed < dexterity:
        raise DroidError(
            f"speed code {speed} is below Dexterity {dexterity}; speed is only bought above it"
        )
    return _whole_dice(speed - dexterity, "the speed code above Dexterity") * SPEED_DICE_PER_DIE


def armor_building_dice(armor: DieCode | str) -> int:
    """[RC] 3D of building dice per +1D of armor."""
    armor = DieCode.parse(armor)
    if armor.total_pips < 0:
        raise DroidError(f"armor cannot be negative (got {armor})")
    return _whole_dice(armor, "armor") * ARMOR_DICE_PER_DIE


def item_building_dice(item: DroidItem) -> int:
    """[RC] 1D per item or tool (each arm, each video sensor) plus 1D per extra feature."""
    return item.quantity * ITEM_DICE + item.features * ITEM_DICE


def skill_building_dice(skill: DieCode | str, attribute: DieCode | str) -> int:
    """[RC] skills take building dice one for one above their attribute."""
    skill, attribute = DieCode.parse(skill), DieCode.parse(attribute)
    if skill < attribute:
        raise DroidError(f"a skill ({skill}) cannot be lower than its attribute ({attribute})")
    return _whole_dice(skill - attribute, "the dice added to a skill")


def skill_from_building_dice(attribute: DieCode | str, dice: int) -> DieCode:
    """[RC] "Allocating 2D of building dice increases a skill by 2D"."""
    if dice < 0:
        raise DroidError("building dice allocated to a skill cannot be negative")
    return DieCode.parse(attribute) + DieCode(dice)


def building_dice(design: DroidDesign) -> BuildingDice:
    """Count the building dice a design uses, by heading, against its budget [RC].

    Raises ``DroidError`` for what cannot be bought at all (pips, a skill below its
    attribute); staying within the budget is checked by :func:`validate_droid`."""
    return BuildingDice(
        attributes=sum(attribute_building_dice(design.attribute(a)) for a in ATTRIBUTES),
        speed=speed_building_dice(design.speed, design.dexterity),
        armor=armor_building_dice(design.armor),
        skills=sum(
            skill_building_dice(s.die_code, design.attribute(s.attribute)) for s in design.skills
        ),
        equipment=sum(item_building_dice(i) for i in design.items),
        budget=building_dice_budget(design.player_character),
    )


def _check_skill(name: str, code: DieCode) -> None:
    if name.strip().lower() in FORCE_SKILLS:  # [RC] never allowed on droids
        raise DroidError(f"droids may never have Force skills ({name})")
    if code > DROID_SKILL_CAP:
        raise DroidError(f"{name} {code} is above {DROID_SKILL_CAP}, the limit of droid technology")


def validate_droid(design: DroidDesign) -> tuple[str, ...]:
    """Check a design against the [RC] rules; return warnings, raise ``DroidError`` on errors.

    Errors: Force skills, a skill above 13D, macrobinoculars without vision, more building
    dice than the budget. Warning: dice left unspent (R2 leaves 1D; ambiguity 1)."""
    for skill in design.skills:
        _check_skill(skill.name, skill.die_code)
    if any(i.needs_vision for i in design.items) and not any(i.gives_vision for i in design.items):
        raise DroidError("macrobinoculars need some form of vision first, such as photoreceptors")
    dice = building_dice(design)
    if dice.over_budget:
        raise DroidError(
            f"{design.name} uses {dice.total}D of building dice; the budget is {dice.budget}D"
        )
    if dice.unspent:
        return (f"{dice.unspent}D of building dice unspent",)
    return ()


# ---------------------------------------------------------------------------------------------
# Improving and adding droid skills [RC]
# ---------------------------------------------------------------------------------------------
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
    _check_skill(name, result)
    rc = ruleset.advancement_table == "rc_skill_points"
    return DroidSkillCost(
        points=max(1, start.dice),
        credits=NEW_DROID_SKILL_CREDITS if current is None and rc else 0,
        new_skill=current is None,
        result=result,
    )


# ---------------------------------------------------------------------------------------------
# Reference data
# ---------------------------------------------------------------------------------------------
_DATA = Path(__file__).parent / "data" / "droids.json"


def _design_from_json(raw: dict[str, Any]) -> DroidDesign:
    attributes = {a: DieCode.parse(raw["attributes"][a]) for a in ATTRIBUTES}
    return DroidDesign(
        name=raw["name"],
        player_character=raw.get("player_character", False),
        speed=DieCode.parse(raw["speed_code"]) if raw.get("speed_code") else None,
        armor=DieCode.parse(raw.get("armor", "0D")),
        skills=tuple(
            DroidSkill(s["name"], s["attribute"], DieCode.parse(s["code"])) for s in raw["skills"]
        ),
        items=tuple(
            DroidItem(i["name"], i.get("quantity", 1), i.get("features", 0), i.get("vision", False))
            for i in raw["equipment"]
        ),
        **attributes,
    )


@cache
def load_droid_templates() -> Mapping[str, DroidDesign]:
    """The [RC] R2 and 3PO stat blocks from ``rules/data/droids.json``, keyed ``r2``, ``3po``."""
    raw = json.loads(_DATA.read_text(encoding="utf-8"))
    return MappingProxyType({key: _design_from_json(value) for key, value in raw["droids"].items()})
