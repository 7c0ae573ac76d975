"""Grenades and other explosives (combat.md §4.8, §9.10, CA-24, CB-46): a throw that lands on
the spot or scatters, then a blast whose damage falls by band, each victim with his own damage
and Strength rolls. Dice are fixed: Kira throws with grenade 4D at -1D (two actions declared:
three dice, the last the Wild Die); troopers resist with Strength 2D."""

from __future__ import annotations

import json

import pytest

from rules.combat import Armour
from rules.dice import FixedDice, SeededDice
from rules.encounter import (
    Act,
    Attack,
    Combatant,
    Detonate,
    EncounterError,
    EncounterState,
    EndEncounter,
    EndRound,
    PendingBlast,
    RemoveCombatant,
    Throw,
    apply,
    command_from_json,
    recorded_dice,
    replay,
)
from rules.encounter.blasts import parse_blast
from rules.injuries import WoundLevel
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, STD, Counting, D, assert_refused, ready, trooper

W = WoundLevel
SCATTER = STD.replace(grenade_scatter="rc")
GRENADIER = KIRA.replace(skills=(("grenade", D("4D")), ("dodge", D("3D"))))
DETONATOR = Throw(
    "kira", "10D/8D/5D/2D", "0-2/8/12/20", difficulty=10, range_band="short", name="detonator"
)


def fight(*extra: Combatant):
    """Kira (grenade 4D) and troopers tk1–tk3, everyone declared 2, the rebels first."""
    people = (GRENADIER, trooper("tk1"), trooper("tk2"), trooper("tk3"), *extra)
    return ready(*((c, 2) for c in people), first="rebels")


def go(state, step, dice=(), ruleset=STD):
    return apply(state, step, ruleset=ruleset, rng=FixedDice(list(dice)))


def thrown(dice=(4, 4, 4), step=DETONATOR, ruleset=STD):
    state, _ = go(fight(), step, dice, ruleset)
    return state


# --- the throw ------------------------------------------------------------------------------------
def test_a_throw_that_hits_lands_where_aimed_and_waits_to_go_off():
    state, (event,) = go(fight(), DETONATOR, [4, 4, 4])
    assert (event.kind, event.number("total"), event.number("hit")) == ("throw", 12, True)
    assert event.number("code") == "4D" and event.number("penalty_dice") == 1
    assert event.number("scatter_m") is None and event.number("grenades_used") == 1
    assert (event.number("radius"), event.number("damage")) == ("0-2/8/12/20", "10D/8D/5D/2D")
    assert state.blast == PendingBlast(
        "kira", "detonator", parse_blast("2/8/12/20", "10D/8D/5D/2D")
    )
    assert state.combatant("kira").actions.remaining == 1
    # A hit never scatters: with the [RC] scatter rule too, the throw draws its three dice only.
    state, (event,) = go(fight(), DETONATOR, [4, 4, 2], SCATTER)  # 10 against 10: a hit
    assert event.number("hit") and event.number("scatter_m") is None
    assert event.roll("scatter") is None and state.blast.hit


def test_a_miss_scatters_by_the_range_band_cb_46():
    # CB-46: a miss at medium range with 2D showing 3 + 4 lands 7 m away.
    step = Throw("kira", "5D/4D", "2/4", difficulty=13, range_band="medium")
    state, (event,) = go(fight(), step, [1, 2, 3, 3, 4], SCATTER)
    assert (event.number("total"), event.number("hit")) == (6, False)
    assert event.number("scatter_m") == 7
    assert event.roll("scatter").normal == (3, 4)
    assert "scatters 7 m" in event.text
    assert state.blast.scatter_m == 7 and not state.blast.hit


@pytest.mark.parametrize(("band", "dice"), [("point_blank", 1), ("short", 1), ("long", 3)])
def test_scatter_is_one_die_at_short_range_and_three_at_long(band, dice):
    step = Throw("kira", "5D", "2", difficulty=30, range_band=band)
    _, (event,) = go(fight(), step, [2, 2, 2, *[1] * dice], SCATTER)
    assert event.roll("scatter").normal == (1,) * dice
    assert event.number("scatter_m") == dice


def test_without_the_scatter_option_a_miss_lands_where_the_gm_says():
    dice = Counting()
    state, (event,) = apply(fight(), Throw("kira", "5D", "2", 30), ruleset=STD, rng=dice)
    assert len(dice.drawn) == 3  # the throw, no scatter dice
    assert event.number("scatter_m") is None and "where the GM says" in event.text
    assert state.blast is not None


# --- the blast ------------------------------------------------------------------------------------
def test_each_victim_takes_his_bands_damage_with_his_own_dice():
    tk1 = [1] * 9 + [2] + [3, 3]  # 10D: 11 against 6 → wounded
    tk2 = [1] * 7 + [2] + [3, 3]  # 8D at 5 m: 9 against 6 → stunned
    tk3 = [1, 2, 3, 3]  # 2D at 15 m: 3 against 6 → no effect
    step = Detonate((("tk1", 0), ("tk2", 5), ("tk3", 15)))
    state, events = go(thrown(), step, [*tk1, *tk2, *tk3])
    assert [e.kind for e in events] == ["blast", "damage", "damage", "damage"]
    assert events[0].number("victims") == "tk1,tk2,tk3"
    damage = events[1:]
    assert [e.combatant for e in damage] == ["tk1", "tk2", "tk3"]
    assert [e.number("distance_m") for e in damage] == [0, 5, 15]
    assert [e.number("band") for e in damage] == [1, 2, 4]
    assert [e.number("damage_code") for e in damage] == ["10D", "8D", "2D"]
    assert [e.number("damage_total") for e in damage] == [11, 9, 3]
    assert [e.number("result") for e in damage] == ["wounded", "stunned", "none"]
    assert [e.roll("damage").normal for e in damage] == [(1,) * 9, (1,) * 7, (1,)]
    assert state.combatant("tk1").wounds.level is W.wounded
    assert state.combatant("tk1").prone and state.combatant("tk1").lost_actions
    assert state.blast is None


@pytest.mark.parametrize(("metres", "code"), [(0, "10D"), (2, "10D"), (3, "8D"), (20, "2D")])
def test_the_band_is_the_first_that_reaches_the_victim(metres, code):
    dice = [2] * 12
    _, events = go(thrown(), Detonate((("tk1", metres),)), dice)
    assert events[1].number("damage_code") == code


def test_physical_blasts_meet_physical_armour_and_energy_blasts_energy_armour():
    plated = trooper("tk4", armour=Armour(physical=D("2D"), energy=D("1D")))
    state = ready((GRENADIER, 2), (plated, 2), first="rebels")
    frag = Throw("kira", "5D", "2", difficulty=5)
    state, _ = go(state, frag, [4, 4, 4])
    _, events = go(state, Detonate((("tk4", 1),)), [2] * 9)
    assert events[1].number("strength_code") == "4D"
    state = ready((GRENADIER, 2), (plated, 2), first="rebels")
    state, _ = go(state, Throw("kira", "5D", "2", difficulty=5, energy=True), [4, 4, 4])
    _, events = go(state, Detonate((("tk4", 1),)), [2] * 8)
    assert events[1].number("strength_code") == "3D"


def test_the_thrower_can_catch_himself_and_the_blast_goes_off_after_he_leaves():
    state = thrown()
    _, events = go(state, Detonate((("kira", 1),)), [2] * 12)
    assert events[1].combatant == "kira"
    state, _ = go(state, RemoveCombatant("kira"))
    state, events = go(state, Detonate((("tk1", 1),)), [2] * 12)
    assert events[1].number("damage_code") == "10D" and state.blast is None


def test_a_blast_can_be_a_house_critical_for_the_thrower():
    house = RuleSet.preset("house")
    state = thrown(ruleset=house)
    # 2D at 15 m: 3 and a Wild Die 6 taken as a critical, 9 against 3: wounded; 2D 4 + 4 → Dazed.
    state, events = go(state, Detonate((("tk1", 15),)), [3, 6, 1, 2, 4, 4], house)
    assert [e.kind for e in events] == ["blast", "damage", "critical"]
    assert events[1].number("damage_total") == 9 and events[1].number("result") == "wounded"
    assert events[2].number("attacker") == "kira"
    assert (events[2].number("table"), events[2].number("name")) == ("wounded", "Dazed")
    assert state.combatant("tk1").criticals[0].name == "Dazed"
    _, events = go(thrown(ruleset=house), Detonate((("tk1", 15),), critical=False), [3, 6, 2, 1, 2])
    assert events[1].number("damage_total") == 11 and len(events) == 2  # the 6 re-rolled


def test_a_blast_replays_from_its_recorded_dice():
    steps = [DETONATOR, Detonate((("tk1", 0), ("tk2", 9)))]
    start = fight()
    state, events = replay(start, steps, ruleset=SCATTER, rng=SeededDice(5))
    again = replay(start, steps, ruleset=SCATTER, rng=FixedDice(recorded_dice(events)))
    assert again == (state, events)


# --- refusals, before any die ---------------------------------------------------------------
def test_refusals_come_before_any_die():
    state = fight()
    assert_refused(state, Detonate((("tk1", 0),)), "nothing has been thrown")
    assert_refused(
        state,
        Throw("kira", "5D", "2", range_band="medium"),
        r"the GM sets the difficulty number: medium range is Moderate \(11–15\)",
    )
    assert_refused(state, Throw("kira", "5D", "2", 10), "say the range band", SCATTER)
    pending = thrown()
    assert_refused(pending, Throw("kira", "5D", "2", 10), "already thrown goes off first")
    assert_refused(pending, Attack("tk1", "kira", difficulty=10), "goes off first: detonate it")
    assert_refused(pending, Act("tk1"), "goes off first")
    assert_refused(pending, EndRound(), "goes off first")
    assert_refused(pending, EndEncounter(), "goes off first")
    assert_refused(pending, Detonate((("tk1", 21),)), r"Tk1 at 21 m is outside .* \(20 m\)")
    assert_refused(pending, Detonate((("tk1", 0), ("nobody", 1))), "no combatant 'nobody'")


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Throw("kira", "5D/4D", "2"), "same number of bands"),
        (lambda: Throw("kira", "5D", "two"), "whole metres"),
        (lambda: Throw("kira", "5D/4D", "4/2"), "grow from the centre out"),
        (lambda: Throw("kira", "lots", "2"), "blast damage 'lots'"),
        (lambda: Throw("kira", "5D", "2", range_band="out_of_range"), "thrown at point_blank"),
        (lambda: Throw("kira", "5D", "2", difficulty=-1), "difficulty number"),
        (lambda: Throw("kira", "5D", "2", energy="yes"), "energy has the wrong type"),
        (lambda: Throw("", "5D", "2"), "thrower is a name"),
        (lambda: Detonate((("tk1", 1), ("tk1", 2))), "named twice"),
        (lambda: Detonate((("tk1", -1),)), "distance from the blast"),
        (lambda: Detonate((("tk1",),)), r"\[combatant id, metres\] pair"),
        (lambda: Detonate("tk1"), "list of"),
        (lambda: Detonate((), critical="no"), "critical is true or false"),
        (lambda: PendingBlast("kira", "x", ()), "bands of"),
        (lambda: PendingBlast("kira", "x", parse_blast("2", "5D"), scatter_m=-1), "scatter"),
        (lambda: EncounterState(blast="grenade"), "PendingBlast"),
    ],
)
def test_values_that_cannot_be_built(build, message):
    with pytest.raises(EncounterError, match=message):
        build()


# --- stored -----------------------------------------------------------------------------------
def test_throw_and_detonate_round_trip_and_old_states_load_without_a_blast():
    for step in (DETONATOR, Detonate((("tk1", 0), ("tk2", 5)), critical=False)):
        assert command_from_json(json.loads(json.dumps(step.to_json()))) == step
    state = thrown()
    assert EncounterState.from_json(json.loads(json.dumps(state.to_json()))) == state
    old = json.loads(json.dumps(fight().to_json()))
    del old["blast"]
    assert EncounterState.from_json(old) == fight()
    bad = json.loads(json.dumps(state.to_json()))
    bad["blast"]["damage"] = "5D"
    with pytest.raises(EncounterError, match="same number of bands"):
        EncounterState.from_json(bad)
    with pytest.raises(EncounterError, match="each victim is stored as"):
        command_from_json({"type": "detonate", "victims": [["tk1"]], "critical": True})
    with pytest.raises(EncounterError, match="throw step has the fields"):
        command_from_json({"type": "throw", "thrower": "kira"})
