"""The fleet-action state machine (rules.fleet): storage round trips, replay with the recorded
dice, and refusals that change nothing."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RuleSet
from rules.craft import CapitalState, capital_ships
from rules.dice import DieCode, FixedDice, SeededDice
from rules.fleet import (
    AddShip,
    AdjustDamage,
    ChangeFacing,
    Evade,
    FireBattery,
    FleetError,
    FleetEvent,
    FleetState,
    GiveOrders,
    NextRound,
    RaiseShields,
    Ram,
    RemoveShip,
    RerouteShields,
    apply,
    command_from_json,
    recorded_dice,
    replay,
    ship_from_stats,
)

RC = RuleSet.preset("rc")
STATS = {s.name: s for s in capital_ships()}


def _ship(name: str, ship_id: str, side: str, crew: str = "4D+2"):
    return ship_from_stats(STATS[name], ship_id=ship_id, side=side, crew=DieCode.parse(crew))


def _battle() -> FleetState:
    state = FleetState()
    for ship in (
        _ship("Mon Cal Cruiser", "s1", "Rebel"),
        _ship("Strike Cruiser", "s2", "Imperial", "4D"),
        _ship("Corellian Corvette", "s3", "Rebel"),
    ):
        state, _ = apply(state, AddShip(ship), ruleset=RC, rng=FixedDice([]))
    return state


STEPS = (
    GiveOrders("s1", haste_orders=1),
    Evade("s2"),
    RaiseShields("s2"),
    FireBattery("s1", 0, 12, "s2"),
    FireBattery("s1", 1, 10, "s2"),
    FireBattery("s3", 0, 6, "s2", aim="weapon_beam", target_battery=0, target_guns=4),
    RerouteShields("s2", "rear", "right"),
    ChangeFacing("s2", "left", 1),
    Ram("s2", "s3", speed_actions=2),
    AdjustDamage("s3", "ship_damage", 2),
    NextRound(),
    FireBattery("s2", 0, 20, "s1", aim="fire_control", vital_locations=0),
    RemoveShip("s3"),
)


def test_a_campaign_without_the_option_refuses_fleet_steps():
    with pytest.raises(FleetError, match="does not use the Rules Companion's capital ship"):
        apply(FleetState(), NextRound(), ruleset=RuleSet(), rng=FixedDice([]))


@pytest.mark.parametrize("seed", [1, 7, 42])
def test_replay_with_the_recorded_dice_reaches_the_same_state(seed):
    start = _battle()
    state, events = replay(start, STEPS, ruleset=RC, rng=SeededDice(seed))
    again, _ = replay(start, STEPS, ruleset=RC, rng=FixedDice(recorded_dice(events)))
    assert again == state
    assert state.round == 2


def test_state_commands_and_events_round_trip_through_json():
    state, events = replay(_battle(), STEPS, ruleset=RC, rng=SeededDice(3))
    assert FleetState.from_json(json.loads(json.dumps(state.to_json()))) == state
    for event in events:
        assert FleetEvent.from_json(json.loads(json.dumps(event.to_json()))) == event
    for step in (*STEPS, AddShip(_ship("Carrack", "s9", "Imperial"))):
        assert command_from_json(json.loads(json.dumps(step.to_json()))) == step


@settings(max_examples=40, deadline=None)
@given(
    ship_damage=st.integers(0, 9),
    shields=st.integers(0, 20),
    ion=st.integers(0, 9),
    round_=st.integers(1, 100),
)
def test_any_damage_rows_round_trip(ship_damage, shields, ion, round_):
    ship = _ship("Imperial Star Destroyer I", "x", "Imperial")
    from dataclasses import replace

    ship = replace(
        ship, damage=CapitalState(ship_damage=ship_damage, shield_pips_lost=shields, ionization=ion)
    )
    state = FleetState(round=round_, ships=(ship,))
    assert FleetState.from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"round": 0, "ships": []},
        {"round": 1},
        {"round": 1, "ships": [{"id": "x"}]},
        {"round": 1, "ships": [], "extra": 1},
    ],
)
def test_damaged_stored_state_is_refused(data):
    with pytest.raises(FleetError):
        FleetState.from_json(data)


@pytest.mark.parametrize(
    ("step", "message"),
    [
        (FireBattery("s1", 0, 49, "s2"), "has 48 gun"),
        (FireBattery("s1", 0, 12, "s9"), "no ship 's9'"),
        (FireBattery("s1", 7, 12, "s2"), "has no battery 8"),
        (FireBattery("s1", 0, 12, "s3"), "on Mon Cal Cruiser's side"),
        (FireBattery("s1", 0, 12, "s2", aim="weapon_beam"), "names the target's battery"),
        (FireBattery("s1", 1, 10, "s2", coordinate=(("s3", 0, 6),)), "ion and non-ion"),
        (ChangeFacing("s1", "rear", 1), "takes 2 reserved speed action"),
        (GiveOrders("s1", haste_orders=9), "allows only 4"),
        (Ram("s1", "s1"), "cannot ram itself"),
    ],
)
def test_bad_steps_are_refused_before_any_die(step, message):
    state = _battle()
    with pytest.raises(FleetError, match=message):
        apply(state, step, ruleset=RC, rng=FixedDice([]))


def test_a_battery_fires_once_a_round():
    state, _ = apply(_battle(), FireBattery("s1", 0, 12, "s2"), ruleset=RC, rng=SeededDice(1))
    with pytest.raises(FleetError, match="has fired this round"):
        apply(state, FireBattery("s1", 0, 12, "s2"), ruleset=RC, rng=SeededDice(1))
    state, _ = apply(state, NextRound(), ruleset=RC, rng=FixedDice([]))
    apply(state, FireBattery("s1", 0, 12, "s2"), ruleset=RC, rng=SeededDice(1))


def test_a_stat_block_that_is_not_capital_scale_is_refused():
    from rules.craft import load_craft

    freighter = next(c for c in load_craft("starships") if c.kind == "starship")
    with pytest.raises(FleetError, match="not a capital ship"):
        ship_from_stats(freighter, ship_id="f", side="Rebel", crew=DieCode(4))


def test_ionization_comes_into_force_next_round():
    state = _battle()
    ship = state.ship("s2")
    from dataclasses import replace

    state = state.with_ship(replace(ship, damage=CapitalState(ionization=2)))
    state, _ = apply(state, NextRound(), ruleset=RC, rng=FixedDice([]))
    assert state.ship("s2").ionized == 2
    assert state.ship("s2").damage.ionization == 0


def test_power_cannot_be_rerouted_with_only_one_shield_facing_left():
    from dataclasses import replace

    state = _battle()
    burnt = ("top", "bottom", "left", "rear", "forward")
    state = state.with_ship(replace(state.ship("s1"), burnt=burnt))
    with pytest.raises(FleetError, match="only one shield facing left"):
        apply(state, RerouteShields("s1", "forward", "right"), ruleset=RC, rng=FixedDice([]))


def test_a_failed_reroute_changes_no_shield():
    state = _battle()
    after, events = apply(
        state, RerouteShields("s1", "rear", "right"), ruleset=RC, rng=FixedDice([1] * 4)
    )
    assert after == state
    assert events[0].number("success") is False


def test_an_uncommanded_gunnery_officer_fires_at_minus_1d():
    state = _battle()
    state, _ = apply(state, Evade("s2"), ruleset=RC, rng=FixedDice([1] * 6))
    state, events = apply(state, GiveOrders("s1", haste_orders=4), ruleset=RC, rng=FixedDice([]))
    assert events[0].number("uncommanded") == "pilot,gunnery,shields"
    state, events = apply(
        state, FireBattery("s1", 0, 12, "s2"), ruleset=RC, rng=FixedDice([1] * 30)
    )
    assert events[0].number("to_hit_pool") == "7D+3"


def test_a_miss_and_a_ram_that_misses_change_no_damage():
    state = _battle()
    state, _ = apply(state, Evade("s2"), ruleset=RC, rng=FixedDice([6] * 6))
    after, events = apply(state, FireBattery("s1", 0, 1, "s2"), ruleset=RC, rng=FixedDice([1] * 8))
    assert events[0].number("hit") is False
    assert after.ship("s2").damage == state.ship("s2").damage
    after, events = apply(state, Ram("s1", "s2"), ruleset=RC, rng=FixedDice([1] * 20))
    assert events[0].number("hit") is False
    assert after.ship("s2").damage == state.ship("s2").damage


def _stored_ship(**changes):
    data = _ship("Carrack", "c", "Imperial").to_json()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "changes",
    [
        {"id": ""},
        {"name": " "},
        {"side": ""},
        {"facing": "sideways"},
        {"burnt": ["up"]},
        {"boosted": 3},
        {"uncommanded": ["cook"]},
        {"fired": [99]},
        {"fired": ["x"]},
        {"hull": "-1D"},
        {"hull": 4},
        {"damage": {"ship_damage": -1}},
        {"batteries": [{"name": "TL"}]},
        {"batteries": [{**_ship("Carrack", "c", "x").batteries[0].to_json(), "guns": 0}]},
        {"batteries": [{**_ship("Carrack", "c", "x").batteries[0].to_json(), "points": [1]}]},
        {"batteries": [{**_ship("Carrack", "c", "x").batteries[0].to_json(), "points": ["a"]}]},
        {"batteries": [{**_ship("Carrack", "c", "x").batteries[0].to_json(), "name": ""}]},
        {"shield_penalty": -1},
    ],
)
def test_a_damaged_stored_ship_is_refused(changes):
    with pytest.raises(FleetError):
        FleetState.from_json({"round": 1, "ships": [_stored_ship(**changes)]})


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "", "ship": None, "text": "", "numbers": {}, "rolls": []},
        {"kind": "x", "ship": None, "text": "", "numbers": [], "rolls": []},
        {"kind": "x", "ship": None, "text": "", "numbers": {"a": [1]}, "rolls": []},
        {"kind": "x", "ship": None, "text": "", "numbers": {}, "rolls": [["a"]]},
        {"kind": "x", "ship": None, "text": "", "numbers": {}, "rolls": [["a", {"code": "1D"}]]},
    ],
)
def test_a_damaged_stored_event_is_refused(data):
    with pytest.raises(FleetError):
        FleetEvent.from_json(data)


@pytest.mark.parametrize(
    "data",
    [
        None,
        {"type": "warp"},
        {"type": "fire", "ship": "s1", "battery": 0, "guns": 1, "target": "s2", "aim": "bridge"},
        {"type": "fire", "ship": "s1", "battery": 0, "guns": 1, "target": "s2", "coordinate": [1]},
        {"type": "fire", "ship": "s1", "battery": 0, "guns": 10**6, "target": "s2"},
        {"type": "adjust", "ship": "s1", "row": "hull", "pips": 1},
        {"type": "adjust", "ship": "s1", "row": "ship_damage", "pips": 100},
        {"type": "add_ship", "ship": {}},
        {"type": "end_round", "extra": 1},
    ],
)
def test_a_damaged_stored_step_is_refused(data):
    with pytest.raises(FleetError):
        command_from_json(data)


def test_two_ships_cannot_share_an_id_and_a_destroyed_ship_takes_no_step():
    state = _battle()
    with pytest.raises(FleetError, match="already in the battle"):
        apply(state, AddShip(state.ships[0]), ruleset=RC, rng=FixedDice([]))
    state, _ = apply(state, AdjustDamage("s2", "ship_damage", 9), ruleset=RC, rng=FixedDice([]))
    for step in (Evade("s2"), RaiseShields("s2"), GiveOrders("s2"), FireBattery("s1", 0, 1, "s2")):
        with pytest.raises(FleetError, match="is destroyed"):
            apply(state, step, ruleset=RC, rng=FixedDice([]))


def test_each_roll_is_once_a_round():
    state = _battle()
    for step in (Evade("s1"), RaiseShields("s1"), GiveOrders("s1")):
        state, _ = apply(state, step, ruleset=RC, rng=FixedDice([1] * 20))
        with pytest.raises(FleetError, match="this round"):
            apply(state, step, ruleset=RC, rng=FixedDice([1] * 20))
