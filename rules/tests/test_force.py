"""The Force: worked examples from /work/shared/rules/force.md §8 (F-n) and
characters-and-advancement.md (C-n)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.difficulty import HEROIC, VERY_DIFFICULT, VERY_EASY, parse_level
from rules.force import (
    FORCE_SKILLS,
    PROXIMITY,
    RELATIONSHIP,
    TRADITIONAL_POWERS,
    ForceError,
    absorb_dissipate_difficulty,
    check_learning_through_force,
    check_power_for_pip,
    check_power_room,
    dim_senses_penalty,
    emptiness_bonus,
    emptiness_may_roll_out,
    extra_power_cost,
    farseeing_accuracy,
    farseeing_control_modifier,
    first_die_powers,
    force_of_will,
    force_power,
    force_powers,
    force_sensitivity,
    force_skill_cost,
    force_use_while_asleep,
    inflict_pain_result,
    instinctive_astrogation_difficulty,
    learned_through_force,
    learning_through_force_modifier,
    postcognition_difficulty,
    postcognition_result,
    power_skill_penalty,
    power_slots_used,
    power_teaching_count,
    power_total,
    projective_telepathy_difficulties,
    raise_level,
    rc_fixed_difficulty_level,
    receptive_telepathy_result,
    telekinesis_difficulty,
    transfer_force,
    transfer_force_stasis_days,
    unlearned_power_difficulty,
)
from rules.ruleset import RuleSet

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")


# --- The power table ----------------------------------------------------------------------------
def test_every_power_in_the_sources_is_in_the_table():
    assert len(force_powers()) == 33


def test_power_table_file_has_name_skills_difficulty_and_source():
    path = Path(__file__).parents[1] / "data" / "force_powers.json"
    powers = json.loads(path.read_text(encoding="utf-8"))["powers"]
    for p in powers:
        assert p["name"]
        assert set(p["source"].split("; ")) <= {"RC", "HOUSE", "UPG"}
        assert set(p["skills"]) <= set(FORCE_SKILLS)
        assert set(p["difficulty"]) == set(p["skills"])


def test_power_lookup_ignores_case_and_spacing():
    power = force_power("  telekinetic   KILL ")
    assert power.skills == ("control", "sense", "alter")
    assert power.difficulty_for("Sense") == "Easy + proximity"
    assert force_power(power) is power


def test_unknown_power_is_refused():
    with pytest.raises(ForceError, match="no Force power called"):
        force_power("Force Lightning")


def test_new_powers_name_their_chapter():
    assert force_power("Emptiness").chapter == "New Force Powers"


def test_power_without_a_difficulty_in_the_sources_says_so():
    assert force_power("Life Detection").difficulty_for("sense") == "not in the sources"


# --- Force-sensitivity ----------------------------------------------------------------------------
def test_becoming_force_sensitive_costs_20_F19_C26():
    fs = force_sensitivity("Human", ruleset=UPG)
    assert (fs.allowed, fs.cost) == (True, 20)


@pytest.mark.parametrize("species", ["Wookiee", "Coynite", "Houk", "Klingon", "wookiees"])
def test_house_species_that_cannot_be_force_sensitive_C13(species):
    assert not force_sensitivity(species, ruleset=HOUSE).allowed


def test_house_gotal_may_but_cones_stop_working_C13():
    fs = force_sensitivity("Gotal", ruleset=HOUSE)
    assert fs.allowed and "cones" in fs.note


def test_wookiees_are_not_restricted_outside_house():
    assert force_sensitivity("Wookiee", ruleset=UPG).allowed


def test_droids_never_have_force_skills():
    assert not force_sensitivity("astromech", droid=True, ruleset=UPG).allowed


def test_rc_force_skills_come_from_a_master():
    fs = force_sensitivity("Human", ruleset=RC)
    assert fs.allowed and fs.cost is None


# --- Force skills and powers ------------------------------------------------------------------
def test_force_skill_cost_wraps_improvement_cost_F18():
    cost = force_skill_cost("2D", teacher=False, ruleset=UPG)
    assert (cost.character_points, cost.training_days) == (4, 8)


def test_force_skill_cost_above_the_teachers_code_F13():
    assert force_skill_cost("7D+1", ruleset=RC, teacher_code="7D+1").character_points == 14


@pytest.mark.parametrize(
    ("power", "penalty"),
    [
        pytest.param("Affect Mind", 2, id="F-22-three-skills-minus-2D"),
        pytest.param("Farseeing", 1, id="two-skills-minus-1D"),
        pytest.param("Telekinesis", 0, id="one-skill-no-penalty"),
    ],
)
def test_multi_skill_power_penalty(power, penalty):
    assert power_skill_penalty(power) == penalty


def test_other_actions_add_to_the_power_penalty():
    assert power_skill_penalty("Telekinesis", other_actions=2) == 2
    with pytest.raises(ForceError):
        power_skill_penalty("Telekinesis", other_actions=-1)


@pytest.mark.parametrize(
    ("ruleset", "count"),
    [pytest.param(UPG, 1, id="F-17-upg-one-power"), pytest.param(RC, 3, id="F-15-rc-three")],
)
def test_powers_on_the_first_die(ruleset, count):
    assert first_die_powers("control", ruleset=ruleset) == count


@pytest.mark.parametrize(
    ("skill", "powers"),
    [
        pytest.param(
            "control", ("Control Pain", "Remain Conscious", "Force of Will"), id="F-15-control"
        ),
        pytest.param(
            "sense", ("Life Sense", "Magnify Senses", "Receptive Telepathy"), id="F-15-sense"
        ),
    ],
)
def test_traditional_first_powers(skill, powers):
    assert TRADITIONAL_POWERS[skill] == powers
    assert all(force_power(p) for p in powers)


def test_unknown_force_skill_is_refused():
    with pytest.raises(ForceError, match="not a Force skill"):
        first_die_powers("telepathy", ruleset=UPG)


def test_power_taught_on_a_pip_must_use_the_improved_skill_F17():
    check_power_for_pip("control", "Control Pain")
    with pytest.raises(ForceError, match="does not use control"):
        check_power_for_pip("control", "Telekinesis")


@pytest.mark.parametrize(
    ("power", "count"),
    [
        pytest.param("Control Pain", 1, id="one-skill"),
        pytest.param("Control Another's Pain", 2, id="F-17-control-alter-counts-two"),
        pytest.param("Affect Mind", 3, id="A-F2-three-skills-count-three"),
    ],
)
def test_power_teaching_count(power, count):
    assert power_teaching_count(power) == count


@pytest.mark.parametrize(
    ("ruleset", "teacher", "points"),
    [
        pytest.param(UPG, True, 5, id="F-17-extra-power-5-cp"),
        pytest.param(RC, True, 0, id="F-16-rc-teacher-free"),
        pytest.param(RC, False, 1, id="F-16-rc-self-1-sp"),
    ],
)
def test_extra_power_cost(ruleset, teacher, points):
    assert extra_power_cost(ruleset=ruleset, teacher=teacher).character_points == points


@pytest.mark.parametrize(
    ("code", "total"),
    [
        pytest.param("3D+2", 11, id="F-11-3D+2-is-11"),
        pytest.param("1D", 3, id="F-11-1D-is-3"),
        pytest.param("2D+1", 7, id="F-11-2D+1-is-7"),
    ],
)
def test_rc_power_total(code, total):
    assert power_total(code) == total


def test_telekinetic_kill_uses_a_slot_of_each_skill_F12():
    assert power_slots_used(["Telekinetic Kill"]) == {"control": 1, "sense": 1, "alter": 1}


def test_power_room_is_checked_against_every_skill_used():
    mastered = TRADITIONAL_POWERS["control"]
    check_power_room({"control": "1D+1", "sense": "1D"}, mastered, "Projective Telepathy")
    with pytest.raises(ForceError, match="control 1D holds 3 powers"):
        check_power_room({"control": "1D", "sense": "1D"}, mastered, "Projective Telepathy")


@pytest.mark.parametrize(
    ("successes", "modifier"),
    [
        pytest.param(0, 15, id="F-20-first-success-at-15"),
        pytest.param(1, 14, id="F-20-second-at-14"),
        pytest.param(9, 6, id="F-20-tenth-at-6"),
    ],
)
def test_house_learning_through_the_force_modifier(successes, modifier):
    assert learning_through_force_modifier(successes) == modifier


def test_power_is_granted_after_ten_successes_F20():
    assert not learned_through_force(9)
    assert learned_through_force(10)


def test_learning_count_outside_0_to_9_is_refused():
    with pytest.raises(ForceError):
        learning_through_force_modifier(10)


def test_jedi_with_dark_side_points_cannot_learn_through_the_force_F9():
    with pytest.raises(ForceError, match="has Dark Side Points"):
        check_learning_through_force(1, ruleset=HOUSE)


@pytest.mark.parametrize(
    ("dsp", "jedi", "ruleset", "message"),
    [
        (0, False, HOUSE, "only a Jedi"),
        (0, True, UPG, "House rule"),
    ],
)
def test_learning_through_the_force_other_refusals(dsp, jedi, ruleset, message):
    with pytest.raises(ForceError, match=message):
        check_learning_through_force(dsp, jedi, ruleset=ruleset)


@pytest.mark.parametrize(
    ("base", "expected"),
    [
        pytest.param(8, 13, id="F-21-unmastered-8-becomes-13"),
        pytest.param(12, 17, id="F-21-opposed-roll-12-counts-17"),
    ],
)
def test_rc_unmastered_power_adds_five(base, expected):
    assert unlearned_power_difficulty(base, ruleset=RC) == expected


def test_house_unlearned_power_while_learning_through_the_force():
    assert unlearned_power_difficulty(10, ruleset=HOUSE, successes_so_far=3) == 22


def test_upg_cannot_use_an_unlearned_power():
    with pytest.raises(ForceError, match="cannot use a power that has not been learned"):
        unlearned_power_difficulty(10, ruleset=UPG)


# --- Difficulties and results --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("number", "level"),
    [
        pytest.param(5, "Very Easy", id="F-23-5"),
        pytest.param(10, "Easy", id="F-23-10"),
        pytest.param(15, "Moderate", id="F-23-15"),
        pytest.param(20, "Difficult", id="F-23-20"),
        pytest.param(30, "Very Difficult", id="F-23-30"),
    ],
)
def test_rc_fixed_difficulties(number, level):
    assert rc_fixed_difficulty_level(number) == parse_level(level)


def test_other_fixed_difficulties_are_refused():
    with pytest.raises(ForceError):
        rc_fixed_difficulty_level(12)


@pytest.mark.parametrize(
    ("mass", "expected"),
    [
        pytest.param(0.5, ("Very Easy", 0), id="F-26-half-kg-VE"),
        pytest.param(5, ("Easy", 0), id="1-10kg-easy"),
        pytest.param(50, ("Moderate", 0), id="F-26-50kg-M"),
        pytest.param(500, ("Difficult", 0), id="F-26-500kg-D"),
        pytest.param(5000, ("Difficult", 5), id="F-26-5t-D+5"),
        pytest.param(50000, ("Difficult", 10), id="F-26-50t-D+10"),
    ],
)
def test_telekinesis_difficulty(mass, expected):
    assert telekinesis_difficulty(mass) == (parse_level(expected[0]), expected[1])


def test_telekinesis_needs_a_mass():
    with pytest.raises(ForceError):
        telekinesis_difficulty(0)


@pytest.mark.parametrize(
    ("hours", "level"),
    [
        pytest.param(1, "Easy", id="F-27-1-hour-easy"),
        pytest.param(72, "Moderate", id="F-27-3-days-moderate"),
        pytest.param(24 * 365, "Difficult", id="F-27-1-year-difficult"),
        pytest.param(24 * 365 * 5, "Very Difficult", id="F-27-5-years-very-difficult"),
    ],
)
def test_postcognition_difficulty(hours, level):
    assert postcognition_difficulty(hours) == parse_level(level)


def test_postcognition_cannot_read_the_future():
    with pytest.raises(ForceError):
        postcognition_difficulty(-1)


@pytest.mark.parametrize(
    ("roll", "result"),
    [(9, "nothing"), (10, "muddled"), (20, "good impression"), (31, "as if present")],
)
def test_postcognition_result(roll, result):
    assert postcognition_result(roll, 10) == result


@pytest.mark.parametrize(
    ("when", "modifier"),
    [
        pytest.param("future", 10, id="F-28-future-plus-10"),
        pytest.param("past", 5, id="F-28-past-plus-5"),
        pytest.param("present", 0, id="present"),
    ],
)
def test_farseeing_control_modifier(when, modifier):
    assert farseeing_control_modifier(when) == modifier


@pytest.mark.parametrize(
    ("roll", "when", "accuracy"),
    [
        pytest.param(10, "future", "50%", id="F-28-future-1x-50"),
        pytest.param(20, "future", "75%", id="F-28-future-2x-75"),
        pytest.param(30, "future", "all", id="F-28-future-3x-all"),
        pytest.param(10, "present", "75%", id="F-28-present-1x-75"),
        pytest.param(20, "present", "all", id="F-28-present-2x-all"),
        pytest.param(9, "past", "none", id="below-difficulty"),
    ],
)
def test_farseeing_accuracy(roll, when, accuracy):
    assert farseeing_accuracy(roll, 10, when) == accuracy


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        pytest.param(9, "no effect", id="F-29-9-no-effect"),
        pytest.param(14, "1 stun", id="F-29-14-one-stun"),
        pytest.param(24, "2 stun", id="F-29-24-two-stun"),
        pytest.param(30, "unconscious", id="F-29-30-unconscious"),
    ],
)
def test_inflict_pain(roll, result):
    assert inflict_pain_result(roll, 10) == result


def test_dim_senses_F30():
    assert dim_senses_penalty(17, 8) == 2
    assert dim_senses_penalty(50, 8) == 3


def test_zero_difficulty_is_refused():
    with pytest.raises(ForceError):
        dim_senses_penalty(5, 0)


@pytest.mark.parametrize(
    ("roll", "result"),
    [
        pytest.param(32, "probe memories", id="F-33-32-vs-16-probe"),
        pytest.param(16, "surface thoughts", id="equal-surface"),
        pytest.param(15, "nothing", id="below"),
    ],
)
def test_receptive_telepathy(roll, result):
    assert receptive_telepathy_result(roll, 9 + 2 + 5) == result


@pytest.mark.parametrize(
    ("attack", "result"),
    [
        pytest.param(9, "no effect", id="F-25-9-no-effect"),
        pytest.param(15, "blocked", id="F-25-15-blocked"),
        pytest.param(22, "full effect", id="F-25-22-full"),
    ],
)
def test_force_of_will(attack, result):
    assert force_of_will(12, 10, attack) == result


def test_absorb_dissipate_against_a_bolt_F32():
    assert absorb_dissipate_difficulty(13, 17) == 30


def test_projective_telepathy_gagged_F34():
    prox, rel = PROXIMITY["line_of_sight"], RELATIONSHIP["friends"]
    assert projective_telepathy_difficulties(3, prox, rel, cannot_verbalize=True) == (10, 8)
    assert projective_telepathy_difficulties(3, prox, rel, resisting_roll=11) == (5, 16)


def test_instinctive_astrogation_F31():
    assert instinctive_astrogation_difficulty(True) == VERY_EASY
    assert instinctive_astrogation_difficulty(False) == VERY_DIFFICULT


def test_emptiness_bonus_F24():
    assert emptiness_bonus(1, 4) == (5, 4)
    assert emptiness_bonus(9, 1) == (0, 1)


@pytest.mark.parametrize(
    ("elapsed", "damage", "may_roll"),
    [
        pytest.param(0.5, True, True, id="F-40-non-stun-damage-rolls-at-once"),
        pytest.param(0.5, False, False, id="F-40-stun-only-no-early-roll"),
        pytest.param(2, False, True, id="time-up"),
    ],
)
def test_emptiness_rolls_to_come_out(elapsed, damage, may_roll):
    assert emptiness_may_roll_out(elapsed, 2, non_stun_damage=damage) is may_roll


def test_transfer_force_F35():
    ok = transfer_force(True, True)
    assert (ok.force_point_spent, ok.force_point_returned, ok.death_rolls) == (True, True, False)
    assert transfer_force(True, False).death_rolls


def test_house_transfer_force_stasis_is_30_days_F35():
    assert transfer_force_stasis_days(ruleset=HOUSE) == 30


def test_sleeping_jedi_F36():
    assert force_use_while_asleep() == (False, True)


@pytest.mark.parametrize(
    ("level", "steps", "result"),
    [
        pytest.param("Moderate", 1, "Difficult", id="F-8-moderate-to-difficult"),
        pytest.param("Very Difficult", 3, "Heroic", id="capped-at-heroic"),
    ],
)
def test_raise_level(level, steps, result):
    assert raise_level(level, steps) == parse_level(result)


def test_unknown_level_is_refused():
    with pytest.raises(ForceError):
        raise_level("Tricky")


def test_a_level_above_heroic_is_not_lowered_by_raising_it():
    assert raise_level(HEROIC) == HEROIC
    assert raise_level("Heroic+10") == parse_level("Heroic+10")
