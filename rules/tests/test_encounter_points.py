"""Character Points and Force Points in the fight (characters-and-advancement.md §3.1–§3.3).

A Force Point doubles *every* skill and attribute code of the character for the round he spends
it in, not only the roll it was spent on ([2E-STD] "For one round, all of the character's
skill, attribute and Force-skill codes are doubled (equipment codes such as weapon damage …
are not). At most one FP per round"): his attacks, reactions and first aid that round, and his
Strength when he resists damage (an attribute); his weapon's damage is equipment and is not
doubled, only the Strength part of a ``STR+1D`` code. [UPG] 001 l.313: "Characters may use
Character Points or a Force Point in a round; they may not use both" (the ruleset option
``cp_spend_limits = "none"`` lifts it). The combatant keeps the round he spent each in.

Kira has blaster 4D, dodge 3D, Strength 2D and declares 2 actions (-1D); every die shows 3
unless a test says otherwise."""

from __future__ import annotations

import pytest

from rules.dice import FixedDice
from rules.encounter import (
    Attack,
    Combatant,
    DeclareActions,
    Detonate,
    EncounterError,
    EncounterState,
    EndRound,
    FirstAid,
    React,
    ResolveAttack,
    Throw,
    Weapon,
    command_from_json,
    replay,
)
from rules.injuries import WoundLevel, WoundState
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, STD, D, assert_refused, fighting, ready, trooper

THREES = [3] * 60
BOTH = RuleSet(cp_spend_limits="none")
"""A campaign that lets Character Points and a Force Point be spent in the same round."""


def go(state, *steps, ruleset=STD):
    state, events = replay(state, steps, ruleset=ruleset, rng=FixedDice(THREES))
    return state, events


def pool(events, kind, name):
    return next(e for e in events if e.kind == kind).roll(name).pool


def with_fp():
    """Kira has spent her Force Point on a shot at tk1 (difficulty 40: a miss) in round 1."""
    state, (announced,) = go(fighting(), Attack("kira", "tk1", difficulty=40, force_point=True))
    assert announced.text.endswith("; a Force Point doubles his rolls this round")
    state, resolved = go(state, ResolveAttack())
    assert pool(resolved, "attack", "attack") == D("7D")  # 4D doubled, -1D
    return state


# --- the Force Point doubles every roll of the round -----------------------------------------
def test_a_force_point_doubles_the_dodge_and_second_attack_of_the_same_round():
    state = with_fp()
    assert state.combatant("kira").force_point_round == 1
    state, _ = go(state, Attack("tk1", "kira", difficulty=10))
    state, events = go(state, React("kira", extra=True))
    assert pool(events, "reaction", "reaction") == D("4D")  # dodge 3D doubled, 3 actions -2D
    state, _ = go(state, ResolveAttack())
    state, _ = go(state, Attack("kira", "tk1", difficulty=40))
    _, events = go(state, ResolveAttack())
    assert pool(events, "attack", "attack") == D("6D")  # 4D doubled, 3 actions -2D


def test_the_force_point_lasts_one_round_only():
    state, _ = go(with_fp(), EndRound())
    state = state.replace(phase="round", side_order=("rebels", "empire"))
    state, _ = go(state, DeclareActions("kira", 1), DeclareActions("tk1", 1))
    shot, _ = go(state, Attack("kira", "tk1", difficulty=40))
    _, events = go(shot, ResolveAttack())
    assert pool(events, "attack", "attack") == D("4D")
    # A new round: she may spend a Force Point again.
    state, _ = go(state, Attack("tk1", "kira", difficulty=10))
    _, events = go(state, React("kira", force_point=True))
    assert pool(events, "reaction", "reaction") == D("5D")  # 3D doubled, 2 actions -1D


def test_strength_against_damage_is_doubled_but_not_the_weapons_damage():
    state = with_fp()
    state, _ = go(state, Attack("tk1", "kira", difficulty=5))
    _, events = go(state, ResolveAttack())
    damage = next(e for e in events if e.kind == "damage")
    assert damage.number("strength_code") == "4D"  # Strength 2D doubled
    assert damage.number("damage_code") == "5D"  # the trooper's rifle
    # Her own hit: the rifle's 5D is equipment, not doubled.
    hit, _ = go(fighting(), Attack("kira", "tk1", difficulty=5, force_point=True))
    _, events = go(hit, ResolveAttack())
    assert next(e for e in events if e.kind == "damage").number("damage_code") == "5D"


def test_a_force_point_doubles_the_strength_part_of_melee_damage():
    knife = Weapon("vibroblade", "STR+1D", "melee combat", "melee")
    brawler = KIRA.replace(weapon=knife, skills=(("melee combat", D("4D")),))
    state = ready((brawler, 2), (trooper("tk1"), 2), first="rebels")
    state, _ = go(state, Attack("kira", "tk1", difficulty=5, force_point=True))
    _, events = go(state, ResolveAttack())
    assert next(e for e in events if e.kind == "damage").number("damage_code") == "5D"


@pytest.mark.parametrize("spend", ["react", "first_aid", "throw"])
def test_any_step_can_spend_it_and_the_rest_of_the_round_is_doubled(spend):
    skills = ("first aid", "3D"), ("blaster", "4D"), ("grenade", "3D"), ("dodge", "3D")
    medic = KIRA.replace(skills=tuple((name, D(code)) for name, code in skills))
    hurt = trooper("ally", "rebels", wounds=WoundState(WoundLevel.wounded))
    state = ready((medic, 3), (hurt, 1), (trooper("tk1"), 2), first="empire")
    if spend == "react":
        state, _ = go(state, Attack("tk1", "kira", difficulty=10))
        state, events = go(state, React("kira", extra=False, force_point=True))
        assert pool(events, "reaction", "reaction") == D("4D")  # 3D doubled, -2D
        state, _ = go(state, ResolveAttack())
    elif spend == "first_aid":
        state, events = go(state, FirstAid("kira", "ally", force_point=True, difficulty=8))
        assert pool(events, "first_aid", "first aid") == D("4D")  # 3D doubled, -2D
    else:
        throw = Throw("kira", "5D", "2", difficulty=40, force_point=True)
        state, events = go(state, throw)
        assert pool(events, "throw", "throw") == D("4D")  # grenade 3D doubled, -2D
        state, _ = go(state, Detonate(()))
        events = [throw_event for throw_event in events if throw_event.kind == "throw"]
    assert state.combatant("kira").force_point_round == 1
    assert events[-1].text.endswith("; a Force Point doubles his rolls this round")
    state, _ = go(state, Attack("kira", "tk1", difficulty=40))
    _, events = go(state, ResolveAttack())
    assert pool(events, "attack", "attack") == D("6D")  # blaster 4D doubled, -2D


# --- one Force Point a round; not with Character Points -----------------------------------------
def test_a_second_force_point_in_the_same_round_is_refused():
    state = with_fp()
    message = "Kira has already spent a Force Point this round"
    assert_refused(state, Attack("kira", "tk1", difficulty=10, force_point=True), message)
    attacked, _ = go(state, Attack("tk1", "kira", difficulty=10))
    assert_refused(attacked, React("kira", force_point=True), message)


def test_character_points_are_refused_in_the_round_of_a_force_point():
    state = with_fp()
    never = "Character Points or a Force Point in a round, never both"
    assert_refused(state, Attack("kira", "tk1", difficulty=10, cp_dice=1), never)
    attacked, _ = go(state, Attack("tk1", "kira", difficulty=10))
    assert_refused(attacked, React("kira", cp_dice=2), never)
    house = RuleSet.preset("house")
    shot, _ = go(state, Attack("kira", "tk1", difficulty=40), ruleset=house)
    assert_refused(shot, ResolveAttack(damage_cp=1), never, house)


def test_a_force_point_is_refused_after_character_points_in_the_same_round():
    state, _ = go(fighting(), Attack("kira", "tk1", difficulty=40, cp_dice=1))
    state, _ = go(state, ResolveAttack())
    assert state.combatant("kira").cp_round == 1
    never = "Character Points or a Force Point in a round, never both"
    assert_refused(state, Attack("kira", "tk1", difficulty=10, force_point=True), never)


def test_a_campaign_may_allow_both_in_one_round():
    state, _ = go(fighting(), Attack("kira", "tk1", difficulty=40, force_point=True), ruleset=BOTH)
    state, _ = go(state, ResolveAttack(), ruleset=BOTH)
    state, _ = go(state, Attack("tk1", "kira", difficulty=10), ruleset=BOTH)
    _, events = go(state, React("kira", cp_dice=1), ruleset=BOTH)
    assert len(next(e for e in events if e.kind == "reaction").roll("reaction").cp) == 1


# --- stored data from before ------------------------------------------------------------------
def test_stored_combatants_and_steps_from_before_load():
    old = KIRA.to_json()
    del old["force_point_round"], old["cp_round"]
    kira = Combatant.from_json(old)
    assert (kira.force_point_round, kira.cp_round) == (0, 0)
    assert EncounterState.from_json(fighting().to_json()) == fighting()
    react = {"type": "react", "combatant": "kira", "skill": "dodge", "extra": True}
    react |= {"full": False, "haste": 0, "cp_dice": 0}
    assert command_from_json(react) == React("kira")
    aid = {"type": "first_aid", "healer": "kira", "patient": "kira", "medpac": True}
    aid |= {"cp_dice": 0, "difficulty": None}
    assert command_from_json(aid) == FirstAid("kira", "kira")
    with pytest.raises(EncounterError, match="force_point_round"):
        Combatant.from_json(old | {"force_point_round": -1, "cp_round": 0})
