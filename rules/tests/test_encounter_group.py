"""Several combatants at once: a group joining in one step, group fire (several attackers, one
target, one reaction), and combined fire under the 2E command rules (dice-and-core.md §8.1,
combat.md §8) and the Rules Companion's support pips (§8.2). Dice are fixed so every number
below is the rules' number; the seeded fights replay exactly from their recorded dice."""

from __future__ import annotations

import pytest

from rules.combat import ActionCount, WeaponRange
from rules.dice import DieCode, FixedDice
from rules.encounter import (
    Act,
    AddCombatant,
    AddCombatants,
    Attack,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndRound,
    FirstAid,
    GMOverride,
    NextSegment,
    React,
    RemoveCombatant,
    ResolveAttack,
    Weapon,
    actions_left,
    apply,
    is_due,
    recorded_dice,
    replay,
)
from rules.injuries import WoundLevel, WoundState
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import (
    KIRA,
    STD,
    Counting,
    D,
    assert_refused,
    fighting,
    ready,
    trooper,
)

RC = RuleSet.preset("rc")
PISTOL = Weapon("blaster pistol", "4D", "blaster", "ranged", WeaponRange(3, 10, 30, 60))
VIBRO = Weapon("vibroblade", "STR+2D", "melee combat", "melee")


def go(state, *commands, ruleset=STD, dice=()):
    state, _ = replay(state, commands, ruleset=ruleset, rng=FixedDice(dice))
    return state


def squad(n: int, prefix: str = "tk", **changes):
    return tuple(trooper(f"{prefix}{i}", **changes) for i in range(1, n + 1))


# --- a group joins in one step ------------------------------------------------------------------
def test_eight_troopers_join_in_one_step_each_tracked_on_his_own():
    troopers = squad(8)
    state = go(fighting(), AddCombatants(troopers[1:]))  # tk1 is already there
    one_by_one = go(fighting(), *(AddCombatant(c) for c in troopers[1:]))
    assert state == one_by_one
    _, events = apply(fighting(), AddCombatants(troopers[1:]), ruleset=STD, rng=FixedDice([]))
    assert [(e.kind, e.combatant) for e in events] == [("join", f"tk{i}") for i in range(2, 9)]
    assert [c.id for c in state.combatants] == ["kira", *(f"tk{i}" for i in range(1, 9))]
    assert state.order[-7:] == tuple(f"tk{i}" for i in range(2, 9))  # on their side's turn


@pytest.mark.parametrize(
    ("build", "message"),
    [
        (lambda: AddCombatants(()), "1 to 100 combatants"),
        (lambda: AddCombatants(squad(101)), "1 to 100 combatants"),
        (lambda: AddCombatants((trooper("tk7"), trooper("tk7"))), "share the id 'tk7'"),
        (lambda: AddCombatants((KIRA, "tk2")), "carries Combatants"),
    ],
)
def test_a_group_that_cannot_join_is_refused_when_built(build, message):
    with pytest.raises(EncounterError, match=message):
        build()


def test_a_group_with_someone_already_in_the_fight_joins_not_at_all():
    # tk1 is the third of the group: nobody of it may be left behind in the encounter.
    group = AddCombatants((trooper("tk5"), trooper("tk6"), trooper("tk1")))
    assert_refused(fighting(), group, "'tk1' is already in the encounter")
    assert AddCombatants(squad(100)).combatants[-1].id == "tk100"  # 100 is allowed


def test_a_group_join_replays_from_the_recorded_steps():
    steps = [AddCombatant(KIRA), AddCombatants(squad(4)), RemoveCombatant("tk2")]
    state, events = replay(EncounterState.new(), steps, ruleset=STD, rng=FixedDice([]))
    again, _ = replay(
        EncounterState.new(), steps, ruleset=STD, rng=FixedDice(recorded_dice(events))
    )
    assert again == state
    assert [c.id for c in state.combatants] == ["kira", "tk1", "tk3", "tk4"]


# --- group fire: several attackers, one target, one reaction -----------------------------------
BOWCASTER = Weapon("bowcaster", "6D", "bowcaster", "ranged", WeaponRange(3, 10, 50, 100))


def _firing_squad() -> EncounterState:
    """Kira (2 actions) against tk1 (blaster 4D, 2 actions), tk2 (blaster 5D, 3 actions) and
    tk3 with a bowcaster (bowcaster 4D+2, damage 6D; 2 actions)."""
    sharp = trooper("tk2", skills=(("blaster", D("5D")),))
    bow = trooper("tk3", skills=(("bowcaster", D("4D+2")),), weapon=BOWCASTER)
    return ready((KIRA, 2), (trooper("tk1"), 2), (sharp, 3), (bow, 2))


def test_group_fire_spends_an_action_of_each_and_the_one_dodge_stands_against_every_shot():
    state = _firing_squad()
    state, (announced,) = apply(
        state,
        Attack("tk1", "kira", difficulty=10, others=("tk2", "tk3")),
        ruleset=STD,
        rng=FixedDice([]),
    )
    assert announced.number("others") == "tk2,tk3"
    assert announced.number("attackers") == 3
    for cid, declared in (("tk1", 2), ("tk2", 3), ("tk3", 2)):
        assert state.combatant(cid).actions == ActionCount(declared, used=1)
    assert state.pending.others == ("tk2", "tk3")
    # Kira dodges once, with a declared action: dodge 3D - 1D (2 actions) = 2D: 5 + wild 4 = 9.
    state, (dodge,) = apply(state, React("kira", extra=False), ruleset=STD, rng=FixedDice([5, 4]))
    assert dodge.number("total") == 9
    # tk1's 3D, tk2's 3D, tk2's damage 5D and Kira's Strength 2D, tk3's 3D+2 (last die: wild).
    dice = [1, 2, 3, 5, 5, 4, 2, 2, 2, 2, 3, 1, 2, 1, 1, 2]
    state, events = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice(dice))
    assert [(e.kind, e.combatant) for e in events] == [
        ("attack", "tk1"),
        ("attack", "tk2"),
        ("damage", "kira"),
        ("attack", "tk3"),
    ]
    shots = [e for e in events if e.kind == "attack"]
    # The dodge of 9 replaces the difficulty 10 for all three shots (2E, one reaction).
    assert [s.number("difficulty") for s in shots] == [9, 9, 9]
    # Each rolls his own weapon's skill less his own multiple-action penalty.
    assert [s.number("attack_code") for s in shots] == ["4D", "5D", "4D+2"]
    assert [s.number("penalty_dice") for s in shots] == [1, 2, 1]
    assert [s.roll("attack").pool for s in shots] == [D("3D"), D("3D"), D("3D+2")]
    assert [s.number("attack_total") for s in shots] == [6, 14, 6]
    assert [s.number("hit") for s in shots] == [False, True, False]
    damage = events[2]
    # tk2's rifle: 5D = 11 against Strength 2D = 3: margin 8 → wounded.
    assert (damage.number("damage_total"), damage.number("strength_total")) == (11, 3)
    assert damage.number("wound_level") == "wounded"
    assert state.pending is None
    assert recorded_dice(events) == dice


def test_each_hit_of_group_fire_is_its_own_damage_roll_on_the_target_as_the_last_left_him():
    state = go(_firing_squad(), Attack("tk1", "kira", difficulty=5, others=("tk3",)))
    # Two hits, two wounds: wounded, then wounded twice (H-2), each from its own damage roll.
    # tk1: 3D = 9 hits 5; his rifle 5D = 10 against Strength 2D = 3 → margin 7.
    # tk3: 3D+2 = 11 hits; his bowcaster 6D = 7 against 3 → margin 4.
    dice = [3, 3, 3, 2, 2, 2, 2, 2, 1, 2, 3, 3, 3, 1, 1, 1, 1, 1, 2, 1, 2]
    state, events = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice(dice))
    damages = [e for e in events if e.kind == "damage"]
    assert [d.number("damage_code") for d in damages] == ["5D", "6D"]
    assert [d.number("margin") for d in damages] == [7, 4]
    assert [d.number("result") for d in damages] == ["wounded", "wounded"]
    assert [d.number("wound_level") for d in damages] == ["wounded", "wounded_twice"]
    assert state.combatant("kira").wounds.level is WoundLevel.wounded_twice


@pytest.mark.parametrize(
    ("others", "message"),
    [
        (("tk1",), "Tk1 leads the attack"),
        (("kira",), "Kira is the target and cannot fire at himself"),
        (("tk2", "tk2"), "Tk2 is listed twice among the others"),
        (("ghost",), "no combatant 'ghost'"),
        (("tk2", "spent"), "Spent has no actions left this round"),
        (("down",), "Down is out of the fight and cannot act"),
        (("fresh",), "Fresh has not declared his actions"),
        (("vibro",), "group fire is one kind of attack: Vibro's is melee, the lead's ranged"),
    ],
)
def test_group_fire_refuses_what_one_attacker_could_not_do(others, message):
    state = ready(
        (KIRA, 2),
        (trooper("tk1"), 2),
        (trooper("tk2"), 2),
        (trooper("spent"), 1),
        (trooper("down", wounds=WoundState(WoundLevel.incapacitated)), 0),
        (trooper("fresh"), 0),
        (trooper("vibro", weapon=VIBRO), 2),
    )
    state = go(state, Act("spent", "draws"))
    assert_refused(state, Attack("tk1", "kira", difficulty=10, others=others), message)


def test_group_fire_cannot_mix_with_combined_fire_or_its_fields_or_outrange_a_weapon():
    state = ready(
        (KIRA, 2), (trooper("tk1"), 2), (trooper("tk2"), 2), (trooper("pis", weapon=PISTOL), 2)
    )
    both = Attack("tk1", "kira", difficulty=10, others=("tk2",), supporters=("pis",))
    assert_refused(state, both, "two different ways to fire together: choose one")
    for stray in (
        Attack("tk1", "kira", difficulty=10, others=("tk2",), to_attack="1D"),
        Attack("tk1", "kira", difficulty=10, command_difficulty=0),
        Attack("tk1", "kira", difficulty=10, commander="tk2"),
    ):
        assert_refused(state, stray, "belong to combined fire: name the supporters")
    # 100 m is medium range for the rifles and beyond the pistol's long range (60 m).
    far = Attack("tk1", "kira", difficulty=10, distance_m=100, others=("pis",))
    assert_refused(state, far, "beyond the weapon's long range")
    assert go(state, Attack("tk1", "kira", difficulty=10, distance_m=50, others=("pis",))).pending


def test_group_fire_is_refused_at_the_roll_before_any_die_when_one_firer_cannot_roll():
    # tk2 has blaster 1D and 2 actions: 1D - 1D leaves nothing to roll (A5). The lead's dice
    # must not be drawn either.
    weak = trooper("tk2", skills=(("blaster", D("1D")),))
    state = ready((KIRA, 2), (trooper("tk1"), 2), (weak, 2))
    state = go(state, Attack("tk1", "kira", difficulty=10, others=("tk2",)))
    assert_refused(state, ResolveAttack(), "Tk2's attack roll: .*a roll needs at least 1D")


def test_a_group_firer_who_leaves_before_the_roll_does_not_fire():
    state = go(_firing_squad(), Attack("tk1", "kira", difficulty=10, others=("tk2", "tk3")))
    state = go(state, RemoveCombatant("tk2"))
    assert state.pending.others == ("tk3",)
    state, events = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice([1, 2, 3, 1, 1, 2]))
    assert [e.combatant for e in events] == ["tk1", "tk3"]


@pytest.mark.parametrize("seed", range(6))
def test_group_fire_replays_exactly_from_its_recorded_dice(seed):
    start = _firing_squad()
    planned = [
        Attack("tk1", "kira", difficulty=12, others=("tk2", "tk3")),
        React("kira"),
        ResolveAttack(),
        Attack("tk2", "kira", difficulty=12, others=("tk3", "tk1")),
        ResolveAttack(),
        EndRound(),
    ]
    _replays(start, planned, seed)


def _replays(start, planned, seed, ruleset=STD):
    dice = Counting(seed)
    state, steps, events = start, [], []
    for step in planned:
        try:
            state, new = apply(state, step, ruleset=ruleset, rng=dice)
        except EncounterError:
            continue  # someone fell: the table skips the step
        steps.append(step)
        events.extend(new)
    assert recorded_dice(events) == dice.drawn
    again, again_events = replay(
        start, steps, ruleset=ruleset, rng=FixedDice(recorded_dice(events))
    )
    assert again == state
    assert [e.to_json() for e in again_events] == [e.to_json() for e in events]
    return steps


# --- combined fire, 2E command rules (dice-and-core.md §8.1) -----------------------------------
SARGE = trooper("sgt", skills=(("blaster", D("4D")), ("dodge", D("3D")), ("command", D("3D"))))


def _four_troopers(sarge_actions: int = 2) -> EncounterState:
    """Kira against a sergeant (command 3D) and three troopers, all blaster 4D; the sergeant
    commands and fires (two actions), the troopers take one action each."""
    return ready((KIRA, 2), (SARGE, sarge_actions), *((t, 1) for t in squad(4)[1:]))


FOUR = Attack("sgt", "kira", difficulty=10, supporters=("tk2", "tk3", "tk4"), command_difficulty=10)


def test_four_troopers_combine_for_1d_plus_1_three_pips_a_die_plus_one_extra():
    # 4 combining → 4 pips → +1D+1 (D-33). The sergeant commands and fires: two actions, so
    # his command 3D is rolled at -1D (D-34): 2D showing 5 + wild 5 = 10 against 10.
    state, (command, announced) = apply(_four_troopers(), FOUR, ruleset=STD, rng=FixedDice([5, 5]))
    assert command.kind == "command" and command.combatant == "sgt"
    assert command.roll("command").pool == D("2D")
    assert (command.number("total"), command.number("margin")) == (10, 0)
    assert (command.number("combining"), command.number("commanded")) == (4, 3)
    assert announced.number("combined_bonus") == "1D+1"
    assert announced.number("attack_bonus") == "1D+1"  # all of it on the attack by default
    assert announced.number("damage_bonus") == "0D"
    assert announced.number("supporters") == "tk2,tk3,tk4"
    assert "4 combine fire: +1D+1 (+1D+1 on the attack, +0 on damage)" in announced.text
    assert state.combatant("sgt").actions == ActionCount(2, used=2)
    for cid in ("tk2", "tk3", "tk4"):
        assert state.combatant(cid).actions == ActionCount(1, used=1)
    assert all(state.combatant(c).combining for c in ("sgt", "tk2", "tk3", "tk4"))
    assert not state.combatant("kira").combining
    # The sergeant fires 4D - 1D (his two actions) + 1D+1 = 4D+1.
    state, (shot,) = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice([1, 1, 1, 2]))
    assert shot.roll("attack").pool == D("4D+1")
    assert shot.number("attack_total") == 6  # 1 + 1 + 1 + wild 2 + 1
    assert shot.number("combining") == 4
    assert (shot.number("combined_bonus"), shot.number("attack_bonus")) == ("1D+1", "1D+1")
    assert shot.number("damage_bonus") == "0D"


@pytest.mark.parametrize(
    ("dice", "total", "bonus"),
    [
        ([5, 5], 10, "1D+1"),  # made it: 4 pips
        ([5, 4], 9, "0D+1"),  # missed by 1: 4 - 3 = 1 pip (D-30: 2D+2 → 1D+2)
        ([4, 4], 8, "0D"),  # missed by 2: 4 - 6 → nothing, never below 0D
    ],
)
def test_a_missed_command_roll_takes_1d_off_the_bonus_for_every_point(dice, total, bonus):
    _, (command, announced) = apply(_four_troopers(), FOUR, ruleset=STD, rng=FixedDice(dice))
    assert command.number("total") == total
    assert command.number("combined_bonus") == bonus
    assert announced.number("attack_bonus") == bonus


def _danik(troopers: int = 8) -> EncounterState:
    """D-29/D-32: Danik (command 8D+2) only supervises; the lead trooper has blaster 6D and a
    5D rifle, the others blaster 4D."""
    danik = trooper("danik", skills=(("command", D("8D+2")),), weapon=None)
    lead = trooper("tk1", skills=(("blaster", D("6D")),))
    return ready((KIRA, 1), (danik, 1), (lead, 1), *((t, 1) for t in squad(troopers)[1:]))


def _danik_attack(troopers: int = 8, **fields) -> Attack:
    supporters = tuple(f"tk{i}" for i in range(2, troopers + 1))
    return Attack("tk1", "kira", difficulty=10, supporters=supporters, commander="danik", **fields)


def test_the_lead_splits_2d_plus_2_into_1d_on_the_attack_and_1d_plus_2_on_damage():
    # D-29/D-32/CB-32: Danik supervises (full command 8D+2) eight troopers, difficulty 12;
    # he rolls 27 → +2D+2. The lead puts 1D on blaster 6D → 7D; damage 5D + 1D+2 → 6D+2.
    attack = _danik_attack(command_difficulty=12, to_attack="1D")
    state, (command, announced) = apply(_danik(), attack, ruleset=STD, rng=FixedDice([3] * 7 + [4]))
    assert command.roll("command").pool == D("8D+2")  # supervising only: no penalty
    assert command.number("total") == 27
    assert (command.number("combining"), command.number("commanded")) == (8, 8)
    assert announced.number("combined_bonus") == "2D+2"
    assert (announced.number("attack_bonus"), announced.number("damage_bonus")) == ("1D", "1D+2")
    danik = state.combatant("danik")
    assert danik.actions == ActionCount(1, used=1) and not danik.combining
    state, (shot, damage) = apply(
        state, ResolveAttack(), ruleset=STD, rng=FixedDice([4] * 7 + [1] * 6 + [2, 2])
    )
    assert shot.roll("attack").pool == D("7D")
    assert damage.number("damage_code") == "6D+2"
    assert damage.number("damage_total") == 8  # six 1s + 2
    assert shot.number("combining") == 8


def test_a_share_larger_than_the_bonus_is_refused_and_a_smaller_bonus_goes_all_on_the_attack():
    too_much = _danik_attack(command_difficulty=12, to_attack="3D")
    assert_refused(_danik(), too_much, "between \\+0 and all of \\+2D\\+2")
    # Missed by 1 (11 against 12): +1D+2 is all there is, and all of it goes on the attack.
    wanted = _danik_attack(command_difficulty=12, to_attack="2D")
    _, (command, announced) = apply(_danik(), wanted, ruleset=STD, rng=FixedDice([1] * 7 + [2]))
    assert command.number("total") == 11
    assert (announced.number("attack_bonus"), announced.number("damage_bonus")) == ("1D+2", "0D")


def test_a_leader_commands_no_more_characters_than_his_command_dice():
    # D-28: command 8D+2 → at most 8. A ninth trooper is one too many.
    assert_refused(
        _danik(9),
        _danik_attack(9, command_difficulty=12),
        "Danik can command at most 8 characters \\(command 8D\\+2\\); 9 would combine",
    )
    # The sergeant (command 3D) commanding and firing counts only the 3 others (A8) …
    assert go(_four_troopers(), FOUR, dice=[5, 5]).pending.supporters == ("tk2", "tk3", "tk4")
    # … but not 4 others.
    five = ready((KIRA, 2), (SARGE, 2), *((t, 1) for t in squad(5)[1:]))
    attack = Attack(
        "sgt", "kira", difficulty=10, supporters=("tk2", "tk3", "tk4", "tk5"), command_difficulty=9
    )
    assert_refused(five, attack, "Sgt can command at most 3 characters")


def _combined(**fields) -> Attack:
    base = {"supporters": ("tk2", "tk3"), "command_difficulty": 10} | fields
    return Attack("sgt", "kira", difficulty=10, **base)


@pytest.mark.parametrize(
    ("attack", "message"),
    [
        (_combined(supporters=("sgt",)), "Sgt leads the attack; the supporters are the others"),
        (_combined(supporters=("kira",)), "Kira is the target"),
        (_combined(supporters=("tk2", "tk2")), "Tk2 is listed twice among the supporters"),
        (_combined(supporters=("tk2", "spent")), "Spent has no actions left this round"),
        (_combined(supporters=("down",)), "Down is out of the fight"),
        (_combined(supporters=("vibro",)), "combined fire is one kind of attack"),
        (_combined(command_difficulty=None), "the GM sets the command difficulty"),
        (_combined(attack_bonus="1D"), "leave attack_bonus and damage_bonus empty"),
        (_combined(commander="kira"), "the target cannot command"),
        (_combined(commander="ghost"), "no combatant 'ghost'"),
        (
            _combined(commander="tk2"),
            "the leader is the one with the highest command: Sgt \\(3D\\) outranks Tk2 \\(2D\\)",
        ),
        (
            _combined(supporters=("ace", "tk2")),
            "highest skill: Ace \\(6D\\) outranks Sgt \\(4D\\); make him the lead firer",
        ),
    ],
)
def test_combined_fire_refuses_with_the_reason_before_the_command_roll(attack, message):
    state = ready(
        (KIRA, 2),
        (SARGE, 2),
        (trooper("tk2"), 1),
        (trooper("tk3"), 1),
        (trooper("spent"), 1),
        (trooper("down", wounds=WoundState(WoundLevel.mortally_wounded)), 0),
        (trooper("vibro", weapon=VIBRO), 1),
        (trooper("ace", skills=(("blaster", D("6D")),)), 1),
    )
    state = go(state, Act("spent"))
    assert_refused(state, attack, message)


def test_a_leader_who_commands_and_fires_needs_two_actions():
    state = _four_troopers(sarge_actions=1)
    assert_refused(state, FOUR, "Sgt commands and fires: that is two actions")


def test_a_combining_character_may_only_combine_again_or_react_until_the_round_ends():
    people = ((KIRA, 3), (SARGE, 3), (trooper("tk2"), 3), (trooper("tk3"), 2), (trooper("tk5"), 1))
    # Sergeant (3 actions: 3D - 2D = 1D command) rolls 5 against 5: 3 combine for +1D.
    state = go(ready(*people), _combined(command_difficulty=5), ResolveAttack(), dice=[5] + [1] * 3)
    refusal = "Tk2 is combining fire this round: apart from that he may only react"
    for step in (
        Act("tk2", "runs"),
        Attack("tk2", "kira", difficulty=10),
        Attack("tk5", "kira", difficulty=10, others=("tk2",)),
        FirstAid("tk2", "kira"),
    ):
        assert_refused(state, step, refusal)
    # He may react: Kira fires at him and he dodges (3D - 2D for his three actions: 5).
    state = go(state, Attack("kira", "tk2", difficulty=10), React("tk2", extra=False), dice=[5])
    assert state.combatant("tk2").reaction("dodge") is not None
    state = go(state, ResolveAttack(), dice=[1, 2])  # Kira's 2D: 3 against 5, a miss
    # He may combine again (two combined shots, D-36); the sergeant now only commands.
    again = Attack(
        "tk2", "kira", difficulty=10, supporters=("tk3",), commander="sgt", command_difficulty=5
    )
    state = go(state, again, dice=[5])
    assert state.pending.supporters == ("tk3",)
    assert state.combatant("tk2").actions.remaining == 0
    state = go(state, ResolveAttack(), dice=[1] * 4)
    # The GM can release him, and the next round does.
    released = go(state, GMOverride("tk2", "combining", False))
    assert not released.combatant("tk2").combining
    assert released.combatant("tk3").combining
    after = go(state, EndRound())
    assert not any(c.combining for c in after.combatants)


@pytest.mark.parametrize("seed", range(6))
def test_combined_fire_replays_exactly_from_its_recorded_dice(seed):
    start = ready((KIRA, 2), (SARGE, 2), (trooper("tk2"), 1), (trooper("tk3"), 1))
    steps = _replays(
        start, [_combined(to_attack="0D+1"), React("kira"), ResolveAttack(), EndRound()], seed
    )
    assert steps[0] == _combined(to_attack="0D+1")  # the step with the command roll is kept


# --- combined fire, Rules Companion support pips (dice-and-core.md §8.2) -------------------------
def _rc(*people: tuple[object, int]) -> EncounterState:
    """An RC round in segment 3 (actions are rolled), everyone declared in segment 1."""
    state = EncounterState.new(rc_round=True)
    state = go(state, AddCombatants(tuple(c for c, _ in people)), ruleset=RC)
    state = go(state, *(DeclareActions(c.id, n) for c, n in people), ruleset=RC)
    return go(state, NextSegment(), NextSegment(), ruleset=RC)


def _rc_squad(actions: int) -> EncounterState:
    shooters = squad(3, "st", skills=(("blaster", D("3D")),))
    return _rc((KIRA, 1), *((s, actions) for s in shooters))


def test_rc_three_troopers_at_blaster_3d_fire_one_combined_shot_at_3d_plus_6():
    # D-35: lead 3D + two supporters × 3 pips (one per full die) → 3D+6, pips kept in RC.
    attack = Attack("st1", "kira", difficulty=10, supporters=("st2", "st3"))
    state, (announced,) = apply(_rc_squad(1), attack, ruleset=RC, rng=FixedDice([]))
    assert announced.number("combined_bonus") == "0D+6"
    assert announced.number("attack_bonus") == "0D+6"
    state, (shot,) = apply(state, ResolveAttack(), ruleset=RC, rng=FixedDice([1, 1, 1]))
    assert shot.roll("attack").pool == DieCode(3, 6)
    assert shot.number("attack_total") == 9


def test_rc_two_combined_shots_cut_every_code_by_1d_so_each_is_2d_plus_4():
    # D-36: two actions each: the supporters' 3D become 2D (2 pips each), the lead rolls 2D.
    attack = Attack("st1", "kira", difficulty=10, supporters=("st2", "st3"))
    state = _rc_squad(2)
    pools = []
    for _ in range(2):
        state = go(state, attack, ruleset=RC)
        state, (shot, *_) = apply(state, ResolveAttack(), ruleset=RC, rng=FixedDice([1, 1]))
        pools.append(shot.roll("attack").pool)
    assert pools == [DieCode(2, 4), DieCode(2, 4)]
    assert all(state.combatant(f"st{i}").actions.remaining == 0 for i in (1, 2, 3))


def test_rc_a_coordinator_who_also_fires_caps_the_group_at_his_command_less_1d():
    # D-38: Erisson (command 4D) coordinates and fires → 3D → at most 3 combine. With three,
    # the supporters' codes after their own penalties: Erisson's blaster 4D - 1D (two
    # actions) = 3D → 3 pips, r2's 3D → 3 pips; the lead rolls 3D+6.
    erisson = trooper("eri", "rebels", skills=(("blaster", D("4D")), ("command", D("4D"))))
    rebels = squad(4, "r", side="rebels", skills=(("blaster", D("3D")),))
    state = _rc((trooper("tk1"), 1), (erisson, 2), *((r, 1) for r in rebels))
    three = Attack("r1", "tk1", difficulty=10, supporters=("eri", "r2"), commander="eri")
    after, (announced,) = apply(state, three, ruleset=RC, rng=FixedDice([]))
    assert announced.number("limit") == 3
    assert announced.number("combined_bonus") == "0D+6"
    assert after.combatant("eri").actions.remaining == 0  # coordinating + supporting
    # D-39: five combine under a limit of 3: the bonus is lost and 3 pips come off for each
    # of the two over → the lead rolls 3D-6.
    five = Attack("r1", "tk1", difficulty=10, supporters=("eri", "r2", "r3", "r4"), commander="eri")
    after, (announced,) = apply(state, five, ruleset=RC, rng=FixedDice([]))
    assert announced.number("combined_bonus") == "0D-6"
    _, (shot,) = apply(after, ResolveAttack(), ruleset=RC, rng=FixedDice([5, 5, 4]))
    assert shot.roll("attack").pool == DieCode(3, -6)
    assert shot.number("attack_total") == 8  # 14 - 6: a miss against 10
    # The RC has no command roll and no split between attack and damage.
    rolled = Attack("r1", "tk1", difficulty=10, supporters=("r2",), command_difficulty=10)
    assert_refused(state, rolled, "no command roll", ruleset=RC)
    split = Attack("r1", "tk1", difficulty=10, supporters=("r2",), to_attack="0D+1")
    assert_refused(state, split, "support pips all go on the lead", ruleset=RC)


def test_rc_combined_fire_replays_exactly_from_its_recorded_dice():
    for seed in range(4):
        attack = Attack("st1", "kira", difficulty=10, supporters=("st2", "st3"))
        _replays(_rc_squad(2), [attack, ResolveAttack(), attack, ResolveAttack()], seed, RC)


def test_the_leader_by_default_is_the_combining_character_with_the_highest_command():
    # The lead firer tk2 has no command (Perception 2D); the sergeant supporting him (command
    # 3D) leads, commanding and firing: his second action, his command 3D - 1D = 2D.
    state = ready((KIRA, 2), (trooper("tk2"), 1), (SARGE, 2), (trooper("tk3"), 1))
    attack = Attack("tk2", "kira", difficulty=10, supporters=("sgt", "tk3"), command_difficulty=6)
    state, (command, announced) = apply(state, attack, ruleset=STD, rng=FixedDice([3, 3]))
    assert command.combatant == "sgt" and command.roll("command").pool == D("2D")
    assert announced.number("commander") == "sgt"
    assert announced.number("combined_bonus") == "1D"  # 3 combining: 3 pips
    assert state.combatant("sgt").actions == ActionCount(2, used=2)


def test_a_group_firer_without_ranges_cannot_fire_at_a_distance():
    unranged = trooper("odd", weapon=Weapon("odd blaster", "4D", "blaster"))
    state = ready((KIRA, 2), (trooper("tk1"), 2), (unranged, 2))
    step = Attack("tk1", "kira", difficulty=10, distance_m=20, others=("odd",))
    assert_refused(state, step, "Odd's weapon has no ranges to read a distance on")
    with pytest.raises(EncounterError, match="list of Combatants"):
        AddCombatants(KIRA)


# --- what the dashboard shows -------------------------------------------------------------------
def test_actions_left_and_whose_action_is_due():
    state = ready((KIRA, 2), (trooper("tk1"), 1), (trooper("tk2"), 0), first="rebels")
    assert [actions_left(state.combatant(c)) for c in ("kira", "tk1", "tk2")] == [2, 1, 0]
    assert is_due(state, "kira") and not is_due(state, "tk1")
    state = go(state, Act("kira"))
    assert actions_left(state.combatant("kira")) == 1
    assert is_due(state, "tk1")  # everyone's first action before anyone's second
    assert is_due(state, "kira", whole_pose=True)
    hurt = state.combatant("kira").replace(lost_actions=True)
    assert actions_left(hurt) == 0
    with pytest.raises(EncounterError, match="no combatant 'ghost'"):
        is_due(state, "ghost")
