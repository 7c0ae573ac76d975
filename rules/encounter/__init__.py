"""The encounter: the combat round as a pure state machine (combat.md §1–§8, §9, §11;
injuries-and-healing.md), shared by the tests, the GM's dashboard and the player view.

One entry point: ``apply(state, command, *, ruleset, rng) -> (state, events)``. Modules:

* :mod:`rules.encounter.state`: what is stored between steps (:class:`EncounterState`,
  :class:`Combatant`, :class:`Weapon`, :class:`Reaction`, :class:`PendingAttack`) and
  :class:`EncounterError`;
* :mod:`rules.encounter.commands`: the steps (add or remove a combatant, roll initiative,
  choose the order, declare, act, attack, react, resolve, next segment, end the round or the
  encounter, GM override), stored as ``{"type": ..., ...}`` (:func:`command_from_json`);
* :mod:`rules.encounter.events`: :class:`Event` (numbers and every die) and
  :func:`recorded_dice` to replay the same dice;
* :mod:`rules.encounter.resolve`: rolls with the round's penalties and
  :func:`resolve_attack`, an announced attack from difficulty to wound in one call;
* :mod:`rules.encounter.group`: announcing an attack, alone, as group fire (several attackers,
  one target) or as combined fire (the supporters' bonus, the 2E command roll);
* :mod:`rules.encounter.aid`: first aid and medpacs in the fight, stabilising the dying;
* :mod:`rules.encounter.engine`: :func:`apply`, :func:`replay` (undo = replay without the
  last step), :func:`next_to_act` (the order of actions), :func:`is_due` and
  :func:`actions_left` (what the dashboard shows). The round's penalty dice on a combatant's
  rolls are :func:`penalty_dice`.
"""

from rules.encounter.commands import (
    COMMANDS,
    OVERRIDE_FIELDS,
    Act,
    AddCombatant,
    AddCombatants,
    Attack,
    ChooseOrder,
    Command,
    DeclareActions,
    EndEncounter,
    EndRound,
    FirstAid,
    GMOverride,
    NextSegment,
    React,
    RemoveCombatant,
    ResolveAttack,
    RollInitiative,
    command_from_json,
)
from rules.encounter.engine import actions_left, apply, is_due, next_to_act, replay
from rules.encounter.events import Event, plain_roll, recorded_dice
from rules.encounter.resolve import penalty_dice, resolve_attack, roll_for
from rules.encounter.state import (
    PHASES,
    Combatant,
    EncounterError,
    EncounterState,
    PendingAttack,
    Reaction,
    Weapon,
)

__all__ = [
    "COMMANDS",
    "OVERRIDE_FIELDS",
    "PHASES",
    "Act",
    "AddCombatant",
    "AddCombatants",
    "Attack",
    "ChooseOrder",
    "Combatant",
    "Command",
    "DeclareActions",
    "EncounterError",
    "EncounterState",
    "EndEncounter",
    "EndRound",
    "Event",
    "FirstAid",
    "GMOverride",
    "NextSegment",
    "PendingAttack",
    "React",
    "Reaction",
    "RemoveCombatant",
    "ResolveAttack",
    "RollInitiative",
    "Weapon",
    "actions_left",
    "apply",
    "command_from_json",
    "is_due",
    "next_to_act",
    "penalty_dice",
    "plain_roll",
    "recorded_dice",
    "replay",
    "resolve_attack",
    "roll_for",
]
