"""[HOUSE §13] automatic fire and [HOUSE §16] suppression fire in the encounter (combat.md
§4.9, §4.10, CA-16, CA-17; vectors CB-24 and CB-26). Dice are fixed; the campaign is the 2E
default with the two House options on (the House preset's Wild Die table would draw a die
more on every Wild Die 1)."""

from __future__ import annotations

import json

import pytest

from rules.combat import WeaponRange
from rules.dice import FixedDice, SeededDice
from rules.encounter import (
    Attack,
    EncounterState,
    EndRound,
    FireState,
    React,
    ResolveAttack,
    Suppress,
    Weapon,
    apply,
    command_from_json,
    recorded_dice,
    replay,
)
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, STD, D, assert_refused, ready, trooper

AUTO = STD.replace(auto_fire="house", suppression_fire=True)
REPEATER = Weapon(
    "repeating blaster", "5D", "blaster", "ranged", WeaponRange(3, 10, 30, 120), burst=6
)


def gunner(code="5D", skill="blaster", **changes):
    return trooper(
        "gunner", skills=((skill, D(code)), ("dodge", D("5D"))), weapon=REPEATER, **changes
    )


def go(state, step, dice=(), ruleset=AUTO):
    return apply(state, step, ruleset=ruleset, rng=FixedDice(list(dice)))


def fire(state, dice, step, ruleset=AUTO):
    """Announce ``step`` and resolve it with ``dice``: (state, the attack event, events)."""
    state, _ = go(state, step, (), ruleset)
    state, events = go(state, ResolveAttack(), dice, ruleset)
    return state, next(e for e in events if e.kind == "attack"), events


# --- full auto concentrated on one target (CB-24) -------------------------------------------------
FULL_AUTO = Attack("gunner", "kira", difficulty=8, range_band="short", fire_mode="full_auto")


@pytest.mark.parametrize(
    ("dice", "total", "hits", "bonus", "damage_code"),
    [
        ([4, 4, 4], 12, 6, "2D", "7D"),  # a success: all 6 shots hit, +6 pips
        ([3, 3, 3], 9, 3, "1D", "6D"),  # missed by 1: three fewer
        ([2, 3, 3], 8, 0, "0D", None),  # missed by 2: none hit, a miss
    ],
)
def test_full_auto_rolls_once_and_the_margin_decides_how_many_shots_hit(
    dice, total, hits, bonus, damage_code
):
    # Blaster 5D, two full-auto attacks declared: -1D for two actions and -1D for full auto
    # → 3D; short range 8, +2 without an auto specialization → 10.
    state = ready((gunner(), 2), (KIRA, 2))
    damage = [1] * 7 + [2, 2] if hits else []
    state, attack, events = fire(state, [*dice, *damage], FULL_AUTO)
    assert attack.number("penalty_dice") == 2 and attack.roll("attack").pool == D("3D")
    assert (attack.number("difficulty"), attack.number("attack_total")) == (10, total)
    assert (attack.number("fire_mode"), attack.number("shots")) == ("full_auto", 6)
    assert (attack.number("hits"), attack.number("hit_bonus")) == (hits, bonus)
    assert attack.number("hit") is (hits > 0)
    damage_events = [e for e in events if e.kind == "damage"]
    assert [e.number("damage_code") for e in damage_events] == ([damage_code] if hits else [])
    assert state.combatant("gunner").actions.full_auto
    assert state.fire.mode == "single"  # spent with the roll


def test_an_auto_specialization_avoids_the_plus_two_and_fires_no_single_shots():
    # CB-24: (s)Blaster: Auto Rifle 6D, no dodge: 6D - 1D - 1D = 4D against 8.
    state = ready((gunner("6D", "auto rifle"), 2), (KIRA, 2))
    step = Attack("gunner", "kira", "auto rifle", 8, fire_mode="full_auto")
    _, attack, _ = fire(state, [1, 1, 1, 2], step)
    assert attack.roll("attack").pool == D("4D") and attack.number("difficulty") == 8
    single = Attack("gunner", "kira", "auto rifle", 8)
    assert_refused(state, single, "auto rifle fires bursts and full auto only", AUTO)


def test_full_auto_fires_twice_a_round_and_nothing_else():
    state = ready((gunner(), 3), (KIRA, 2))
    state, _, _ = fire(state, [1, 1, 2], FULL_AUTO)
    assert_refused(state, Attack("gunner", "kira", difficulty=8), "no other attacks", AUTO)
    state, _, _ = fire(state, [1, 1, 2], FULL_AUTO)
    assert_refused(state, FULL_AUTO, "has fired full auto twice this round", AUTO)
    # After a single shot he may not go full auto in the same round.
    state = ready((gunner(), 3), (KIRA, 2))
    state, _, _ = fire(state, [1, 1, 2], Attack("gunner", "kira", difficulty=8))
    assert_refused(state, FULL_AUTO, "has made another attack this round", AUTO)
    # The next round starts afresh.
    state, _ = go(state, EndRound())
    assert state.fire == FireState()


def test_full_auto_allows_one_reaction_at_the_full_auto_penalty():
    # CB-24: two bursts and a dodge declared (3 actions): 2D for the bursts and the dodge; a
    # second reaction is not allowed.
    brawler = trooper("brawler", "rebels", weapon=None)
    state = ready((gunner(), 3), (KIRA, 2), (brawler, 2))
    state, attack, _ = fire(state, [1, 2], FULL_AUTO)
    assert attack.roll("attack").pool == D("2D")
    state, _ = go(state, Attack("kira", "gunner", difficulty=10))
    state, (dodge,) = go(state, React("gunner", extra=False), [3, 3])
    assert dodge.number("penalty_dice") == 3 and dodge.roll("reaction").pool == D("2D")
    state, _ = go(state, ResolveAttack(), [1, 1, 2])
    state, _ = go(state, Attack("brawler", "gunner", difficulty=5))
    parry = React("gunner", skill="brawling parry")
    assert_refused(state, parry, "fires full auto this round: only one reaction", AUTO)


def test_a_short_burst_is_one_shot_at_plus_two_and_spends_its_shots():
    state = ready((gunner(), 2), (KIRA, 2))
    step = Attack("gunner", "kira", difficulty=8, fire_mode="burst", shots=3)
    state, attack, _ = fire(state, [1, 1, 1, 2], step)  # 5D at -1D: 4D
    assert attack.number("difficulty") == 10 and attack.number("penalty_dice") == 1
    assert (attack.number("fire_mode"), attack.number("shots")) == ("burst", 3)
    assert attack.number("hits") is None
    assert not state.combatant("gunner").actions.full_auto


def test_every_attack_event_counts_its_shots():
    state = ready((gunner(), 2), (KIRA, 2))
    _, attack, _ = fire(state, [1, 1, 1, 2], Attack("gunner", "kira", difficulty=8))
    assert (attack.number("fire_mode"), attack.number("shots")) == ("single", 1)
    fists = ready((trooper("tk1", weapon=None), 2), (KIRA, 2))
    _, attack, _ = fire(fists, [1, 2], Attack("tk1", "kira", difficulty=5))
    assert attack.number("shots") == 0


@pytest.mark.parametrize(
    ("step", "message", "ruleset"),
    [
        (FULL_AUTO, "does not use the House automatic-fire rules", STD),
        (
            Attack("tk1", "kira", difficulty=8, fire_mode="full_auto"),
            "weapon cannot fire bursts or full auto",
            AUTO,
        ),
        (
            Attack("gunner", "kira", difficulty=8, fire_mode="burst", others=("tk1",)),
            "a burst is one shooter's",
            AUTO,
        ),
        (
            Attack("gunner", "kira", difficulty=8, fire_mode="full_auto", shots=7),
            "fires 1 to 6 shots in a burst",
            AUTO,
        ),
        (Attack("gunner", "kira", difficulty=8, shots=3), "a single shot is one shot", AUTO),
    ],
)
def test_fire_modes_the_campaign_or_the_weapon_do_not_allow_are_refused(step, message, ruleset):
    state = ready((gunner(), 2), (trooper("tk1"), 2), (KIRA, 2))
    assert_refused(state, step, message, ruleset)


def test_the_house_preset_fires_full_auto():
    house = RuleSet.preset("house")
    state = ready((gunner(), 2), (KIRA, 2))
    _, attack, _ = fire(state, [4, 4, 4, *[2] * 9], FULL_AUTO, house)
    assert attack.number("hits") == 6


# --- suppression fire (CB-26) ---------------------------------------------------------------------
SHOTS = [3, 3, 3, 3, 3, 2, 2, 2, 2, 2, 2, 2, 4, 4, 4, 4, 2, 2]
"""Three suppressive shots on 6D (blaster 8D at -2D): 17, 12 and 20."""


def suppressing():
    """tk1 (blaster 8D, side empire acting first) lays down three suppressive shots at the
    GM's 16; Kira and Han (rebels) are to return fire."""
    tk1 = trooper("tk1", skills=(("blaster", D("8D")),))
    han = trooper("han", "rebels", npc=False)
    state = ready((tk1, 3), (KIRA, 2), (han, 2))
    return go(state, Suppress("tk1", shots=3, difficulty=16), SHOTS)


def test_suppressive_shots_are_actions_rolled_at_difficult_cb_26():
    state, (event,) = suppressing()
    assert event.kind == "suppression"
    assert (event.number("totals"), event.number("successes")) == ("17,12,20", 2)
    assert (event.number("shots"), event.number("penalty_dice")) == (3, 2)
    assert event.number("phase") == 1 and event.number("actions_left") == 0
    assert [name for name, _ in event.rolls] == [f"suppressive shot {n}" for n in (1, 2, 3)]
    (record,) = state.fire.suppression
    assert (record.rolls, record.successes, record.side) == ((17, 12, 20), 2, "empire")


def test_return_fire_in_that_pass_is_two_harder_and_later_passes_are_not():
    state, _ = suppressing()
    _, attack, _ = fire(state, [4, 4, 4, *[2] * 7], Attack("kira", "tk1", difficulty=10))
    assert attack.number("difficulty") == 12 and attack.number("suppression") == 2
    state, _, _ = fire(state, [1, 1, 2], Attack("kira", "tk1", difficulty=10))
    _, attack, _ = fire(state, [1, 1, 2], Attack("kira", "tk1", difficulty=10))  # her 2nd
    assert attack.number("difficulty") == 10 and attack.number("suppression") is None


def test_a_fumbled_return_shot_is_hit_by_the_highest_suppressive_roll_then_the_next():
    state, _ = suppressing()
    # Kira's Wild Die shows 1: the blaze of fire hits her with tk1's to-hit 20, rifle 5D
    # (15) against Strength 2D (4): incapacitated.
    state, _, events = fire(
        state, [4, 4, 1, 3, 3, 3, 3, 3, 2, 2], Attack("kira", "tk1", difficulty=10)
    )
    assert [e.kind for e in events] == ["attack", "blaze", "damage"]
    blaze = events[1]
    assert (blaze.number("shooter"), blaze.number("to_hit")) == ("tk1", 20)
    assert events[2].combatant == "kira" and events[2].number("result") == "incapacitated"
    # Han fumbles too: the next roll down, 17.
    _, _, events = fire(state, [4, 4, 1, 1, 1, 1, 1, 2, 5, 5], Attack("han", "tk1", difficulty=10))
    assert events[1].number("to_hit") == 17


def test_suppression_is_for_the_side_acting_first_and_at_difficult():
    state = ready((trooper("tk1"), 3), (KIRA, 2))
    assert_refused(state, Suppress("kira", 1, 16), "only the side acting first", AUTO)
    assert_refused(state, Suppress("tk1", 1, 15), r"Difficult \(16–20\), not 15", AUTO)
    assert_refused(state, Suppress("tk1", 1), r"Difficult \(16–20\)", AUTO)
    assert_refused(state, Suppress("tk1", 4, 16), "no actions left", AUTO)
    assert_refused(state, Suppress("tk1", 1, 16), "suppression-fire rule", STD)


# --- stored and replayed --------------------------------------------------------------------------
def test_fire_steps_replay_and_old_data_loads():
    tk1 = trooper("tk1", skills=(("blaster", D("8D")),))
    start = ready((tk1, 3), (gunner(), 2), (KIRA, 2))
    steps = [
        Suppress("tk1", shots=2, difficulty=16),
        Attack("kira", "tk1", difficulty=10),
        ResolveAttack(),
        Attack("gunner", "kira", difficulty=8, fire_mode="full_auto"),
        ResolveAttack(),
    ]
    state, events = replay(start, steps, ruleset=AUTO, rng=SeededDice(11))
    again = replay(start, steps, ruleset=AUTO, rng=FixedDice(recorded_dice(events)))
    assert again == (state, events)
    stored = json.loads(json.dumps(state.to_json()))
    assert EncounterState.from_json(stored) == state
    del stored["fire"]
    for c in stored["combatants"]:
        if c["weapon"]:
            del c["weapon"]["burst"]
    old = EncounterState.from_json(stored)
    assert old.fire == FireState() and old.combatant("kira").weapon.burst == 0
    attack = Attack("kira", "tk1", difficulty=10).to_json()
    del attack["fire_mode"], attack["shots"]
    assert command_from_json(attack) == Attack("kira", "tk1", difficulty=10)
