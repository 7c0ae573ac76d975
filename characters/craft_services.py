"""Writes for ships and vehicles: making a craft with its crew stations, crewing a station,
and rolling from a station (the crew member's skill plus the craft's code), each one
transaction.

Who may do what (issue 18):
* everyone in the campaign reads every craft;
* the GM adds craft (from the catalogue or his own stat block) and crews any station;
* the player whose character owns a craft crews its stations with any character he sees;
* on a party craft a player puts his own character on an empty station, or takes him off;
* a crew member's roll is made by his character's player, or by the GM.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from django.db import transaction

from characters import live
from characters.craft_models import Craft, CrewStation
from characters.models import Character, DiceRoll, Skill
from characters.services import check_roll_inputs, roll_and_record
from rules import DieCode, RuleSet
from rules.craft import (
    CraftError,
    CraftState,
    CraftStats,
    combined_code,
    load_craft,
    station_roll,
)
from rules.dice import DiceSource


class CraftRefused(ValueError):
    """A craft write that is not allowed; the message says why."""


# ---------------------------------------------------------------------------------------------
# The catalogue
# ---------------------------------------------------------------------------------------------
@cache
def catalogue() -> dict[str, CraftStats]:
    """Every reference craft in rules/data (starships, then vehicles), by name."""
    return {c.name: c for c in (*load_craft("starships"), *load_craft("vehicles"))}


def station_plan(stats: CraftStats) -> list[tuple[str, int | None]]:
    """The stations a craft gets: pilot, co-pilot, a gunner per weapon, shields if it has
    shields, sensors and engineer."""
    plan: list[tuple[str, int | None]] = [("pilot", None), ("copilot", None)]
    plan += [("gunner", i) for i in range(len(stats.weapons))]
    if stats.shields is not None:
        plan.append(("shields", None))
    plan += [("sensors", None), ("engineer", None)]
    return plan


def create_craft(
    campaign,
    stats: CraftStats,
    *,
    name: str = "",
    catalogue_name: str = "",
    owner_character: Character | None = None,
    party: bool = False,
    notes: str = "",
    value: int | None = None,
) -> Craft:
    if owner_character is not None and party:
        raise CraftRefused("a craft belongs to a character or to the party, not both")
    if owner_character is not None and owner_character.campaign_id != campaign.pk:
        raise CraftRefused("that character is not in this campaign")
    with transaction.atomic():
        craft = Craft.objects.create(
            campaign=campaign,
            name=(name or stats.name).strip(),
            catalogue_name=catalogue_name,
            stats=stats.to_json(),
            owner_character=owner_character,
            party=party,
            notes=notes,
            value=value,
        )
        CrewStation.objects.bulk_create(
            CrewStation(craft=craft, role=role, weapon_index=index)
            for role, index in station_plan(stats)
        )
        live.bump(campaign.pk, public=True)
    return craft


def edit_craft(
    craft: Craft,
    stats: CraftStats,
    *,
    name: str,
    owner_character: Character | None = None,
    party: bool = False,
    notes: str = "",
    value: int | None = None,
) -> Craft:
    """The GM's new stat block for a craft, checked by the engine (``CraftStats.from_json``),
    in one transaction with the craft locked. Its crew stations follow the new block: a gunner
    per weapon, a shields station if it has shields (a station that goes loses its crew
    member); stations that stay keep theirs."""
    if owner_character is not None and party:
        raise CraftRefused("a craft belongs to a character or to the party, not both")
    if owner_character is not None and owner_character.campaign_id != craft.campaign_id:
        raise CraftRefused("that character is not in this campaign")
    try:
        stats = CraftStats.from_json(stats.to_json())
    except CraftError as exc:
        raise CraftRefused(str(exc)) from None
    with transaction.atomic():
        locked = Craft.objects.select_for_update().get(pk=craft.pk)
        locked.name = (name or stats.name).strip()
        locked.stats = stats.to_json()
        locked.owner_character, locked.party = owner_character, party
        locked.notes, locked.value = notes, value
        locked.save()
        plan = set(station_plan(stats))
        have = {(s.role, s.weapon_index): s for s in locked.stations.all()}
        CrewStation.objects.filter(
            pk__in=[s.pk for key, s in have.items() if key not in plan]
        ).delete()
        CrewStation.objects.bulk_create(
            CrewStation(craft=locked, role=role, weapon_index=index)
            for role, index in station_plan(stats)
            if (role, index) not in have
        )
        live.bump(locked.campaign_id, public=True)
    return locked


# ---------------------------------------------------------------------------------------------
# Who may do what
# ---------------------------------------------------------------------------------------------
def can_edit_craft(membership, craft: Craft) -> bool:
    """The GM, or the player whose character owns the craft."""
    if membership.is_gm:
        return True
    owner = craft.owner_character
    return owner is not None and owner.owner_id == membership.user_id


def crew_station(membership, station: CrewStation, character: Character | None) -> CrewStation:
    """Put ``character`` on the station (None: leave it empty). CraftRefused with the reason
    when the member may not."""
    craft = station.craft
    if character is not None:
        if character.campaign_id != craft.campaign_id:
            raise CraftRefused("that character is not in this campaign")
        if character.kind == Character.Kind.NPC and character.secret and not membership.is_gm:
            raise CraftRefused("no such character")
    if not can_edit_craft(membership, craft):
        own = membership.user_id
        sitting = station.character
        if not craft.party:
            raise CraftRefused(
                f"{craft.name} is not yours: only its owner or the GM assigns its crew"
            )
        if character is not None and character.owner_id != own:
            raise CraftRefused(
                "on a party craft you can crew a station only with your own character"
            )
        if sitting is not None and sitting.owner_id != own:
            raise CraftRefused(
                f"{sitting.name} holds that station; only the GM or his player moves him"
            )
    with transaction.atomic():
        locked = CrewStation.objects.select_for_update().get(pk=station.pk)
        locked.character = character
        locked.save(update_fields=["character"])
        live.bump(craft.campaign_id, public=True)
    return locked


# ---------------------------------------------------------------------------------------------
# Rolling from a station
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StationTrait:
    """What a station's crew member rolls: his skill (or its attribute) plus the craft's code,
    that code as the craft's damage and ionization leave it (``printed_code`` is the stat
    block's, ``limit`` says why they differ: "lightly damaged")."""

    label: str  # for the dice log: "Millennium Falcon: piloting"
    skill: str
    skill_code: DieCode
    from_attribute: bool
    craft_code: DieCode | None
    craft_code_name: str
    code: DieCode
    printed_code: DieCode | None = None
    limit: str = ""

    @property
    def limited(self) -> bool:
        return bool(self.limit)


def station_trait(
    station: CrewStation, character: Character, *, ruleset: RuleSet | None = None
) -> StationTrait:
    """The roll the character makes at this station, with the craft's code after its damage
    (``rules.craft.effective_code`` for the campaign's ruleset, the campaign's unless given);
    CraftRefused without a craft roll, or when the craft cannot act (destroyed, dead
    controls)."""
    craft = station.craft
    try:
        what = station_roll(craft.stat_block, station.role, station.weapon_index)
    except CraftError as exc:
        raise CraftRefused(str(exc)) from None
    if what is None:
        raise CraftRefused(f"the {station.get_role_display().lower()} station has no craft roll")
    state = craft.damage_state
    if state.destroyed:
        raise CraftRefused(f"{craft.name} is destroyed")
    if state.dead_controls:
        raise CraftRefused(f"{craft.name}'s controls are dead: it can do nothing this round")
    craft_code, limit = what.craft_code, ""
    if what.craft_code is not None and state != CraftState():
        from characters.craft_damage import station_limit

        found = station_limit(
            what.craft_code,
            what.craft_code_name,
            state,
            ruleset=ruleset or craft.campaign.ruleset,
        )
        if found is not None:
            craft_code, limit = found.code, found.reason
    skill = Skill.objects.filter(character=character, name__iexact=what.skill).only("code").first()
    own = skill.code if skill is not None else character.attribute("mechanical")
    label = f"{craft.name}: {what.action}"
    if limit:
        label += f" ({what.craft_code_name} {what.craft_code} → {craft_code}, {limit})"
    if len(label) > 120:
        label = label[:119] + "…"
    return StationTrait(
        label=label,
        skill=what.skill,
        skill_code=own,
        from_attribute=skill is None,
        craft_code=craft_code,
        craft_code_name=what.craft_code_name,
        code=combined_code(own, craft_code),
        printed_code=what.craft_code,
        limit=limit,
    )


def roll_station(
    station: CrewStation,
    actor,
    *,
    ruleset: RuleSet,
    actions: int = 1,
    modifier: int = 0,
    cp: int = 0,
    force_point: bool = False,
    difficulty: int | None = None,
    hidden: bool | None = None,
    rng: DiceSource | None = None,
    trait_of: Callable[[CrewStation, Character], StationTrait] | None = None,
    details: dict | None = None,
) -> DiceRoll:
    """Roll for the station's crew member, store it as his roll and debit the CP and Force
    Point spent, in one transaction (``characters.services.roll_and_record``, the checks every
    roll shares). CraftRefused (with the reason) changes nothing.

    ``trait_of`` makes a roll other than the station's own from the crew member (locked):
    the pilot's [RC] movement roll or a navigator's astrogation (characters.craft_travel);
    ``details`` are kept with the dice."""
    try:
        check_roll_inputs(actions, modifier, difficulty)
    except ValueError as exc:
        raise CraftRefused(str(exc)) from None
    if station.character_id is None:
        raise CraftRefused("nobody holds that station")
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=station.character_id)
        if trait_of is not None:
            trait = trait_of(station, locked)
        else:
            trait = station_trait(station, locked, ruleset=ruleset)
        try:
            record = roll_and_record(
                locked,
                actor,
                trait.code,
                label=trait.label,
                ruleset=ruleset,
                actions=actions,
                modifier=modifier,
                cp=cp,
                force_point=force_point,
                difficulty=difficulty,
                hidden=hidden,
                rng=rng,
                details={
                    "station": station.role,
                    "skill": trait.skill,
                    "craft_code": str(trait.craft_code) if trait.craft_code is not None else None,
                    "printed_code": (
                        str(trait.printed_code) if trait.printed_code is not None else None
                    ),
                    "limit": trait.limit,
                    **(details or {}),
                },
            )
        except CraftRefused:
            raise
        except ValueError as exc:
            raise CraftRefused(str(exc)) from None
    return record
