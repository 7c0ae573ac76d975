"""Writes to a fleet action, each one transaction that locks the fleet action's row: start one
(:func:`start_fleet_action`), bring one of the campaign's capital ships in
(:func:`add_craft`), take a step (:func:`apply_step`), undo the last step
(:func:`undo_last_step`).

Every write names the ``expected_version`` the caller saw; a different version on the row means
someone else moved the battle on, and the write is refused with :class:`StaleFleetAction`.
Refusals are ``RulesError``s (the engine's :class:`~rules.fleet.FleetError` or
:class:`StaleFleetAction`); when one is raised nothing was changed. The rules are the engine's
(:mod:`rules.fleet`, which sequences :mod:`rules.craft.capital`): nothing here decides one."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from campaigns.models import Campaign
from characters.craft_models import Craft
from encounters.fleet_models import FleetAction, FleetStep
from encounters.step_json import has_nul, parse_step
from rules.craft import CraftError
from rules.dice import DiceSource, DieCode, DieCodeError, FixedDice
from rules.errors import RulesError
from rules.fleet import (
    AddShip,
    FleetError,
    FleetEvent,
    FleetState,
    apply,
    command_from_json,
    recorded_dice,
    replay,
    ship_from_stats,
)

__all__ = [
    "MAX_COMMAND_CHARS",
    "OPTION_OFF",
    "StaleFleetAction",
    "add_craft",
    "apply_step",
    "capital_craft",
    "fleet_actions_on",
    "start_fleet_action",
    "undo_last_step",
]

MAX_COMMAND_CHARS = 20_000
OPTION_OFF = (
    "this campaign does not use the Rules Companion's capital ship combat: the GM turns on "
    "“Fleet actions” in the campaign's rule options"
)


class StaleFleetAction(RulesError):
    """The battle moved on since the caller read it; ``fleet_action`` is the row as it is now."""

    def __init__(self, fleet_action: FleetAction, expected_version: int) -> None:
        self.fleet_action = fleet_action
        self.expected_version = expected_version
        super().__init__(
            "someone else moved the battle on; here it is as it is now "
            f"(version {fleet_action.version}, you saw {expected_version})"
        )


def fleet_actions_on(campaign: Campaign) -> bool:
    """Whether the campaign plays fleet actions (its ``capital_combat`` rule option)."""
    return campaign.ruleset.capital_combat == "rc"


def capital_craft(campaign: Campaign) -> list[Craft]:
    """The campaign's craft whose stat block is capital scale (the ships a battle can hold)."""
    found = []
    for craft in Craft.objects.filter(campaign=campaign).order_by("name", "pk"):
        try:
            stats = craft.stat_block
        except CraftError:
            continue
        if stats.kind == "capital" or stats.scale.key == "capital":
            found.append(craft)
    return found


def _clean_name(name: str) -> str:
    name = " ".join((name or "").split())
    if "\x00" in name:
        raise FleetError("a name cannot contain NUL characters")
    if not name:
        raise FleetError("give the fleet action a name")
    if len(name) > 120:
        raise FleetError("a fleet action's name has at most 120 characters")
    return name


def start_fleet_action(campaign: Campaign, name: str, actor: Any) -> FleetAction:
    """A new, empty battle in ``campaign`` at version 0; refused when the campaign's rules do
    not include capital ship combat."""
    if not fleet_actions_on(campaign):
        raise FleetError(OPTION_OFF)
    data = FleetState().to_json()
    return FleetAction.objects.create(
        campaign=campaign,
        name=_clean_name(name),
        state=data,
        initial_state=data,
        rule_options=campaign.rule_options,
        created_by=actor,
    )


def _locked(fleet_id: int, expected_version: int, campaign_id: int | None) -> FleetAction:
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise FleetError("say which version of the battle the step was taken on")
    rows = FleetAction.objects.select_for_update()
    if campaign_id is not None:
        rows = rows.filter(campaign_id=campaign_id)
    try:
        fleet = rows.get(pk=fleet_id)
    except FleetAction.DoesNotExist:
        raise FleetError(f"there is no fleet action {fleet_id!r}") from None
    if fleet.version != expected_version:
        raise StaleFleetAction(fleet, expected_version)
    return fleet


def apply_step(
    fleet_id: int,
    command_json: str | bytes | dict[str, Any],
    *,
    expected_version: int,
    actor: Any,
    rng: DiceSource,
    campaign_id: int | None = None,
) -> tuple[FleetAction, list[FleetEvent]]:
    """Take one step: lock the battle, check the version the caller saw, run the command
    through :func:`rules.fleet.apply` with the battle's ruleset and ``rng``, store the step
    with its events (every die) and the new state, version + 1. A refusal rolls everything
    back and is raised with its reason."""
    parsed = parse_step(command_json, error=FleetError, max_chars=MAX_COMMAND_CHARS)
    if has_nul(parsed):
        raise FleetError("a step's text cannot contain NUL characters")
    command = command_from_json(parsed)
    with transaction.atomic():
        fleet = _locked(fleet_id, expected_version, campaign_id)
        state, events = apply(fleet.current_state(), command, ruleset=fleet.ruleset, rng=rng)
        fleet.version += 1
        fleet.step_count += 1
        FleetStep.objects.create(
            fleet_action=fleet,
            number=fleet.step_count,
            command=command.to_json(),
            events=[e.to_json() for e in events],
            actor=actor,
        )
        fleet.state = state.to_json()
        fleet._state_value = (fleet.state, state)
        fleet.save(update_fields=["state", "version", "step_count", "updated_at"])
    return fleet, events


def _code(text: str | DieCode | None, what: str) -> DieCode | None:
    if text is None or text == "":
        return None
    try:
        code = DieCode.parse(text)
    except DieCodeError as exc:
        raise FleetError(f"{what}: {exc}") from None
    if code.dice < 1 or code.pips < 0 or code.dice > 20:
        raise FleetError(f"{what} must be between 1D and 20D, not {code}")
    return code


def add_craft(
    fleet_id: int,
    craft_id: int,
    *,
    side: str,
    crew: str | DieCode,
    expected_version: int,
    actor: Any,
    command: str | DieCode | None = None,
    campaign_id: int | None = None,
) -> tuple[FleetAction, list[FleetEvent]]:
    """One of the campaign's capital ships joins the battle on ``side``, its template built
    from its stat block with the crew code given (the officers take the crew code, the captain
    ``command`` when given)."""
    fleet = FleetAction.objects.only("campaign_id").filter(pk=fleet_id).first()
    if fleet is None or (campaign_id is not None and fleet.campaign_id != campaign_id):
        raise FleetError(f"there is no fleet action {fleet_id!r}")
    craft = Craft.objects.filter(pk=craft_id, campaign_id=fleet.campaign_id).first()
    if craft is None:
        raise FleetError("choose one of this campaign's capital ships")
    crew_code = _code(crew, "the crew code")
    if crew_code is None:
        raise FleetError("give the crew code (average crews are 3D+1 to 5D)")
    try:
        stats = craft.stat_block
    except CraftError as exc:
        raise FleetError(f"{craft.name}: {exc}") from None
    side = " ".join((side or "").split())
    if not side or len(side) > 40 or "\x00" in side:
        raise FleetError("name the ship's side in 1 to 40 characters")
    ship = ship_from_stats(
        stats,
        ship_id=f"s{FleetAction.objects.get(pk=fleet_id).step_count + 1}",
        side=side,
        crew=crew_code,
        name=craft.name,
        command=_code(command, "the captain's command"),
    )
    return apply_step(
        fleet_id,
        AddShip(ship).to_json(),
        expected_version=expected_version,
        actor=actor,
        rng=FixedDice([]),
        campaign_id=campaign_id,
    )


def undo_last_step(fleet_id: int, *, expected_version: int, actor: Any) -> FleetAction:
    """Undo the last step: replay the steps kept from the initial state with the dice they
    recorded, delete the last one, version + 1."""
    with transaction.atomic():
        fleet = _locked(fleet_id, expected_version, None)
        steps = list(fleet.steps.order_by("number"))
        if not steps:
            raise FleetError("there is no step to undo")
        kept = steps[:-1]
        events = [FleetEvent.from_json(e) for s in kept for e in s.events]
        state, _ = replay(
            FleetState.from_json(fleet.initial_state),
            [command_from_json(s.command) for s in kept],
            ruleset=fleet.ruleset,
            rng=FixedDice(recorded_dice(events)),
        )
        steps[-1].delete()
        fleet.version += 1
        fleet.step_count = len(kept)
        fleet.state = state.to_json()
        fleet._state_value = (fleet.state, state)
        fleet.save(update_fields=["state", "version", "step_count", "updated_at"])
    return fleet
