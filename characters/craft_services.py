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

from dataclasses import dataclass
from functools import cache

from django.db import transaction

from characters import live
from characters.craft_models import Craft, CrewStation
from characters.models import Character, Currency, DiceRoll, Skill
from characters.services import change_balance, condition
from rules import DieCode, RuleSet
from rules import roll as roll_dice
from rules.advancement import AdvancementError, check_cp_spend
from rules.craft import CraftError, CraftStats, combined_code, load_craft, station_roll
from rules.dice import DiceSource, SystemDice, rollable_pool


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
        )
        CrewStation.objects.bulk_create(
            CrewStation(craft=craft, role=role, weapon_index=index)
            for role, index in station_plan(stats)
        )
        live.bump(campaign.pk, public=True)
    return craft


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
    """What a station's crew member rolls: his skill (or its attribute) plus the craft's code."""

    label: str  # for the dice log: "Millennium Falcon: piloting"
    skill: str
    skill_code: DieCode
    from_attribute: bool
    craft_code: DieCode | None
    craft_code_name: str
    code: DieCode


def station_trait(station: CrewStation, character: Character) -> StationTrait:
    """The roll the character makes at this station; CraftRefused without a craft roll."""
    craft = station.craft
    try:
        what = station_roll(craft.stat_block, station.role, station.weapon_index)
    except CraftError as exc:
        raise CraftRefused(str(exc)) from None
    if what is None:
        raise CraftRefused(f"the {station.get_role_display().lower()} station has no craft roll")
    skill = Skill.objects.filter(character=character, name__iexact=what.skill).only("code").first()
    own = skill.code if skill is not None else character.attribute("mechanical")
    label = f"{craft.name}: {what.action}"
    if len(label) > 120:
        label = label[:119] + "…"
    return StationTrait(
        label=label,
        skill=what.skill,
        skill_code=own,
        from_attribute=skill is None,
        craft_code=what.craft_code,
        craft_code_name=what.craft_code_name,
        code=combined_code(own, what.craft_code),
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
) -> DiceRoll:
    """Roll for the station's crew member, store it as his roll and debit the CP and Force
    Point spent, in one transaction. CraftRefused (with the reason) changes nothing."""
    if not 1 <= actions <= 10:
        raise CraftRefused("number of actions must be between 1 and 10")
    if not -100 <= modifier <= 100:
        raise CraftRefused("modifier must be between -100 and +100")
    if difficulty is not None and not 1 <= difficulty <= 200:
        raise CraftRefused("difficulty must be between 1 and 200")
    if station.character_id is None:
        raise CraftRefused("nobody holds that station")
    with transaction.atomic():
        locked = Character.objects.select_for_update().get(pk=station.character_id)
        trait = station_trait(station, locked)
        now = condition(locked, ruleset=ruleset)
        if now.cannot_act:
            raise CraftRefused(f"{locked.name} is {now.cannot_act} and cannot act")
        try:
            check_cp_spend("skill", cp, ruleset=ruleset, force_point_this_round=force_point)
        except AdvancementError as exc:
            raise CraftRefused(str(exc)) from None
        if cp > locked.character_points:
            raise CraftRefused(
                f"not enough Character Points: {cp} needed, {locked.character_points} held"
            )
        if force_point and locked.force_points < 1:
            raise CraftRefused("no Force Point left to spend")
        try:
            rollable_pool(
                trait.code,
                actions=actions,
                penalty_dice=now.penalty_dice,
                force_point=force_point,
                ruleset=ruleset,
            )
        except ValueError as exc:
            raise CraftRefused(str(exc)) from None
        result = roll_dice(
            trait.code,
            ruleset=ruleset,
            rng=rng or SystemDice(),
            actions=actions,
            penalty_dice=now.penalty_dice,
            modifier=modifier,
            cp_dice=cp,
            force_point=force_point,
        )
        record = DiceRoll.objects.create(
            campaign_id=locked.campaign_id,
            character=locked,
            actor=actor,
            label=trait.label,
            code=str(trait.code),
            pool=str(result.pool),
            dice={
                **result.to_json(),
                "actions": actions,
                "wound_penalty": now.penalty_dice,
                "station": station.role,
                "skill": trait.skill,
                "craft_code": str(trait.craft_code) if trait.craft_code is not None else None,
            },
            total=result.total,
            difficulty=difficulty,
            cp_spent=cp,
            force_point=force_point,
            hidden=(locked.is_npc and locked.secret) if hidden is None else hidden,
        )
        live.bump(locked.campaign_id, public=not record.hidden)
        if cp:
            change_balance(locked, Currency.CP, -cp, f"Spent on {trait.label} roll", actor, record)
        if force_point:
            change_balance(
                locked, Currency.FP, -1, f"Force Point on {trait.label} roll", actor, record
            )
    return record
