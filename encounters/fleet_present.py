"""What the fleet-action page shows, read from the engine: each ship's template (codes now,
the boxes of its rows, the Ship Damage pips and what they mean, its guns), the log, and the
reference tables the GM needs at hand (the Guns Modifier Chart, starfighter swarms, die caps).
Every number comes from :mod:`rules.craft` or :mod:`rules.fleet`."""

from __future__ import annotations

from typing import Any

from encounters.fleet_models import FleetStep
from rules.craft import (
    GUNS_MODIFIER_CHART,
    capital_die_cap,
    guns_modifier,
    reduce_by_pips,
    ship_damage_status,
    swarm_fighter_status,
    template_boxes,
)
from rules.dice import DieCode
from rules.fleet import FleetEvent, FleetShip, FleetState, action_code

LEVEL_WORDS = {
    "none": "undamaged",
    "damaged": "damaged",
    "heavily": "heavily damaged",
    "severely": "severely damaged",
    "destroyed": "destroyed",
}


def boxes(code: DieCode, columns: int = 4) -> dict[str, Any]:
    """A code as the paper template's row: three boxes a die, those above the code blacked out
    (CS-3: 2D+2 on a 4D row leaves 8 open)."""
    columns = max(columns, code.dice + (1 if code.pips else 0))
    open_, blacked = template_boxes(code, columns)
    return {
        "code": str(code),
        "open": open_,
        "blacked": blacked,
        "cells": [True] * open_ + [False] * blacked,
    }


def ship_row(ship: FleetShip) -> dict[str, Any]:
    """One ship's template as the page shows it."""
    status = ship_damage_status(ship.damage.ship_damage)
    batteries = []
    for number, battery in enumerate(ship.batteries, start=1):
        fire_control = ship.fire_control(battery)
        batteries.append(
            {
                "number": number,
                "name": battery.name,
                "guns": battery.guns,
                "usable": battery.usable,
                "wounded": battery.count(1),
                "incapacitated": battery.count(2),
                "destroyed": battery.count(3),
                "fire_control": boxes(fire_control),
                "damage": str(battery.damage),
                "ion": battery.ion,
                "fired": number - 1 in ship.fired,
            }
        )
    facings = [
        {
            "facing": f,
            "code": str(ship.facing_shields(f)),
            "burnt": f in ship.burnt,
            "boosted": f == ship.boosted,
        }
        for f in ("forward", "rear", "left", "right", "top", "bottom")
    ]
    return {
        "ship": ship,
        "level": status.level,
        "level_words": LEVEL_WORDS[status.level],
        "penalty": str(status.penalty),
        "pips": [n < ship.damage.ship_damage for n in range(9)],
        "shields": boxes(ship.shields_left, max(4, ship.shields.dice + 1)),
        "maneuver": str(reduce_by_pips(ship.maneuver, ship.damage.maneuver)),
        "sublight": str(reduce_by_pips(ship.sublight, ship.damage.sublight)),
        "evasion_code": str(
            action_code(
                ship,
                reduce_by_pips(ship.maneuver, ship.damage.maneuver).pool_add(ship.crew),
                "pilot",
            )
        ),
        "facings": facings,
        "batteries": batteries,
    }


def ship_rows(state: FleetState) -> list[dict[str, Any]]:
    return [ship_row(s) for s in state.ships]


def log_entries(steps: list[FleetStep]) -> list[dict[str, Any]]:
    """The steps, newest first, as their events' sentences."""
    entries = []
    for step in steps:
        events = [FleetEvent.from_json(e) for e in step.events]
        entries.append({"number": step.number, "texts": [e.text for e in events if e.text]})
    return entries


def guns_chart() -> list[tuple[int, str]]:
    """The Guns Modifier Chart (CS-2)."""
    return [(guns, str(guns_modifier(guns))) for guns, _ in GUNS_MODIFIER_CHART]


SWARMS = (4, 8, 12, 24)


def swarm_reference() -> dict[str, Any]:
    """Starfighters against capital ships: a swarm's guns modifier (CS-13), what damage points
    do to one starfighter of it (CS-14), and the capital ship's die cap on maneuver and shields
    against starfighters (CS-16)."""
    return {
        "swarms": [(n, str(guns_modifier(n))) for n in SWARMS],
        "points": [(n, swarm_fighter_status(n)) for n in (1, 2, 3)],
        "maneuver_cap": capital_die_cap("starfighter", "maneuver"),
        "shields_cap": capital_die_cap("starfighter", "shields"),
    }
