"""Damage to a campaign's ships and vehicles outside an encounter, and their repairs (issue 18).

Every rule is the engine's: the damage chart of the campaign's ruleset
(``rules.craft.craft_damage_result``: Second Edition margins, or the Rules Companion's
multiples), escalation and the 1D damage tables (``apply_damage``), lost Moves
(``lost_moves_status``), the codes a damaged craft rolls (``effective_code``), and the repair
tables (``rules.equipment.repair_requirement``). This module stores the results:
``Craft.damage`` is ``CraftState.to_json()`` (None: undamaged), whoever wrote it (this module,
or an encounter's step).

Who may do what:
* the GM records a hit (the damage and hull totals), clears one result or all of them;
* the GM, the player who may edit the craft, or any player for a party craft asks for a repair
  and sees its quote (difficulty, time, cost) first;
* the GM or the player of the character at the engineer station resolves it: the engineer
  rolls his repair skill; on success the damage goes and the payer's credits are debited;
  on a failure the damage stays and nothing is paid (another roll after 15 more minutes of
  work, ambiguity 17: a new request).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from characters import live
from characters.craft_models import Craft, RepairRequest
from characters.craft_services import CraftRefused, can_edit_craft
from characters.models import Character, Currency, DiceRoll, Skill
from characters.services import LedgerError, change_balance, roll_and_record
from rules import DieCode, RulesError, RuleSet
from rules import roll as roll_dice
from rules.combat import max_combining, rc_combined_code
from rules.craft import (
    CraftDamage,
    CraftState,
    CraftStats,
    apply_damage,
    craft_damage_result,
    effective_code,
    lost_moves_status,
    piloting_skill,
)
from rules.dice import DiceSource, FixedDice, SystemDice
from rules.difficulty import number_range, parse_level
from rules.equipment import RepairRequirement, repair_requirement, work_pace

LEVEL_WORDS = {
    "none": "undamaged",
    "lightly": "lightly damaged",
    "heavily": "heavily damaged",
    "severely": "severely damaged",
    "destroyed": "destroyed",
}
RESULT_WORDS = {
    **LEVEL_WORDS,
    "none": "no damage",
    "controls_ionized": "controls ionized",
    "shields_blown": "shields blown",
}
HYPERDRIVE_WORDS = {
    "damaged": "hyperdrive damaged: astrogation calculation times doubled, a one-round jump +10",
    "heavily_damaged": "hyperdrive damaged: +10 to all astrogation difficulties",
    "disabled": "hyperdrives disabled (main and backup): no hyperspace until repaired",
}
#: A weapon result of the 1D tables: (words, its state on the weapon repair table). Heavily
#: damaged "weapons disabled in one arc" repair as heavily damaged weapons (ambiguity 19); a
#: vehicle's severe "disabled weapons" as severely damaged ones.
WEAPON_RESULTS = {
    "one_destroyed": ("one weapon destroyed", "destroyed"),
    "one_lightly_damaged": ("one weapon lightly damaged by a power surge", "light"),
    "arc_disabled": ("all weapons of one type in one fire arc disabled", "heavy"),
    "arc_destroyed": ("all weapons of one type in one fire arc destroyed", "destroyed"),
    "all_disabled": ("all weapons disabled", "severe"),
    "all_severely_damaged": ("all weapons severely damaged but repairable", "severe"),
    "all_destroyed": ("all weapons aboard destroyed", "destroyed"),
}
#: The repair skill by the skill that flies or drives the craft (2E skill names).
REPAIR_SKILLS = {
    "starfighter piloting": "starfighter repair",
    "space transports": "space transports repair",
    "capital ship piloting": "capital starship repair",
    "repulsorlift operation": "repulsorlift repair",
    "walker operation": "walker repair",
    "ground vehicle operation": "ground vehicle repair",
}
REPAIR_FIRST_ROLL = "first repair roll after {minutes} minutes of work"


def _speed(words: str | None) -> str:
    return (words or "").replace("_", " ")


# ---------------------------------------------------------------------------------------------
# Reading the damage
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class DamageEntry:
    """One thing wrong with a craft, as the sheet lists it. ``system`` and ``amount`` are what
    the repair table reads (None: not a repair, the GM clears it)."""

    key: str
    text: str
    system: str | None = None
    amount: object = None


def damage_entries(state: CraftState, stats: CraftStats, *, ruleset: RuleSet) -> list[DamageEntry]:
    """The craft's damage, one entry per repairable system (droids-and-equipment.md
    ambiguity 18: each is its own repair), then ionization and the results the GM plays out."""
    entries = []
    if state.maneuverability_lost:
        printed = stats.maneuverability or DieCode()
        now = printed.minus_dice(state.maneuverability_lost)
        entries.append(
            DamageEntry(
                "maneuverability",
                f"maneuverability -{state.maneuverability_lost}D ({printed} → {now})",
                "maneuverability",
                state.maneuverability_lost,
            )
        )
    if state.moves_lost:
        status = lost_moves_status(state.moves_lost, ruleset=ruleset)
        if status.destroyed:
            limit = "destroyed"
        elif status.drive_destroyed:
            limit = "drive destroyed: it must be replaced"
        elif status.drive_disabled:
            limit = "drive disabled: cannot move until repaired"
        else:
            limit = f"limited to {_speed(status.top_speed)} speed"
        entries.append(
            DamageEntry("moves", f"-{state.moves_lost} Moves: {limit}", "moves", state.moves_lost)
        )
    if state.shield_dice_lost:
        printed = stats.shields or DieCode()
        now = printed.minus_dice(state.shield_dice_lost)
        entries.append(
            DamageEntry(
                "shields",
                f"shields -{state.shield_dice_lost}D ({printed} → {now})",
                "shields",
                state.shield_dice_lost,
            )
        )
    if state.hyperdrive != "ok":
        entries.append(DamageEntry("hyperdrive", HYPERDRIVE_WORDS[state.hyperdrive], "hyperdrive"))
    for n, result in enumerate(state.weapon_damage):
        words, weapon_state = WEAPON_RESULTS.get(result, (result.replace("_", " "), None))
        entries.append(
            DamageEntry(f"weapon:{n}", words, "weapon" if weapon_state else None, weapon_state)
        )
    if state.controls_ionized or state.dead_controls:
        if ruleset.damage_chart == "rc_multiples":
            what = "every ship code except hull"
        else:
            what = "maneuverability, shields, fire control and weapon damage"
        text = f"{state.controls_ionized} controls ionized: -{state.controls_ionized}D to {what}"
        if state.dead_controls:
            text += "; dead controls: the craft can do nothing this round"
        entries.append(DamageEntry("ionized", text + " (this round and the next)"))
    for n, event in enumerate(state.events):
        entries.append(DamageEntry(f"event:{n}", event))
    return entries


def without_entry(state: CraftState, key: str) -> CraftState | None:
    """The state with one entry repaired or cleared; None when nothing is left (undamaged)."""
    from dataclasses import replace

    kind, _, index = key.partition(":")
    if kind == "maneuverability":
        state = replace(state, maneuverability_lost=0)
    elif kind == "moves":
        state = replace(state, moves_lost=0)
    elif kind == "shields":
        state = replace(state, shield_dice_lost=0)
    elif kind == "hyperdrive":
        state = replace(state, hyperdrive="ok")
    elif kind == "ionized":
        state = replace(state, controls_ionized=0, dead_controls=False)
    elif kind in ("weapon", "event"):
        field = "weapon_damage" if kind == "weapon" else "events"
        items = list(getattr(state, field))
        del items[int(index)]
        state = replace(state, **{field: tuple(items)})
    left = replace(state, damage="none")
    if left == CraftState() and state.damage != "destroyed":
        return None
    return state


@dataclass(frozen=True)
class StationLimit:
    """The code a crew station rolls once the damage is counted, and why."""

    printed: DieCode
    code: DieCode
    reason: str


def station_limit(
    code: DieCode | None, name: str, state: CraftState, *, ruleset: RuleSet
) -> StationLimit | None:
    """The craft's code for a station (``name``: maneuverability, fire control, shields) after
    its damage and ionization (``rules.craft.effective_code``); None when it is unchanged."""
    if code is None or state == CraftState():
        return None
    stat = name.replace(" ", "_")
    now = effective_code(code, stat, state, ruleset=ruleset)
    if now == code:
        return None
    reasons = []
    if {"maneuverability": state.maneuverability_lost, "shields": state.shield_dice_lost}.get(stat):
        reasons.append(LEVEL_WORDS[state.damage])
    if state.controls_ionized:
        reasons.append(f"{state.controls_ionized} controls ionized")
    return StationLimit(code, now, ", ".join(reasons) or LEVEL_WORDS[state.damage])


# ---------------------------------------------------------------------------------------------
# Recording a hit
# ---------------------------------------------------------------------------------------------
class _Recorded:
    """A dice source that remembers the faces it gave (the damage table's 1D)."""

    def __init__(self, source: DiceSource) -> None:
        self.source, self.faces = source, []

    def d6(self) -> int:
        face = self.source.d6()
        self.faces.append(face)
        return face


@dataclass(frozen=True)
class Hit:
    result: CraftDamage
    before: CraftState
    after: CraftState
    roll: DiceRoll | None

    @property
    def words(self) -> str:
        return RESULT_WORDS[self.result.level]


def record_hit(
    craft: Craft,
    actor,
    *,
    damage_roll: int,
    resist_roll: int,
    ruleset: RuleSet,
    ion: bool = False,
    shields_in_use: bool = False,
    rng: DiceSource | None = None,
) -> Hit:
    """The GM records a hit on a craft outside an encounter: read the campaign's damage chart
    with the damage and hull (body) totals, roll the 1D damage table (escalation included:
    a heavily damaged ship lightly damaged again is severely damaged, V24), store the new
    damage and the table's roll in the dice log, in one transaction with the craft locked.
    CraftRefused (with the reason) changes nothing."""
    for total in (damage_roll, resist_roll):
        if isinstance(total, bool) or not isinstance(total, int) or not 0 <= total <= 1000:
            raise CraftRefused("the damage and hull totals are whole numbers from 0 to 1000")
    with transaction.atomic():
        locked = Craft.objects.select_for_update().get(pk=craft.pk)
        stats, before = locked.stat_block, locked.damage_state
        if before.destroyed:
            raise CraftRefused(f"{locked.name} is destroyed already")
        shields_left = max(
            0, (stats.shields.dice if stats.shields else 0) - before.shield_dice_lost
        )
        try:
            result = craft_damage_result(
                damage_roll,
                resist_roll,
                ruleset=ruleset,
                shield_dice_left=shields_left,
                shields_in_use=shields_in_use,
                ion=ion,
            )
            dice = _Recorded(rng or SystemDice())
            after = apply_damage(before, result, stats, ruleset=ruleset, rng=dice)
        except RulesError as exc:
            raise CraftRefused(str(exc)) from None
        locked.damage = None if after == CraftState() else after.to_json()
        locked.save(update_fields=["damage"])
        record = None
        if dice.faces:
            table = roll_dice(
                DieCode(1),
                ruleset=ruleset.replace(wild_die=False),
                rng=FixedDice(dice.faces[:1]),
            )
            label = f"{locked.name}: damage table"
            record = DiceRoll.objects.create(
                campaign_id=locked.campaign_id,
                actor=actor,
                label=label if len(label) <= 120 else label[:119] + "…",
                code="1D",
                pool="1D",
                dice={
                    **table.to_json(),
                    "craft": locked.pk,
                    "hit": {"damage": damage_roll, "resist": resist_roll, "ion": ion},
                    "result": result.to_json(),
                    "weapons_die": dice.faces[1] if len(dice.faces) > 1 else None,
                    "before": before.to_json(),
                    "after": after.to_json(),
                },
                total=table.total,
            )
        live.bump(locked.campaign_id, public=True)
    return Hit(result, before, after, record)


def last_hit(craft: Craft) -> DiceRoll | None:
    """The craft's latest damage-table roll not yet undone (its dice keep the damage before
    and after the hit)."""
    return (
        DiceRoll.objects.filter(campaign_id=craft.campaign_id, dice__craft=craft.pk)
        .filter(dice__has_key="before")
        .exclude(dice__has_key="undone")
        .order_by("-created_at", "-pk")
        .first()
    )


def undo_last_hit(craft: Craft) -> CraftState:
    """The GM's cheap undo: put back the damage from before the last recorded hit, if nothing
    changed it since (a repair, an encounter, a cleared result). The roll stays in the dice
    log, marked undone. CraftRefused says why not."""
    with transaction.atomic():
        locked = Craft.objects.select_for_update().get(pk=craft.pk)
        record = last_hit(locked)
        if record is None:
            raise CraftRefused("no recorded hit to undo")
        if record.dice.get("after") != locked.damage_state.to_json():
            raise CraftRefused(
                "the damage changed since the last recorded hit: clear its results instead"
            )
        before = CraftState.from_json(record.dice["before"])
        locked.damage = None if before == CraftState() else before.to_json()
        locked.save(update_fields=["damage"])
        record.dice = {**record.dice, "undone": True}
        record.save(update_fields=["dice"])
        live.bump(locked.campaign_id, public=True)
    return before


def clear_damage(craft: Craft, key: str | None = None) -> None:
    """The GM clears one entry (a result he played out, a destroyed weapon replaced, the
    ionization worn off) or, with no key, all of the craft's damage (its open repair requests
    are cancelled with it)."""
    with transaction.atomic():
        locked = Craft.objects.select_for_update().select_related("campaign").get(pk=craft.pk)
        if key is None:
            locked.damage = None
            locked.repairs.filter(
                status__in=(RepairRequest.Status.OPEN, RepairRequest.Status.WORKING)
            ).update(
                status=RepairRequest.Status.CANCELLED,
                note="the GM cleared the damage",
                resolved_at=timezone.now(),
            )
        else:
            state = locked.damage_state
            ruleset = locked.campaign.ruleset
            keys = {e.key for e in damage_entries(state, locked.stat_block, ruleset=ruleset)}
            if key not in keys:
                raise CraftRefused("that damage is not on the craft any more")
            left = without_entry(state, key)
            locked.damage = None if left is None else left.to_json()
        locked.save(update_fields=["damage"])
        live.bump(locked.campaign_id, public=True)


# ---------------------------------------------------------------------------------------------
# Repairs
# ---------------------------------------------------------------------------------------------
def can_request_repair(membership, craft: Craft) -> bool:
    """The GM, the player who may edit the craft, or any player for a party craft."""
    return can_edit_craft(membership, craft) or craft.party


def repair_skill(stats: CraftStats, entry: str) -> str:
    """The engineer's repair skill: by the craft's piloting skill (space transports repair,
    starfighter repair, repulsorlift repair…), a starship's weapons by starship weapon repair."""
    if entry.startswith("weapon:") and stats.kind != "vehicle":
        return (
            "capital starship weapon repair"
            if stats.kind == "capital"
            else "starship weapon repair"
        )
    return REPAIR_SKILLS.get(piloting_skill(stats), "space transports repair")


@dataclass(frozen=True)
class Quote:
    entry: DamageEntry
    need: RepairRequirement
    cost: int

    @property
    def words(self) -> str:
        return f"{self.need.difficulty}, {self.cost:,} credits, " + REPAIR_FIRST_ROLL.format(
            minutes=self.need.first_roll_minutes
        )


def repair_quote(
    craft: Craft,
    key: str,
    *,
    ruleset: RuleSet,
    hired: int = 1,
    weapon_value: int | None = None,
    gm_cost: int | None = None,
    state: CraftState | None = None,
) -> Quote:
    """What repairing one entry takes (droids-and-equipment.md §5, E23-E28): the difficulty,
    the credits (a share of the craft's original value, of the weapon's own cost for a weapon;
    double or triple when hired) and the work before the first roll. A hyperdrive's cost is
    not in the sources: the GM's (``gm_cost``, 0 by default). CraftRefused says why not."""
    state = craft.damage_state if state is None else state
    stats = craft.stat_block
    if state.destroyed:
        raise CraftRefused(f"{craft.name} is destroyed: there is nothing left to repair")
    entry = next((e for e in damage_entries(state, stats, ruleset=ruleset) if e.key == key), None)
    if entry is None:
        raise CraftRefused(f"{craft.name} has no such damage to repair")
    if entry.system is None:
        raise CraftRefused(f"{entry.text}: not a repair; the GM clears it")
    if hired not in (1, 2, 3):
        raise CraftRefused("the work is the crew's own (1) or hired (2 or 3 times the cost)")
    value = weapon_value if entry.system == "weapon" else craft.value
    if entry.system in ("maneuverability", "moves", "shields", "drive") and value is None:
        raise CraftRefused(
            f"{craft.name}'s original value is not known: the GM sets it on the stat block"
        )
    if entry.system == "weapon" and value is None:
        raise CraftRefused("give the weapon's original cost: its repair is a share of it")
    try:
        need = repair_requirement(
            entry.system, entry.amount, ruleset=ruleset, base_value=value, hired_multiplier=hired
        )
    except RulesError as exc:
        raise CraftRefused(f"{entry.text}: {exc}") from None
    cost = need.credits if need.credits is not None else (gm_cost or 0)
    return Quote(entry, need, cost)


@dataclass(frozen=True)
class SheetQuote:
    """What the sheet shows of a repair before anyone asks for it: the difficulty, the share
    of the value, the credits when the value is known (None: not yet), the work first."""

    need: RepairRequirement | None
    cost: int | None
    refusal: str = ""


def sheet_quote(craft: Craft, entry: DamageEntry, *, ruleset: RuleSet) -> SheetQuote:
    if entry.system is None:
        return SheetQuote(None, None, "not a repair: the GM clears it when it is over")
    known = entry.system != "weapon" and craft.value is not None
    try:
        need = repair_requirement(
            entry.system,
            entry.amount,
            ruleset=ruleset,
            base_value=craft.value if known else 0,
        )
    except RulesError as exc:
        return SheetQuote(None, None, str(exc))
    return SheetQuote(need, need.credits if known else None)


def request_repair(
    membership,
    craft: Craft,
    key: str,
    *,
    payer: Character | None,
    hired: int = 1,
    weapon_value: int | None = None,
    gm_cost: int | None = None,
) -> RepairRequest:
    """Ask for a repair at the quoted difficulty and cost. CraftRefused says why not."""
    if not can_request_repair(membership, craft):
        raise CraftRefused(f"{craft.name} is not yours: its owner or the GM asks for repairs")
    if gm_cost is not None and not membership.is_gm:
        raise CraftRefused("only the GM sets a repair's cost by hand")
    if payer is not None:
        if payer.campaign_id != craft.campaign_id:
            raise CraftRefused("that character is not in this campaign")
        if not membership.is_gm and payer.owner_id != membership.user_id:
            raise CraftRefused("you can pay only with your own character")
    with transaction.atomic():
        locked = Craft.objects.select_for_update().get(pk=craft.pk)
        ruleset = locked.campaign.ruleset
        quote = repair_quote(
            locked, key, ruleset=ruleset, hired=hired, weapon_value=weapon_value, gm_cost=gm_cost
        )
        if quote.cost and payer is None:
            raise CraftRefused(f"say who pays the {quote.cost:,} credits")
        if payer is not None and payer.credits < quote.cost:
            raise CraftRefused(
                f"not enough Credits: {payer.name} holds {payer.credits:,}, "
                f"the repair costs {quote.cost:,}"
            )
        if locked.repairs.filter(
            status__in=(RepairRequest.Status.OPEN, RepairRequest.Status.WORKING), entry=key
        ).exists():
            raise CraftRefused("that damage already has an open repair request")
        request = RepairRequest.objects.create(
            craft=locked,
            entry=key,
            description=quote.entry.text[:200],
            requested_by=membership.user,
            difficulty=str(quote.need.difficulty),
            cost=quote.cost,
            minutes=quote.need.first_roll_minutes,
            hired=hired,
            payer=payer if quote.cost else None,
        )
        live.bump(locked.campaign_id, public=True)
    return request


def can_resolve_repair(membership, craft: Craft, engineer: Character | None) -> bool:
    """The GM, or the player of the character at the engineer station."""
    return membership.is_gm or (engineer is not None and engineer.owner_id == membership.user_id)


def engineer_of(craft: Craft) -> Character | None:
    station = craft.stations.filter(role="engineer").select_related("character").first()
    return station.character if station is not None else None


def default_difficulty_number(level: str, *, ruleset: RuleSet) -> int:
    """The top of the level's numbers: the GM may lower it within the level."""
    return number_range(parse_level(level), ruleset=ruleset)[1]


def resolve_repair(
    membership,
    request: RepairRequest,
    *,
    difficulty: int | None = None,
    pace: str = "normal",
    helpers: Sequence[Character] = (),
    rng: DiceSource | None = None,
) -> RepairRequest:
    """The engineer rolls the repair: his repair skill (or Technical) against a number of the
    quoted level, at the ``pace`` he works ([WIKI] rushed: half the time and half the skill;
    prepared: twice the time and +1D, not under the Rules Companion: E29), with ``helpers``
    combining ([RC] each adds a pip per die of his repair skill; at most as many as the highest
    skill's dice may combine: E34). Success: the damage
    is removed and the payer's credits debited through the ledger; failure: the damage stays,
    nothing is paid. All in one transaction with the craft and the request locked;
    CraftRefused (with the reason) changes nothing."""
    with transaction.atomic():
        craft = (
            Craft.objects.select_for_update().select_related("campaign").get(pk=request.craft_id)
        )
        locked = RepairRequest.objects.select_for_update().get(pk=request.pk)
        engineer = engineer_of(craft)
        if not can_resolve_repair(membership, craft, engineer):
            raise CraftRefused("only the GM or the engineer's player resolves a repair")
        if locked.status != RepairRequest.Status.OPEN:
            raise CraftRefused(f"that repair is {locked.get_status_display().lower()} already")
        if engineer is None:
            raise CraftRefused("nobody holds the engineer station: crew it first")
        ruleset = craft.campaign.ruleset
        state = craft.damage_state
        entries = {e.key: e for e in damage_entries(state, craft.stat_block, ruleset=ruleset)}
        if (
            state.destroyed
            or entries.get(locked.entry) is None
            or (entries[locked.entry].text[:200] != locked.description)
        ):
            raise CraftRefused("the damage changed since the request: cancel it and ask again")
        level = parse_level(locked.difficulty)
        low, high = number_range(level, ruleset=ruleset)
        number = high if difficulty is None else difficulty
        if not low <= number <= high:
            raise CraftRefused(f"a {level} repair has a difficulty from {low} to {high}")
        payer = None
        if locked.cost:
            payer = Character.objects.select_for_update().filter(pk=locked.payer_id).first()
            if payer is None:
                raise CraftRefused("the character who was to pay is gone: cancel and ask again")
            if payer.credits < locked.cost:
                raise CraftRefused(
                    f"not enough Credits: {payer.name} holds {payer.credits:,}, "
                    f"the repair costs {locked.cost:,}"
                )
        hand = Character.objects.select_for_update().get(pk=engineer.pk)
        skill_name = repair_skill(craft.stat_block, locked.entry)
        skill = Skill.objects.filter(character=hand, name__iexact=skill_name).first()
        code = skill.code if skill is not None else hand.technical
        code = _combined_work(craft, hand, code, skill_name, helpers, ruleset=ruleset)
        try:
            minutes, code = work_pace(locked.minutes, code, pace, ruleset=ruleset)
        except RulesError as exc:
            raise CraftRefused(str(exc)) from None
        label = f"{craft.name}: repair {locked.description}"
        if pace != "normal":
            label += f" ({pace})"
        try:
            record = roll_and_record(
                hand,
                membership.user,
                code,
                label=label if len(label) <= 120 else label[:119] + "…",
                ruleset=ruleset,
                attribute="technical",
                difficulty=number,
                rng=rng,
                details={
                    "craft": craft.pk,
                    "repair": locked.pk,
                    "skill": skill_name,
                    "pace": pace,
                    "minutes": minutes,
                    "helpers": [h.pk for h in helpers],
                },
                spent_on="repair",
            )
        except ValueError as exc:
            raise CraftRefused(str(exc)) from None
        locked.engineer, locked.roll, locked.resolved_at = hand, record, timezone.now()
        if record.succeeded:
            left = without_entry(state, locked.entry)
            craft.damage = None if left is None else left.to_json()
            craft.save(update_fields=["damage"])
            locked.status = RepairRequest.Status.DONE
            if locked.cost:
                try:
                    change_balance(
                        payer,
                        Currency.CREDITS,
                        -locked.cost,
                        f"Repair of {craft.name}: {locked.description}",
                        membership.user,
                        record,
                    )
                except LedgerError as exc:
                    raise CraftRefused(str(exc)) from None
        else:
            locked.status = RepairRequest.Status.FAILED
            locked.note = "the damage stays; another roll after 15 more minutes of work"
        locked.save()
        live.bump(craft.campaign_id, public=True)
    return locked


def _combined_work(
    craft: Craft,
    lead: Character,
    code: DieCode,
    skill_name: str,
    helpers: Sequence[Character],
    *,
    ruleset: RuleSet,
) -> DieCode:
    """The engineer's code with the helpers combining on the work: [RC] a pip per die of each
    helper's repair skill (or Technical), at most as many participants as the highest skill's
    dice (E34: five at 3D, three may combine: 3D+6). Second Edition combined work needs a
    command roll, which this page does not make: refused with the reason."""
    if not helpers:
        return code
    if ruleset.combined_actions != "rc_support":
        raise CraftRefused(
            "Second Edition combined work needs a command roll: roll it on the commander's "
            "sheet and let the engineer roll alone here"
        )
    ids = {h.pk for h in helpers} - {lead.pk}
    found = list(Character.objects.filter(pk__in=ids, campaign_id=craft.campaign_id))
    if len(found) != len(ids):
        raise CraftRefused("a helper is not a character of this campaign")
    skills = {
        s.character_id: s.code
        for s in Skill.objects.filter(character__in=found, name__iexact=skill_name)
    }
    codes = [skills.get(h.pk, h.technical) for h in found]
    limit = max_combining(max([code, *codes]), ruleset=ruleset)
    if 1 + len(codes) > limit:
        raise CraftRefused(
            f"at most {limit} may combine on this work (the highest skill's dice); "
            "the others can only coordinate"
        )
    return rc_combined_code(code, codes)


def cancel_repair(membership, request: RepairRequest) -> None:
    """Whoever asked for an open repair, or the GM, withdraws it."""
    if not (membership.is_gm or request.requested_by_id == membership.user_id):
        raise CraftRefused("only the GM or whoever asked for it cancels a repair")
    with transaction.atomic():
        locked = RepairRequest.objects.select_for_update().get(pk=request.pk)
        if locked.status != RepairRequest.Status.OPEN:
            raise CraftRefused(f"that repair is {locked.get_status_display().lower()} already")
        locked.status = RepairRequest.Status.CANCELLED
        locked.resolved_at = timezone.now()
        locked.save(update_fields=["status", "resolved_at"])
        live.bump(locked.craft.campaign_id, public=True)
