"""What the log says (players read it), GM overrides of the action counts, who rolls initiative
for a side, and the modules the state is stored in. Every event keeps its ``numbers``; only
the words are tested here."""

from __future__ import annotations

import pytest

from rules.combat import ActionCount, initiative_roller
from rules.dice import FixedDice
from rules.encounter import (
    AddCombatant,
    Attack,
    Combatant,
    CriticalTaken,
    DeclareActions,
    EncounterState,
    EndRound,
    GMOverride,
    PendingAttack,
    Reaction,
    ResolveAttack,
    RollInitiative,
    Weapon,
    apply,
    replay,
)
from rules.errors import RulesError
from rules.injuries import Stun, WoundLevel, WoundState
from rules.ruleset import RuleSet
from rules.tests.encounter_fixtures import KIRA, STD, D, assert_refused, fighting, ready, trooper

W = WoundLevel


def one(state, step, dice=(), ruleset=STD):
    return apply(state, step, ruleset=ruleset, rng=FixedDice(list(dice)))


def undeclared():
    """Kira and tk1 in the round, neither declared yet."""
    return ready((KIRA, 0), (trooper("tk1"), 0), first="rebels")


# --- declaring --------------------------------------------------------------------------------
def test_one_declared_action_reads_without_a_penalty():
    _, (event,) = one(undeclared(), DeclareActions("kira", 1))
    assert event.text == "Kira declares 1 action"
    assert dict(event.numbers) == {"actions": 1, "haste": 0, "penalty_dice": 0}


def test_more_actions_read_with_their_penalty_and_a_real_minus_sign():
    _, (event,) = one(undeclared(), DeclareActions("kira", 3))
    assert event.text == "Kira declares 3 actions (−2D)"
    assert event.number("penalty_dice") == 2


def test_the_rules_companion_declaration_keeps_its_extras():
    rc = RuleSet.preset("rc")
    state, _ = replay(
        EncounterState.new(rc_round=True),
        [AddCombatant(KIRA), AddCombatant(trooper("tk1"))],
        ruleset=rc,
        rng=FixedDice([]),
    )
    _, (event,) = one(state, DeclareActions("kira", 1, full_reaction="dodge"), ruleset=rc)
    assert event.text == "Kira declares 2 actions (−1D), with a full dodge"


# --- damage -----------------------------------------------------------------------------------
def hit(target: Combatant, damage: list[int], strength: list[int]):
    """tk1 (blaster 4D, rifle 5D) hits ``target`` (difficulty 3, the attack roll 16), the
    damage and Strength dice as given (the last of each is the Wild Die): the damage event."""
    state = ready((target, 1), (trooper("tk1"), 1), first="empire")
    state, _ = one(state, Attack("tk1", "kira", difficulty=3))
    attack = [4, 4, 4, 4]  # blaster 4D: 16
    _, events = one(state, ResolveAttack(critical=False), [*attack, *damage, *strength])
    return next(e for e in events if e.kind == "damage")


def test_a_hit_that_does_nothing_says_so():
    event = hit(KIRA, [1, 1, 1, 1, 2], [6, 4])  # 6 against 10
    assert event.number("result") == "none" and event.number("wound_level") == "none"
    assert event.text == "Kira takes 6 damage against Strength 10: no effect"
    assert "None" not in event.text


def test_a_first_wound_says_the_new_level_once():
    event = hit(KIRA, [3, 3, 3, 3, 2], [2, 2])  # 14 against 4: margin 10 → incapacitated
    assert event.number("wound_level") == "incapacitated"
    assert event.text == "Kira takes 14 damage against Strength 4: now Incapacitated"
    event = hit(KIRA, [2, 2, 2, 2, 2], [2, 2])  # 10 against 4: margin 6 → wounded
    assert event.text == "Kira takes 10 damage against Strength 4: now Wounded"


def test_a_wound_on_a_wound_says_the_result_and_the_new_level():
    wounded = KIRA.replace(wounds=WoundState(W.wounded))
    event = hit(wounded, [2, 2, 2, 2, 2], [2, 2])
    assert event.number("result") == "wounded" and event.number("wound_level") == "wounded_twice"
    assert event.text == "Kira takes 10 damage against Strength 4: Wounded, now Wounded twice"


def test_a_wound_that_changes_nothing_does_not_repeat_the_level():
    dying = KIRA.replace(wounds=WoundState(W.mortally_wounded))
    state = ready((dying, 0), (trooper("tk1"), 1), first="empire")
    state, _ = one(state, Attack("tk1", "kira", difficulty=3))
    _, events = one(state, ResolveAttack(critical=False), [4] * 4 + [2] * 5 + [2, 2])
    event = next(e for e in events if e.kind == "damage")  # 10 against 4: wounded
    assert event.number("wound_level") == "mortally_wounded"
    assert event.text == "Kira takes 10 damage against Strength 4: Wounded, no change"


def test_a_stun_says_stunned():
    event = hit(KIRA, [1, 1, 1, 1, 3], [2, 2])  # 7 against 4: margin 3 → stunned
    assert event.number("result") == "stunned"
    assert event.text == "Kira takes 7 damage against Strength 4: stunned"


# --- death rolls ------------------------------------------------------------------------------
def dying_state():
    dying = trooper("tk9", wounds=WoundState(W.mortally_wounded))
    state, _ = one(fighting(), AddCombatant(dying))
    return state


def test_a_death_roll_says_he_survives():
    _, events = one(dying_state(), EndRound(), [5, 4])
    death = events[0]
    assert (death.number("total"), death.number("rounds"), death.number("dies")) == (9, 1, False)
    assert death.text == "Tk9 makes a death roll: 9 against 1 round mortally wounded; he survives"


def test_a_death_roll_says_he_dies_or_that_the_gm_decides():
    state, _ = one(dying_state(), GMOverride("tk9", "mortal_rounds", 4))
    _, events = one(state, EndRound(), [1, 1], ruleset=RuleSet(death_automation="auto"))
    assert events[0].text == "Tk9 makes a death roll: 2 against 5 rounds mortally wounded; he dies"
    _, events = one(state, EndRound(), [1, 1])
    assert events[0].text == (
        "Tk9 makes a death roll: 2 against 5 rounds mortally wounded; the roll says he dies: "
        "the GM decides"
    )


# --- GM overrides -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("override", "text"),
    [
        (GMOverride("kira", "wound_level", "wounded", skill="dodge"), "wound level to Wounded"),
        (GMOverride("kira", "wound_level", "wounded_twice"), "wound level to Wounded twice"),
        (GMOverride("kira", "reaction", 14, skill="dodge"), "standing dodge total to 14"),
        (GMOverride("kira", "prone", True, skill="dodge"), "Kira prone"),
        (GMOverride("kira", "prone", False), "Kira not prone"),
        (GMOverride("kira", "mortal_rounds", 2), "rounds mortally wounded to 2"),
        (GMOverride("kira", "initiative", 15, skill="dodge"), "initiative to 15"),
    ],
)
def test_gm_overrides_read_in_the_games_words(override, text):
    _, (event,) = one(fighting(), override)
    assert event.text.startswith("GM sets ")
    assert text in event.text
    assert "_" not in event.text
    if override.field != "reaction":
        assert "dodge" not in event.text
    assert dict(event.numbers) == {"field": override.field, "value": override.value}


def test_setting_used_actions_on_one_who_has_not_declared_says_what_he_now_has():
    state, (event,) = one(undeclared(), GMOverride("kira", "used", 2))
    assert state.combatant("kira").actions == ActionCount(2, used=2)
    assert event.text == (
        "GM sets Kira's used actions to 2 (Kira had not declared): now declared 2, used 2 (−1D)"
    )
    state, (event,) = one(undeclared(), GMOverride("kira", "extra", 1))
    assert state.combatant("kira").actions == ActionCount(1, extra=1)
    assert event.text.endswith("now declared 1, extra 1, used 0 (−1D)")


def test_setting_used_actions_says_the_count_after():
    _, (event,) = one(fighting(), GMOverride("kira", "used", 1))
    assert event.text == "GM sets Kira's used actions to 1: now declared 2, used 1 (−1D)"


def test_used_actions_beyond_the_declared_are_refused():
    assert_refused(
        fighting(),
        GMOverride("kira", "used", 3),
        r"Kira has declared 2 actions: used actions can be 0 to 2, not 3",
    )
    assert_refused(fighting(), GMOverride("kira", "declared", 0), "declares at least 1 action")
    used, _ = one(fighting(), GMOverride("kira", "used", 2))
    assert_refused(
        used, GMOverride("kira", "declared", 1), "Kira has used 2 actions: declare 2 or more"
    )


# --- who rolls initiative for a side (CA-4: the highest effective Perception) -----------------
def initiative_state(kira: Combatant) -> EncounterState:
    bo = trooper("bo", "rebels", perception=D("3D"), npc=False)
    state, _ = replay(
        EncounterState.new(),
        [AddCombatant(kira), AddCombatant(bo), AddCombatant(trooper("tk1"))],
        ruleset=STD,
        rng=FixedDice([]),
    )
    return state


def test_a_stunned_member_does_not_roll_initiative_for_his_side():
    stunned = KIRA.replace(wounds=WoundState(W.none, (Stun(1, 2),)))  # 4D less 2D of stun
    _, events = one(initiative_state(stunned), RollInitiative(), [3] * 20)
    rebels = next(e for e in events if e.kind == "initiative" and e.number("side") == "rebels")
    assert rebels.combatant == "bo"
    assert rebels.number("pool") == "3D"


def test_the_slowed_down_critical_counts_when_choosing_the_roller():
    slowed = KIRA.replace(
        perception=D("3D+2"), criticals=(CriticalTaken(W.stunned, "Slowed Down", 1),)
    )
    _, events = one(initiative_state(slowed), RollInitiative(), [3] * 20)
    rebels = next(e for e in events if e.kind == "initiative" and e.number("side") == "rebels")
    assert rebels.combatant == "bo"  # 3D+2 less 1D = 2D+2 < 3D


def test_the_roller_rule_reads_stun_dice_and_slowed_down_and_keeps_the_short_form():
    side = [("P1", "4D", W.none, 2, False), ("P2", "3D", W.none, 0, False)]
    assert initiative_roller(side, ruleset=STD) == "P2"
    slowed = [("P1", "3D+2", W.none, 0, True), ("P2", "3D", W.none)]
    assert initiative_roller(slowed, ruleset=STD) == "P2"
    assert initiative_roller([("P1", "4D", W.none), ("P2", "3D", W.none)], ruleset=STD) == "P1"
    printed = RuleSet(initiative_roller="highest_printed")
    assert initiative_roller(side, ruleset=printed) == "P1"
    with pytest.raises(RulesError, match="stun dice cannot be negative"):
        initiative_roller([("P1", "4D", W.none, -1, False)], ruleset=STD)
    with pytest.raises(RulesError, match="a side's member is"):
        initiative_roller([("P1", "4D", W.none, 1)], ruleset=STD)  # type: ignore[list-item]


def test_a_healthy_higher_perception_still_rolls():
    _, events = one(initiative_state(KIRA), RollInitiative(), [3] * 20)
    assert events[0].combatant == "kira" and events[0].number("pool") == "4D"


# --- the stored values' modules (state.py stays under the 600-line limit) -----------------------
def test_weapon_reaction_and_pending_attack_live_in_their_own_module_and_keep_their_paths():
    from rules.encounter import parts, state

    for name in ("Weapon", "Reaction", "PendingAttack"):
        assert getattr(state, name) is getattr(parts, name)
    assert (state.Weapon, state.Reaction, state.PendingAttack) == (
        Weapon,
        Reaction,
        PendingAttack,
    )
