"""Surprise (combat.md §7, §9.2; CB-30, CB-31): :class:`~rules.encounter.Surprise`, what it
forbids while it lasts, and what the end of a round clears (surprise, [RC] full reactions,
aims: :func:`after_round`).

Who spotted whom (sneak against search or Perception, CA-18) is the GM's call; the engine
models the effect, by the campaign's ``surprise_mode``:

* ``first_action`` ([WIKI] 003: "their attackers can automatically take their first action
  before the 'surprised' side can act. The 'surprised' side cannot roll defense skills to dodge
  or parry this first action"): in round 1 the surprising side acts first with no initiative
  roll, and the surprised (``Surprise.surprised``, by default everyone on the other sides) can
  neither declare, act nor react until each of the surprising side still able to act has taken
  his first action; then the round goes on as usual. It is a first action, not a free round;
* ``rc_free_haste`` ([RC] "Surprise gives a character two free haste actions for the combat
  round. These actions do not lower any of his die codes."): each of the surprising side gets
  two haste actions in round 1 that do not count for the multiple-action penalty
  (``ActionCount.free``); the others play as usual.

Surprise is sprung in round 1 before anyone has acted or reacted ([RC] in segment 1), once.
"""

from __future__ import annotations

from rules.combat import ActionCount
from rules.encounter._turns import rc
from rules.encounter.aim import carry_aims
from rules.encounter.blasts import Throw
from rules.encounter.commands import (
    Act,
    Aim,
    Attack,
    Command,
    DeclareActions,
    FirstAid,
    NextSegment,
    React,
    Surprise,
)
from rules.encounter.events import Event
from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.ruleset import RuleSet

__all__ = [
    "SURPRISE_HASTE",
    "after_round",
    "check_step",
    "free_haste",
    "surprise",
    "surprise_holds",
]

SURPRISE_HASTE = 2
"""[RC] free haste actions surprise gives each of the surprising side."""


def surprise(
    state: EncounterState, cmd: Surprise, *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    """Side ``cmd.side`` springs a surprise (see the module)."""
    if state.round != 1:
        raise EncounterError("a surprise is sprung at the start of the fight, in round 1")
    if state.surprise is not None:
        raise EncounterError(f"side {state.surprise} has already sprung a surprise")
    acted = any(
        c.reactions or (c.actions is not None and (c.actions.used or c.actions.extra))
        for c in state.combatants
    )
    if state.pending is not None or (acted and not rc(ruleset)):
        raise EncounterError("round 1 has begun: a surprise comes before anyone acts")
    ambushers = [c for c in state.combatants if c.side == cmd.side and not c.out_of_fight]
    if not ambushers:
        raise EncounterError(f"nobody on side {cmd.side[:40]!r} is in the fight to spring it")
    if ruleset.surprise_mode == "rc_free_haste":
        return _rc_surprise(state, cmd, ruleset=ruleset)
    if rc(ruleset):
        raise EncounterError(
            "the Rules Companion round has no side order to put the surprising side first: "
            "its surprise is two free haste actions (surprise_mode = rc_free_haste)"
        )
    listed = cmd.surprised or tuple(
        c.id for c in state.combatants if c.side != cmd.side and not c.out_of_fight
    )
    for cid in listed:
        c = state.combatant(cid)
        if c.side == cmd.side:
            raise EncounterError(f"{c.name} is on side {c.side}, which springs the surprise")
    if not listed:
        raise EncounterError("nobody on another side is there to be surprised")
    sides = (cmd.side, *(s for s in state.side_order if s != cmd.side))
    sides += tuple(dict.fromkeys(c.side for c in state.combatants if c.side not in sides))
    ranked = sorted(state.combatants, key=lambda c: c.perception, reverse=True)
    order = tuple(c.id for side in sides for c in ranked if c.side == side)
    people = tuple(c.replace(surprised=c.id in listed) for c in state.combatants)
    new = state.replace(
        combatants=people,
        surprise=cmd.side,
        side_order=sides,
        order=order,
        phase="round",
        initiative_winner=cmd.side,
    )
    names = ", ".join(new.combatant(cid).name for cid in listed)
    text = (
        f"Side {cmd.side} springs a surprise and acts first: {names} can neither act nor react "
        "until each of them has taken his first action"
    )
    numbers = (
        ("side", cmd.side),
        ("mode", "first_action"),
        ("surprised", ",".join(listed)),
        ("order", ",".join(order)),
    )
    return new, [Event("surprise", None, text, numbers)]


def _rc_surprise(
    state: EncounterState, cmd: Surprise, *, ruleset: RuleSet
) -> tuple[EncounterState, list[Event]]:
    if not rc(ruleset):
        raise EncounterError(
            "free haste needs the Rules Companion round (combat_round = rc_haste); in the 2E "
            "round surprise is a first action (surprise_mode = first_action)"
        )
    if state.segment != 1:
        raise EncounterError("[RC] a surprise is sprung in segment 1, while actions are declared")
    if cmd.surprised:
        raise EncounterError(
            "[RC] surprise gives the side that springs it two free haste actions; the others "
            "play as usual: name no one as surprised"
        )
    people = tuple(
        free_haste(c, SURPRISE_HASTE) if c.side == cmd.side and c.actions else c
        for c in state.combatants
    )
    text = f"Side {cmd.side} springs a surprise: two free haste actions each this round"
    numbers = (("side", cmd.side), ("mode", "rc_free_haste"), ("free_haste", SURPRISE_HASTE))
    new = state.replace(combatants=people, surprise=cmd.side)
    return new, [Event("surprise", None, text, numbers)]


def free_haste(c: Combatant, haste: int) -> Combatant:
    """[RC] ``haste`` more haste actions that do not count for the multiple-action penalty."""
    a = c.actions
    if a is None:  # pragma: no cover - only declared combatants get it
        return c
    count = ActionCount(a.declared + haste, a.extra, a.used + haste, a.free + haste, a.full_auto)
    return c.replace(actions=count, haste=c.haste + haste)


def surprise_holds(state: EncounterState) -> bool:
    """2E: the surprise still holds: someone of the surprising side who can act has not yet
    taken his first action of round 1."""
    if state.surprise is None or state.round != 1:
        return False
    return any(
        c.side == state.surprise
        and not (c.out_of_fight or c.lost_actions)
        and (c.actions is None or c.actions.used == 0)
        for c in state.combatants
    )


def _actors(cmd: Command) -> tuple[str, ...]:
    match cmd:
        case DeclareActions() | Act() | React() | Aim():
            return (cmd.combatant,)
        case Attack():
            return (cmd.attacker, *cmd.others, *cmd.supporters, *filter(None, (cmd.commander,)))
        case FirstAid():
            return (cmd.healer,)
        case Throw():
            return (cmd.thrower,)
    return ()


def check_step(state: EncounterState, cmd: Command, *, ruleset: RuleSet) -> None:
    """Refuse, before anything else, a step the surprise or an [RC] full reaction forbids:
    a surprised combatant declaring, acting or reacting while the surprise holds; a combatant
    with a declared [RC] full reaction doing anything but haste and movement (``Act``) and
    rolling it; leaving segment 2 before every declared full reaction is rolled."""
    people = {c.id: c for c in state.combatants}
    actors = [people[a] for a in _actors(cmd) if a in people]
    if surprise_holds(state):
        for c in actors:
            if c.surprised:
                raise EncounterError(
                    f"{c.name} is surprised: he can neither declare, act nor react until each "
                    f"of side {state.surprise} has taken his first action"
                )
    if not rc(ruleset):
        return
    for c in actors:
        full = c.full_reaction
        if full and isinstance(cmd, Attack | Throw | FirstAid | Aim):
            raise EncounterError(
                f"{c.name} declared a full {full}: besides it he takes only haste and movement "
                "actions (§9.4)"
            )
        if full and isinstance(cmd, React) and not cmd.full:
            raise EncounterError(f"{c.name}'s full {full} is his reaction this round: roll it")
    if isinstance(cmd, NextSegment) and state.segment == 2:
        for c in state.combatants:
            if c.full_reaction and not c.reaction(c.full_reaction) and not c.out_of_fight:
                raise EncounterError(
                    f"roll {c.name}'s full {c.full_reaction} first (react with full), once its "
                    "haste is final"
                )


def after_round(
    before: EncounterState, after: EncounterState, events: list[Event]
) -> tuple[EncounterState, list[Event]]:
    """The end of a round, after the engine's: the surprise and [RC] full reactions end, aims
    carry into the next round or are lost (:func:`rules.encounter.aim.carry_aims`)."""
    after, lost = carry_aims(before, after)
    people = tuple(c.replace(surprised=False, full_reaction=None) for c in after.combatants)
    return after.replace(combatants=people, surprise=None), [*lost, *events]
