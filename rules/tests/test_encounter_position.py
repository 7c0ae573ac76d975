"""Where combatants stand and what they do before the shot: the GM's positions (range band or
distance, cover, notes) that an attack takes when it names none (combat.md §4.1–§4.4), the GM
declaring for a whole group ("every trooper declares 1"), and aiming (dice-and-core.md §6:
a round of aiming gives +1D on the shot). Dice are fixed, so every number is the rules'."""

from __future__ import annotations

import pytest

from rules.combat import ActionCount, WeaponRange
from rules.dice import FixedDice
from rules.encounter import (
    Act,
    AddCombatant,
    Aim,
    Attack,
    ChooseOrder,
    DeclareActions,
    DeclareAll,
    EncounterError,
    EncounterState,
    EndRound,
    GMOverride,
    NextSegment,
    PendingAttack,
    React,
    ResolveAttack,
    SetPosition,
    Weapon,
    apply,
    command_from_json,
    recorded_dice,
    replay,
)
from rules.injuries import WoundLevel, WoundState
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, STD, D, assert_refused, ready, trooper

RC = RuleSet.preset("rc")
PISTOL = Weapon("blaster pistol", "4D", "blaster", "ranged", WeaponRange(3, 10, 30, 60))
VIBRO = Weapon("vibroblade", "STR+2D", "melee combat", "melee")


def go(state, *commands, ruleset=STD, dice=()):
    state, _ = replay(state, commands, ruleset=ruleset, rng=FixedDice(dice))
    return state


def step(state, command, *dice, ruleset=STD):
    return apply(state, command, ruleset=ruleset, rng=FixedDice(dice))


def next_round(state, first="rebels", **declared):
    """End the round and start the next with ``first`` acting first (no initiative dice)."""
    state = go(state, EndRound())
    state = state.replace(initiative_winner=first, phase="order")
    return go(state, ChooseOrder(first), *(DeclareActions(c, n) for c, n in declared.items()))


# --- positions ---------------------------------------------------------------------------------
def test_the_gm_places_a_trooper_and_an_attack_at_him_takes_his_range_and_cover():
    state = ready((KIRA, 2), (trooper("tk1"), 2), first="rebels")
    place = SetPosition("tk1", "medium", None, "half_cover", "behind the crates")
    state, (placed,) = step(state, place)
    assert placed.kind == "position"
    assert (placed.number("range_band"), placed.number("cover")) == ("medium", "half_cover")
    tk1 = state.combatant("tk1")
    assert (tk1.range_band, tk1.distance_m, tk1.cover) == ("medium", None, "half_cover")
    assert tk1.notes == "behind the crates"
    # No number given: the GM is told the stored range's span (medium: Moderate 11–15).
    assert_refused(state, Attack("kira", "tk1"), "medium range is Moderate \\(11–15\\)")
    state, (announced,) = step(state, Attack("kira", "tk1", difficulty=13))
    assert announced.number("range_band") == "medium"
    assert announced.number("conditions") == "half_cover"
    assert (announced.number("range_from"), announced.number("cover_from")) == ("tk1", "tk1")
    assert state.pending.conditions == ("half_cover",)
    # Half cover adds 2D to the difficulty (the GM's dice 3 + 4): 13 + 7 = 20. Kira's blaster
    # 4D − 1D (2 actions) = 3D: 6 + 6 + 5 = 17, which would hit the bare 13 but misses 20.
    state, (shot,) = step(state, ResolveAttack(), 3, 4, 6, 6, 5)
    assert shot.roll("difficulty dice").normal == (3, 4)
    assert (shot.number("base_difficulty"), shot.number("difficulty")) == (13, 20)
    assert (shot.number("attack_total"), shot.number("hit")) == (17, False)


def test_a_stored_distance_is_read_on_each_attackers_weapon():
    pistol = trooper("tk2", weapon=PISTOL)
    state = ready((KIRA, 2), (trooper("tk1"), 2), (pistol, 2), first="empire")
    state = go(state, SetPosition("kira", distance_m=40))
    # The rifle (3-30/100/300) reads 40 m as medium; the pistol (3-10/30/60) as long.
    _, (rifle,) = step(state, Attack("tk1", "kira", difficulty=12))
    assert (rifle.number("range_band"), rifle.number("distance_m")) == ("medium", 40)
    assert rifle.number("range_from") == "kira"
    _, (pistol_shot,) = step(state, Attack("tk2", "kira", difficulty=17))
    assert pistol_shot.number("range_band") == "long"
    # A range named in the step wins over the stored one.
    _, (named,) = step(state, Attack("tk1", "kira", difficulty=8, range_band="short"))
    assert (named.number("range_band"), named.number("range_from")) == ("short", None)
    # Beyond the pistol's long range nobody can hit him.
    far = go(state, SetPosition("kira", distance_m=61))
    assert_refused(far, Attack("tk2", "kira", difficulty=20), "beyond the weapon's long range")


def test_a_target_with_no_position_is_as_far_as_the_attacker_stands_from_his_side():
    state = ready((KIRA, 2), (trooper("tk1"), 2), (trooper("vibro", weapon=VIBRO), 2))
    state = go(state, SetPosition("tk1", "short"), SetPosition("vibro", "point_blank"))
    # The trooper stands at short range from the party, so the party is at short range from
    # him: his shot at Kira (no position of his own) is at short range.
    _, (shot,) = step(state, Attack("tk1", "kira", difficulty=8))
    assert (shot.number("range_band"), shot.number("range_from")) == ("short", "tk1")
    assert shot.number("conditions") is None
    # Melee takes nothing stored (no range difficulty, no cover, no short-range rule).
    state = go(state, SetPosition("kira", "short", cover="half_cover"))
    _, (swing,) = step(state, Attack("vibro", "kira", difficulty=10))
    assert swing.number("range_band") is None
    assert (swing.number("conditions"), swing.number("cover_from")) == (None, None)
    # Conditions named in the step replace the stored cover for that shot.
    _, (dark,) = step(state, Attack("tk1", "kira", difficulty=8, conditions=("poor_light",)))
    assert (dark.number("conditions"), dark.number("cover_from")) == ("poor_light", None)
    # Completely behind cover: he cannot be hit directly.
    hidden = go(state, SetPosition("kira", "short", cover="full_cover"))
    assert_refused(hidden, Attack("tk1", "kira", difficulty=8), "cannot be hit directly")


def test_the_cover_is_one_the_campaigns_option_knows_and_a_position_can_be_cleared():
    state = ready((KIRA, 1), (trooper("tk1"), 1))
    assert_refused(state, SetPosition("tk1", cover="medium_cover"), "not a condition this")
    assert_refused(state, SetPosition("ghost", "short"), "no combatant 'ghost'")
    rc = go(EncounterState.new(rc_round=True), AddCombatant(KIRA), ruleset=RC)
    rc = go(rc, SetPosition("kira", cover="medium_cover"), ruleset=RC)  # the RC chart's row
    assert rc.combatant("kira").cover == "medium_cover"
    bare = STD.replace(cover_modifiers="none")
    assert_refused(state, SetPosition("tk1", cover="half_cover"), "one of full_cover$", bare)
    state = go(state, SetPosition("tk1", "long", 150, "quarter_cover", "on the ridge"))
    state, (cleared,) = step(state, SetPosition("tk1"))
    tk1 = state.combatant("tk1")
    assert (tk1.range_band, tk1.distance_m, tk1.cover, tk1.notes) == (None, None, None, "")
    assert cleared.text == "Tk1: no range or cover"


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: SetPosition("tk1", "far"), "one of point_blank, short, medium, long; not 'far'"),
        (lambda: SetPosition("tk1", "out_of_range"), "not 'out_of_range'"),
        (lambda: SetPosition("tk1", distance_m=-1), "distance in metres is a whole number"),
        (lambda: SetPosition("tk1", notes="x" * 201), "at most 200 characters; these have 201"),
        (lambda: SetPosition("tk1", notes="a\x00b"), "without NUL characters"),
        (lambda: SetPosition("tk1", cover="half\x00cover"), "without NUL characters"),
        (lambda: SetPosition("tk1", cover=" "), "cover is a name"),
        (lambda: KIRA.replace(range_band="far"), "range band is one of"),
        (lambda: KIRA.replace(distance_m=-3), "distance_m is a whole number"),
        (lambda: KIRA.replace(notes="n" * 201), "at most 200 characters"),
        (lambda: KIRA.replace(cover="x\x00"), "are text"),
        (lambda: KIRA.replace(aim_target="tk1"), "aim names its target and the round"),
        (lambda: KIRA.replace(surprised=1), "surprised flag"),
        (lambda: PendingAttack("a", "b", "blaster", "ranged", 5, aimed=["a"]), "aimed are"),
    ],
)
def test_a_position_that_cannot_be_is_refused_when_built(build, message):
    with pytest.raises(EncounterError, match=message):
        build()
    assert SetPosition("tk1", notes="x" * 200).notes == "x" * 200  # 200 is allowed


def test_a_damaged_stored_position_step_is_refused():
    good = SetPosition("tk1", "short", 8, "half_cover", "").to_json()
    assert command_from_json(good) == SetPosition("tk1", "short", 8, "half_cover")
    for key, value, message in [
        ("distance_m", "8", "distance_m must be a whole number or null"),
        ("notes", None, "notes must be text"),
        ("range_band", "near", "range band is one of"),
    ]:
        with pytest.raises(EncounterError, match=message):
            command_from_json({**good, key: value})


# --- the GM declares for a group --------------------------------------------------------------
def test_declare_all_declares_everyone_listed_who_has_not_yet():
    down = trooper("tk3", wounds=WoundState(WoundLevel.incapacitated))
    state = ready(
        (KIRA, 0), (trooper("tk1"), 0), (trooper("tk2"), 2), (down, 0), (trooper("tk4"), 0)
    )
    every = DeclareAll(("tk1", "tk2", "tk3", "tk4"), 1)
    new, events = step(state, every)
    # tk2 has declared and tk3 is out of the fight: skipped, not refused.
    assert [(e.kind, e.combatant) for e in events] == [("declare", "tk1"), ("declare", "tk4")]
    assert [e.number("actions") for e in events] == [1, 1]
    assert new.combatant("tk2").actions == ActionCount(2)
    assert new.combatant("tk3").actions is None
    one_by_one = go(state, DeclareActions("tk1", 1), DeclareActions("tk4", 1))
    assert new == one_by_one
    assert_refused(
        new,
        every,
        "nobody is left to declare: Tk1 has declared; Tk2 has declared; "
        "Tk3 cannot act this round; Tk4 has declared",
    )
    assert_refused(state, DeclareAll(("tk1", "ghost"), 1), "no combatant 'ghost'")
    assert_refused(state, DeclareAll(("tk1",), 1, haste=1), "haste is a Rules Companion rule")


def test_declare_all_in_the_rules_companion_round_declares_haste_too():
    start = EncounterState.new(rc_round=True)
    state = go(start, AddCombatant(KIRA), AddCombatant(trooper("tk1")), ruleset=RC)
    state, events = step(state, DeclareAll(("kira", "tk1"), 1, haste=1), ruleset=RC)
    assert [e.number("penalty_dice") for e in events] == [1, 1]
    assert state.combatant("tk1").actions == ActionCount(2, used=1)
    assert state.combatant("tk1").haste == 1
    later = go(state, NextSegment(), ruleset=RC)
    assert_refused(later, DeclareAll(("kira",), 1), "nobody is left", RC)


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: DeclareAll((), 1), "name each combatant who declares once"),
        (lambda: DeclareAll(("tk1", "tk1"), 1), "name each combatant who declares once"),
        (lambda: DeclareAll(("tk1",), 0), "declared actions is a whole number of 1 or more"),
        (lambda: DeclareAll("tk1", 1), "combatants is a list of combatant ids"),
        (lambda: DeclareAll(("tk1",), 1, haste=-1), "haste is a whole number"),
    ],
)
def test_a_group_declaration_that_cannot_be_is_refused_when_built(build, message):
    with pytest.raises(EncounterError, match=message):
        build()


# --- aiming -----------------------------------------------------------------------------------
def test_a_round_of_aiming_gives_plus_1d_on_the_next_shot_at_that_target():
    state = ready((KIRA, 1), (trooper("tk1"), 1), first="rebels")
    state, (aimed,) = step(state, Aim("kira", "tk1"))
    assert aimed.kind == "aim"
    assert (aimed.number("target"), aimed.number("aim_bonus")) == ("tk1", "+1D")
    kira = state.combatant("kira")
    assert (kira.aim_target, kira.aim_round) == ("tk1", 1)
    assert kira.actions == ActionCount(1, used=1)  # aiming was his action this round
    assert_refused(state, Attack("kira", "tk1", difficulty=10), "no actions left")
    # Next round he fires at the trooper: blaster 4D + 1D = 5D (one action, no penalty).
    state = next_round(state, kira=1, tk1=1)
    assert state.combatant("kira").aim_target == "tk1"  # carried into round 2
    state, (announced,) = step(state, Attack("kira", "tk1", difficulty=20))
    assert (announced.number("aimed"), announced.number("aim_bonus")) == ("kira", "+1D")
    assert state.pending.aimed == ("kira",)
    assert state.combatant("kira").aim_target is None  # spent
    state, (shot,) = step(state, ResolveAttack(), 2, 2, 2, 2, 3)
    assert shot.roll("attack").pool == D("5D")
    assert (shot.number("aim_bonus"), shot.number("attack_total")) == ("+1D", 11)
    assert shot.number("hit") is False


def test_group_firers_who_aimed_each_roll_plus_1d():
    state = ready((KIRA, 1), (trooper("tk1"), 1), (trooper("tk2"), 1), (trooper("tk3"), 1))
    state = go(state, Aim("tk1", "kira"), Aim("tk2", "kira"), Act("tk3", "waits"))
    state = next_round(state, "empire", kira=1, tk1=1, tk2=1, tk3=1)
    state, (announced,) = step(state, Attack("tk1", "kira", difficulty=30, others=("tk2", "tk3")))
    assert announced.number("aimed") == "tk1,tk2"
    state, events = step(state, ResolveAttack(), *([2] * 14))
    shots = [e for e in events if e.kind == "attack"]
    # tk1 and tk2 aimed (blaster 4D + 1D); tk3 did not.
    assert [s.roll("attack").pool for s in shots] == [D("5D"), D("5D"), D("4D")]
    assert [s.number("aim_bonus") for s in shots] == ["+1D", "+1D", None]


def test_an_aim_is_lost_by_firing_elsewhere_reacting_or_waiting_too_long():
    people = ((KIRA, 1), (trooper("tk1"), 1), (trooper("tk2"), 1))
    aimed = go(ready(*people, first="rebels"), Aim("kira", "tk1"))
    # Firing at someone else next round: no bonus, and the aim is spent.
    state = next_round(aimed, kira=1, tk1=1, tk2=1)
    state, (other,) = step(state, Attack("kira", "tk2", difficulty=10))
    assert (other.number("aimed"), other.number("aim_bonus")) == (None, None)
    assert state.pending.aimed == ()
    assert state.combatant("kira").aim_target is None
    # Dodging in the round he aims spoils it: nothing else in that time.
    shot_at = go(aimed, Attack("tk1", "kira", difficulty=10), React("kira"), dice=[3, 3])
    shot_at = go(shot_at, ResolveAttack(), dice=[1, 1, 1, 2])
    state, events = step(shot_at, EndRound())
    assert events[0].kind == "aim_lost"
    assert "reacted or lost his actions" in events[0].text
    assert state.combatant("kira").aim_target is None
    # Not firing in the round after: gone at its end.
    waited = go(next_round(aimed, kira=1, tk1=1, tk2=1), Act("kira", "waits"))
    state, events = step(waited, EndRound())
    assert events[0].text == "Kira's aim is lost: he did not fire the round after"
    assert state.combatant("kira").aim_target is None
    # The bonus is for the round after: a shot the GM lets him take in the same round has none.
    same_round = go(aimed, GMOverride("kira", "declared", 2))
    _, (hasty,) = step(same_round, Attack("kira", "tk1", difficulty=10))
    assert hasty.number("aim_bonus") is None


def test_aiming_takes_the_whole_round():
    state = ready((KIRA, 2), (trooper("tk1"), 1), (trooper("fresh"), 0), first="rebels")
    assert_refused(state, Aim("kira", "tk1"), "aiming takes Kira's whole round: he declares 1")
    assert_refused(state, Aim("tk1", "tk1"), "cannot aim at himself")
    assert_refused(state, Aim("tk1", "ghost"), "no combatant 'ghost'")
    assert_refused(state, Aim("fresh", "kira"), "has not declared his actions")
    busy = go(state, Attack("kira", "tk1", difficulty=10))
    assert_refused(busy, Aim("tk1", "kira"), "resolve the announced attack first")
    # [RC] aiming is preparation, declared in segment 1 with nothing else.
    rc = go(EncounterState.new(rc_round=True), AddCombatant(KIRA), AddCombatant(trooper("tk1")))
    rc = go(rc, DeclareActions("kira", 1), DeclareActions("tk1", 1, haste=1), ruleset=RC)
    assert_refused(rc, Aim("tk1", "kira"), "no haste", RC)
    fresh = go(rc, AddCombatant(trooper("tk5")), ruleset=RC)
    assert_refused(fresh, Aim("tk5", "kira"), "declares his 1 action before aiming", RC)
    down = fresh.with_combatant(trooper("tk5", wounds=WoundState(WoundLevel.incapacitated)))
    assert_refused(down, Aim("tk5", "kira"), "cannot act this round", RC)
    rc, (prepared,) = step(rc, Aim("kira", "tk1"), ruleset=RC)
    assert prepared.number("actions_left") == 0
    assert_refused(rc, Aim("kira", "tk1"), "already aiming", RC)
    later = go(rc, NextSegment(), NextSegment(), ruleset=RC)
    assert_refused(later, Attack("kira", "tk1", difficulty=8), "no actions left", RC)
    assert_refused(later, Aim("tk1", "kira"), "declared in segment 1", RC)


def test_positions_group_declarations_and_aims_replay_from_their_recorded_dice():
    start = ready((KIRA, 0), (trooper("tk1"), 0), (trooper("tk2"), 0), first="rebels")
    steps = [
        SetPosition("tk1", distance_m=50, cover="half_cover", notes="crates"),
        DeclareActions("kira", 1),
        DeclareAll(("tk1", "tk2"), 2),
        Aim("kira", "tk1"),
        Attack("tk1", "kira", difficulty=9),
        ResolveAttack(),
        EndRound(),
    ]
    state, events = replay(start, steps, ruleset=STD, rng=FixedDice([1, 2, 3]))
    again, _ = replay(start, steps, ruleset=STD, rng=FixedDice(recorded_dice(events)))
    assert again == state
    assert events[-3].number("range_band") == "medium"  # tk1's 50 m on his rifle
    assert state.combatant("kira").aim_round == 1
    assert state.combatant("tk1").notes == "crates"
    assert EncounterState.from_json(state.to_json()) == state
