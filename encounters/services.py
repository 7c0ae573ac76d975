"""Writes to an encounter, each one transaction that locks the encounter row: start it, take a
step (:func:`apply_step`), undo the last step (:func:`undo_last_step`), end it.

Every write names the ``expected_version`` the caller saw; a different version on the row means
someone else (another GM tab, a double click) moved the encounter on, and the write is refused
with :class:`StaleEncounter`, which carries the row as it is now. Refusals are ``RulesError``s
(the engine's :class:`~rules.encounter.EncounterError` or :class:`StaleEncounter`); when one is
raised nothing was changed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import transaction

from campaigns.models import Campaign
from characters.craft_models import Craft
from characters.healing import carry_criticals
from characters.models import Character, DiceRoll, Item
from characters.services import LedgerError, change_balance
from encounters.combatants import character_id_of
from encounters.models import Encounter, Step
from encounters.step_json import has_nul, parse_step
from encounters.steps import EVERYONE, may_skip_ahead, spends, touched
from rules.combat import RangeBand, range_difficulty
from rules.craft import CraftState
from rules.dice import DiceSource, FixedDice, SystemDice
from rules.encounter import (
    EncounterError,
    EncounterState,
    EndEncounter,
    Event,
    apply,
    command_from_json,
    recorded_dice,
    replay,
)
from rules.equipment import gear_must_roll, gear_survives
from rules.equipment.repairs import HOUSE_SEVERE_WOUND_DICE
from rules.errors import RulesError
from rules.injuries import expire_stuns

__all__ = [
    "MAX_COMMAND_CHARS",
    "StaleEncounter",
    "apply_step",
    "end_encounter",
    "start_encounter",
    "undo_last_step",
]

MAX_COMMAND_CHARS = 100_000
"""A step sent as JSON text longer than this is refused before parsing."""


class StaleEncounter(RulesError):
    """The encounter moved on since the caller read it; ``encounter`` is the row as it is now
    (its state and version), for the view to show instead."""

    def __init__(self, encounter: Encounter, expected_version: int) -> None:
        self.encounter = encounter
        self.expected_version = expected_version
        super().__init__(
            "someone else moved the encounter on; here is the new state "
            f"(version {encounter.version}, you saw {expected_version})"
        )


def _status(state: EncounterState) -> str:
    return Encounter.Status.ENDED if state.phase == "ended" else Encounter.Status.ACTIVE


def start_encounter(
    campaign: Campaign, name: str, actor: Any, *, state: EncounterState | None = None
) -> Encounter:
    """A new encounter in ``campaign`` starting from ``state`` (by default an empty one, in
    segment 1 when the campaign plays the Rules Companion round), at version 0."""
    name = " ".join((name or "").split())
    if "\x00" in name:
        raise EncounterError("an encounter's name cannot contain NUL characters")
    if not name:
        raise EncounterError("give the encounter a name")
    max_length = Encounter._meta.get_field("name").max_length or 0
    if len(name) > max_length:
        raise EncounterError(f"an encounter's name has at most {max_length} characters")
    if state is None:
        state = EncounterState.new(rc_round=campaign.ruleset.combat_round == "rc_haste")
    if not isinstance(state, EncounterState):
        raise EncounterError("an encounter starts from an EncounterState")
    data = state.to_json()
    return Encounter.objects.create(
        campaign=campaign,
        name=name,
        status=_status(state),
        state=data,
        initial_state=data,
        rule_options=campaign.rule_options,
        version=0,
        created_by=actor,
    )


def _locked(
    encounter_id: int,
    expected_version: int,
    campaign_id: int | None = None,
    data: dict[str, Any] | None = None,
) -> Encounter:
    """The encounter row (of ``campaign_id`` when given), locked until the transaction ends,
    at the version the caller saw — or later, when the step (``data``) acts only on combatants
    nothing since has touched (:func:`encounters.steps.may_skip_ahead`)."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise EncounterError("say which version of the encounter the step was taken on")
    rows = Encounter.objects.select_for_update(of=("self",)).defer("initial_state")
    if campaign_id is not None:
        rows = rows.filter(campaign_id=campaign_id)
    try:
        encounter = rows.get(pk=encounter_id)
    except Encounter.DoesNotExist:
        raise EncounterError(f"there is no encounter {encounter_id!r}") from None
    if encounter.version != expected_version:
        if data is None or not encounter.undone_at <= expected_version < encounter.version:
            raise StaleEncounter(encounter, expected_version)
        later = encounter.steps.filter(version__gt=expected_version).values_list(
            "touched", flat=True
        )
        if not may_skip_ahead(data, list(later)):
            raise StaleEncounter(encounter, expected_version)
    return encounter


Check = Callable[[dict[str, Any], EncounterState], str | None]
"""Asked inside the lock with the step's JSON and the state it is taken on: a reason to refuse
it (a player acting for someone else's combatant), or None."""


def _charge(state: EncounterState, data: dict[str, Any], actor: Any, *, sign: int) -> None:
    """Debit (``sign`` -1) or refund (+1) the Character Points and Force Points the step spends
    from the sheets of the characters who spend them, through the ledger, in the caller's
    transaction. Combatants from a quick stat block have no sheet and spend freely."""
    for spend in spends(data, state):
        character_id = character_id_of(spend.combatant)
        if character_id is None:
            continue
        reason = spend.reason if sign < 0 else f"Undone: {spend.reason}"
        try:
            change_balance(character_id, spend.currency, sign * spend.amount, reason, actor)
        except LedgerError as exc:
            name = state.combatant(spend.combatant).name
            raise EncounterError(f"{name}: {exc}") from None


def _standard_difficulty(data: Any, encounter: Encounter, state: EncounterState) -> Any:
    """An attack announced with a range band (its own, or the target's the GM placed) and no
    number (a player's) takes the band's standard difficulty, the top of its span, the number
    its odds were shown against."""
    if not (isinstance(data, dict) and data.get("type") == "attack"):
        return data
    if data.get("difficulty") is not None:
        return data
    band = data.get("range_band")
    if not band:
        target = next((c for c in state.combatants if c.id == data.get("target")), None)
        band = target.range_band if target is not None else None
    if isinstance(band, str) and band in {b.value for b in RangeBand} and band != "out_of_range":
        level = range_difficulty(band, ruleset=encounter.ruleset)
        return {**data, "difficulty": level.high}
    return data


def apply_step(
    encounter_id: int,
    command_json: str | bytes | dict[str, Any],
    *,
    expected_version: int,
    actor: Any,
    rng: DiceSource,
    check: Check | None = None,
    campaign_id: int | None = None,
) -> tuple[Encounter, list[Event]]:
    """Take one step: lock the encounter, check the version the caller saw, that it has not
    ended and that ``check`` allows it, run the command through :func:`rules.encounter.apply`
    with the fight's ruleset and ``rng``, debit the Character Points and Force Points it
    spends from the sheets (the ledger), store the step with its events and the new state,
    version + 1. A refusal (``RulesError``) rolls everything back and is raised with its
    reason."""
    parsed = parse_step(command_json, error=EncounterError, max_chars=MAX_COMMAND_CHARS)
    if has_nul(parsed):
        raise EncounterError("a step's text cannot contain NUL characters")
    asked = command_from_json(parsed)
    with transaction.atomic():
        encounter = _locked(encounter_id, expected_version, campaign_id, asked.to_json())
        if encounter.is_ended:
            raise EncounterError("the encounter has ended; no more steps can be taken")
        before = encounter.current_state()
        if check is not None:
            reason = check(asked.to_json(), before)  # what was asked, before any default
            if reason:
                raise EncounterError(reason)
        command = command_from_json(_standard_difficulty(parsed, encounter, before))
        data = command.to_json()
        state, events = apply(before, command, ruleset=encounter.ruleset, rng=rng)
        _charge(before, data, actor, sign=-1)
        stored = events
        changed = touched(data, [e.to_json() for e in events], before)
        encounter.version += 1
        encounter.step_count += 1
        Step.objects.create(
            encounter=encounter,
            number=encounter.step_count,
            version=encounter.version,
            command=command.to_json(),
            events=[e.to_json() for e in stored],
            touched=sorted(changed) if changed is not None else [EVERYONE],
            actor=actor,
        )
        encounter.keep_state(state)
        encounter.status = _status(state)
        encounter.save(update_fields=["state", "status", "version", "step_count", "updated_at"])
        sync_craft_damage(encounter.campaign_id, before, state)
    return encounter, events


def sync_craft_damage(campaign_id: int, before: EncounterState, after: EncounterState) -> None:
    """The campaign's craft whose damage a step changed take it onto their sheets in the same
    transaction (one query per changed craft; none for a step that touched no craft), so the
    ship sheet shows the result and its limit while the fight goes on; an undo puts it back."""
    old = {c.id: c.craft for c in before.combatants if c.craft is not None}
    for c in after.combatants:
        part, was = c.craft, old.get(c.id)
        if part is None or part.craft_id is None or (was is not None and was.damage == part.damage):
            continue
        damage = part.damage
        stored = None if damage == CraftState() else damage.to_json()
        Craft.objects.filter(pk=part.craft_id, campaign_id=campaign_id).update(damage=stored)


def undo_last_step(encounter_id: int, *, expected_version: int, actor: Any) -> Encounter:
    """Undo the last step: replay the stored steps without it from the initial state with the
    dice they recorded, delete it, version + 1. An ended encounter cannot be undone."""
    with transaction.atomic():
        encounter = _locked(encounter_id, expected_version)
        if encounter.is_ended:
            raise EncounterError("the encounter has ended; its steps can no longer be undone")
        steps = list(encounter.steps.order_by("number"))
        if not steps:
            raise EncounterError("there is no step to undo")
        now = encounter.current_state()
        kept = steps[:-1]
        commands = [command_from_json(s.command) for s in kept]
        events = [Event.from_json(e) for s in kept for e in s.events]
        state, _ = replay(
            EncounterState.from_json(encounter.initial_state),
            commands,
            ruleset=encounter.ruleset,
            rng=FixedDice(recorded_dice(events)),
        )
        _charge(state, steps[-1].command, actor, sign=+1)
        steps[-1].delete()
        encounter.status = _status(state)
        encounter.version += 1
        encounter.keep_state(state)
        sync_craft_damage(encounter.campaign_id, now, state)
        encounter.undone_at = encounter.version
        encounter.step_count = len(kept)
        encounter.save(
            update_fields=["state", "status", "version", "undone_at", "step_count", "updated_at"]
        )
    return encounter


def end_encounter(
    encounter_id: int, *, expected_version: int, actor: Any, rng: DiceSource | None = None
) -> tuple[Encounter, list[Event]]:
    """End the fight: the ``end_encounter`` step, stored like any other (later steps are
    refused), and the aftermath in the same transaction: each character's wounds and the stuns
    still in force go to his sheet, the medpacs used on first aid come off the healer's gear,
    and [HOUSE] the weapons of a character a blast wounded −3D in one hit roll their Body
    (``rng``; :func:`_blasted_gear`)."""
    with transaction.atomic():
        encounter, events = apply_step(
            encounter_id,
            EndEncounter().to_json(),
            expected_version=expected_version,
            actor=actor,
            rng=FixedDice([]),
        )
        _aftermath(encounter)
        _blasted_gear(encounter, actor=actor, rng=rng or SystemDice())
    return encounter, events


def _blasted_gear(encounter: Encounter, *, actor: Any, rng: DiceSource) -> None:
    """[HOUSE] (droids-and-equipment.md §8, E35): a character wounded −3D in one hit (the House
    mortally wounded) by an area blast has all his equipment roll Body against the damage.
    Weapons roll 2D (the campaign's default weapon Strength) unless noted; other gear has no
    Body on the sheet, so only weapons roll (the GM rules on the rest). Each roll is stored in
    the dice log; a weapon that fails is destroyed (one fewer carried, noted on the item).
    Character Points to save an item are a player's choice this page does not offer yet."""
    ruleset = encounter.ruleset
    if not gear_must_roll(HOUSE_SEVERE_WOUND_DICE, ruleset=ruleset, area_effect=True):
        return
    hits: list[tuple[int, int]] = []
    for step in encounter.steps.filter(command__type="detonate").order_by("number"):
        for event in step.events:
            numbers = event.get("numbers") or {}
            if event.get("kind") != "damage" or numbers.get("result") != "mortally_wounded":
                continue
            pk = character_id_of(str(event.get("combatant", "")))
            if pk is not None:
                hits.append((pk, int(numbers.get("damage_total") or 0)))
    for pk, damage in hits:
        weapons = Item.objects.select_for_update().filter(
            character_id=pk,
            character__campaign_id=encounter.campaign_id,
            kind=Item.Kind.WEAPON,
            quantity__gt=0,
        )
        for item in weapons:
            check = gear_survives(damage, None, ruleset=ruleset, rng=rng, weapon=True)
            DiceRoll.objects.create(
                campaign_id=encounter.campaign_id,
                character_id=pk,
                actor=actor,
                label=f"{item.name}: Body against the blast's {damage}"[:120],
                code=str(check.roll.code),
                pool=str(check.roll.pool),
                dice={**check.roll.to_json(), "item": item.pk, "encounter": encounter.pk},
                total=check.roll.total,
                difficulty=damage,
            )
            if not check.survived:
                item.quantity -= 1
                item.notes = f"{item.notes} · one destroyed in {encounter.name}".strip(" ·")[:200]
                item.save(update_fields=["quantity", "notes"])


def _aftermath(encounter: Encounter) -> None:
    state = encounter.current_state()
    ruleset = encounter.ruleset
    by_id = {character_id_of(c.id): c for c in state.combatants}
    by_id.pop(None, None)
    characters = Character.objects.select_for_update().filter(
        campaign_id=encounter.campaign_id, pk__in=list(by_id)
    )
    today = Campaign.objects.only("game_day").get(pk=encounter.campaign_id).game_day
    for character in characters:
        wounds = expire_stuns(by_id[character.pk].wounds, state.round, ruleset=ruleset)
        if wounds != character.wound_state:
            character.set_wound_state(wounds)
            character.save(update_fields=["wound_level", "stun_state", "updated_at"])
        # [HOUSE] criticals carried to the sheet with their deadlines (characters.healing).
        taken = [k.to_json() for k in by_id[character.pk].criticals]
        if taken and carry_criticals(character, taken, day=today):
            character.save(update_fields=["criticals", "updated_at"])
    medpacs: dict[int, int] = {}
    for step in encounter.steps.filter(command__type="first_aid"):
        healer = character_id_of(str(step.command.get("healer", "")))
        used = sum(int(e["numbers"].get("medpacs_used") or 0) for e in step.events)
        if healer in by_id and used:
            medpacs[healer] = medpacs.get(healer, 0) + used
    for character_id, used in medpacs.items():
        for item in Item.objects.select_for_update().filter(
            character_id=character_id, name__icontains="medpac", quantity__gt=0
        ):
            taken = min(used, item.quantity)
            item.quantity -= taken
            item.save(update_fields=["quantity"])
            used -= taken
            if not used:
                break
