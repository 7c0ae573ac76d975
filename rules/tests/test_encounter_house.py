"""[HOUSE] critical injuries in the encounter (injuries-and-healing.md §5, combat.md §5.2 and
CA-21, IH-20, IH-21; vectors CB-22, D-41, H-32, H-37 … H-43, H-71). Dice are fixed: tk1 fires
his blaster 4D at -1D (two actions declared: three dice, the last the Wild Die), the rifle's 5D
damage is four dice and the Wild Die, Kira resists with Strength 2D (a die and the Wild Die)."""

from __future__ import annotations

import json

import pytest

from rules.dice import FixedDice
from rules.encounter import (
    Attack,
    ChooseOrder,
    CriticalTaken,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndRound,
    FirstAid,
    React,
    ResolveAttack,
    RollInitiative,
    Weapon,
    apply,
    command_from_json,
    recorded_dice,
    replay,
)
from rules.injuries import WoundLevel, WoundState
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, D, assert_refused, ready, trooper

W = WoundLevel
HOUSE = RuleSet.preset("house")
NO_CRITS = HOUSE.replace(critical_injuries="none")
HIT = [4, 4, 4]
"""tk1's attack roll: 12 against difficulty 5, a hit."""
SIX = [3, 3, 3, 3, 6]
"""The rifle's damage with a 6 on the Wild Die: 18 taken as a critical (CB-22 (b))."""


def shot(kira=KIRA, *, ruleset=HOUSE, weapon=None):
    """tk1 (2 actions) has announced a shot at Kira (2 actions), difficulty 5."""
    tk1 = trooper("tk1") if weapon is None else trooper("tk1", weapon=weapon)
    state = ready((kira, 0 if kira.out_of_fight else 2), (tk1, 2))
    state, _ = apply(state, Attack("tk1", "kira", difficulty=5), ruleset=ruleset, rng=FixedDice([]))
    return state


def resolve(state, dice, ruleset=HOUSE, step=None):
    return apply(state, step or ResolveAttack(), ruleset=ruleset, rng=FixedDice(dice))


def critical_of(events):
    (event,) = [e for e in events if e.kind == "critical"]
    return event


# --- the trigger: a Wild Die 6 on the damage roll, the roller's choice (CA-21, H-36) -----------
def test_a_six_taken_as_a_critical_counts_six_and_rolls_on_the_table_of_the_wound():
    # Damage 18 (the 6 is not re-rolled) against Strength 10: margin 8, wounded. Wounded table
    # 2D: 4 + 4 = 8 → Dazed (H-38).
    state, events = resolve(shot(), [*HIT, *SIX, 5, 5, 4, 4])
    damage = next(e for e in events if e.kind == "damage")
    assert damage.number("damage_total") == 18
    assert damage.roll("damage").wild == (6,) and damage.roll("damage").critical_injury
    assert damage.number("result") == "wounded"
    critical = critical_of(events)
    assert [e.kind for e in events] == ["attack", "damage", "critical"]
    assert critical.number("table") == "wounded"
    assert critical.number("roll") == 8
    assert critical.number("name") == "Dazed"
    assert critical.roll("critical").normal == (4, 4)
    assert state.combatant("kira").criticals == (CriticalTaken(W.wounded, "Dazed", 1),)


def test_the_roller_may_explode_the_six_instead():
    # The same dice, the 6 re-rolled (2): damage 20 against 10, margin 10 → incapacitated, and
    # no critical (CB-22 (a)).
    state, events = resolve(shot(), [*HIT, *SIX, 2, 5, 5], step=ResolveAttack(critical=False))
    damage = next(e for e in events if e.kind == "damage")
    assert damage.number("damage_total") == 20
    assert damage.number("result") == "incapacitated"
    assert [e.kind for e in events] == ["attack", "damage"]
    assert state.combatant("kira").criticals == ()


@pytest.mark.parametrize("critical", [True, False])
def test_without_the_campaign_option_every_six_explodes_and_nothing_changes(critical):
    # critical_injuries = "none": the choice is not offered; the step is what it always was.
    dice = [*HIT, *SIX, 2, 5, 5]
    state, events = resolve(
        shot(ruleset=NO_CRITS), dice, NO_CRITS, ResolveAttack(critical=critical)
    )
    old, old_events = resolve(shot(ruleset=NO_CRITS), dice, NO_CRITS, ResolveAttack(critical=False))
    assert (state, events) == (old, old_events)
    assert next(e for e in events if e.kind == "damage").number("damage_total") == 20
    assert state.combatant("kira").criticals == ()


def test_a_six_that_is_not_rolled_makes_no_critical():
    state, events = resolve(shot(), [*HIT, 3, 3, 3, 3, 5, 5, 5])
    assert [e.kind for e in events] == ["attack", "damage"]
    assert state.combatant("kira").criticals == ()


# --- which table (IH-20) --------------------------------------------------------------------------
def test_a_stunned_result_uses_the_stunned_table_even_on_a_wounded_character():
    # H-71: Kira is wounded; damage 18 against Strength 16 → stunned; Stunned table 1D: 1 →
    # Slowed Down (H-37). She stays wounded.
    kira = KIRA.replace(strength=D("3D"), wounds=WoundState(W.wounded))
    state, events = resolve(shot(kira), [*HIT, *SIX, 6, 5, 5, 1])
    critical = critical_of(events)
    assert next(e for e in events if e.kind == "damage").number("result") == "stunned"
    assert (critical.number("table"), critical.number("roll")) == ("stunned", 1)
    assert critical.number("name") == "Slowed Down"
    assert critical.roll("critical").normal == (1,)
    assert state.combatant("kira").wounds.level is W.wounded


@pytest.mark.parametrize(
    ("strength", "result", "table", "face", "name"),
    [
        ([4, 5], "incapacitated", "incapacitated", 5, "Temporarily Lame"),
        ([2, 2], "mortally_wounded", "mortally_wounded", 6, "The end is Nigh"),
    ],
)
def test_worse_hits_roll_on_their_own_one_die_tables(strength, result, table, face, name):
    # Damage 18 against 9 (margin 9) and against 4 (margin 14); H-39, H-40.
    state, events = resolve(shot(), [*HIT, *SIX, *strength, face])
    critical = critical_of(events)
    assert next(e for e in events if e.kind == "damage").number("result") == result
    assert (critical.number("table"), critical.number("name")) == (table, name)
    assert critical.roll("critical").normal == (face,)
    assert state.combatant("kira").criticals[0].name == name


def test_a_second_wound_rolls_on_the_wounded_table_and_a_third_on_the_incapacitated_one():
    twice = KIRA.replace(wounds=WoundState(W.wounded))
    _, events = resolve(shot(twice), [*HIT, *SIX, 5, 5, 6, 6])  # wounded twice: 2D, 12
    assert critical_of(events).number("table") == "wounded"
    assert critical_of(events).number("name") == "Winded"
    again = KIRA.replace(wounds=WoundState(W.wounded_twice))
    _, events = resolve(shot(again), [*HIT, *SIX, 5, 5, 2])  # now incapacitated: 1D, 2
    assert critical_of(events).number("table") == "incapacitated"
    assert critical_of(events).number("name") == "Crippled"


def test_a_hit_that_does_nothing_or_kills_loses_its_critical_and_draws_no_more_dice():
    tough = KIRA.replace(strength=D("5D"))
    state, events = resolve(shot(tough), [*HIT, *SIX, 5, 5, 5, 5, 5])  # 18 against 25
    critical = critical_of(events)
    assert critical.number("table") is None and critical.number("name") is None
    assert "lost: the hit has no effect" in critical.text
    assert critical.rolls == () and state.combatant("kira").criticals == ()
    dying = KIRA.replace(wounds=WoundState(W.mortally_wounded))
    state, events = resolve(shot(dying), [*HIT, *SIX, 2, 2])  # mortally wounded again: killed
    assert state.combatant("kira").wounds.level is W.killed
    assert "the hit kills" in critical_of(events).text and critical_of(events).rolls == ()


def test_a_weapon_set_on_stun_rolls_only_on_the_stunned_table():
    stunner = Weapon("blaster rifle", "5D", "blaster", "ranged", stun=True)
    state, events = resolve(shot(weapon=stunner), [*HIT, *SIX, 2, 2, 4])  # margin 14
    assert state.combatant("kira").knocked_out
    critical = critical_of(events)
    assert (critical.number("table"), critical.number("name")) == ("stunned", "Distracted")


def test_horrific_injury_rolls_the_attribute_and_deafness_its_deadline():
    # Incapacitated table 4 → Horrific Injury, attribute table 2D 5 + 5 = 10 → Dexterity (H-41);
    # 3 → Deafness, permanent unless treated within 2D days: 3 + 4 = 7.
    state, events = resolve(shot(), [*HIT, *SIX, 4, 5, 4, 5, 5])
    critical = critical_of(events)
    assert critical.number("attribute") == "Dexterity"
    assert critical.roll("attribute").normal == (5, 5)
    assert critical.number("effect") == "Dexterity -1D until healed"
    assert state.combatant("kira").criticals == (
        CriticalTaken(W.incapacitated, "Horrific Injury", 1, attribute="Dexterity"),
    )
    state, events = resolve(shot(), [*HIT, *SIX, 4, 5, 3, 3, 4])
    critical = critical_of(events)
    assert (critical.number("name"), critical.number("deadline_days")) == ("Deafness", 7)
    assert "permanent if untreated for 7 days" in critical.number("effect")


def test_group_fire_offers_every_shot_the_same_choice():
    state = ready((KIRA, 2), (trooper("tk1"), 2), (trooper("tk2"), 2))
    step = Attack("tk1", "kira", difficulty=5, others=("tk2",))
    state, _ = apply(state, step, ruleset=HOUSE, rng=FixedDice([]))
    miss = [1, 1, 2]  # tk1 misses (4); then tk2 hits and his 6 is a critical
    state, events = resolve(state, [*miss, *HIT, *SIX, 5, 5, 4, 4])
    assert critical_of(events).number("attacker") == "tk2"


# --- what the criticals do later in the fight ---------------------------------------------------
def test_slowed_down_takes_a_die_off_initiative_until_the_end_of_the_next_round():
    # Kira (Perception 4D) is stunned in round 1 with Slowed Down: round 2's initiative is 4D
    # less 1D for the stun and 1D for Slowed Down; in round 3 both are gone.
    kira = KIRA.replace(strength=D("3D"), wounds=WoundState(W.wounded))
    state, _ = resolve(shot(kira), [*HIT, *SIX, 6, 5, 5, 1])
    state, _ = apply(state, EndRound(), ruleset=HOUSE, rng=FixedDice([]))
    state, events = apply(state, RollInitiative(), ruleset=HOUSE, rng=FixedDice([5, 5, 5, 2]))
    pools = {e.combatant: e.number("pool") for e in events if e.kind == "initiative"}
    assert pools["kira"] == "1D"  # 4D - 1D wounded - 1D stunned - 1D Slowed Down
    assert [k.name for k in state.combatant("kira").criticals] == ["Slowed Down"]
    state = state.replace(phase="round")
    state, _ = apply(state, EndRound(), ruleset=HOUSE, rng=FixedDice([]))
    assert state.combatant("kira").criticals == ()  # the stunned table lasts this round and next
    _, events = apply(state, RollInitiative(), ruleset=HOUSE, rng=FixedDice([5, 5, 5, 2, 2]))
    pools = {e.combatant: e.number("pool") for e in events if e.kind == "initiative"}
    assert pools["kira"] == "3D"


def _next_round(state):
    state, _ = apply(state, EndRound(), ruleset=HOUSE, rng=FixedDice([]))
    return state.replace(initiative_winner="rebels", phase="order")


def test_dazed_allows_only_one_action_a_round():
    state, _ = resolve(shot(), [*HIT, *SIX, 5, 5, 4, 4])
    state = _next_round(state)
    state, _ = apply(state, ChooseOrder("rebels"), ruleset=HOUSE, rng=FixedDice([]))
    assert_refused(state, DeclareActions("kira", 2), "Kira is Dazed", HOUSE)
    state, _ = apply(state, DeclareActions("kira", 1), ruleset=HOUSE, rng=FixedDice([]))
    state, _ = apply(state, DeclareActions("tk1", 1), ruleset=HOUSE, rng=FixedDice([]))
    state, _ = apply(state, Attack("tk1", "kira", difficulty=5), ruleset=HOUSE, rng=FixedDice([]))
    assert_refused(state, React("kira", extra=True), "no more than one action", HOUSE)
    state, (event,) = apply(state, React("kira", extra=False), ruleset=HOUSE, rng=FixedDice([3, 3]))
    assert event.number("total") == 6


def test_winded_goes_last_whatever_the_initiative():
    # Kira's side won and acts first, but Winded (wounded table 12) puts her after tk1.
    state, _ = resolve(shot(), [*HIT, *SIX, 5, 5, 6, 6])
    state = _next_round(state)
    state, (event,) = apply(state, ChooseOrder("rebels"), ruleset=HOUSE, rng=FixedDice([]))
    assert state.order == ("tk1", "kira")
    assert event.number("first") == "rebels"


def test_internal_bleeding_takes_two_dice_off_strength_against_damage():
    bleeding = CriticalTaken(W.mortally_wounded, "Internal Bruising/Bleeding", 1)
    kira = KIRA.replace(strength=D("4D"), criticals=(bleeding,))
    _, events = resolve(shot(kira), [*HIT, 3, 3, 3, 3, 3, 4, 4])
    damage = next(e for e in events if e.kind == "damage")
    assert damage.number("strength_code") == "2D"
    _, events = resolve(shot(KIRA.replace(strength=D("4D"))), [*HIT, 3, 3, 3, 3, 3, 4, 4, 4, 4])
    assert next(e for e in events if e.kind == "damage").number("strength_code") == "4D"


def test_the_end_is_nigh_rolls_death_on_one_die():
    # H-32: mortally wounded for the second round, a death roll of 1 on 1D → dies.
    nigh = CriticalTaken(W.mortally_wounded, "The end is Nigh", 1)
    kira = KIRA.replace(wounds=WoundState(W.mortally_wounded), mortal_rounds=1, criticals=(nigh,))
    state = ready((kira, 0), (trooper("tk1"), 2))
    _, events = apply(state, EndRound(), ruleset=HOUSE, rng=FixedDice([1]))
    death = events[0]
    assert death.roll("death").normal == (1,)
    assert (death.number("rounds"), death.number("total"), death.number("dies")) == (2, 1, True)


def test_a_wounded_critical_makes_the_medpac_one_level_harder_and_clears_when_healed():
    # H-43: wounded, Easy → Moderate with the critical. Success heals her and clears it.
    medic = trooper("medic", "rebels", skills=(("first aid", D("5D")),), npc=False)
    ringer = CriticalTaken(W.wounded, "Head Ringer", 1)
    kira = KIRA.replace(wounds=WoundState(W.wounded), criticals=(ringer,))
    state = ready((kira, 2), (medic, 2), (trooper("tk1"), 2))
    house = HOUSE.replace(wild_die=False)
    assert_refused(state, FirstAid("medic", "kira", difficulty=8), r"Moderate \(11–15\)", house)
    state, (event,) = apply(
        state, FirstAid("medic", "kira", difficulty=13), ruleset=house, rng=FixedDice([4, 4, 5, 5])
    )
    assert event.number("difficulty_level") == "Moderate" and event.number("success")
    assert state.combatant("kira").wounds.level is W.none
    assert state.combatant("kira").criticals == ()


# --- stored and replayed --------------------------------------------------------------------------
def test_a_fight_with_criticals_replays_from_its_recorded_dice():
    start = ready((KIRA, 2), (trooper("tk1"), 2))
    steps = [Attack("tk1", "kira", difficulty=5), ResolveAttack(), EndRound()]
    state, events = replay(start, steps, ruleset=HOUSE, rng=FixedDice([*HIT, *SIX, 4, 5, 3, 3, 4]))
    again, again_events = replay(start, steps, ruleset=HOUSE, rng=FixedDice(recorded_dice(events)))
    assert (again, again_events) == (state, events)
    assert state.combatant("kira").criticals[0].deadline_days == 7
    assert EncounterState.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_a_resolve_step_stored_before_the_choice_existed_still_explodes_its_sixes():
    stored = {"type": "resolve_attack", "damage_cp": 0}
    assert command_from_json(stored) == ResolveAttack(critical=False)
    assert ResolveAttack().critical  # a new step takes the critical unless told otherwise
    old = json.loads(json.dumps(shot().to_json()))
    for c in old["combatants"]:
        del c["criticals"]
    assert EncounterState.from_json(old) == shot()


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: CriticalTaken(W.wounded, "Blinded", 1), "no critical injury 'Blinded'"),
        (lambda: CriticalTaken(W.killed, "Maimed", 1), "table is one of"),
        (lambda: CriticalTaken(W.stunned, "Stinger", 0), "round is a whole number"),
        (lambda: CriticalTaken(W.incapacitated, "Horrific Injury", 1), "names the attribute"),
        (lambda: CriticalTaken(W.stunned, "Stinger", 1, attribute="Strength"), "attribute"),
        (
            lambda: CriticalTaken(W.incapacitated, "Horrific Injury", 1, attribute="Luck"),
            "attribute is one of",
        ),
        (lambda: CriticalTaken(W.incapacitated, "Blinded", 1), "days left"),
        (lambda: CriticalTaken(W.incapacitated, "Blinded", 1, deadline_days=0), "1 or more"),
    ],
)
def test_a_critical_that_cannot_exist_is_refused(build, message):
    with pytest.raises(EncounterError, match=message):
        build()


def test_damaged_stored_criticals_are_refused_with_the_reason():
    good = shot().to_json()
    for value, message in [
        ({}, "critical injuries are stored as a list"),
        ([{"table": "wounded", "name": "Dazed"}], "critical injury has the fields"),
        (
            [{"table": "x", "name": "Dazed", "round": 1, "attribute": None, "deadline_days": None}],
            "table must be one of",
        ),
    ]:
        bad = json.loads(json.dumps(good))
        bad["combatants"][0]["criticals"] = value
        with pytest.raises(EncounterError, match=message):
            EncounterState.from_json(bad)
    with pytest.raises(EncounterError, match="critical injuries has the wrong type"):
        KIRA.replace(criticals=("Dazed",))
    with pytest.raises(EncounterError, match="critical is true or false"):
        ResolveAttack(critical=1)
