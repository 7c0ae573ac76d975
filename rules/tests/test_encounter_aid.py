"""First aid in the fight (injuries-and-healing.md §3.2, §6): medpacs by the R&E table, more
medpacs on one patient, the lock-out, stabilising the mortally wounded (no more death rolls),
reviving, a medpac on oneself, and the House and Rules Companion variants. Dice are fixed:
the medic has first aid 5D and declares 2 actions, so he rolls 4D (three dice and the Wild
Die) unless a test says otherwise."""

from __future__ import annotations

import pytest

from rules.combat import ActionCount
from rules.dice import FixedDice
from rules.encounter import (
    Act,
    AddCombatants,
    Attack,
    DeclareActions,
    EncounterError,
    EncounterState,
    EndRound,
    FirstAid,
    GMOverride,
    NextSegment,
    ResolveAttack,
    apply,
    recorded_dice,
    replay,
)
from rules.injuries import Stun, WoundLevel, WoundState
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

W = WoundLevel
MEDIC = trooper("medic", "rebels", skills=(("first aid", D("5D")), ("blaster", D("4D"))), npc=False)


def clinic(
    patient_changes: dict | None = None, *, medic=MEDIC, medic_actions: int = 2
) -> EncounterState:
    """Kira (changed as given; she declares 2 actions if she still can) and the medic, with
    trooper tk1 on the other side."""
    kira = KIRA.replace(**(patient_changes or {}))
    can_act = kira.wounds.level.rank < W.incapacitated.rank and not kira.knocked_out
    return ready((kira, 2 if can_act else 0), (medic, medic_actions), (trooper("tk1"), 2))


def wounded(level: WoundLevel) -> dict:
    return {"wounds": WoundState(level)}


def aid(state, step, dice, ruleset=STD):
    return apply(state, step, ruleset=ruleset, rng=FixedDice(dice))


# --- medpacs: the R&E table ([2E-STD], §6.1, H-44) ----------------------------------------------
@pytest.mark.parametrize(
    ("patient", "level", "low", "high", "dice", "after"),
    [
        (wounded(W.wounded), "Easy", 6, 10, [2, 2, 2, 2], W.none),
        (wounded(W.wounded_twice), "Easy", 6, 10, [2, 2, 2, 2], W.wounded),
        (wounded(W.incapacitated), "Moderate", 11, 15, [3, 3, 3, 2], W.wounded_twice),
        (wounded(W.mortally_wounded), "Difficult", 16, 20, [4, 4, 4, 4], W.incapacitated),
    ],
)
def test_a_medpac_heals_one_level_at_the_tables_difficulty(patient, level, low, high, dice, after):
    state = clinic(patient)
    before = state.combatant("kira").wounds.level
    # The GM's number must lie in the level the table gives for this patient …
    assert_refused(
        state, FirstAid("medic", "kira"), f"the GM sets the difficulty number: .* {level} "
    )
    message = f"is {level} \\({low}–{high}\\), not {high + 1}"
    assert_refused(state, FirstAid("medic", "kira", difficulty=high + 1), message)
    # … and the total that reaches it heals one level; the medpac is used up.
    healed, (event,) = aid(state, FirstAid("medic", "kira", difficulty=sum(dice)), dice)
    kira = healed.combatant("kira")
    assert kira.wounds.level is after
    assert kira.medpacs == 1
    assert healed.combatant("medic").actions == ActionCount(2, used=1)
    assert event.kind == "first_aid" and event.combatant == "medic"
    assert event.number("difficulty_level") == level
    assert event.number("medpacs_used") == 1
    assert event.number("task") == "heal"
    assert event.roll("first aid").pool == D("4D")  # 5D - 1D for his two actions
    assert event.number("penalty_dice") == 1
    assert (event.number("wound_level_before"), event.number("wound_level")) == (
        before.value,
        after.value,
    )
    assert event.number("success") is True


def test_a_medpac_cures_a_stun_at_very_easy_and_wakes_a_knocked_out_patient():
    stunned = {"wounds": WoundState(W.none, (Stun(1, 1), Stun(1, 1))), "knocked_out": True}
    state = clinic(stunned)
    assert_refused(state, FirstAid("medic", "kira", difficulty=6), "Very Easy \\(1–5\\), not 6")
    healed, (event,) = aid(state, FirstAid("medic", "kira", difficulty=5), [1, 1, 1, 2])
    kira = healed.combatant("kira")
    assert kira.wounds.stuns == () and not kira.knocked_out
    assert event.number("task") == "cure_stun" and event.number("revived") is True


def test_a_failed_medpac_changes_nothing_but_is_used_up_and_the_next_is_one_level_harder():
    # H-45: wounded twice: first medpac Easy, a second one the same day Moderate.
    state = clinic(wounded(W.wounded_twice))
    state, (event,) = aid(state, FirstAid("medic", "kira", difficulty=10), [2, 2, 2, 2])
    assert event.number("success") is False and event.number("medpacs_used") == 1
    kira = state.combatant("kira")
    assert kira.wounds.level is W.wounded_twice and kira.medpacs == 1 and not kira.medpac_locked
    second = FirstAid("medic", "kira", difficulty=10)
    assert_refused(state, second, "after 1 medpac is Moderate \\(11–15\\), not 10")
    state, (event,) = aid(state, FirstAid("medic", "kira", difficulty=12), [3, 3, 3, 3])
    assert event.number("difficulty_level") == "Moderate"
    assert state.combatant("kira").wounds.level is W.wounded
    assert state.combatant("kira").medpacs == 2


@pytest.mark.parametrize(("wild", "total", "locked"), [(2, 4, True), (3, 5, False)])
def test_a_medpac_missed_by_more_than_10_locks_the_patient_out(wild, total, locked):
    # H-46: incapacitated, the GM's number 15: a total of 4 misses by 11 → no more medpacs
    # on him for 24 hours; 5 misses by 10 → no lock-out. (First aid 4D, three actions: 2D.)
    medic = MEDIC.replace(skills=(("first aid", D("4D")),))
    state = clinic(wounded(W.incapacitated), medic=medic, medic_actions=3)
    state, (event,) = aid(state, FirstAid("medic", "kira", difficulty=15), [2, wild])
    assert (event.number("penalty_dice"), event.number("total")) == (2, total)
    assert event.number("medpac_locked") is locked
    assert state.combatant("kira").medpac_locked is locked
    again = FirstAid("medic", "kira", difficulty=17)  # a second medpac: Difficult
    if locked:
        assert_refused(state, again, "no more medpacs on Kira for 24 hours")
    else:
        assert aid(state, again, [6, 6, 5])[0].combatant("kira").medpacs == 2


# --- without a medpac: stabilising and reviving ([UPG], [HOUSE §3 = 2E text], IH-13) -------------
def test_a_moderate_first_aid_total_stabilises_the_dying_who_then_makes_no_death_rolls():
    dying = clinic(wounded(W.mortally_wounded))
    # Left alone he rolls for his life at the end of the round.
    _, events = aid(dying, EndRound(), [1, 2])
    assert [e.kind for e in events] == ["death_roll", "end_round"]
    stabilise = FirstAid("medic", "kira", medpac=False, difficulty=16)
    assert_refused(dying, stabilise, "stabilising the mortally wounded is Moderate \\(11–15\\)")
    # H-33: 12 against the GM's 12 → stabilised, still mortally wounded.
    step = FirstAid("medic", "kira", medpac=False, difficulty=12)
    state, (event,) = aid(dying, step, [3, 3, 3, 3])
    kira = state.combatant("kira")
    assert kira.stabilised and kira.wounds.level is W.mortally_wounded and kira.medpacs == 0
    assert event.number("task") == "stabilise" and event.number("medpacs_used") == 0
    assert event.number("stabilised") is True
    assert_refused(
        state,
        FirstAid("medic", "kira", medpac=False, difficulty=12),
        "Kira is already stabilised: a medpac or a bacta tank within the hour saves him",
    )
    later, events = aid(state, EndRound(), [])
    assert [e.kind for e in events] == ["end_round"]
    assert later.combatant("kira").mortal_rounds == 0 and later.combatant("kira").stabilised
    # A total of 11 against 12 does nothing: the death rolls go on.
    state, (event,) = aid(dying, step, [3, 3, 3, 2])
    assert event.number("success") is False and not state.combatant("kira").stabilised
    assert [e.kind for e in aid(state, EndRound(), [1, 2])[1]] == ["death_roll", "end_round"]


def test_first_aid_without_a_medpac_revives_the_unconscious_but_heals_no_wound():
    knocked = clinic({"knocked_out": True, "prone": True})
    assert_refused(
        knocked, FirstAid("medic", "kira", medpac=False, difficulty=11), "Easy \\(6–10\\)"
    )
    state, (event,) = aid(knocked, FirstAid("medic", "kira", medpac=False, difficulty=8), [2] * 4)
    assert not state.combatant("kira").knocked_out and event.number("revived") is True
    out = clinic(wounded(W.incapacitated))
    revive = FirstAid("medic", "kira", medpac=False, difficulty=12)
    state, (event,) = aid(out, revive, [3, 3, 3, 3])
    assert event.number("revived") is True and "revived (groggy)" in event.text
    assert state.combatant("kira").wounds.level is W.incapacitated  # awake, still out
    assert_refused(
        clinic(wounded(W.wounded)),
        FirstAid("medic", "kira", medpac=False, difficulty=8),
        "only revives the unconscious or stabilises the mortally wounded: Kira needs a medpac",
    )


# --- who can help whom ------------------------------------------------------------------------
def test_a_medpac_on_oneself_costs_1d_more():
    # A wounded medic: 2 actions (-1D) + wounded (-1D) + on himself (-1D) = 5D - 3D = 2D.
    hurt = MEDIC.replace(wounds=WoundState(W.wounded))
    state = ready((KIRA.replace(wounds=WoundState(W.wounded)), 2), (hurt, 2), (trooper("tk1"), 2))
    healed, (event,) = aid(state, FirstAid("medic", "medic", difficulty=8), [4, 4])
    assert event.number("penalty_dice") == 3 and event.roll("first aid").pool == D("2D")
    medic = healed.combatant("medic")
    assert medic.wounds.level is W.none and medic.actions == ActionCount(2, used=1)
    # On someone else: no extra die.
    _, (event,) = aid(state, FirstAid("medic", "kira", difficulty=8), [4, 2, 2])
    assert event.number("penalty_dice") == 2 and event.roll("first aid").pool == D("3D")


@pytest.mark.parametrize(
    ("changes", "step", "message"),
    [
        ({}, FirstAid("medic", "kira", difficulty=8), "Kira is not hurt: a medpac has nothing"),
        (wounded(W.killed), FirstAid("medic", "kira", difficulty=8), "Kira is dead"),
        (wounded(W.wounded), FirstAid("ghost", "kira", difficulty=8), "no combatant 'ghost'"),
        (wounded(W.wounded), FirstAid("medic", "ghost", difficulty=8), "no combatant 'ghost'"),
        (
            wounded(W.wounded),
            FirstAid("tk1", "kira", difficulty=8),
            "Tk1 has no first aid code: first aid is a Technical skill .* list his first aid",
        ),
        (
            wounded(W.wounded),
            FirstAid("medic", "kira", difficulty=8, cp_dice=3),
            "up to 2 Character Points",
        ),
        (
            {"medpac_locked": True, **wounded(W.wounded)},
            FirstAid("medic", "kira", difficulty=8),
            "24 hours",
        ),
    ],
)
def test_first_aid_is_refused_with_the_reason_before_the_roll(changes, step, message):
    assert_refused(clinic(changes), step, message)


def test_the_healer_needs_an_action_like_any_other():
    state = clinic(wounded(W.wounded))
    busy = FirstAid("medic", "kira", difficulty=8)
    spent = aid(aid(state, Act("medic"), [])[0], Act("medic"), [])[0]
    assert_refused(spent, busy, "Medic has no actions left this round")
    undeclared = ready((KIRA.replace(**wounded(W.wounded)), 2), (MEDIC, 0), (trooper("tk1"), 2))
    assert_refused(undeclared, busy, "Medic has not declared his actions")
    pending = aid(state, Attack("tk1", "kira", difficulty=10), [])[0]
    assert_refused(pending, busy, "resolve the announced attack first")
    combining = state.with_combatant(state.combatant("medic").replace(combining=True))
    assert_refused(combining, busy, "Medic is combining fire this round")


# --- House and Rules Companion medpacs ----------------------------------------------------------
def test_house_a_medpac_only_holds_the_dying_who_then_makes_no_death_rolls():
    house = RuleSet.preset("house").replace(wild_die=False)
    state = clinic(wounded(W.mortally_wounded))
    state, (event,) = aid(state, FirstAid("medic", "kira", difficulty=16), [4, 4, 4, 4], house)
    kira = state.combatant("kira")
    assert kira.wounds.level is W.mortally_wounded and kira.stabilised  # [HOUSE §2] 30 min
    assert "stabilised" in event.text
    assert [e.kind for e in aid(state, EndRound(), [], house)[1]] == ["end_round"]
    # Under the R&E table the same total heals him to incapacitated.
    std = aid(
        clinic(wounded(W.mortally_wounded)), FirstAid("medic", "kira", difficulty=16), [4] * 4
    )
    assert std[0].combatant("kira").wounds.level is W.incapacitated


def test_rc_medpac_numbers_come_from_the_wounds_scale_plus_3_per_medpac_used():
    # H-49/H-50: a blaster bolt's wound is 6; a second medpac that day is 9. RC: no Wild Die.
    rc = RuleSet.preset("rc")
    state = EncounterState.new(rc_round=True)
    people = (KIRA.replace(wounds=WoundState(W.wounded)), MEDIC, trooper("tk1"))
    state, _ = replay(state, [AddCombatants(people)], ruleset=rc, rng=FixedDice([]))
    steps = [*(DeclareActions(c.id, 2) for c in people), NextSegment(), NextSegment()]
    state, _ = replay(state, steps, ruleset=rc, rng=FixedDice([]))
    assert_refused(state, FirstAid("medic", "kira", difficulty=11), "6-10, not 11", ruleset=rc)
    state, (first,) = aid(state, FirstAid("medic", "kira", difficulty=6), [1, 1, 1, 2], rc)
    assert (first.number("difficulty"), first.number("success")) == (6, False)
    assert first.number("difficulty_level") is None
    state, (second,) = aid(state, FirstAid("medic", "kira", difficulty=6), [2, 2, 2, 2], rc)
    assert (second.number("difficulty"), second.number("total")) == (9, 8)
    assert second.number("success") is False  # 8 would have healed her at the first's 6


# --- replay ------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(6))
def test_first_aid_replays_exactly_from_its_recorded_dice(seed):
    start = clinic(wounded(W.mortally_wounded))
    steps = [
        FirstAid("medic", "kira", medpac=False, difficulty=12),
        FirstAid("medic", "kira", difficulty=18),
        EndRound(),
    ]
    dice = Counting(seed)
    state, events = start, []
    kept = []
    for step in steps:
        try:
            state, new = apply(state, step, ruleset=STD, rng=dice)
        except EncounterError:  # e.g. already stabilised: the table skips the step
            continue
        kept.append(step)
        events.extend(new)
    assert recorded_dice(events) == dice.drawn
    again, again_events = replay(start, kept, ruleset=STD, rng=FixedDice(recorded_dice(events)))
    assert again == state
    assert [e.to_json() for e in again_events] == [e.to_json() for e in events]


def test_rc_the_gm_names_the_medpac_number():
    rc = RuleSet.preset("rc")
    state, _ = replay(
        EncounterState.new(rc_round=True),
        [
            AddCombatants((KIRA.replace(wounds=WoundState(W.incapacitated)), MEDIC)),
            DeclareActions("medic", 1),
            NextSegment(),
            NextSegment(),
        ],
        ruleset=rc,
        rng=FixedDice([]),
    )
    message = "the GM sets the number for a medpac on an incapacitated patient inside its scale"
    assert_refused(state, FirstAid("medic", "kira"), message, ruleset=rc)


def test_a_patient_who_is_mortally_wounded_anew_is_no_longer_stabilised():
    state = clinic(wounded(W.mortally_wounded))
    step = FirstAid("medic", "kira", medpac=False, difficulty=12)
    state, _ = aid(state, step, [3, 3, 3, 3])
    assert state.combatant("kira").stabilised
    # The GM moves him to incapacitated and back: a new mortal wound rolls for his life again.
    state, _ = aid(state, GMOverride("kira", "wound_level", "incapacitated"), [])
    state, _ = aid(state, GMOverride("kira", "wound_level", "mortally_wounded"), [])
    assert not state.combatant("kira").stabilised
    assert [e.kind for e in aid(state, EndRound(), [1, 2])[1]] == ["death_roll", "end_round"]
    # Shot while incapacitated and dying anew: the same.
    down = clinic({**wounded(W.incapacitated), "stabilised": True})
    down, _ = aid(down, Attack("tk1", "kira", difficulty=5), [])
    down, (_, damage) = aid(down, ResolveAttack(), [3, 3, 3] + [3] * 5 + [1, 2])
    assert damage.number("wound_level") == "mortally_wounded"
    assert not down.combatant("kira").stabilised


def test_the_gm_wakes_an_unconscious_combatant_by_hand():
    """A stun knock-out keeps him out of the fight "until the GM clears it": the override
    does that, and only with true or false."""
    state = fighting().with_combatant(KIRA.replace(knocked_out=True))
    assert state.combatant(KIRA.id).out_of_fight
    woken, _ = apply(
        state, GMOverride(KIRA.id, "knocked_out", False), ruleset=STD, rng=FixedDice([])
    )
    assert not woken.combatant(KIRA.id).out_of_fight
    with pytest.raises(EncounterError, match="true or false"):
        apply(state, GMOverride(KIRA.id, "knocked_out", 0), ruleset=STD, rng=FixedDice([]))
