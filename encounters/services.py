"""Writes to an encounter, each one transaction that locks the encounter row: start it, take a
step (:func:`apply_step`), undo the last step (:func:`undo_last_step`), end it.

Every write names the ``expected_version`` the caller saw; a different version on the row means
someone else (another GM tab, a double click) moved the encounter on, and the write is refused
with :class:`StaleEncounter`, which carries the row as it is now. Refusals are ``RulesError``s
(the engine's :class:`~rules.encounter.EncounterError` or :class:`StaleEncounter`); when one is
raised nothing was changed."""

from __future__ import annotations

import json
from typing import Any

from django.db import transaction

from campaigns.models import Campaign
from encounters.models import Encounter, Step
from rules.dice import DiceSource, FixedDice
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
from rules.errors import RulesError

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


def _locked(encounter_id: int, expected_version: int) -> Encounter:
    """The encounter row, locked until the transaction ends, at the version the caller saw."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise EncounterError("say which version of the encounter the step was taken on")
    try:
        encounter = (
            Encounter.objects.select_for_update(of=("self",))
            .select_related("campaign")
            .get(pk=encounter_id)
        )
    except Encounter.DoesNotExist:
        raise EncounterError(f"there is no encounter {encounter_id!r}") from None
    if encounter.version != expected_version:
        raise StaleEncounter(encounter, expected_version)
    return encounter


def _parse(command_json: str | bytes | dict[str, Any]) -> Any:
    """The step as JSON data: a dict as it is, or JSON text parsed (bad JSON is refused)."""
    if isinstance(command_json, bytes | bytearray):
        try:
            command_json = command_json.decode("utf-8")
        except UnicodeDecodeError:
            raise EncounterError("the step is not UTF-8 text") from None
    if isinstance(command_json, str):
        if len(command_json) > MAX_COMMAND_CHARS:
            raise EncounterError(f"the step is longer than {MAX_COMMAND_CHARS} characters")
        try:
            return json.loads(command_json)
        except (ValueError, RecursionError) as exc:
            raise EncounterError(f"the step is not valid JSON ({exc})") from None
    return command_json


def apply_step(
    encounter_id: int,
    command_json: str | bytes | dict[str, Any],
    *,
    expected_version: int,
    actor: Any,
    rng: DiceSource,
) -> tuple[Encounter, list[Event]]:
    """Take one step: lock the encounter, check the version the caller saw and that it has not
    ended, run the command through :func:`rules.encounter.apply` with the fight's ruleset
    and ``rng``, store the step with its events and the new state, version + 1. A refusal
    (``RulesError``) rolls everything back and is raised with its reason."""
    with transaction.atomic():
        encounter = _locked(encounter_id, expected_version)
        if encounter.is_ended:
            raise EncounterError("the encounter has ended; no more steps can be taken")
        command = command_from_json(_parse(command_json))
        state, events = apply(
            encounter.current_state(), command, ruleset=encounter.ruleset, rng=rng
        )
        last = encounter.steps.order_by("-number").values_list("number", flat=True).first()
        Step.objects.create(
            encounter=encounter,
            number=(last or 0) + 1,
            command=command.to_json(),
            events=[e.to_json() for e in events],
            actor=actor,
        )
        encounter.state = state.to_json()
        encounter.status = _status(state)
        encounter.version += 1
        encounter.save(update_fields=["state", "status", "version", "updated_at"])
    return encounter, events


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
        kept = steps[:-1]
        commands = [command_from_json(s.command) for s in kept]
        events = [Event.from_json(e) for s in kept for e in s.events]
        state, _ = replay(
            EncounterState.from_json(encounter.initial_state),
            commands,
            ruleset=encounter.ruleset,
            rng=FixedDice(recorded_dice(events)),
        )
        steps[-1].delete()
        encounter.state = state.to_json()
        encounter.status = _status(state)
        encounter.version += 1
        encounter.save(update_fields=["state", "status", "version", "updated_at"])
    return encounter


def end_encounter(
    encounter_id: int, *, expected_version: int, actor: Any
) -> tuple[Encounter, list[Event]]:
    """End the fight: the ``end_encounter`` step, stored like any other; later steps are
    refused."""
    return apply_step(
        encounter_id,
        EndEncounter().to_json(),
        expected_version=expected_version,
        actor=actor,
        rng=FixedDice([]),
    )
