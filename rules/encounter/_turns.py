"""Helpers every step module shares: which round the campaign plays, whether the round has
started, and taking a combatant's next declared action (with the refusals every action has)."""

from __future__ import annotations

from rules.encounter.state import Combatant, EncounterError, EncounterState
from rules.ruleset import RuleSet


def rc(ruleset: RuleSet) -> bool:
    """True when the campaign plays the Rules Companion's four-segment round (§9)."""
    return ruleset.combat_round == "rc_haste"


def in_round(state: EncounterState, what: str) -> None:
    if state.phase != "round":
        raise EncounterError(f"{what} waits until initiative is rolled and the order chosen")


def spend(
    state: EncounterState,
    combatant: str | Combatant,
    *,
    ruleset: RuleSet,
    combining: bool = False,
) -> Combatant:
    """The combatant after taking his next declared action, or the refusal. ``combatant`` is
    an id, or the combatant as already changed in this step (a second action in one step).
    A combatant in a combined action this round may only take part in one again
    (``combining``) or react (dice-and-core.md §8.1)."""
    in_round(state, "acting")
    c = state.combatant(combatant) if isinstance(combatant, str) else combatant
    if state.pending is not None:
        raise EncounterError("resolve the announced attack first")
    if state.blast is not None:
        raise EncounterError(f"the thrown {state.blast.name} goes off first: detonate it")
    if rc(ruleset) and state.segment != 3:
        raise EncounterError("[RC] actions are rolled in segment 3")
    if c.out_of_fight:
        raise EncounterError(f"{c.name} is out of the fight and cannot act")
    if c.lost_actions:
        raise EncounterError(f"{c.name} can take no more actions this round")
    if c.actions is None:
        raise EncounterError(f"{c.name} has not declared his actions this round")
    if not c.actions.remaining:
        raise EncounterError(f"{c.name} has no actions left this round")
    if c.combining and not combining:
        raise EncounterError(
            f"{c.name} is combining fire this round: apart from that he may only react"
        )
    return c.replace(actions=c.actions.take())


def actions_said(total: int, penalty: int) -> str:
    """ "1 action", "3 actions (−2D)": the count, and the penalty only when there is one."""
    said = f"{total} action{'' if total == 1 else 's'}"
    return f"{said} (−{penalty}D)" if penalty else said
