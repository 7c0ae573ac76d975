"""Campaign characters as the engine's combatants.

A PC or NPC sheet (:class:`characters.models.Character`) enters an encounter as a
:class:`rules.encounter.Combatant`: its Perception, Dexterity and Strength, every skill and
specialization under its own name, the first weapon on the sheet that has a damage code, the
armour it carries (summed) and its wounds and stuns as they stand on the sheet, so a wounded PC
enters the fight wounded. Combatant ids say where a combatant came from: ``pc-<pk>`` and
``npc-<pk>`` for characters (:func:`character_id_of` reads the pk back for the aftermath),
``sb-…`` for quick stat block NPCs (:mod:`encounters.forms`).

:func:`combatants_for_characters` reads any number of characters in a fixed number of queries
(skills and items prefetched); :func:`combatant_for_character` is the same for one."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping

from django.db.models import QuerySet, prefetch_related_objects

from characters.craft_models import Craft, CrewStation
from characters.models import Character, Item, Skill
from characters.services import wound_state
from rules import RuleSet
from rules.combat import Armour, AttackKind, WeaponRange
from rules.craft import CraftState, gunnery_skill, piloting_skill, shields_skill
from rules.dice import DieCode
from rules.encounter import Combatant, Weapon
from rules.encounter.craft import craft_part_from_stats
from rules.errors import RulesError
from rules.injuries import WoundState

__all__ = [
    "attack_kind_for_skill",
    "character_id_of",
    "combatant_for_character",
    "combatant_id_for",
    "combatants_for_characters",
    "combatants_for_craft",
    "craft_combatant_id",
    "craft_id_of",
    "does_energy_damage",
    "parse_item_ranges",
    "wound_state_of",
]

NO_DICE = DieCode()
_CHARACTER_ID = re.compile(r"^(?:pc|npc)-([1-9][0-9]{0,18})$")
_DASHED_RANGES = re.compile(r"^\s*(\d+)\s*-\s*(\d+)\s*-\s*(\d+)\s*-\s*(\d+)\s*$")


def combatant_id_for(character: Character) -> str:
    """``pc-<pk>`` for a player character, ``npc-<pk>`` for a non-player character."""
    return f"{'npc' if character.is_npc else 'pc'}-{character.pk}"


def character_id_of(combatant_id: str) -> int | None:
    """The character pk in a combatant id made by :func:`combatant_id_for`; None for any
    other combatant (a quick stat block NPC ``sb-…``) or anything that is no such id."""
    if not isinstance(combatant_id, str):
        return None
    match = _CHARACTER_ID.match(combatant_id)
    return int(match.group(1)) if match else None


def _code(value: DieCode | int | str) -> DieCode:
    """A die code field's value; a character built in memory (not read back from the
    database) may still hold the text or pips it was given."""
    return Character._meta.get_field("dexterity").to_python(value)  # type: ignore[no-any-return]


def skill_key(name: str) -> str:
    """A skill name as the Combatant keeps it: lowercase, single spaces."""
    return " ".join(name.lower().split())


def attack_kind_for_skill(skill: str) -> AttackKind:
    """The kind of attack a weapon skill makes: melee combat (and its specializations) and
    lightsaber are melee, brawling is brawling, everything else (blaster, grenade, bows…)
    ranged."""
    key = skill_key(skill)
    if key == "lightsaber" or key.startswith("melee combat"):
        return "melee"
    if key.startswith("brawling"):
        return "brawling"
    return "ranged"


def does_energy_damage(kind: AttackKind, skill: str) -> bool:
    """Which of armour's two codes resists the weapon: blasters (any ranged weapon) and
    lightsabers do energy damage; blades, clubs and fists physical."""
    return kind == "ranged" or skill_key(skill) == "lightsaber"


_STRENGTH_DAMAGE = re.compile(r"\bDamage (STR(?: ?\+ ?[0-9]{1,2}D(?:\+[12])?)?)\b", re.IGNORECASE)


def parse_item_ranges(text: str) -> WeaponRange | None:
    """A sheet item's ranges as the engine's :class:`WeaponRange`: ``3-10/30/120`` (as the
    wizard and the demo write them) or ``3-10-30-120``. Anything else (blank, ``melee``,
    ranges that do not grow) is None: a weapon without ranges, never an error."""
    text = (text or "").strip()
    if not text:
        return None
    dashed = _DASHED_RANGES.match(text)
    if dashed:
        text = "{}-{}/{}/{}".format(*dashed.groups())
    try:
        return WeaponRange.parse(text)
    except RulesError:
        return None


def _weapon(items: Iterable[Item]) -> Weapon | None:
    """The first weapon in the sheet's order (kind, name, pk) that has a damage code."""
    for item in items:
        if item.kind != Item.Kind.WEAPON:
            continue
        if item.damage is None:
            # The wizard keeps Strength-adding damage (a vibroblade's STR+1D) in the notes.
            found = _STRENGTH_DAMAGE.search(item.notes or "")
            if found is None:
                continue
            skill = skill_key(item.skill or "") or "melee combat"
            kind = attack_kind_for_skill(skill)
            return Weapon(
                name=item.name,
                damage=found.group(1).upper().replace(" ", ""),
                skill=skill,
                kind=kind,
                energy=does_energy_damage(kind, skill),
            )
        skill = skill_key(item.skill or "") or "blaster"
        kind = attack_kind_for_skill(skill)
        return Weapon(
            name=item.name,
            damage=str(_code(item.damage)),
            skill=skill,
            kind=kind,
            ranges=parse_item_ranges(item.ranges),
            stun=False,
            energy=does_energy_damage(kind, skill),
        )
    return None


def _armour(items: Iterable[Item]) -> Armour:
    """Every armour item's protection added together as pools (``+1D`` and ``+1D+2`` give
    ``+2D+2``: in play pips never round up)."""
    physical = energy = NO_DICE
    for item in items:
        if item.kind != Item.Kind.ARMOUR:
            continue
        physical = physical.pool_add(_code(item.armour_physical or NO_DICE))
        energy = energy.pool_add(_code(item.armour_energy or NO_DICE))
    return Armour(physical=physical, energy=energy)


def _skills(skills: Iterable[Skill]) -> tuple[tuple[str, DieCode], ...]:
    """Every skill and specialization under its own name; should two names differ only in
    case or spacing, the higher code is kept."""
    best: dict[str, DieCode] = {}
    for skill in skills:
        key = skill_key(skill.name)
        code = _code(skill.code)
        if key and (key not in best or code > best[key]):
            best[key] = code
    return tuple(best.items())


def _specialized(weapon: Weapon | None, skills: tuple[tuple[str, DieCode], ...]) -> Weapon | None:
    """A weapon the character has a specialization in (a "blaster pistol" skill for his blaster
    pistol) is fired with that specialization's code."""
    if weapon is None:
        return None
    name = skill_key(weapon.name)
    if name != weapon.skill and any(key == name for key, _ in skills):
        return dataclasses.replace(weapon, skill=name)
    return weapon


def _with_technical(
    skills: tuple[tuple[str, DieCode], ...], character: Character
) -> tuple[tuple[str, DieCode], ...]:
    """A combatant keeps only Perception, Dexterity and Strength; first aid, the one Technical
    skill a fight uses, rolls the character's Technical when he has not trained it, and his
    Mechanical is kept too, for the piloting, gunnery and shields skills a craft's crew roll
    untrained (:meth:`rules.encounter.Combatant.code` falls back to it)."""
    mechanical = ("mechanical", _code(character.attribute("mechanical")))
    if any(name == "first aid" for name, _ in skills):
        return (*skills, mechanical)
    return (*skills, ("first aid", _code(character.attribute("technical"))), mechanical)


def _side(side_of: Callable[[Character], str] | Mapping[int, str], character: Character) -> str:
    if isinstance(side_of, Mapping):
        return side_of[character.pk]
    return side_of(character)


def _combatant(character: Character, side: str, ruleset: RuleSet) -> Combatant:
    # .all() reads the prefetched lists (in the models' ordering): no query here.
    items = list(character.items.all())
    return Combatant(
        id=combatant_id_for(character),
        name=character.name,
        side=side,
        perception=_code(character.attribute("perception")),
        dexterity=_code(character.attribute("dexterity")),
        strength=_code(character.attribute("strength")),
        skills=(skills := _with_technical(_skills(character.skills.all()), character)),
        weapon=_specialized(_weapon(items), skills),
        armour=_armour(items),
        npc=character.is_npc,
        wounds=wound_state(character, ruleset=ruleset),
    )


def combatants_for_characters(
    characters: Iterable[Character] | QuerySet[Character],
    *,
    side_of: Callable[[Character], str] | Mapping[int, str],
    ruleset: RuleSet,
) -> list[Combatant]:
    """The characters as combatants, in the order given, reading every skill and item in two
    queries whatever their number (plus one for a queryset that is not yet evaluated).

    ``side_of`` is a callable from a character to its side or a mapping from character pk to
    side (a pk missing from it is a KeyError: the caller forgot someone)."""
    people = list(characters)
    prefetch_related_objects(people, "skills", "items")
    return [_combatant(c, _side(side_of, c), ruleset) for c in people]


def combatant_for_character(character: Character, *, side: str, ruleset: RuleSet) -> Combatant:
    """One character as a combatant on ``side`` (see :func:`combatants_for_characters`)."""
    return combatants_for_characters([character], side_of=lambda _: side, ruleset=ruleset)[0]


def wound_state_of(combatant: Combatant) -> WoundState:
    """The wounds and stuns a combatant leaves the fight with, for the character sheet."""
    return combatant.wounds


# ---------------------------------------------------------------------------------------------
# Vehicles and starships
# ---------------------------------------------------------------------------------------------
_CRAFT_ID = re.compile(r"^craft-([1-9][0-9]{0,18})$")


def craft_combatant_id(craft: Craft) -> str:
    return f"craft-{craft.pk}"


def craft_id_of(combatant_id: str) -> int | None:
    """The craft pk in a combatant id made by :func:`craft_combatant_id`, else None."""
    match = _CRAFT_ID.match(combatant_id) if isinstance(combatant_id, str) else None
    return int(match.group(1)) if match else None


def _station_key(station: CrewStation) -> str:
    return f"gunner:{station.weapon_index}" if station.role == "gunner" else station.role


def combatants_for_craft(
    craft: Craft, *, side: str, ruleset: RuleSet, present: set[str]
) -> list[Combatant]:
    """A campaign craft as a combatant, with its crew: the craft (its stat block, damage and
    who holds each station) and each crew character not yet in the fight (``present``), on
    the same side. The craft's codes come from the engine's reading of its stat block."""
    stats = craft.stat_block
    stations = [s for s in craft.stations.all() if s.character_id is not None]
    people = {s.character_id: s.character for s in stations}
    crew_combatants = combatants_for_characters(
        [p for p in people.values() if combatant_id_for(p) not in present],
        side_of=lambda _: side,
        ruleset=ruleset,
    )
    crew = tuple((_station_key(s), combatant_id_for(s.character)) for s in stations)
    try:
        damage = CraftState.from_json(craft.damage) if craft.damage else None
    except RulesError:
        damage = None
    part = craft_part_from_stats(
        stats,
        piloting=piloting_skill(stats),
        gunnery=gunnery_skill(stats),
        shields_skill=shields_skill(stats),
        crew=crew,
        damage=damage,
        craft_id=craft.pk,
    )
    vessel = Combatant(
        id=craft_combatant_id(craft),
        name=craft.name,
        side=side,
        perception=stats.crew_code or NO_DICE,
        dexterity=stats.crew_code or NO_DICE,
        strength=NO_DICE,
        scale=stats.scale,
        npc=craft.owner_character_id is None and not craft.party,
        craft=part,
    )
    return [vessel, *crew_combatants]


def squadron(
    craft: Craft,
    *,
    side: str,
    count: int,
    ruleset: RuleSet,
    present: set[str],
    crew_code: DieCode | None = None,
) -> list[Combatant]:
    """The craft with its crew (:func:`combatants_for_craft`), and ``count - 1`` copies flown
    by their unnamed crew (the stat block's crew code; ids ``craft-<pk>-2`` …): a squadron of
    TIE fighters from one stat block. The copies are the encounter's own; only the first is the
    campaign's craft. ``crew_code`` is the unnamed crews' skill when the stat block prints
    none (or to replace it for this fight)."""
    first = combatants_for_craft(craft, side=side, ruleset=ruleset, present=present)
    vessel = first[0]
    part = vessel.craft
    assert part is not None
    if crew_code is not None:
        part = part.replace(crew_code=crew_code)
        vessel = vessel.replace(perception=crew_code, dexterity=crew_code, craft=part)
        first = [vessel, *first[1:]]
    if part.crew_code is None and (count > 1 or not part.crewed):
        raise RulesError(
            f"{craft.name} has no crew on its stations and no crew skill in its stat block: "
            "give the unnamed crew's skill (e.g. 4D), or crew it on the ship sheet"
        )
    if count <= 1:
        return first
    copies: list[Combatant] = []
    number = 2
    while len(copies) < count - 1:
        cid = f"{vessel.id}-{number}"
        number += 1
        if cid in present:
            continue
        copies.append(
            vessel.replace(
                id=cid,
                name=f"{vessel.name} {number - 1}",
                npc=True,
                craft=part.replace(crew=(), craft_id=None),
            )
        )
    return [*first, *copies]
