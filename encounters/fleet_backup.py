"""The fleet actions' part of a campaign backup (:mod:`campaigns.backup`, the format in
``docs/backup-format.md``): every fleet action with its steps. Registered by
``EncountersConfig.ready()`` after the encounters' parts.

A fleet action's state and steps name no row of the campaign (its ships are copies of the
craft's stat blocks, with ids ``s<n>`` of their own), so they are written as they are; each is
checked with the engine (``FleetState.from_json``, ``command_from_json``,
``FleetEvent.from_json``, ``RuleSet.from_json``) before anything is written."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from campaigns.backup import ENGINE_ERRORS, RULE_OPTIONS, JsonRule, Loader, Part, Problem, Table
from encounters.fleet_models import FleetAction, FleetStep
from rules.fleet import FleetEvent, FleetState, command_from_json


def _engine(reader: Callable[[Any], Any], what: str) -> Callable[[Any, Loader], Any]:
    def into(value: Any, loader: Loader) -> Any:
        try:
            reader(value)
        except ENGINE_ERRORS as exc:
            raise Problem(f"not {what} this server can read ({exc})") from None
        return value

    return into


def _events(value: Any) -> None:
    if not isinstance(value, list):
        raise Problem("a step's events are a list")
    for number, event in enumerate(value):
        try:
            FleetEvent.from_json(event)
        except ENGINE_ERRORS as exc:
            raise Problem(f"not an event this server can read ({exc})", f"[{number}]") from None


STATE = JsonRule(into=_engine(FleetState.from_json, "a fleet action's state"))

PARTS = (
    Part(
        "fleet_actions",
        Table(
            FleetAction,
            (
                "name",
                "state",
                "initial_state",
                "rule_options",
                "version",
                "step_count",
                "created_by",
                "created_at",
            ),
            json={"state": STATE, "initial_state": STATE, "rule_options": RULE_OPTIONS},
            children={
                "fleet_steps": Table(
                    FleetStep,
                    ("number", "command", "events", "actor", "created_at"),
                    parent="fleet_action",
                    json={
                        "command": JsonRule(into=_engine(command_from_json, "a fleet step")),
                        "events": JsonRule(into=_engine(_events, "events")),
                    },
                    unique=(("number",),),
                )
            },
        ),
        rows=lambda campaign: campaign.fleet_actions.all(),
    ),
)
"""Registered by ``EncountersConfig.ready()`` after the encounters' parts."""
