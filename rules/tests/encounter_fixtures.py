"""Shared set-up of the encounter engine's tests: Kira against blaster-rifle troopers, with
initiative won by the rebels and every combatant's actions declared."""

from __future__ import annotations

from rules.combat import WeaponRange
from rules.dice import DieCode, FixedDice
from rules.encounter import (
    AddCombatant,
    ChooseOrder,
    Combatant,
    DeclareActions,
    EncounterState,
    Weapon,
    replay,
)
from rules.ruleset import RuleSet

D = DieCode.parse
STD = RuleSet()
RIFLE = Weapon("blaster rifle", "5D", "blaster", "ranged", WeaponRange(3, 30, 100, 300))


def trooper(cid: str, side: str = "empire", **changes) -> Combatant:
    base = Combatant(
        id=cid,
        name=cid.title(),
        side=side,
        perception=D("2D"),
        dexterity=D("2D"),
        strength=D("2D"),
        skills=(("blaster", D("4D")), ("dodge", D("3D"))),
        weapon=RIFLE,
        npc=True,
    )
    return base.replace(**changes)


KIRA = trooper("kira", "rebels", perception=D("4D"), npc=False)


def fighting(*extra: Combatant) -> EncounterState:
    """Kira against trooper tk1 (and ``extra``), the rebels acting first, all declared 2.
    None of these steps rolls a die."""
    people = (KIRA, trooper("tk1"), *extra)
    steps = [AddCombatant(c) for c in people]
    state, _ = replay(EncounterState.new(), steps, ruleset=STD, rng=FixedDice([]))
    state = state.replace(initiative_winner="rebels", phase="order")
    steps = [ChooseOrder("rebels", first=True), *(DeclareActions(c.id, 2) for c in people)]
    state, _ = replay(state, steps, ruleset=STD, rng=FixedDice([]))
    return state
