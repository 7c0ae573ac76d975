"""Building dice [RC]: what each heading of a design costs, where a design's dice went
(:func:`building_dice`), and every problem of a design at once (:func:`check_droid`, for a
builder that shows them as the player types) or the first refusal (:func:`validate_droid`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from rules.dice import DieCode
from rules.droids.design import BASE_ATTRIBUTE, DroidDesign, DroidError, DroidItem
from rules.force import FORCE_SKILLS
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES

NPC_BUILDING_DICE: Final = 35  # [RC] "Non-player character Droids receive 35D"
PC_BUILDING_DICE: Final = 65  # [RC] "Player character Droids receive 65D"
ATTRIBUTE_DICE_PER_DIE: Final = 5  # [RC] 5D of building dice per +1D of attribute
SPEED_DICE_PER_DIE: Final = 3  # [RC] 3D per +1D of speed code above Dexterity
ARMOR_DICE_PER_DIE: Final = 3  # [RC] 3D per +1D of armor
ITEM_DICE: Final = 1  # [RC] 1D per item or tool, +1D per extra function or unusual feature
#: [RC] "Current limits of Droid technology do not allow skills higher than 13D".
DROID_SKILL_CAP: Final = DieCode(13)


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
class DroidCheck:
    """A design checked whole: its building dice (what could be counted: an entry the rules
    refuse counts 0D), every problem that stops it being built, in the order of the design's
    headings, and the warnings that do not (dice left unspent, ambiguity 1)."""

    dice: BuildingDice
    problems: tuple[str, ...]
    warnings: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def building_dice_budget(player_character: bool) -> int:
    """[RC] 35D of building dice for an NPC droid, 65D for a player-character droid."""
    return PC_BUILDING_DICE if player_character else NPC_BUILDING_DICE


def droid_starting_force_points(player_character: bool) -> int:
    """[RC] "All player character Droids begin with one Force point"; NPC droids none."""
    return 1 if player_character else 0


def _whole_dice(spent: DieCode, shown: DieCode, what: str) -> int:
    """The dice of ``spent``; a refusal naming ``what`` at ``shown`` when it has pips."""
    if spent.pips:
        lower = shown.plus_pips(-spent.pips)
        raise DroidError(
            f"{what} {shown}: building dice buy whole dice only (no pips); make it {lower} "
            f"or {lower + DieCode(1)}"
        )
    return spent.dice


def attribute_building_dice(code: DieCode | str, what: str = "the attribute") -> int:
    """[RC] 5D of building dice per 1D above the free 1D (Dexterity 3D costs 10D)."""
    code = DieCode.parse(code)
    if code < BASE_ATTRIBUTE:
        raise DroidError(f"{what} {code}: a droid attribute cannot be below 1D")
    return _whole_dice(code - BASE_ATTRIBUTE, code, what) * ATTRIBUTE_DICE_PER_DIE


def speed_building_dice(speed: DieCode | str | None, dexterity: DieCode | str) -> int:
    """[RC] 3D of building dice per 1D of speed code above the droid's Dexterity."""
    dexterity = DieCode.parse(dexterity)
    if speed is None:
        return 0
    speed = DieCode.parse(speed)
    if speed < dexterity:
        raise DroidError(
            f"speed code {speed} is below Dexterity {dexterity}; speed is only bought above it "
            "(leave it empty to move at Dexterity)"
        )
    return _whole_dice(speed - dexterity, speed, "the speed code") * SPEED_DICE_PER_DIE


def armor_building_dice(armor: DieCode | str) -> int:
    """[RC] 3D of building dice per +1D of armor."""
    armor = DieCode.parse(armor)
    if armor.total_pips < 0:
        raise DroidError(f"armor cannot be negative (got {armor})")
    return _whole_dice(armor, armor, "armor") * ARMOR_DICE_PER_DIE


def item_building_dice(item: DroidItem) -> int:
    """[RC] 1D per item or tool (each arm, each video sensor) plus 1D per extra feature."""
    return item.quantity * ITEM_DICE + item.features * ITEM_DICE


def skill_building_dice(
    skill: DieCode | str, attribute: DieCode | str, what: str = "the skill"
) -> int:
    """[RC] skills take building dice one for one above their attribute."""
    skill, attribute = DieCode.parse(skill), DieCode.parse(attribute)
    if skill < attribute:
        raise DroidError(
            f"{what}: a skill ({skill}) cannot be lower than its attribute ({attribute})"
        )
    return _whole_dice(skill - attribute, skill, what)


def skill_from_building_dice(attribute: DieCode | str, dice: int) -> DieCode:
    """[RC] "Allocating 2D of building dice increases a skill by 2D"."""
    if dice < 0:
        raise DroidError("building dice allocated to a skill cannot be negative")
    return DieCode.parse(attribute) + DieCode(dice)


def check_droid_skill(name: str, code: DieCode | str) -> None:
    """Refuse what no droid skill may be: a Force skill [RC] §2.6, or above 13D [RC] §2.1."""
    if name.strip().lower() in FORCE_SKILLS:
        raise DroidError(f"droids may never have Force skills ({name.strip()})")
    code = DieCode.parse(code)
    if code > DROID_SKILL_CAP:
        raise DroidError(f"{name} {code} is above {DROID_SKILL_CAP}, the limit of droid technology")


def check_droid(design: DroidDesign) -> DroidCheck:
    """Every problem of a design at once, with the building dice it uses [RC]: pips where only
    whole dice buy, attributes below 1D, speed below Dexterity, negative armor, a skill below
    its attribute, a Force skill, a skill above 13D, two skills of one name, macrobinoculars
    without vision, more dice than the budget. Dice left unspent are a warning only."""
    problems: list[str] = []

    def count(call: Callable[..., int], *args: object) -> int:
        try:
            return call(*args)
        except DroidError as exc:
            problems.append(str(exc))
            return 0

    attributes = 0
    for a in ATTRIBUTES:
        attributes += count(attribute_building_dice, design.attribute(a), ATTRIBUTE_LABELS[a])
    speed = count(speed_building_dice, design.speed, design.dexterity)
    armor = count(armor_building_dice, design.armor)
    skills, seen = 0, set()
    for s in design.skills:
        if s.name.strip().casefold() in seen:
            problems.append(f"two skills are called {s.name.strip()}: keep one row per skill")
        seen.add(s.name.strip().casefold())
        try:
            check_droid_skill(s.name, s.die_code)
        except DroidError as exc:
            problems.append(str(exc))
            continue
        base = design.attribute(s.attribute)
        skills += count(skill_building_dice, s.die_code, base, s.name.strip())
    equipment = sum(item_building_dice(i) for i in design.items)
    if any(i.needs_vision for i in design.items) and not any(i.gives_vision for i in design.items):
        problems.append("macrobinoculars need some form of vision first, such as photoreceptors")
    dice = BuildingDice(
        attributes=attributes,
        speed=speed,
        armor=armor,
        skills=skills,
        equipment=equipment,
        budget=building_dice_budget(design.player_character),
    )
    if dice.over_budget:
        problems.append(
            f"{design.name.strip() or 'The droid'} uses {dice.total}D of building dice; the "
            f"budget is {dice.budget}D ({-dice.unspent}D over)"
        )
    warnings = (f"{dice.unspent}D of building dice unspent",) if dice.unspent > 0 else ()
    return DroidCheck(dice, tuple(problems), warnings)


def building_dice(design: DroidDesign) -> BuildingDice:
    """Count the building dice a design uses, by heading, against its budget [RC].

    Raises ``DroidError`` for what cannot be bought at all (pips, a skill below its
    attribute); staying within the budget is checked by :func:`validate_droid`."""
    return BuildingDice(
        attributes=sum(
            attribute_building_dice(design.attribute(a), ATTRIBUTE_LABELS[a]) for a in ATTRIBUTES
        ),
        speed=speed_building_dice(design.speed, design.dexterity),
        armor=armor_building_dice(design.armor),
        skills=sum(
            skill_building_dice(s.die_code, design.attribute(s.attribute), s.name)
            for s in design.skills
        ),
        equipment=sum(item_building_dice(i) for i in design.items),
        budget=building_dice_budget(design.player_character),
    )


def validate_droid(design: DroidDesign) -> tuple[str, ...]:
    """Check a design against the [RC] rules; return warnings, raise ``DroidError`` naming
    every problem (:func:`check_droid`) when there is any.

    Errors: Force skills, a skill above 13D, macrobinoculars without vision, more building
    dice than the budget, what cannot be bought. Warning: dice left unspent (R2 leaves 1D;
    ambiguity 1)."""
    check = check_droid(design)
    if check.problems:
        raise DroidError("; ".join(check.problems))
    return check.warnings
