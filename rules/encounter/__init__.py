"""The encounter: the combat round as a pure state machine (combat.md §1–§8, §9, §11;
injuries-and-healing.md), shared by the tests, the GM's dashboard and the player view.

One entry point: ``apply(state, command, *, ruleset, rng) -> (state, events)``. Modules:

* :mod:`rules.encounter.state`: what is stored between steps (:class:`EncounterState`,
  :class:`Combatant`) and :class:`EncounterError`; the smaller values they hold
  (:class:`Weapon`, :class:`Reaction`, :class:`PendingAttack`) are in
  :mod:`rules.encounter.parts` and importable from ``state`` too;
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
* :mod:`rules.encounter.points`: Character Points and Force Points (a Force Point doubles
  every roll of the round it is spent in; not with CP in one round unless the campaign allows
  both); :mod:`rules.encounter.override`: the GM setting a number by hand;
* :mod:`rules.encounter.criticals` and :mod:`rules.encounter.house`: [HOUSE] critical injuries
  (:class:`CriticalTaken`), rolled on a damage roll's Wild Die 6, and what they change;
* :mod:`rules.encounter.blasts` and :mod:`rules.encounter.blast`: grenades and other
  explosives, thrown (:class:`Throw`, scatter) and set off (:class:`Detonate`, damage by blast
  band for each combatant the GM names; :class:`PendingBlast` in between);
* :mod:`rules.encounter.firing`, :mod:`rules.encounter.auto` and
  :mod:`rules.encounter.suppression`: [HOUSE] automatic fire (``Attack.fire_mode``, a weapon's
  ``burst``) and suppression fire (:class:`Suppress`), kept for the round in :class:`FireState`;
* :mod:`rules.encounter.position`, :mod:`rules.encounter.aim`,
  :mod:`rules.encounter.surprise` and :mod:`rules.encounter.declare`: where each combatant
  stands (:class:`SetPosition`; attacks take the stored range and cover), aiming
  (:class:`Aim`), surprise (:class:`Surprise`), the GM declaring for a group
  (:class:`DeclareAll`) and the [RC] full reaction declared with the actions;
* :mod:`rules.encounter.engine`: :func:`apply`, :func:`replay` (undo = replay without the
  last step), :func:`next_to_act` (the order of actions), :func:`is_due` and
  :func:`actions_left` (what the dashboard shows). The round's penalty dice on a combatant's
  rolls are :func:`penalty_dice`.
"""

from rules.encounter.blasts import Detonate, PendingBlast, Throw
from rules.encounter.commands import (
    COMMANDS,
    OVERRIDE_FIELDS,
    Act,
    AddCombatant,
    AddCombatants,
    Aim,
    Attack,
    ChooseOrder,
    Command,
    DeclareActions,
    DeclareAll,
    EndEncounter,
    EndRound,
    FirstAid,
    GMOverride,
    NextSegment,
    React,
    RemoveCombatant,
    ResolveAttack,
    RollInitiative,
    SetPosition,
    Surprise,
    command_from_json,
)
from rules.encounter.criticals import CriticalTaken
from rules.encounter.engine import actions_left, apply, is_due, next_to_act, replay
from rules.encounter.events import Event, plain_roll, recorded_dice
from rules.encounter.firing import FireState, Suppress, Suppression
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
    "Aim",
    "Attack",
    "ChooseOrder",
    "Combatant",
    "Command",
    "CriticalTaken",
    "DeclareActions",
    "DeclareAll",
    "Detonate",
    "EncounterError",
    "EncounterState",
    "EndEncounter",
    "EndRound",
    "Event",
    "FireState",
    "FirstAid",
    "GMOverride",
    "NextSegment",
    "PendingAttack",
    "PendingBlast",
    "React",
    "Reaction",
    "RemoveCombatant",
    "ResolveAttack",
    "RollInitiative",
    "SetPosition",
    "Suppress",
    "Suppression",
    "Surprise",
    "Throw",
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
