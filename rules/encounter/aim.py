"""Aiming (dice-and-core.md §6, combat.md §4.6, D-26, CB-45): :class:`~rules.encounter.Aim`.

The sources: [WIKI] "A character willing to spend twice as long to complete a task receives a
+1D bonus for the die roll. The character can do nothing else in this time … Preparing is often
used for Blaster by aiming at a target for an extra round." [RC] "Preparing an action lets a
character increase one skill code by 1D on the next combat round. During the round that a
character prepares, he can do nothing else." So the engine gives:

* aiming takes the whole round: it is the one action he declares (2E: taken in the round like
  any action; [RC] declared in segment 1 with no haste, as preparation must be);
* +1D (:data:`~rules.encounter.state.AIM_BONUS`), once: neither source adds more for more
  rounds, so aiming again only renews the aim;
* on his next attack at that target, in the next round; the attack roll includes it and the
  attack's events say so (``aim_bonus``). Any attack he makes spends the aim, whoever it is at;
* lost when he does anything else in the round he aims (a reaction) or is wounded or knocked
  out in it (he loses his actions), and when the next round ends without the shot.
"""

from __future__ import annotations

from dataclasses import replace

from rules.encounter._turns import in_round, rc, spend
from rules.encounter.commands import Aim
from rules.encounter.events import Event, Scalar
from rules.encounter.state import AIM_BONUS, Combatant, EncounterError, EncounterState
from rules.ruleset import RuleSet

__all__ = ["aim", "carry_aims", "take_aims"]


def aim(state: EncounterState, cmd: Aim, *, ruleset: RuleSet) -> tuple[EncounterState, list[Event]]:
    """He spends his round aiming at the target (his only action of the round)."""
    target = state.combatant(cmd.target)
    c = state.combatant(cmd.combatant)
    if target.id == c.id:
        raise EncounterError("a combatant cannot aim at himself")
    c = _rc_prepare(state, c) if rc(ruleset) else spend(state, c.id, ruleset=ruleset)
    actions = c.actions
    if actions is None:  # pragma: no cover - spend and _rc_prepare refuse it
        raise EncounterError(f"{c.name} has not declared his actions this round")
    if actions.total != 1 or c.reactions:
        raise EncounterError(
            f"aiming takes {c.name}'s whole round: he declares 1 action and does nothing else "
            f"(he has {actions.total} actions and {len(c.reactions)} reactions this round)"
        )
    c = c.replace(aim_target=target.id, aim_round=state.round)
    numbers: tuple[tuple[str, Scalar], ...] = (
        ("target", target.id),
        ("aim_bonus", AIM_BONUS.signed()),
        ("round", state.round),
        ("actions_left", actions.remaining),
    )
    text = f"{c.name} aims at {target.name}: {AIM_BONUS.signed()} on his next attack at him"
    return state.with_combatant(c), [Event("aim", c.id, text + " next round", numbers)]


def _rc_prepare(state: EncounterState, c: Combatant) -> Combatant:
    """[RC] preparation is declared in segment 1: his one declared action, with no haste."""
    in_round(state, "aiming")
    if state.segment != 1:
        raise EncounterError("[RC] aiming is preparation: it is declared in segment 1")
    if c.out_of_fight or c.lost_actions:
        raise EncounterError(f"{c.name} cannot act this round")
    if c.actions is None:
        raise EncounterError(f"{c.name} declares his 1 action before aiming")
    if c.haste or c.full_reaction:
        raise EncounterError(f"{c.name} aims and does nothing else: no haste, no full reaction")
    if not c.actions.remaining:
        raise EncounterError(f"{c.name} is already aiming this round")
    return c.replace(actions=c.actions.take())


def _ready(c: Combatant, target: str, now_round: int) -> bool:
    return c.aim_target == target and c.aim_round == now_round - 1


def take_aims(
    before: EncounterState, after: EncounterState
) -> tuple[EncounterState, tuple[tuple[str, Scalar], ...]]:
    """After an attack is announced (``after.pending``): the firers (lead and group firers)
    who aimed at its target last round roll +1D (``pending.aimed``); every firer's aim is
    spent, used or not. The numbers for the announcing event: who aimed and the lead's bonus."""
    p = after.pending
    if p is None:  # pragma: no cover - announcing always leaves the attack pending
        return after, ()
    aimed = tuple(
        f for f in (p.attacker, *p.others) if _ready(before.combatant(f), p.target, before.round)
    )
    for f in (p.attacker, *p.others, *p.supporters):
        c = after.combatant(f)
        if c.aim_target is not None:
            after = after.with_combatant(c.replace(aim_target=None, aim_round=0))
    after = after.replace(pending=replace(p, aimed=aimed))
    lead = AIM_BONUS.signed() if p.attacker in aimed else None
    return after, (("aimed", ",".join(aimed) or None), ("aim_bonus", lead))


def carry_aims(before: EncounterState, after: EncounterState) -> tuple[EncounterState, list[Event]]:
    """At the end of a round (``before`` the round ended, ``after`` the next round's state):
    an aim taken this round carries into the next unless he reacted or lost his actions in it;
    an aim from the round before, unused, is gone."""
    events: list[Event] = []
    for old in before.combatants:
        if old.aim_target is None:
            continue
        extra = old.actions.extra if old.actions is not None else 0
        spoilt = old.lost_actions or old.out_of_fight or bool(old.reactions) or bool(extra)
        if old.aim_round == before.round and not spoilt:
            continue
        c = after.combatant(old.id)
        after = after.with_combatant(c.replace(aim_target=None, aim_round=0))
        why = "he did not fire the round after"
        if old.aim_round == before.round:
            why = "he reacted or lost his actions in the round he aimed"
        text = f"{old.name}'s aim is lost: {why}"
        events.append(Event("aim_lost", old.id, text, (("target", old.aim_target),)))
    return after, events
