"""Fleet actions: battles between capital ships under the Rules Companion's capital ship
combat (capital-ships.md), as a state machine the app stores step by step.

Modules:

* :mod:`rules.fleet.state` — the battle (:class:`FleetState`) and each ship's template
  (:class:`FleetShip`, its :class:`Battery` of guns), built from a stat block with
  :func:`ship_from_stats`;
* :mod:`rules.fleet.commands` — the steps (add a ship, orders, evasion, shields, rerouting
  shield power, facing, firing a battery, ramming, the GM's damage correction, next round);
* :mod:`rules.fleet.events` — what a step reports (:class:`FleetEvent`, every die) and
  :func:`recorded_dice` for replay;
* :mod:`rules.fleet.engine` — :func:`apply` and :func:`replay`.

The rules are :mod:`rules.craft.capital` and :mod:`rules.craft.capital_tactics`; refusals
are :class:`FleetError` (a ``rules.RulesError``).
"""

from rules.fleet.commands import (
    COMMANDS,
    AddShip,
    AdjustDamage,
    ChangeFacing,
    Evade,
    FireBattery,
    FleetCommand,
    GiveOrders,
    NextRound,
    RaiseShields,
    Ram,
    RemoveShip,
    RerouteShields,
    command_from_json,
)
from rules.fleet.engine import action_code, apply, replay
from rules.fleet.events import FleetEvent, recorded_dice
from rules.fleet.state import MAX_SHIPS, Battery, FleetError, FleetShip, FleetState, ship_from_stats

__all__ = [
    "COMMANDS",
    "MAX_SHIPS",
    "AddShip",
    "AdjustDamage",
    "Battery",
    "ChangeFacing",
    "Evade",
    "FireBattery",
    "FleetCommand",
    "FleetError",
    "FleetEvent",
    "FleetShip",
    "FleetState",
    "GiveOrders",
    "NextRound",
    "RaiseShields",
    "Ram",
    "RemoveShip",
    "RerouteShields",
    "action_code",
    "apply",
    "command_from_json",
    "recorded_dice",
    "replay",
    "ship_from_stats",
]
