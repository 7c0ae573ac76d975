"""The encounter state machine: refusals, the end of the round, GM overrides, storing state,
steps and events as JSON, and replays with seeded dice."""

from __future__ import annotations

import pytest

from rules.combat import ActionCount, Armour, split_combined_bonus
from rules.dice import FixedDice, SeededDice
from rules.encounter import (
    Act,
    AddCombatant,
    Attack,
    ChooseOrder,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndEncounter,
    EndRound,
    GMOverride,
    NextSegment,
    PendingAttack,
    React,
    Reaction,
    RemoveCombatant,
    ResolveAttack,
    RollInitiative,
    Weapon,
    apply,
    next_to_act,
    recorded_dice,
    replay,
    resolve_attack,
)
from rules.injuries import WoundLevel, WoundState
from rules.ruleset import RuleSet
from rules.scale import Scale
from rules.tests.encounter_fixtures import KIRA, STD, D, fighting, trooper


def go(state, *commands, ruleset=STD, seed=7):
    state, _ = replay(state, commands, ruleset=ruleset, rng=SeededDice(seed))
    return state


# --- refusals: the message says why and nothing changes ---------------------------------------
@pytest.mark.parametrize(
    ("command", "message"),
    [
        (Attack("ghost", "kira", difficulty=10), "no combatant 'ghost'"),
        (React("kira"), "no attack on Kira to react to"),
        (ResolveAttack(), "no attack has been announced"),
        (Attack("kira", "kira", difficulty=10), "cannot attack himself"),
        (Attack("kira", "tk1"), "the GM sets the difficulty number"),
        (Attack("kira", "tk1", difficulty=10, conditions=("full_cover",)), "cannot be hit"),
        (Attack("kira", "tk1", difficulty=10, distance_m=500), "beyond the weapon's long range"),
        (DeclareActions("kira", 3), "already declared"),
        (DeclareActions("kira", 1, haste=1), "haste is a Rules Companion rule"),
        (RollInitiative(), "already been rolled"),
        (ChooseOrder("rebels"), "after the initiative roll"),
        (NextSegment(), "Rules Companion"),
        (AddCombatant(KIRA), "already in the encounter"),
        (GMOverride("kira", "prone", 3), "true or false"),
        (GMOverride("kira", "initiative", -1), "whole number"),
        (GMOverride("kira", "reaction", 12), "which reaction skill"),
    ],
)
def test_a_refused_step_says_why_and_changes_nothing(command, message):
    state = fighting()
    before = state.to_json()
    with pytest.raises(EncounterError, match=message):
        apply(state, command, ruleset=STD, rng=FixedDice([]))
    assert state.to_json() == before


def test_an_attack_with_no_actions_left_is_refused():
    state = go(fighting(), Act("kira", "draws"), Act("kira", "moves"))
    with pytest.raises(EncounterError, match="Kira has no actions left this round"):
        apply(state, Attack("kira", "tk1", difficulty=10), ruleset=STD, rng=FixedDice([]))


def test_steps_wait_for_their_turn_in_the_round():
    state = go(EncounterState.new(), AddCombatant(KIRA), AddCombatant(trooper("tk1")))
    with pytest.raises(EncounterError, match="waits until initiative"):
        apply(state, DeclareActions("kira", 1), ruleset=STD, rng=FixedDice([]))
    state = go(state, RollInitiative())
    with pytest.raises(EncounterError, match="won the initiative and chooses"):
        loser = "empire" if state.initiative_winner == "rebels" else "rebels"
        apply(state, ChooseOrder(loser), ruleset=STD, rng=FixedDice([]))
    state = go(state, ChooseOrder(state.initiative_winner, first=False))
    assert state.side_order[-1] == state.initiative_winner
    with pytest.raises(EncounterError, match="has not declared"):
        apply(state, Act("kira"), ruleset=STD, rng=FixedDice([]))
    pending = go(state, DeclareActions("kira", 1), Attack("kira", "tk1", difficulty=9))
    for step in (Act("tk1"), EndRound(), EndEncounter()):
        with pytest.raises(EncounterError, match="resolve the announced attack"):
            apply(pending, step, ruleset=STD, rng=FixedDice([]))
    with pytest.raises(EncounterError, match="declares his actions before reacting"):
        apply(pending, React("tk1"), ruleset=STD, rng=FixedDice([]))


def test_initiative_needs_two_sides_and_re_rolls_ties():
    alone = go(EncounterState.new(), AddCombatant(KIRA))
    with pytest.raises(EncounterError, match="two sides"):
        apply(alone, RollInitiative(), ruleset=STD, rng=FixedDice([]))
    state = go(alone, AddCombatant(trooper("tk1", perception=D("4D"))))
    state, events = apply(
        state, RollInitiative(), ruleset=STD, rng=FixedDice([3] * 8 + [2] * 7 + [3])
    )
    kinds = ["initiative", "initiative", "initiative_tie", "initiative", "initiative"]
    assert [e.kind for e in events] == [*kinds, "initiative_winner"]
    assert events[-1].number("side") == "empire"  # 12 and 12, then 8 against 9
    assert state.combatant("tk1").initiative == 9


def test_a_reaction_must_answer_the_attack_and_stands_once_per_round():
    state = go(fighting(), Attack("tk1", "kira", difficulty=12))
    with pytest.raises(EncounterError, match="melee parry does not answer a ranged attack"):
        apply(state, React("kira", "melee parry"), ruleset=STD, rng=FixedDice([]))
    state, _ = apply(state, React("kira", extra=False), ruleset=STD, rng=FixedDice([4, 4, 4]))
    assert state.combatant("kira").actions == ActionCount(2, used=1)
    state = go(state, ResolveAttack(), Attack("tk1", "kira", difficulty=12))
    with pytest.raises(EncounterError, match="dodge of 8 stands"):
        apply(state, React("kira"), ruleset=STD, rng=FixedDice([]))


def test_a_full_reaction_adds_to_the_difficulty_and_is_the_only_action():
    people = (KIRA, trooper("tk1"))
    state = go(EncounterState.new(), *(AddCombatant(c) for c in people))
    state = go(state.replace(initiative_winner="rebels", phase="order"), ChooseOrder("rebels"))
    state = go(state, DeclareActions("kira", 2), DeclareActions("tk1", 1))
    state = go(state, Attack("tk1", "kira", difficulty=12))
    with pytest.raises(EncounterError, match="only action of the round"):
        apply(state, React("kira", full=True), ruleset=STD, rng=FixedDice([]))
    state = state.with_combatant(state.combatant("kira").replace(actions=ActionCount(1)))
    state, _ = apply(state, React("kira", full=True), ruleset=STD, rng=FixedDice([3, 3, 3]))
    assert state.combatant("kira").actions.remaining == 0
    state, (attack,) = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice([6, 6, 6, 2]))
    assert attack.number("difficulty") == 12 + 9
    none = RuleSet(full_reaction="none")
    with pytest.raises(EncounterError, match="no full reaction"):
        apply(
            go(fighting(), Attack("tk1", "kira", difficulty=5)),
            React("kira", full=True),
            ruleset=none,
            rng=FixedDice([]),
        )


def test_cover_called_shots_and_stun_weapons():
    stunner = trooper("tk2", weapon=Weapon("stun rifle", "5D", "blaster", stun=True))
    state = go(fighting(stunner), Attack("tk2", "kira", difficulty=10, conditions=("half_cover",)))
    state, (attack, damage) = apply(
        state,
        ResolveAttack(),
        ruleset=STD,
        rng=FixedDice([3, 4, 5, 6, 6, 1, 6, 2, 6, 6, 6, 1, 1, 2]),
    )
    assert attack.roll("difficulty dice").normal == (3, 4)
    assert attack.number("difficulty") == 17
    assert attack.number("attack_total") == 18  # blaster 4D − 1D: 5 + 6 + wild 6 + 1
    # Stun damage 27 against Strength 3: worse than stunned → unconscious for 2D minutes.
    assert damage.number("margin") == 24
    assert damage.number("unconscious_for") == "2D minutes"
    assert state.combatant("kira").knocked_out and state.combatant("kira").out_of_fight
    state = go(fighting(), Attack("kira", "tk1", difficulty=8, called_shot_cm=30))
    state, (attack,) = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice([2, 1, 1, 1, 2]))
    assert attack.number("difficulty") == 10
    with pytest.raises(EncounterError, match="50 cm"):
        apply(
            fighting(),
            Attack("kira", "tk1", difficulty=8, called_shot_cm=90),
            ruleset=STD,
            rng=FixedDice([]),
        )


def test_scale_armour_and_the_pool_too_small():
    walker = trooper("atst", scale=Scale.WALKER, weapon=Weapon("cannon", "3D", "blaster"))
    armoured = KIRA.replace(armour=Armour.uniform("2D"))
    people = (armoured, walker)
    state = go(EncounterState.new(), *(AddCombatant(c) for c in people))
    state = go(state.replace(initiative_winner="rebels", phase="order"), ChooseOrder("rebels"))
    state = go(state, DeclareActions("kira", 1), DeclareActions("atst", 1))
    state = go(state, Attack("atst", "kira", difficulty=10))
    # The walker fires at a character: the dodge and the damage add the walker's 4D.
    state, (dodge,) = apply(state, React("kira", extra=False), ruleset=STD, rng=FixedDice([1] * 7))
    assert dodge.roll("reaction").pool == D("7D")
    state, (_, damage) = apply(
        state, ResolveAttack(), ruleset=STD, rng=FixedDice([5, 5, 5, 5] + [2] * 7 + [1] * 4)
    )
    assert damage.number("damage_code") == "7D"
    assert damage.number("strength_code") == "4D"  # 2D Strength + 2D armour, no scale
    tired = go(fighting(), GMOverride("kira", "extra", 5))
    tired = go(tired, Attack("tk1", "kira", difficulty=5))
    with pytest.raises(EncounterError, match="a roll needs at least 1D"):
        apply(tired, React("kira"), ruleset=STD, rng=FixedDice([]))


def test_the_end_of_the_round_rolls_for_the_mortally_wounded_and_resets():
    dying = trooper("tk9", wounds=WoundState(WoundLevel.mortally_wounded))
    state = go(fighting(), AddCombatant(dying), GMOverride("kira", "reaction", 14, skill="dodge"))
    state = state.with_combatant(state.combatant("kira").replace(lose_next_round=True))
    state, events = apply(state, EndRound(), ruleset=STD, rng=FixedDice([1, 2]))
    death = events[0]
    assert death.kind == "death_roll"
    assert (death.number("rounds"), death.number("total"), death.number("dies")) == (1, 3, False)
    assert death.roll("death").normal == (1, 2)
    assert state.combatant("tk9").mortal_rounds == 1
    kira = state.combatant("kira")
    assert kira.reactions == () and kira.actions is None and kira.lost_actions
    assert state.phase == "initiative" and state.round == 2
    auto = RuleSet(death_automation="auto")
    state = go(state, GMOverride("tk9", "mortal_rounds", 4))
    state, events = apply(state, EndRound(), ruleset=auto, rng=FixedDice([1, 1]))
    assert events[0].number("dies") is True
    assert state.combatant("tk9").wounds.level is WoundLevel.killed


def test_gm_overrides_join_leave_and_the_end_of_the_encounter():
    state = go(
        fighting(),
        GMOverride("kira", "wound_level", "wounded"),
        GMOverride("kira", "prone", True),
        GMOverride("kira", "used", 1),
        GMOverride("kira", "initiative", 15),
        GMOverride("kira", "reaction", 20, skill="dodge"),
    )
    kira = state.combatant("kira")
    assert kira.wounds.level is WoundLevel.wounded and kira.prone
    assert kira.actions == ActionCount(2, used=1) and kira.initiative == 15
    assert kira.reaction("dodge") == Reaction("dodge", 20)
    state = go(state, AddCombatant(trooper("tk3", "pirates")))
    assert state.side_order == ("rebels", "empire", "pirates")
    assert state.order[-1] == "tk3"
    state = go(state, Attack("tk1", "kira", difficulty=9), RemoveCombatant("kira"))
    assert state.pending is None and "kira" not in state.order
    state, (event,) = apply(state, EndEncounter(), ruleset=STD, rng=FixedDice([]))
    assert event.kind == "end_encounter"
    assert state.phase == "ended"
    with pytest.raises(EncounterError, match="the encounter has ended"):
        apply(state, RollInitiative(), ruleset=STD, rng=FixedDice([]))


def test_next_to_act_interleaves_passes_and_skips_the_wounded():
    a = trooper("a", "x", perception=D("4D"))
    b = trooper("b", "x", perception=D("3D"))
    z = trooper("z", "y", perception=D("3D+2"))
    w = trooper("w", "y")
    state = go(EncounterState.new(), *(AddCombatant(c) for c in (a, b, z, w)))
    state = go(state.replace(initiative_winner="x", phase="order"), ChooseOrder("x"))
    assert next_to_act(state) == ("a", 1)  # nobody declared yet: the first is due
    state = go(state, *(DeclareActions(c, n) for c, n in (("a", 2), ("b", 1), ("z", 3), ("w", 1))))
    order = []  # CB-1: X1, Y1, Z1, W1, X2, Z2, Z3
    while (due := next_to_act(state)) is not None:
        order.append(due)
        state = go(state, Act(due[0]))
    assert order == [("a", 1), ("b", 1), ("z", 1), ("w", 1), ("a", 2), ("z", 2), ("z", 3)]


class Counting:
    def __init__(self, seed):
        self.rng = SeededDice(seed)
        self.drawn = []

    def d6(self):
        self.drawn.append(self.rng.d6())
        return self.drawn[-1]


@pytest.mark.parametrize("seed", range(8))
def test_a_seeded_fight_replays_exactly_from_its_recorded_dice(seed):
    people = (KIRA, trooper("tk1"), trooper("tk2"))
    steps: list = [*(AddCombatant(c) for c in people), RollInitiative()]
    dice = Counting(seed)
    state, events = replay(EncounterState.new(), steps, ruleset=STD, rng=dice)
    planned = [
        ChooseOrder(state.initiative_winner),
        *(DeclareActions(c.id, 2) for c in people),
        Attack("tk1", "kira", difficulty=12),
        React("kira"),
        ResolveAttack(),
        Attack("kira", "tk2", difficulty=14),
        ResolveAttack(),
        Attack("tk2", "kira", difficulty=12),
        ResolveAttack(),
        EndRound(),
    ]
    for step in planned:
        try:
            state, new = apply(state, step, ruleset=STD, rng=dice)
        except EncounterError:
            continue  # someone fell or missed his chance: the table skips the step
        steps.append(step)
        events.extend(new)
    assert recorded_dice(events) == dice.drawn
    again, again_events = replay(
        EncounterState.new(), steps, ruleset=STD, rng=FixedDice(recorded_dice(events))
    )
    assert again == state
    assert [e.to_json() for e in again_events] == [e.to_json() for e in events]
    assert resolve_attack  # the end-to-end call is public


def test_house_and_rules_companion_round_effects():
    house = RuleSet.preset("house").replace(wild_die=False)
    # [HOUSE §2] a second wound: prone, no actions this round and the next.
    hurt = KIRA.replace(wounds=WoundState(WoundLevel.wounded))
    state = go(EncounterState.new(), AddCombatant(hurt), AddCombatant(trooper("tk1")))
    state = go(state.replace(initiative_winner="rebels", phase="order"), ChooseOrder("rebels"))
    state = go(state, DeclareActions("kira", 1), DeclareActions("tk1", 1), ruleset=house)
    state = go(state, Attack("tk1", "kira", difficulty=5), ruleset=house)
    state, (_, damage) = apply(
        state, ResolveAttack(), ruleset=house, rng=FixedDice([6, 6, 6, 6, 3, 3, 2, 1, 1, 1, 1])
    )
    assert damage.number("wound_level") == "wounded_twice"
    assert state.combatant("kira").lose_next_round
    state, _ = apply(state, EndRound(), ruleset=house, rng=FixedDice([]))
    assert state.combatant("kira").lost_actions
    # [RC] a prone target adds +2; stuns reaching the Strength dice knock him out.
    rc = RuleSet.preset("rc")
    weak = trooper("tk2", "empire", strength=D("1D"), prone=True)
    state = go(EncounterState.new(rc_round=True), AddCombatant(KIRA), AddCombatant(weak))
    state = go(state, DeclareActions("kira", 1), NextSegment(), NextSegment(), ruleset=rc)
    state = go(state, Attack("kira", "tk2", difficulty=8), ruleset=rc)
    state, (attack, damage) = apply(
        state, ResolveAttack(), ruleset=rc, rng=FixedDice([6, 6, 6, 6, 1, 1, 1, 1, 1, 6])
    )
    assert attack.number("difficulty") == 10
    assert damage.number("result") == "stunned"
    assert state.combatant("tk2").knocked_out
    # [RC] the Death Star cannot target a character ("—" on the chart).
    star = trooper("ds", "empire", scale=Scale.DEATH_STAR)
    state = go(EncounterState.new(rc_round=True), AddCombatant(KIRA), AddCombatant(star))
    state = go(state, DeclareActions("ds", 1), DeclareActions("kira", 1), ruleset=rc)
    state = go(state, NextSegment(), NextSegment(), ruleset=rc)
    state = go(state, Attack("ds", "kira", difficulty=8), ruleset=rc)
    with pytest.raises(EncounterError, match="not possible"):
        apply(state, ResolveAttack(), ruleset=rc, rng=FixedDice([3] * 20))
    with pytest.raises(EncounterError, match="declared in segment 2"):
        apply(state, React("kira"), ruleset=rc, rng=FixedDice([]))
    segment_two = state.replace(segment=2, pending=None)
    # [RC] a full reaction is declared in segment 1 with the actions (test_encounter_surprise).
    with pytest.raises(EncounterError, match="declares a full reaction in segment 1"):
        apply(segment_two, React("kira", full=True), ruleset=rc, rng=FixedDice([]))


def test_odd_cases_are_refused_cleanly():
    state = fighting()
    bogus = state.replace(pending=PendingAttack("tk1", "kira", "blaster", "ranged", 10, ("x",)))
    with pytest.raises(EncounterError, match="unknown combat condition 'x'"):
        apply(bogus, ResolveAttack(), ruleset=STD, rng=FixedDice([]))
    fists = go(fighting(trooper("tk4", weapon=None)))
    with pytest.raises(EncounterError, match="no ranges to read a distance"):
        apply(
            fists, Attack("tk4", "kira", difficulty=5, distance_m=3), ruleset=STD, rng=FixedDice([])
        )
    out = go(EncounterState.new(), AddCombatant(KIRA), AddCombatant(trooper("tk1")))
    out = out.replace(initiative_winner="rebels", phase="order")
    out = go(out, ChooseOrder("rebels"), GMOverride("kira", "wound_level", "incapacitated"))
    with pytest.raises(EncounterError, match="cannot act this round"):
        apply(out, DeclareActions("kira", 1), ruleset=STD, rng=FixedDice([]))
    tied = go(
        EncounterState.new(), AddCombatant(trooper("r1", "rebels")), AddCombatant(trooper("tk1"))
    )
    with pytest.raises(EncounterError, match="stayed tied"):
        apply(tied, RollInitiative(), ruleset=STD, rng=FixedDice([3] * 1000))


def test_character_points_follow_the_campaigns_limits_and_are_replayed():
    state = fighting()
    with pytest.raises(EncounterError, match="up to 2 Character Points"):
        apply(state, Attack("kira", "tk1", difficulty=9, cp_dice=3), ruleset=STD, rng=FixedDice([]))
    with pytest.raises(EncounterError, match="Force Point in a round, never both"):
        apply(
            state,
            Attack("kira", "tk1", difficulty=9, cp_dice=1, force_point=True),
            ruleset=STD,
            rng=FixedDice([]),
        )
    state = go(state, Attack("kira", "tk1", difficulty=9, cp_dice=2))
    with pytest.raises(EncounterError, match="up to 5 Character Points"):
        apply(state, React("tk1", cp_dice=6), ruleset=STD, rng=FixedDice([]))
    dice = Counting(1)
    with pytest.raises(EncounterError, match="cannot be spent on damage"):
        apply(state, ResolveAttack(damage_cp=1), ruleset=STD, rng=dice)
    assert dice.drawn == []  # a refused step draws no dice
    after, events = apply(state, ResolveAttack(), ruleset=STD, rng=dice)
    assert len(events[0].roll("attack").cp) == 2
    assert recorded_dice(events) == dice.drawn
    again, _ = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice(dice.drawn))
    assert again == after


def test_combined_fire_puts_the_lead_firers_shares_on_attack_and_damage():
    # D-32 / CB-32: eight troopers combine for +2D+2; the lead (blaster 6D, rifle 5D) puts +1D
    # on the attack (7D) and +1D+2 on the damage (6D+2).
    to_attack, to_damage = split_combined_bonus("2D+2", "1D")
    lead = trooper("lead", skills=(("blaster", D("6D")),))
    state = go(EncounterState.new(), AddCombatant(KIRA), AddCombatant(lead))
    state = go(state.replace(initiative_winner="empire", phase="order"), ChooseOrder("empire"))
    state = go(state, DeclareActions("lead", 1), DeclareActions("kira", 1))
    attack = Attack(
        "lead", "kira", difficulty=10, attack_bonus=str(to_attack), damage_bonus=str(to_damage)
    )
    state = go(state, attack)
    state, (shot, damage) = apply(state, ResolveAttack(), ruleset=STD, rng=FixedDice([4] * 17))
    assert shot.roll("attack").pool == D("7D")
    assert damage.number("damage_code") == "6D+2"


def test_an_unlisted_skill_rolls_its_governing_attribute():
    kira = KIRA.replace(dexterity=D("3D+1"), strength=D("2D+2"), perception=D("4D"))
    assert kira.code("Blaster") == D("4D")  # listed
    assert kira.code("melee parry") == D("3D+1")
    assert kira.code("brawling") == D("2D+2")
    assert kira.code("search") == D("4D")
    assert kira.code("strength") == D("2D+2")
    with pytest.raises(EncounterError, match="no 'juggling' and it is no skill"):
        kira.code("juggling")
    with pytest.raises(EncounterError, match="list Kira's first aid code"):
        kira.code("first aid")
