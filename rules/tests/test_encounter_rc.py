"""A Rules Companion round (combat.md §9) replayed through ``apply``.

§9 prints no numeric round, so this one is constructed from its rules and from CB-34, CB-35,
CB-38 and CB-41/42 (derived): Erisson (a PC, Dexterity 2D+1) declares a single shot; the
Gamorrean (an NPC, Dexterity 3D) declares a haste and a brawling attack (2 actions, -1D). In
segment 2 Erisson declares a haste and a brawling parry (shot + haste + parry = 3 actions,
-2D); the parry is at haste 1, as is the attack, so it counts, and as a combat reaction the
defender keeps the higher of his roll and the original difficulty. Segment 3 resolves by haste:
the Gamorrean's attack (haste 1) first, then Erisson's shot (haste 0). The Rules Companion has
no Wild Die; its Damage Summary turns a damage roll below the Strength roll (but not below
half of it) into a stun, -1D this round and the next."""

from __future__ import annotations

import pytest

from rules.combat import WeaponRange
from rules.dice import DieCode, FixedDice
from rules.encounter import (
    AddCombatant,
    Attack,
    Combatant,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndRound,
    NextSegment,
    React,
    ResolveAttack,
    RollInitiative,
    Weapon,
    apply,
    penalty_dice,
    recorded_dice,
    replay,
)
from rules.injuries import WoundLevel
from rules.ruleset import RuleSet

D = DieCode.parse
RC = RuleSet.preset("rc")

ERISSON = Combatant(
    id="erisson",
    name="Erisson",
    side="rebels",
    perception=D("3D"),
    dexterity=D("2D+1"),
    strength=D("3D"),
    skills=(("blaster", D("4D")), ("brawling parry", D("4D"))),
    weapon=Weapon("blaster pistol", "4D", "blaster", "ranged", WeaponRange(3, 10, 30, 120)),
)
GAMORREAN = Combatant(
    id="gamorrean",
    name="Gamorrean",
    side="guards",
    perception=D("2D"),
    dexterity=D("3D"),
    strength=D("4D"),
    skills=(("brawling", D("4D")),),
    npc=True,
)


def step(state, command, *faces):
    return apply(state, command, ruleset=RC, rng=FixedDice(faces))


def test_a_rules_companion_round_segment_by_segment():
    state = EncounterState.new(rc_round=True)
    assert (state.round, state.segment, state.phase) == (1, 1, "round")
    for c in (ERISSON, GAMORREAN):
        state, _ = step(state, AddCombatant(c))
    # Segment 1: the lowest Dexterity declares first (CB-34).
    assert state.order == ("erisson", "gamorrean")
    with pytest.raises(EncounterError, match="no initiative roll"):
        step(state, RollInitiative())
    state, (erisson,) = step(state, DeclareActions("erisson", 1))
    state, (gamorrean,) = step(state, DeclareActions("gamorrean", 1, haste=1))
    assert erisson.number("penalty_dice") == 0
    assert (gamorrean.number("actions"), gamorrean.number("penalty_dice")) == (2, 1)
    with pytest.raises(EncounterError, match="segment 3"):
        step(state, Attack("gamorrean", "erisson", difficulty=5))

    # Segment 2: the highest Dexterity declares first; Erisson raises his haste to 1 for a
    # combat parry: 3 actions (-2D), the parry rolled at 4D − 2D = 2D: 4 + 5 = 9.
    state, (segment,) = step(state, NextSegment())
    assert segment.number("order") == "gamorrean,erisson"
    with pytest.raises(EncounterError, match="declared in segment 1"):
        step(state, DeclareActions("erisson", 1))
    with pytest.raises(EncounterError, match="never lowered"):
        step(state, React("gamorrean", "brawling parry", haste=0), 3, 3)
    state, (parry,) = step(state, React("erisson", "brawling parry", haste=1), 4, 5)
    assert (parry.number("actions"), parry.number("penalty_dice")) == (3, 2)
    assert parry.number("total") == 9
    assert parry.number("haste") == 1

    # Segment 3, in order of haste: the Gamorrean's haste-1 attack, then Erisson's shot.
    state, (segment,) = step(state, NextSegment())
    assert segment.number("order") == "gamorrean,erisson"
    state, _ = step(state, Attack("gamorrean", "erisson", difficulty=5))
    # Brawling 4D − 1D = 3D: 3 + 3 + 2 = 8. The parry (haste 1 ≥ 1) counts and the defender
    # keeps the higher number: 9, so 8 misses (it would have hit the original 5; CB-38).
    state, (attack,) = step(state, ResolveAttack(), 3, 3, 2)
    assert attack.number("attack_code") == "4D"
    assert attack.number("penalty_dice") == 1
    assert (attack.number("base_difficulty"), attack.number("difficulty")) == (5, 9)
    assert attack.number("attack_total") == 8
    assert attack.number("hit") is False

    # Erisson's shot at haste 0, short range (RC numbers 6–10, GM 8), blaster 4D − 2D = 2D.
    with pytest.raises(EncounterError, match="short range is Easy \\(6–10\\)"):
        step(state, Attack("erisson", "gamorrean", distance_m=6))
    state, _ = step(state, Attack("erisson", "gamorrean", difficulty=8, distance_m=6))
    state, (shot, damage) = step(state, ResolveAttack(), 5, 4, 3, 3, 2, 2, 4, 4, 3, 3)
    assert shot.number("attack_total") == 9
    assert shot.number("hit") is True
    # Damage 4D = 10 against Strength 4D = 14: below it but not below half → Stun -1D.
    assert (damage.number("damage_total"), damage.number("strength_total")) == (10, 14)
    assert damage.number("result") == "stunned"
    gamorrean = state.combatant("gamorrean")
    assert gamorrean.wounds.level is WoundLevel.none
    assert len(gamorrean.wounds.stuns) == 1
    assert penalty_dice(gamorrean, now_round=1, ruleset=RC) == 1 + 1  # stun + his haste

    # End of round: declarations and reactions reset; the stun lasts through round 2 only.
    with pytest.raises(EncounterError, match="last"):
        step(state, NextSegment())
    state, (end,) = step(state, EndRound())
    assert end.number("round") == 2
    assert (state.round, state.segment) == (2, 1)
    assert state.order == ("erisson", "gamorrean")
    gamorrean = state.combatant("gamorrean")
    assert gamorrean.actions is None and gamorrean.haste == 0
    assert state.combatant("erisson").reactions == ()
    assert penalty_dice(gamorrean, now_round=2, ruleset=RC) == 1
    assert penalty_dice(gamorrean, now_round=3, ruleset=RC) == 0


def test_the_rules_companion_round_replays_from_its_recorded_dice():
    steps = [
        AddCombatant(ERISSON),
        AddCombatant(GAMORREAN),
        DeclareActions("erisson", 1),
        DeclareActions("gamorrean", 1, haste=1),
        NextSegment(),
        React("erisson", "brawling parry", haste=1),
        NextSegment(),
        Attack("gamorrean", "erisson", difficulty=5),
        ResolveAttack(),
    ]
    faces = [4, 5, 6, 6, 2, 6, 5, 5, 4, 2, 2, 1]
    start = EncounterState.new(rc_round=True)
    state, events = replay(start, steps, ruleset=RC, rng=FixedDice(faces))
    # 6 + 6 + 2 = 14 ≥ 9 → hit; STR 4D 6+5+5+4 = 20 against Strength 3D 2+2+1 = 5: at least
    # 3 × SR → a mortal wound on the RC Damage Summary (CB-41).
    assert events[-1].number("result") == "mortally_wounded"
    assert recorded_dice(events) == faces
    again, _ = replay(start, steps, ruleset=RC, rng=FixedDice(recorded_dice(events)))
    assert again == state
    assert state.combatant("erisson").out_of_fight
