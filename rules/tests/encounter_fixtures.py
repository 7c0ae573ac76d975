"""Shared set-up of the encounter engine's tests: Kira against blaster-rifle troopers, with
initiative won by the rebels and every combatant's actions declared."""

from __future__ import annotations

import pytest

from rules.combat import WeaponRange
from rules.dice import DieCode, FixedDice, SeededDice
from rules.encounter import (
    AddCombatant,
    ChooseOrder,
    Combatant,
    Command,
    DeclareActions,
    EncounterError,
    EncounterState,
    Weapon,
    apply,
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


class Counting:
    """Seeded dice that keep every face they hand out (to see that a refused step drew none
    and that the events recorded all of them)."""

    def __init__(self, seed: int = 1) -> None:
        self.rng = SeededDice(seed)
        self.drawn: list[int] = []

    def d6(self) -> int:
        self.drawn.append(self.rng.d6())
        return self.drawn[-1]


def ready(*people: tuple[Combatant, int], first: str = "empire") -> EncounterState:
    """A 2E encounter in its round: ``people`` joined in this order, side ``first`` acting
    first, each having declared the given number of actions (0: not declared). No step rolls
    a die."""
    state, _ = replay(
        EncounterState.new(),
        [AddCombatant(c) for c, _ in people],
        ruleset=STD,
        rng=FixedDice([]),
    )
    state = state.replace(initiative_winner=first, phase="order")
    steps = [ChooseOrder(first), *(DeclareActions(c.id, n) for c, n in people if n)]
    state, _ = replay(state, steps, ruleset=STD, rng=FixedDice([]))
    return state


def assert_refused(
    state: EncounterState, command: Command, message: str, ruleset: RuleSet = STD
) -> None:
    """``apply`` refuses the step with ``message`` before drawing any die; the state given is
    unchanged."""
    before = state.to_json()
    dice = Counting()
    with pytest.raises(EncounterError, match=message):
        apply(state, command, ruleset=ruleset, rng=dice)
    assert dice.drawn == []
    assert state.to_json() == before
