"""Surprise (combat.md §7, §9.2; CB-30, CB-31) and the Rules Companion's full reaction (§9.4;
CB-38, CB-39) through ``apply``. 2E: the ambushers act first and take their first actions
before the surprised can act, and those cannot dodge them. [RC]: the ambushers get two free
haste actions. [RC] full dodge: declared with the actions, rolled at the penalty less the 1D
its speed action gives back, added to the attacker's difficulty."""

from __future__ import annotations

import pytest

from rules.combat import ActionCount
from rules.dice import FixedDice
from rules.encounter import (
    Act,
    AddCombatant,
    Aim,
    Attack,
    DeclareActions,
    DeclareAll,
    EncounterError,
    EncounterState,
    EndRound,
    NextSegment,
    React,
    ResolveAttack,
    RollInitiative,
    Surprise,
    Throw,
    apply,
    command_from_json,
    recorded_dice,
    replay,
)
from rules.injuries import WoundLevel, WoundState
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, STD, D, assert_refused, ready, trooper

RC = RuleSet.preset("rc")
MAREK = trooper("marek", "rebels", perception=D("3D"), npc=False)


def go(state, *commands, ruleset=STD, dice=()):
    state, _ = replay(state, commands, ruleset=ruleset, rng=FixedDice(dice))
    return state


def step(state, command, *dice, ruleset=STD):
    return apply(state, command, ruleset=ruleset, rng=FixedDice(dice))


def ambush(*people):
    """Kira and two troopers join; nobody has rolled initiative (round 1)."""
    steps = [AddCombatant(c) for c in (KIRA, trooper("tk1"), trooper("tk2"), *people)]
    return go(EncounterState.new(), *steps)


# --- 2E: the ambushers' first actions ----------------------------------------------------------
def test_the_ambushers_take_their_first_actions_before_the_surprised_can_act_or_dodge():
    state, (sprung,) = step(ambush(), Surprise("empire"))
    # No initiative in round 1: the surprising side acts first.
    assert (state.phase, state.side_order, state.initiative_winner) == (
        "round",
        ("empire", "rebels"),
        "empire",
    )
    assert state.order == ("tk1", "tk2", "kira")
    assert (sprung.number("surprised"), sprung.number("order")) == ("kira", "tk1,tk2,kira")
    assert state.combatant("kira").surprised
    assert_refused(state, RollInitiative(), "initiative has already been rolled")
    surprised = "Kira is surprised: he can neither declare, act nor react until each of side"
    assert_refused(state, DeclareActions("kira", 2), surprised)
    # The GM's "everyone declares 2": Kira is skipped while the surprise holds.
    state, events = step(state, DeclareAll(("tk1", "tk2", "kira"), 2))
    assert [e.combatant for e in events] == ["tk1", "tk2"]
    state = go(state, Attack("tk1", "kira", difficulty=10))
    assert_refused(state, React("kira"), surprised)
    assert_refused(state, Throw("kira", "5D", "2", difficulty=10), surprised)
    # No dodge: the base difficulty stands. Blaster 4D − 1D = 3D: 2 + 2 + 3 = 7 misses 10.
    state, (shot,) = step(state, ResolveAttack(), 2, 2, 3)
    assert (shot.number("reaction"), shot.number("difficulty")) == (None, 10)
    # tk2 has not taken his first action yet: Kira still cannot act.
    assert_refused(state, DeclareActions("kira", 2), surprised)
    state = go(state, Act("tk2", "moves up"))
    # Every ambusher has had his first action: from now on the usual rules.
    state = go(state, DeclareActions("kira", 2), Attack("tk1", "kira", difficulty=10))
    state, (dodge,) = step(state, React("kira"), 5)
    # Dodge 3D − 2D (2 declared + the extra reaction) = 1D: 5.
    assert (dodge.number("penalty_dice"), dodge.number("total")) == (2, 5)
    state = go(state, ResolveAttack(), dice=[1, 1, 2])
    state, _ = step(state, EndRound())
    assert state.surprise is None and not state.combatant("kira").surprised
    assert (state.round, state.phase) == (2, "initiative")  # round 2 rolls initiative


def test_only_those_named_are_surprised_when_some_spotted_the_ambush():
    # CB-30 per target: Marek spotted an ambusher, Kira did not.
    state = go(ambush(MAREK), Surprise("empire", ("kira",)))
    assert [c.id for c in state.combatants if c.surprised] == ["kira"]
    state = go(state, DeclareActions("tk1", 1), DeclareActions("marek", 2))
    state = go(state, Attack("tk1", "marek", difficulty=12))
    state, (dodge,) = step(state, React("marek", extra=False), 4, 4)
    assert dodge.number("total") == 8  # dodge 3D − 1D = 2D: he may dodge the first shot


def test_a_surprise_comes_once_at_the_start_of_the_fight():
    state = ambush()
    started = go(state, Surprise("empire"), DeclareActions("tk1", 1), Act("tk1", "draws"))
    assert_refused(started, Surprise("rebels"), "side empire has already sprung a surprise")
    begun = ready((KIRA, 1), (trooper("tk1"), 1))
    begun = go(begun, Act("tk1", "draws"))
    assert_refused(begun, Surprise("empire"), "round 1 has begun")
    later = state.replace(round=2)
    assert_refused(later, Surprise("empire"), "in round 1")
    assert_refused(state, Surprise("jawas"), "nobody on side 'jawas' is in the fight")
    assert_refused(state, Surprise("empire", ("tk2",)), "Tk2 is on side empire, which springs")
    assert_refused(state, Surprise("empire", ("ghost",)), "no combatant 'ghost'")
    alone = go(EncounterState.new(), AddCombatant(trooper("tk1")))
    assert_refused(alone, Surprise("empire"), "nobody on another side")
    mixed = RC.replace(surprise_mode="first_action")
    rc = go(EncounterState.new(rc_round=True), AddCombatant(KIRA), AddCombatant(trooper("tk1")))
    assert_refused(rc, Surprise("empire"), "has no side order", mixed)
    two_e = STD.replace(surprise_mode="rc_free_haste")
    assert_refused(state, Surprise("empire"), "free haste needs the Rules Companion round", two_e)
    assert_refused(rc, Surprise("empire", ("kira",)), "name no one as surprised", RC)
    in_two = go(rc, NextSegment(), ruleset=RC)
    assert_refused(in_two, Surprise("empire"), "segment 1", RC)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: Surprise("empire", ("kira", "kira")), "listed twice"),
        (lambda: Surprise(" "), "the side that springs the surprise is a name"),
        (lambda: Surprise("empire", "kira"), "surprised is a list of combatant ids"),
    ],
)
def test_a_surprise_that_cannot_be_is_refused_when_built(build, message):
    with pytest.raises(EncounterError, match=message):
        build()


# --- [RC] two free haste actions -------------------------------------------------------------
def test_rc_surprise_gives_two_free_haste_actions_that_lower_no_code():
    start = EncounterState.new(rc_round=True)
    state = go(
        start, AddCombatant(KIRA), AddCombatant(MAREK), AddCombatant(trooper("tk1")), ruleset=RC
    )
    state = go(state, DeclareActions("marek", 1), ruleset=RC)  # declared before it is sprung
    state, (sprung,) = step(state, Surprise("rebels"), ruleset=RC)
    assert (sprung.number("mode"), sprung.number("free_haste")) == ("rc_free_haste", 2)
    assert state.combatant("marek").actions == ActionCount(3, used=2, free=2)
    # CB-31: one shot with the two free haste → haste 2, no penalty (full code).
    state, (kira,) = step(state, DeclareActions("kira", 1), ruleset=RC)
    assert (kira.number("actions"), kira.number("haste"), kira.number("penalty_dice")) == (3, 2, 0)
    assert kira.number("free_haste") == 2
    state, (tk1,) = step(state, DeclareActions("tk1", 1), ruleset=RC)
    assert (tk1.number("haste"), tk1.number("penalty_dice")) == (0, 0)
    # CB-31: a dodge as well → 2 counted actions → −1D; the free haste does not count.
    state = go(state, NextSegment(), ruleset=RC)
    state, (dodge,) = step(state, React("kira", haste=2), 3, 4, ruleset=RC)
    assert (dodge.number("actions"), dodge.number("penalty_dice")) == (4, 1)
    assert (dodge.roll("reaction").pool, dodge.number("total")) == (D("2D"), 7)  # dodge 3D − 1D
    state, (segment,) = step(state, NextSegment(), ruleset=RC)
    assert segment.number("order").startswith("kira,marek")  # haste 2 resolves first
    state, _ = step(state, EndRound(), ruleset=RC)
    assert state.surprise is None
    state, (again,) = step(state, DeclareActions("kira", 1), ruleset=RC)
    assert (again.number("haste"), again.number("free_haste")) == (0, None)


# --- [RC] full reaction -----------------------------------------------------------------------
DODGER = KIRA.replace(skills=(("blaster", D("4D")), ("dodge", D("4D"))))


def rc_fight(*declared):
    start = EncounterState.new(rc_round=True)
    state = go(start, AddCombatant(DODGER), AddCombatant(trooper("tk1")), ruleset=RC)
    return go(state, *declared, ruleset=RC)


def test_rc_full_dodge_is_declared_in_segment_1_and_added_to_the_difficulty():
    state, (declared,) = step(
        rc_fight(DeclareActions("tk1", 1)),
        DeclareActions("kira", 1, full_reaction="dodge"),
        ruleset=RC,
    )
    # The speed action it needs (his 1 action) and the dodge: 2 actions, −1D on movement.
    assert (declared.number("actions"), declared.number("penalty_dice")) == (2, 1)
    assert declared.number("full_reaction") == "dodge"
    kira = state.combatant("kira")
    assert kira.full_reaction == "dodge"
    assert kira.actions == ActionCount(2, used=1)  # the speed action is left to take
    state = go(state, NextSegment(), ruleset=RC)
    assert_refused(state, NextSegment(), "roll Kira's full dodge first", RC)
    assert_refused(state, React("kira"), "full dodge is his reaction this round: roll it", RC)
    # CB-39: rolled at the full 4D (the speed action's 1D cancels its own penalty): 11.
    state, (dodge,) = step(state, React("kira", full=True), 3, 3, 3, 2, ruleset=RC)
    assert dodge.roll("reaction").pool == D("4D")
    assert (dodge.number("penalty_dice"), dodge.number("total"), dodge.number("full")) == (
        0,
        11,
        True,
    )
    assert_refused(state, React("kira", full=True), "already rolled", RC)
    state = go(state, NextSegment(), ruleset=RC)
    # Besides it only haste and movement.
    assert_refused(state, Attack("kira", "tk1", difficulty=8), "full dodge: besides it", RC)
    state = go(state, Act("kira", "runs for the door"), ruleset=RC)
    # CB-38: original difficulty 15, full dodge 11 → 26; blaster 4D: 24 misses.
    state = go(state, Attack("tk1", "kira", difficulty=15), ruleset=RC)
    state, (shot,) = step(state, ResolveAttack(), 6, 6, 6, 6, ruleset=RC)
    assert (shot.number("reaction"), shot.number("difficulty")) == (11, 26)
    assert (shot.number("attack_total"), shot.number("hit")) == (24, False)
    state, _ = step(state, EndRound(), ruleset=RC)
    assert state.combatant("kira").full_reaction is None


def test_rc_full_dodge_with_a_second_speed_action_and_raised_haste():
    # CB-39: a second speed action (3 actions) → the dodge at 4D − 2D + 1D = 3D.
    state = rc_fight(DeclareActions("kira", 2, full_reaction="dodge"), NextSegment())
    _, (dodge,) = step(state, React("kira", full=True), 1, 1, 1, ruleset=RC)
    assert dodge.roll("reaction").pool == D("3D")
    # Haste raised in segment 2 to counter a hasted attack: one more action, −1D more.
    state = rc_fight(DeclareActions("kira", 1, full_reaction="dodge"), NextSegment())
    state, (dodge,) = step(state, React("kira", full=True, haste=1), 2, 2, 2, ruleset=RC)
    assert (dodge.number("actions"), dodge.number("haste"), dodge.number("penalty_dice")) == (
        3,
        1,
        1,
    )
    assert state.combatant("kira").reaction("dodge").haste == 1


def test_rc_full_reactions_are_refused_where_the_rules_have_none():
    full = DeclareActions("kira", 1, full_reaction="dodge")
    two_e = ready((DODGER, 0), (trooper("tk1"), 0))
    assert_refused(two_e, full, "in the 2E round a full reaction is taken when attacked")
    state = rc_fight()
    none = RC.replace(full_reaction="none")
    assert_refused(state, full, "no full reactions", none)
    blaster = DeclareActions("kira", 1, full_reaction="blaster")
    assert_refused(state, blaster, "a full dodge or parry, not 'blaster'", RC)
    declared = go(state, full, DeclareActions("tk1", 1), ruleset=RC)
    assert_refused(declared, Aim("kira", "tk1"), "besides it he takes only haste", RC)
    rolled = (NextSegment(), React("kira", full=True), NextSegment())
    seg3 = go(declared, *rolled, ruleset=RC, dice=[3, 3, 3, 3])
    throw = Throw("kira", "5D", "2", difficulty=8)
    assert_refused(seg3, throw, "besides it he takes only haste", RC)
    assert_refused(declared, React("kira", full=True), "rolled in segment 2", RC)
    seg2 = go(declared, NextSegment(), ruleset=RC)
    assert_refused(seg2, React("kira", "melee parry", full=True), "not a full melee parry", RC)
    assert_refused(seg2, React("tk1", full=True), "declares a full reaction in segment 1", RC)
    hasted = go(state, DeclareActions("kira", 1, 1, "dodge"), NextSegment(), ruleset=RC)
    assert_refused(hasted, React("kira", full=True), "never lowered", RC)
    assert_refused(seg2, React("kira", full=True), "no full reactions", none)
    hurt = seg2.with_combatant(
        seg2.combatant("kira").replace(wounds=WoundState(WoundLevel.incapacitated))
    )
    assert_refused(hurt, React("kira", full=True), "cannot roll a reaction", RC)
    with pytest.raises(EncounterError, match="full_reaction is a name"):
        DeclareActions("kira", 1, full_reaction="")
    stored = DeclareActions("kira", 1).to_json()
    del stored["full_reaction"]  # stored before the field existed
    assert command_from_json(stored) == DeclareActions("kira", 1)


def test_surprise_and_full_reactions_replay_from_their_recorded_dice():
    start = EncounterState.new(rc_round=True)
    steps = [
        AddCombatant(DODGER),
        AddCombatant(trooper("tk1")),
        Surprise("empire"),
        DeclareActions("kira", 1, full_reaction="dodge"),
        DeclareActions("tk1", 1),
        NextSegment(),
        React("kira", full=True),
        NextSegment(),
        Attack("tk1", "kira", difficulty=12),
        ResolveAttack(),
        EndRound(),
    ]
    faces = [5, 4, 3, 2, 6, 6, 6, 6, 1, 1, 1, 1, 1, 3, 3]
    state, events = replay(start, steps, ruleset=RC, rng=FixedDice(faces))
    shot = next(e for e in events if e.kind == "attack")
    # The trooper's shot is at haste 2 (surprise); Kira's full dodge at haste 0 does not
    # count against it (§9.5): 24 against the bare 12.
    assert (shot.number("difficulty"), shot.number("hit")) == (12, True)
    assert events[-2].number("result") == "stunned"  # damage 5 below Strength 6: Stun −1D
    assert recorded_dice(events) == faces
    again, _ = replay(start, steps, ruleset=RC, rng=FixedDice(recorded_dice(events)))
    assert again == state
