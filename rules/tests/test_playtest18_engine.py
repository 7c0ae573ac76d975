"""Engine defects a play-test of vehicles and starships in a fight found (issue 18), fixed:
severe weapon results in words, guns that are all out cannot fire, no arc for a craft itself."""

from __future__ import annotations

import pytest

from rules.craft import CraftState
from rules.dice import FixedDice
from rules.encounter import Attack, EncounterError, apply
from rules.encounter.craft import SetArc
from rules.encounter.craft_combat import _table_text
from rules.tests.test_encounter_craft import STD, dogfight


@pytest.mark.parametrize("result", ["all_severely_damaged", "all_destroyed"])
def test_the_log_says_a_severe_weapon_result_in_words(result):
    said = _table_text(CraftState(), CraftState(damage="severely", weapon_damage=(result,)))
    assert "_" not in said


@pytest.mark.parametrize("result", ["all_destroyed", "all_disabled"])
def test_a_craft_whose_weapons_are_all_out_cannot_fire_them(result):
    state = dogfight()
    tie = state.combatant("craft-2")
    broken = CraftState(damage="severely", weapon_damage=(result,))
    state = state.with_combatant(tie.replace(craft=tie.craft.replace(damage=broken)))
    state, _ = apply(state, SetArc("craft-2", "craft-1", "front"), ruleset=STD, rng=FixedDice([]))
    state = state.replace(order=("craft-2", *[c for c in state.order if c != "craft-2"]))
    with pytest.raises(EncounterError):
        apply(
            state,
            Attack("craft-2", "craft-1", difficulty=10, gun=0),
            ruleset=STD,
            rng=FixedDice([]),
        )


def test_a_craft_is_not_in_its_own_arc():
    with pytest.raises(EncounterError):
        apply(dogfight(), SetArc("craft-1", "craft-1", "front"), ruleset=STD, rng=FixedDice([]))
