"""Storing an encounter: its state, steps and events round-trip through JSON, and damaged
data or values that cannot exist are refused with the reason."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import RulesError
from rules.combat import ActionCount, Armour, WeaponRange
from rules.dice import DieCode, FixedDice, SeededDice
from rules.encounter import (
    COMMANDS,
    Act,
    AddCombatant,
    AddCombatants,
    Aim,
    Attack,
    ChooseOrder,
    Combatant,
    CriticalTaken,
    DeclareActions,
    DeclareAll,
    Detonate,
    EncounterError,
    EncounterState,
    EndEncounter,
    EndRound,
    Event,
    FirstAid,
    GMOverride,
    NextSegment,
    PendingAttack,
    PendingBlast,
    React,
    Reaction,
    RemoveCombatant,
    ResolveAttack,
    RollInitiative,
    SetPosition,
    Surprise,
    Throw,
    Weapon,
    apply,
    command_from_json,
    plain_roll,
    recorded_dice,
)
from rules.encounter.blasts import parse_blast
from rules.encounter.firing import FireState, Suppress, Suppression
from rules.injuries import Stun, WoundLevel, WoundState
from rules.scale import Scale
from rules.tests.encounter_fixtures import KIRA, STD, fighting

# --- storing: JSON round trips and damaged data -----------------------------------------------
codes = st.builds(DieCode, st.integers(0, 12), st.integers(0, 2))
names = st.text("abcdefghij", min_size=1, max_size=8)
weapons = st.builds(
    Weapon,
    names,
    st.sampled_from(["4D", "5D+2", "STR+1D"]),
    st.sampled_from(["blaster", "melee combat", "brawling"]),
    st.sampled_from(["ranged", "melee", "brawling"]),
    st.none() | st.just(WeaponRange(3, 10, 30, 120)),
    st.booleans(),
    st.booleans(),
    st.integers(0, 10),
)
combatants = st.builds(
    Combatant,
    id=names,
    name=names,
    side=st.sampled_from(["a", "b"]),
    perception=codes,
    dexterity=codes,
    strength=codes,
    skills=st.lists(st.tuples(st.sampled_from(["dodge", "blaster"]), codes), max_size=2).map(
        lambda pairs: tuple(dict(pairs).items())
    ),
    weapon=st.none() | weapons,
    armour=st.builds(Armour.uniform, codes),
    scale=st.sampled_from(list(Scale)),
    npc=st.booleans(),
    wounds=st.builds(
        WoundState,
        st.sampled_from([WoundLevel.none, WoundLevel.wounded, WoundLevel.mortally_wounded]),
        st.lists(st.builds(Stun, st.integers(1, 9), st.integers(1, 2)), max_size=2).map(tuple),
    ),
    actions=st.none() | st.builds(ActionCount, st.integers(1, 4), st.integers(0, 2)),
    haste=st.integers(0, 3),
    reactions=st.lists(st.builds(Reaction, names, st.integers(0, 40)), max_size=2).map(tuple),
    prone=st.booleans(),
    initiative=st.none() | st.integers(0, 40),
    mortal_rounds=st.integers(0, 5),
    combining=st.booleans(),
    stabilised=st.booleans(),
    medpacs=st.integers(0, 4),
    medpac_locked=st.booleans(),
    force_point_round=st.integers(0, 9),
    cp_round=st.integers(0, 9),
    criticals=st.lists(
        st.sampled_from(
            [
                CriticalTaken(WoundLevel.stunned, "Slowed Down", 1),
                CriticalTaken(WoundLevel.wounded, "Dazed", 2),
                CriticalTaken(WoundLevel.incapacitated, "Horrific Injury", 3, "Dexterity"),
                CriticalTaken(WoundLevel.mortally_wounded, "Paralysis", 1, deadline_days=4),
            ]
        ),
        max_size=2,
    ).map(tuple),
)


blasts = st.builds(
    PendingBlast,
    names,
    names,
    st.sampled_from([parse_blast("2", "5D"), parse_blast("0-2/8/12/20", "10D/8D/5D/2D")]),
    st.booleans(),
    st.booleans(),
    st.none() | st.integers(0, 18),
)


fires = st.builds(
    FireState,
    st.sampled_from(["single", "burst", "full_auto"]),
    st.integers(0, 10),
    st.lists(st.tuples(names, st.integers(1, 2)), max_size=2).map(tuple),
    st.lists(names, max_size=2).map(tuple),
    st.lists(
        st.builds(
            Suppression,
            names,
            names,
            st.integers(1, 3),
            st.integers(16, 20),
            st.just((17, 12, 20)),
            st.integers(0, 3),
            st.integers(0, 4),
        ),
        max_size=2,
    ).map(tuple),
)


@st.composite
def states(draw):
    people = draw(st.lists(combatants, max_size=3, unique_by=lambda c: c.id))
    ids = [c.id for c in people]
    pending = None
    if len(ids) >= 2 and draw(st.booleans()):
        pending = PendingAttack(
            ids[0],
            ids[1],
            "blaster",
            "ranged",
            draw(st.integers(0, 30)),
            attack_bonus=draw(codes),
            damage_bonus=draw(codes),
            others=tuple(draw(st.lists(st.sampled_from(ids[2:] or ids[:1]), max_size=2))),
            supporters=tuple(draw(st.lists(st.sampled_from(ids), max_size=2))),
            combined_bonus=draw(codes),
        )
    return EncounterState(
        round=draw(st.integers(1, 50)),
        segment=draw(st.integers(0, 3)),
        phase=draw(st.sampled_from(["initiative", "order", "round", "ended"])),
        combatants=tuple(people),
        side_order=tuple(sorted({c.side for c in people})),
        order=tuple(ids),
        initiative_winner=draw(st.none() | st.sampled_from(["a", "b"])),
        pending=pending,
        blast=draw(st.none() | blasts),
        fire=draw(fires),
    )


@settings(max_examples=60)
@given(states())
def test_an_encounter_state_round_trips_through_json(state):
    assert EncounterState.from_json(state.to_json()) == state
    assert EncounterState.from_json(json.loads(json.dumps(state.to_json()))) == state


steps = st.one_of(
    st.builds(AddCombatant, combatants),
    st.builds(RemoveCombatant, names),
    st.just(RollInitiative()),
    st.builds(ChooseOrder, names, st.booleans()),
    st.builds(DeclareActions, names, st.integers(1, 5), st.integers(0, 2)),
    st.builds(Act, names, names),
    st.builds(
        Attack,
        names,
        names,
        st.none() | names,
        st.none() | st.integers(0, 30),
        st.none() | st.sampled_from(["short", "medium"]),
        st.none() | st.integers(0, 100),
        st.lists(names, max_size=2).map(tuple),
        st.none() | st.floats(0.5, 50),
        st.integers(0, 3),
        st.booleans(),
        st.none() | st.sampled_from(["1D", "2D+2"]),
        st.none() | st.sampled_from(["1D+2", "0D"]),
        st.lists(names, max_size=3).map(tuple),
        st.lists(names, max_size=3).map(tuple),
        st.none() | st.sampled_from(["1D", "0D+2"]),
        st.none() | names,
        st.none() | st.integers(0, 30),
        st.sampled_from(["single", "burst", "full_auto"]),
        st.none() | st.integers(1, 10),
    ),
    st.builds(
        AddCombatants,
        st.lists(combatants, min_size=1, max_size=3, unique_by=lambda c: c.id).map(tuple),
    ),
    st.builds(
        FirstAid,
        names,
        names,
        st.booleans(),
        st.integers(0, 2),
        st.none() | st.integers(0, 30),
        st.booleans(),
    ),
    st.builds(
        React,
        names,
        names,
        st.booleans(),
        st.booleans(),
        st.integers(0, 3),
        st.integers(0, 5),
        st.booleans(),
    ),
    st.builds(ResolveAttack, st.integers(0, 2), st.booleans()),
    st.just(NextSegment()),
    st.just(EndRound()),
    st.just(EndEncounter()),
    st.sampled_from([("5D", "2"), ("10D/8D/5D/2D", "0-2/8/12/20")]).flatmap(
        lambda blast: st.builds(
            Throw,
            names,
            st.just(blast[0]),
            st.just(blast[1]),
            st.none() | st.integers(0, 30),
            st.none() | st.sampled_from(["short", "long"]),
            names,
            st.sampled_from(["grenade", "thrown weapons"]),
            st.booleans(),
            st.integers(0, 2),
            st.booleans(),
        )
    ),
    st.builds(Suppress, names, st.integers(1, 4), st.none() | st.integers(0, 30)),
    st.builds(
        Detonate,
        st.lists(st.tuples(names, st.integers(0, 30)), max_size=3, unique_by=lambda v: v[0]).map(
            tuple
        ),
        st.booleans(),
    ),
    st.builds(GMOverride, names, st.sampled_from(["used", "prone"]), st.integers(0, 3), names),
)


@given(steps)
def test_a_step_round_trips_through_json(step):
    assert command_from_json(json.loads(json.dumps(step.to_json()))) == step
    assert step.to_json()["type"] in COMMANDS


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"type": "fly"}, "unknown encounter step 'fly'"),
        ([], "unknown encounter step 'list'"),
        ({"type": "act", "combatant": "kira"}, "missing what"),
        ({"type": "act", "combatant": 3, "what": "x"}, "combatant must be text"),
        ({"type": "declare_actions", "combatant": "k", "actions": 0, "haste": 0}, "1 or more"),
        (
            {
                "type": "attack",
                "attacker": "a",
                "target": "b",
                "skill": None,
                "difficulty": "9",
                "range_band": None,
                "distance_m": None,
                "conditions": [],
                "called_shot_cm": None,
                "cp_dice": 0,
                "force_point": False,
                "attack_bonus": None,
                "damage_bonus": None,
            },
            "difficulty must be a whole number or null",
        ),
        (
            {"type": "gm_override", "combatant": "k", "field": "rank", "value": 1, "skill": None},
            "the GM can set",
        ),
        ({"type": "add_combatant", "combatant": {"id": "x"}}, "a stored combatant has"),
        ({"type": "end_round", "extra": 1}, "unknown extra"),
        ({"type": "add_combatants", "combatants": []}, "1 to 100 combatants"),
        ({"type": "add_combatants", "combatants": {}}, "combatants must be a list"),
        ({"type": "add_combatants"}, "missing combatants"),
        (
            {
                "type": "first_aid",
                "healer": "m",
                "patient": "k",
                "medpac": "yes",
                "cp_dice": 0,
                "difficulty": None,
            },
            "medpac must be true or false",
        ),
        ({"type": "first_aid", "healer": "m", "patient": "k"}, "missing medpac"),
        (
            {**Attack("a", "b").to_json(), "others": "tk1"},
            "others must be a list of texts",
        ),
    ],
)
def test_a_damaged_step_is_refused_with_the_reason(data, message):
    with pytest.raises(EncounterError, match=message):
        command_from_json(data)


def test_what_was_stored_before_group_fire_and_first_aid_still_loads():
    # Steps and states stored before the fields for group and combined fire and first aid
    # existed load with their defaults.
    state = fighting()
    state, _ = apply(state, Attack("tk1", "kira", difficulty=9), ruleset=STD, rng=FixedDice([]))
    old = json.loads(json.dumps(state.to_json()))
    for c in old["combatants"]:
        for key in ("combining", "stabilised", "medpacs", "medpac_locked"):
            del c[key]
    for key in ("others", "supporters", "combined_bonus"):
        del old["pending"][key]
    assert EncounterState.from_json(old) == state
    step = Attack("tk1", "kira", difficulty=9).to_json()
    for key in ("others", "supporters", "to_attack", "commander", "command_difficulty"):
        del step[key]
    assert command_from_json(step) == Attack("tk1", "kira", difficulty=9)
    # A damaged new field is still refused with its name.
    bad = {**state.to_json(), "pending": {**state.pending.to_json(), "others": "tk2"}}
    with pytest.raises(EncounterError, match="others must be a list of texts"):
        EncounterState.from_json(bad)
    with pytest.raises(EncounterError, match="type must be 'add_combatants'"):
        AddCombatants.from_json({"type": "add_combatant", "combatants": []})
    bad = json.loads(json.dumps(state.to_json()))
    bad["combatants"][0]["medpacs"] = -1
    with pytest.raises(EncounterError, match="medpacs must be 0 or more"):
        EncounterState.from_json(bad)


def test_damaged_state_is_refused_with_the_reason():
    good = fighting().to_json()
    kira = good["combatants"][0]
    for field, value, message in [
        ("scale", "huge", "scale"),
        ("skills", {"dodge": "lots"}, "dodge"),
        ("skills", ["dodge"], "an object of skill names"),
        ("wounds", {"level": "bruised"}, "wounds"),
        ("actions", {"declared": 0}, "actions"),
        ("reactions", [{"skill": "dodge", "total": -1, "full": False, "haste": 0}], "total"),
        ("weapon", {"name": "x"}, "weapon"),
    ]:
        bad = json.loads(json.dumps(good))
        bad["combatants"][0] = {**kira, field: value}
        with pytest.raises(EncounterError, match=message):
            EncounterState.from_json(bad)
    for field, value, message in [
        ("phase", "lunch", "phase must be one of"),
        ("round", 0, "round must be 1 or more"),
        ("order", ["nobody"], "initiative order names"),
        ("pending", {"attacker": "kira"}, "pending attack"),
    ]:
        with pytest.raises(EncounterError, match=message):
            EncounterState.from_json({**good, field: value})
    twice = {**good, "combatants": [kira, kira]}
    with pytest.raises(EncounterError, match="share an id"):
        EncounterState.from_json(twice)
    assert issubclass(EncounterError, RulesError)


def test_events_store_their_dice_and_read_back():
    state, _ = apply(
        fighting(), Attack("tk1", "kira", difficulty=10), ruleset=STD, rng=FixedDice([])
    )
    _, events = apply(state, ResolveAttack(), ruleset=STD, rng=SeededDice(3))
    for event in events:
        stored = json.loads(json.dumps(event.to_json()))
        assert Event.from_json(stored) == event
    bad = events[0].to_json()
    bad["rolls"] = [["attack", {"code": "2D", "pool": "2D", "normal": [1, 1], "total": 9}]]
    with pytest.raises(EncounterError, match="does not match its dice"):
        Event.from_json(bad)
    with pytest.raises(EncounterError, match="numbers must be an object"):
        Event.from_json({**events[0].to_json(), "numbers": []})
    with pytest.raises(EncounterError, match="stored as \\[name, roll\\]"):
        Event.from_json({**events[0].to_json(), "rolls": [1]})
    assert plain_roll([2, 3]).total == 5
    assert recorded_dice([Event("x", rolls=(("d", plain_roll([4])),))]) == [4]


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Weapon("x", "4D", ""), "skill it is used with"),
        (lambda: Weapon("x", "4D", "blaster", "laser"), "kind is one of"),
        (lambda: Weapon("x", " ", "blaster"), "damage code"),
        (lambda: Weapon("x", "4D", "blaster", ranges="3-10"), "WeaponRange"),
        (lambda: Reaction("", 3), "names its skill"),
        (lambda: Reaction("dodge", 3, full=1), "true or false"),
        (lambda: KIRA.replace(name=" "), "needs a name"),
        (lambda: KIRA.replace(strength="2D"), "strength is a DieCode"),
        (lambda: KIRA.replace(skills=(("dodge", "3D"),)), r"\(name, DieCode\) pairs"),
        (lambda: KIRA.replace(armour="2D"), "armour has the wrong type"),
        (lambda: KIRA.replace(prone=1), "prone flag"),
        (lambda: KIRA.replace(haste=-1), "haste is a whole number"),
        (lambda: PendingAttack("a", "b", "blaster", "ranged", -1), "difficulty is a whole"),
        (lambda: PendingAttack("a", "b", "blaster", "laser", 5), "kind is one of"),
        (lambda: PendingAttack("a", "b", "blaster", "ranged", 5, (1,)), "conditions are names"),
        (lambda: EncounterState(round=0), "rounds start at 1"),
        (lambda: EncounterState(segment=-1), "whole number of 0 or more"),
        (lambda: EncounterState(combatants=(1,)), "Combatant values"),
        (lambda: EncounterState(pending=PendingAttack("a", "b", "x", "ranged", 1)), "names a"),
        (lambda: Event(""), "has a kind"),
        (lambda: Event("x", numbers=(("n", 1.5),)), "JSON scalar"),
        (lambda: Event("x", rolls=(("n", 1),)), r"\(name, Roll\) pairs"),
        (lambda: AddCombatant("kira"), "carries a Combatant"),
        (lambda: Attack("a", "b", attack_bonus="lots"), "attack_bonus"),
        (lambda: PendingAttack("a", "b", "x", "ranged", 1, attack_bonus="1D"), "DieCodes"),
        (lambda: Attack("a", "b", force_point="yes"), "true or false"),
        (lambda: Attack("a", "b", to_attack="lots"), "to_attack"),
        (lambda: Attack("a", "b", others="tk1"), "others is a list of combatant ids"),
        (lambda: Attack("a", "b", command_difficulty=-1), "command difficulty"),
        (lambda: FirstAid("m", "k", medpac=1), "medpac is true or false"),
        (lambda: FirstAid("m", "k", cp_dice=-1), "Character Point dice"),
        (lambda: FirstAid("m", "k", difficulty=-2), "difficulty number"),
        (lambda: FirstAid("m", "k", force_point=1), "force_point is true or false"),
        (lambda: React("k", force_point="yes"), "force_point is true or false"),
        (lambda: KIRA.replace(force_point_round=-1), "force_point_round is a whole number"),
        (lambda: KIRA.replace(cp_round=True), "cp_round is a whole number"),
        (lambda: KIRA.replace(stabilised=1), "stabilised flag"),
        (lambda: KIRA.replace(medpacs=-1), "medpacs is a whole number"),
        (lambda: PendingAttack("a", "b", "x", "ranged", 1, others=["c"]), "others are combatant"),
        (lambda: EncounterState(pending=PendingAttack("a", "a", "x", "ranged", 1)), "names a"),
    ],
)
def test_values_that_cannot_be_built(build, message):
    with pytest.raises(EncounterError, match=message):
        build()


# --- positions, aims, surprise, [RC] full reactions (test_encounter_position, _surprise) -------
places = st.fixed_dictionaries(
    {
        "range_band": st.none() | st.sampled_from(["point_blank", "short", "medium", "long"]),
        "distance_m": st.none() | st.integers(0, 500),
        "cover": st.none() | st.sampled_from(["half_cover", "medium_cover", "full_cover"]),
        "notes": st.text(max_size=200).filter(lambda t: "\x00" not in t),
        "surprised": st.booleans(),
        "full_reaction": st.none() | st.sampled_from(["dodge", "melee parry"]),
    }
)
aims = st.none() | st.tuples(names, st.integers(1, 9))


@settings(max_examples=60)
@given(states(), st.lists(st.tuples(places, aims), min_size=3, max_size=3), st.none() | names)
def test_positions_aims_and_surprise_round_trip_through_json(state, placed, side):
    people = []
    for c, (place, aim) in zip(state.combatants, placed, strict=False):
        target, aim_round = aim if aim else (None, 0)
        people.append(c.replace(**place, aim_target=target, aim_round=aim_round))
    pending = state.pending
    if pending is not None:  # the lead aimed last round
        pending = PendingAttack.from_json({**pending.to_json(), "aimed": [pending.attacker]})
    state = state.replace(combatants=tuple(people), surprise=side, pending=pending)
    assert EncounterState.from_json(state.to_json()) == state
    assert EncounterState.from_json(json.loads(json.dumps(state.to_json()))) == state


new_steps = st.one_of(
    st.builds(
        SetPosition,
        names,
        st.none() | st.sampled_from(["short", "long"]),
        st.none() | st.integers(0, 300),
        st.none() | st.sampled_from(["half_cover", "window"]),
        st.text(max_size=200).filter(lambda t: "\x00" not in t),
    ),
    st.builds(
        DeclareAll,
        st.lists(names, min_size=1, max_size=4, unique=True).map(tuple),
        st.integers(1, 4),
        st.integers(0, 2),
    ),
    st.builds(Surprise, names, st.lists(names, max_size=3, unique=True).map(tuple)),
    st.builds(Aim, names, names),
    st.builds(
        DeclareActions,
        names,
        st.integers(1, 4),
        st.integers(0, 2),
        st.none() | st.sampled_from(["dodge", "brawling parry"]),
    ),
)


@given(new_steps)
def test_position_surprise_aim_and_declaration_steps_round_trip_through_json(step):
    assert command_from_json(json.loads(json.dumps(step.to_json()))) == step
    assert step.to_json()["type"] in COMMANDS


def test_what_was_stored_before_positions_aims_and_surprise_still_loads():
    state, _ = apply(
        fighting(), Attack("tk1", "kira", difficulty=9), ruleset=STD, rng=FixedDice([])
    )
    old = json.loads(json.dumps(state.to_json()))
    del old["surprise"]
    del old["pending"]["aimed"]
    for c in old["combatants"]:
        for key in ("range_band", "distance_m", "cover", "notes", "aim_target", "aim_round"):
            del c[key]
        del c["surprised"], c["full_reaction"]
    assert EncounterState.from_json(old) == state
    bad = json.loads(json.dumps(state.to_json()))
    bad["combatants"][0]["notes"] = "x" * 201
    with pytest.raises(EncounterError, match="notes are at most 200 characters"):
        EncounterState.from_json(bad)
    bad = {**state.to_json(), "surprise": 3}
    with pytest.raises(EncounterError, match="surprise must be text"):
        EncounterState.from_json(bad)
    bad = {**state.to_json(), "pending": {**state.pending.to_json(), "aimed": "tk1"}}
    with pytest.raises(EncounterError, match="aimed must be a list of texts"):
        EncounterState.from_json(bad)
    for key, value, message in [
        ("combatants", "tk1", "combatants must be a list of texts"),
        ("actions", 0, "1 or more"),
    ]:
        with pytest.raises(EncounterError, match=message):
            command_from_json({**DeclareAll(("tk1",), 1).to_json(), key: value})
