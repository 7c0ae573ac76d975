"""A ship's damage as stored values: an app keeps a craft's or capital ship's damage state (and
the results of hits) between steps as JSON and gets back exactly what it stored; anything else
is refused with a CraftError."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.craft import (
    CapitalDamage,
    CapitalState,
    CraftDamage,
    CraftError,
    CraftState,
    CraftStats,
    apply_capital_damage,
    apply_damage,
    craft_damage_result,
)
from rules.dice import DieCode, SeededDice
from rules.ruleset import RuleSet
from rules.scale import Scale

UPG = RuleSet()
RC = RuleSet.preset("rc")
FREIGHTER = CraftStats(
    "Test freighter",
    "starship",
    Scale.STARFIGHTER,
    maneuverability=DieCode(2),
    hull=DieCode(4),
    shields=DieCode(2),
)

counts = st.integers(0, 50)
texts = st.lists(st.text(max_size=40), max_size=4).map(tuple)
craft_states = st.builds(
    CraftState,
    damage=st.sampled_from(["none", "lightly", "heavily", "severely", "destroyed"]),
    maneuverability_lost=counts,
    moves_lost=counts,
    shield_dice_lost=counts,
    controls_ionized=counts,
    dead_controls=st.booleans(),
    hyperdrive=st.sampled_from(["ok", "damaged", "heavily_damaged", "disabled"]),
    weapon_damage=texts,
    events=texts,
)
results = st.builds(
    CraftDamage,
    level=st.sampled_from(
        [
            "none",
            "controls_ionized",
            "shields_blown",
            "lightly",
            "heavily",
            "severely",
            "destroyed",
        ]
    ),
    margin=st.none() | st.integers(-50, 50),
    shield_dice_lost=counts,
    ionization_dice=counts,
    dead_controls=st.booleans(),
    rc=st.booleans(),
)
capital_states = st.builds(
    CapitalState,
    ship_damage=counts,
    shield_pips_lost=counts,
    sublight=counts,
    maneuver=counts,
    fire_control=counts,
    command=counts,
    ionization=counts,
)


def _through_text(data: dict) -> dict:
    return json.loads(json.dumps(data, allow_nan=False))


# --- Round trips -----------------------------------------------------------------------------
@given(craft_states)
def test_a_stored_craft_damage_state_comes_back_unchanged(state):
    assert CraftState.from_json(state.to_json()) == state
    assert CraftState.from_json(_through_text(state.to_json())) == state


@given(results)
def test_a_stored_hit_result_comes_back_unchanged(result):
    assert CraftDamage.from_json(_through_text(result.to_json())) == result


@given(capital_states)
def test_a_stored_capital_ship_template_comes_back_unchanged(state):
    assert CapitalState.from_json(state.to_json()) == state
    assert CapitalState.from_json(_through_text(state.to_json())) == state


@given(st.integers(0, 2**32), st.lists(st.tuples(st.integers(0, 40), st.integers(1, 30))))
def test_a_fight_stored_after_every_hit_ends_where_an_unbroken_one_does(seed, hits):
    """An encounter stores the ship's state after each hit and reloads it for the next: the
    ship ends in the same state as one kept in memory (same hits, same dice)."""
    kept = stored = CraftState()
    kept_dice, stored_dice = SeededDice(seed), SeededDice(seed)
    for damage, resist in hits:
        result = craft_damage_result(damage, resist, ruleset=UPG, shield_dice_left=1)
        kept = apply_damage(kept, result, FREIGHTER, ruleset=UPG, rng=kept_dice)
        reloaded = CraftState.from_json(_through_text(stored.to_json()))
        stored_result = CraftDamage.from_json(_through_text(result.to_json()))
        stored = apply_damage(reloaded, stored_result, FREIGHTER, ruleset=UPG, rng=stored_dice)
    assert stored == kept


def test_a_capital_ship_template_is_stored_row_by_row():
    state = apply_capital_damage(CapitalState(), CapitalDamage(pips=4), DieCode(2))
    assert state.to_json() == {
        "ship_damage": 4,
        "shield_pips_lost": 0,
        "sublight": 0,
        "maneuver": 0,
        "fire_control": 0,
        "command": 0,
        "ionization": 0,
    }


# --- Refusals --------------------------------------------------------------------------------
def _craft(**changes: object) -> dict:
    return {**CraftState().to_json(), **changes}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param("lightly", "is an object", id="not-an-object"),
        pytest.param({"damage": "none"}, "missing", id="missing-fields"),
        pytest.param(_craft(hull="cracked"), "unknown hull", id="unknown-field"),
        pytest.param(_craft(damage="scratched"), "damage must be one of", id="bad-level"),
        pytest.param(_craft(hyperdrive="gone"), "hyperdrive must be one of", id="bad-hyperdrive"),
        pytest.param(_craft(moves_lost=-1), "moves_lost must be 0 or more", id="negative"),
        pytest.param(_craft(moves_lost=1.5), "whole number", id="fractional"),
        pytest.param(_craft(moves_lost=True), "whole number", id="bool-as-number"),
        pytest.param(_craft(dead_controls="yes"), "true or false", id="not-bool"),
        pytest.param(_craft(events=["fire", 3]), "a list of texts", id="events"),
    ],
)
def test_bad_stored_craft_state_is_refused_with_a_reason(data, message):
    with pytest.raises(CraftError, match=message):
        CraftState.from_json(data)


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        pytest.param({"level": "grazed"}, "level must be one of", id="bad-level"),
        pytest.param({"margin": "4"}, "margin must be a whole number", id="bad-margin"),
        pytest.param({"rc": None}, "rc must be true or false", id="bad-flag"),
    ],
)
def test_bad_stored_hit_result_is_refused_with_a_reason(changes, message):
    data = {**CraftDamage("lightly", 5).to_json(), **changes}
    with pytest.raises(CraftError, match=message):
        CraftDamage.from_json(data)


@pytest.mark.parametrize(
    "data",
    [
        pytest.param([], id="not-an-object"),
        pytest.param({**CapitalState().to_json(), "ship_damage": -3}, id="negative"),
        pytest.param({**CapitalState().to_json(), "hull": 2}, id="unknown-row"),
    ],
)
def test_bad_stored_capital_template_is_refused(data):
    with pytest.raises(CraftError):
        CapitalState.from_json(data)


def test_rc_results_are_stored_as_rc_results():
    result = craft_damage_result(27, 9, ruleset=RC, ion=True)
    assert CraftDamage.from_json(_through_text(result.to_json())) == result
    assert result.to_json()["rc"] is True
