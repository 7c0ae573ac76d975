"""Advancement costs, training times and Character Points in play.

Worked examples from /work/shared/rules/characters-and-advancement.md §6 (C-n) and force.md §8
(F-n) are cited in the test ids."""

from __future__ import annotations

import pytest

from rules.advancement import (
    NCO_LEADERSHIP_I,
    AdvancementError,
    ImprovementCost,
    NotInRuleset,
    School,
    ambidexterity_cost,
    apply_school,
    attribute_improvement_roll,
    can_raise_this_downtime,
    check_cp_slot,
    check_one_pip_per_adventure,
    check_school_debt,
    cp_slot_cap,
    improvement_cost,
    resolve_attribute_roll,
    skills_after_attribute_raise,
    split_earned_cp,
)
from rules.dice import DieCode, FixedDice
from rules.ruleset import RuleSet
from rules.time import DAYS_PER_MONTH

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")
HOUSE7 = HOUSE.replace(days_per_week=7)


# --- Rules Upgrade costs -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("teacher", "used", "extra", "cp", "days"),
    [
        pytest.param(True, True, 0, 4, 0, id="C-19-used-last-adventure-no-training"),
        pytest.param(True, False, 0, 4, 4, id="C-19-teacher-4-days"),
        pytest.param(False, False, 0, 4, 8, id="C-19-alone-8-days"),
        pytest.param(False, False, 7, 11, 1, id="C-19-alone-plus-7-cp-1-day"),
    ],
)
def test_upg_skill_pip_costs_number_before_the_d(teacher, used, extra, cp, days):
    cost = improvement_cost(
        "skill", "4D+2", ruleset=UPG, teacher=teacher, used_last_adventure=used, extra_cp=extra
    )
    assert (cost.character_points, cost.training_days, cost.new) == (cp, days, DieCode(5))


def test_upg_extra_cp_never_cut_training_below_one_day():
    cost = improvement_cost("skill", "4D+2", teacher=False, ruleset=UPG).with_extra_cp(20)
    assert cost.training_days == 1
    assert cost.character_points == 24
    assert cost.useful_extra_cp == 7


def test_training_that_cannot_be_shortened_has_no_useful_extra_cp():
    assert improvement_cost("attribute", "3D", ruleset=UPG).useful_extra_cp == 0


def test_with_extra_cp_adds_to_points_already_spent():
    cost = improvement_cost("skill", "4D+2", teacher=False, extra_cp=3, ruleset=UPG).with_extra_cp(
        4
    )
    assert (cost.character_points, cost.training_days, cost.extra_cp) == (11, 1, 7)
    assert not cost.can_shorten


def test_training_already_skipped_cannot_be_shortened():
    with pytest.raises(AdvancementError, match="no training time to shorten"):
        improvement_cost("skill", "4D+2", used_last_adventure=True, extra_cp=1, ruleset=UPG)


@pytest.mark.parametrize(
    ("code", "cp"),
    [
        pytest.param("5D", 3, id="C-21-half-of-5-rounded-up"),
        pytest.param("4D+2", 2, id="half-of-4"),
        pytest.param("1D", 1, id="half-of-1-rounded-up"),
    ],
)
def test_upg_specialization_costs_half_rounded_up(code, cp):
    assert improvement_cost("specialization", code, ruleset=UPG).character_points == cp


@pytest.mark.parametrize(
    ("teacher", "cp", "days"),
    [
        pytest.param(True, 6, 42, id="C-22-teacher-6-weeks"),
        pytest.param(False, 6, 84, id="C-22-alone-12-weeks"),
    ],
)
def test_upg_advanced_skill_costs_double_and_trains_weeks(teacher, cp, days):
    cost = improvement_cost("advanced", "3D", ruleset=UPG, teacher=teacher)
    assert (cost.character_points, cost.training_days) == (cp, days)


def test_upg_advanced_skill_must_train_even_if_used():
    cost = improvement_cost("advanced", "3D", ruleset=UPG, used_last_adventure=True)
    assert cost.training_days == 42


def test_upg_advanced_training_cannot_be_shortened():
    with pytest.raises(AdvancementError, match="cannot be shortened"):
        improvement_cost("advanced", "3D", extra_cp=5, ruleset=UPG)


def test_upg_advanced_specialization_costs_half_an_advanced_pip():
    assert improvement_cost("advanced_specialization", "3D", ruleset=UPG).character_points == 3


def test_upg_attribute_costs_ten_times_and_needs_the_roll_C23():
    cost = improvement_cost("attribute", "3D+2", ruleset=UPG)
    assert (cost.character_points, cost.training_days, cost.new) == (30, 210, DieCode(4))
    assert cost.attribute_roll


def test_upg_move_costs_current_move_C24():
    cost = improvement_cost("move", 10, ruleset=UPG)
    assert (cost.character_points, cost.training_days, cost.new) == (10, 70, 11)


def test_move_at_species_maximum_is_refused_C24():
    with pytest.raises(AdvancementError, match="species maximum 10"):
        improvement_cost("move", 10, species_maximum=10, ruleset=UPG)


@pytest.mark.parametrize(
    ("teacher", "cp", "days"),
    [
        pytest.param(True, 2, 2, id="C-25-F-18-teacher-2-cp-2-days"),
        pytest.param(False, 4, 8, id="C-25-F-18-alone-4-cp-8-days"),
    ],
)
def test_upg_force_skill_doubles_cost_without_teacher(teacher, cp, days):
    cost = improvement_cost("force_skill", "2D", ruleset=UPG, teacher=teacher)
    assert (cost.character_points, cost.training_days) == (cp, days)


def test_upg_force_sensitivity_costs_20_with_no_training_C26():
    cost = improvement_cost("force_sensitivity", ruleset=UPG)
    assert (cost.character_points, cost.training_days) == (20, 0)


def test_upg_force_power_without_a_pip_costs_5_F38():
    assert improvement_cost("force_power", ruleset=UPG).character_points == 5


def test_upg_new_skill_is_priced_from_the_attribute():
    cost = improvement_cost("new_skill", "3D", ruleset=UPG)
    assert (cost.character_points, cost.new) == (3, DieCode(3, 1))


def test_upg_new_specialization_is_half_of_the_base_skill():
    cost = improvement_cost("new_specialization", "4D", ruleset=UPG)
    assert (cost.character_points, cost.new) == (2, DieCode(4, 1))


@pytest.mark.parametrize("kind", ["new_advanced", "new_force_skill", "new_advanced_specialization"])
def test_upg_improvements_it_does_not_price_are_left_to_the_gm(kind):
    with pytest.raises(NotInRuleset, match="gamemaster sets it"):
        improvement_cost(kind, "3D", ruleset=UPG)


# --- House costs ---------------------------------------------------------------------------------
def test_house_new_specialization_pays_5_plus_a_pip_C27():
    cost = improvement_cost("new_specialization", "4D", ruleset=HOUSE)
    assert (cost.character_points, cost.new) == (7, DieCode(4, 1))


def test_house_advanced_specialization_costs_10_then_half_C28():
    new = improvement_cost("new_advanced_specialization", "3D", ruleset=HOUSE)
    pip = improvement_cost("advanced_specialization", "1D", ruleset=HOUSE)
    assert (new.character_points, new.new) == (10, DieCode(1))
    assert pip.character_points == 1


@pytest.mark.parametrize(
    ("teacher", "extra", "cp", "days"),
    [
        pytest.param(True, 0, 10, 35, id="C-29-instructor-5-weeks"),
        pytest.param(True, 45, 55, 7, id="C-29-45-extra-cp-1-week"),
        pytest.param(False, 0, 20, 70, id="C-29-alone-10-weeks"),
    ],
)
def test_house_move_increase(teacher, extra, cp, days):
    cost = improvement_cost("move", 10, ruleset=HOUSE7, teacher=teacher, extra_cp=extra)
    assert (cost.character_points, cost.training_days) == (cp, days)


def test_house_move_takes_a_month_in_the_five_day_week_too():
    cost = improvement_cost("move", 10, ruleset=HOUSE, extra_cp=45)
    assert (cost.base_training_days, cost.training_days) == (DAYS_PER_MONTH, 5)


@pytest.mark.parametrize(
    ("code", "cp", "days", "new"),
    [
        pytest.param("3D+2", 30, 35, "4D", id="C-30-below-4D-one-month"),
        pytest.param("4D", 40, 70, "4D+1", id="C-30-4D-two-months"),
    ],
)
def test_house_attribute_cost_and_months(code, cp, days, new):
    cost = improvement_cost("attribute", code, ruleset=HOUSE)
    assert (cost.character_points, cost.training_days, cost.new) == (cp, days, DieCode.parse(new))
    assert not cost.attribute_roll


def test_house_attribute_raise_lifts_non_advanced_skills_C30():
    skills = {"bureaucracy": "4D", "tactics": "3D+2", "(A) medicine": "2D"}
    raised = skills_after_attribute_raise(skills, advanced={"(A) medicine"}, ruleset=HOUSE)
    assert raised == {
        "bureaucracy": DieCode(4, 1),
        "tactics": DieCode(4),
        "(A) medicine": DieCode(2),
    }


def test_upg_attribute_raise_leaves_skills_alone():
    assert skills_after_attribute_raise({"tactics": "3D+2"}, ruleset=UPG) == {
        "tactics": DieCode(3, 2)
    }


def test_house_new_skill_costs_5_at_the_attribute_code_C31():
    cost = improvement_cost("new_skill", "3D+1", ruleset=HOUSE, teacher=True)
    assert (cost.character_points, cost.new, cost.training_days) == (5, DieCode(3, 1), 0)


def test_house_new_skill_needs_use_or_an_instructor():
    with pytest.raises(AdvancementError, match="tried in an adventure or trained"):
        improvement_cost("new_skill", "3D", ruleset=HOUSE, teacher=False, used_last_adventure=False)


@pytest.mark.parametrize(
    ("teacher", "extra", "days"),
    [
        pytest.param(True, 0, 70, id="C-32-10-weeks-with-instructor"),
        pytest.param(False, 0, 140, id="C-32-20-weeks-alone"),
        pytest.param(True, 10, 60, id="C-32-minus-a-day-per-cp"),
        pytest.param(True, 200, 7, id="C-32-one-week-minimum"),
    ],
)
def test_house_new_advanced_skill(teacher, extra, days):
    cost = improvement_cost("new_advanced", None, ruleset=HOUSE7, teacher=teacher, extra_cp=extra)
    assert (cost.base_character_points, cost.new, cost.training_days) == (10, DieCode(1), days)


@pytest.mark.parametrize(
    ("teacher", "cp"),
    [pytest.param(True, 4, id="C-33-instructor-4"), pytest.param(False, 8, id="C-33-alone-8")],
)
def test_house_advanced_pip(teacher, cp):
    assert (
        improvement_cost("advanced", "2D+0", ruleset=HOUSE, teacher=teacher).character_points == cp
    )


@pytest.mark.parametrize(
    ("code", "ruleset", "teacher", "cp", "days"),
    [
        pytest.param("3D+1", HOUSE, True, 3, 3, id="C-34-below-4D-3-days"),
        pytest.param("5D", HOUSE, True, 5, 5, id="C-34-5D-one-house-week"),
        pytest.param("7D+1", HOUSE, True, 7, 10, id="C-34-7D+1-two-house-weeks"),
        pytest.param("5D", HOUSE7, True, 5, 7, id="C-34-5D-one-7-day-week"),
        pytest.param("3D+1", HOUSE, False, 6, 6, id="C-34-alone-doubles-cp-and-time"),
        pytest.param("7D+1", HOUSE7, False, 14, 28, id="C-34-7D+1-alone-4-weeks"),
    ],
)
def test_house_skill_training_by_level(code, ruleset, teacher, cp, days):
    cost = improvement_cost("skill", code, ruleset=ruleset, teacher=teacher)
    assert (cost.character_points, cost.training_days) == (cp, days)


def test_house_skill_used_in_adventure_needs_no_training():
    assert (
        improvement_cost("skill", "5D", ruleset=HOUSE, used_last_adventure=True).training_days == 0
    )


def test_house_specialization_pip_is_half_a_skill_pip():
    assert improvement_cost("specialization", "5D", ruleset=HOUSE).character_points == 3
    assert (
        improvement_cost("specialization", "5D", ruleset=HOUSE, teacher=False).character_points == 5
    )


@pytest.mark.parametrize(
    ("teacher", "used", "cp", "days"),
    [
        pytest.param(True, False, 4, 7, id="F-41-instructor-1-week"),
        pytest.param(False, False, 8, 14, id="F-41-alone-2-weeks"),
        pytest.param(True, True, 4, 0, id="F-41-used-no-training"),
    ],
)
def test_house_force_skill_follows_the_house_skill_rule(teacher, used, cp, days):
    cost = improvement_cost(
        "force_skill", "4D+1", ruleset=HOUSE7, teacher=teacher, used_last_adventure=used
    )
    assert (cost.character_points, cost.training_days) == (cp, days)


def test_house_force_sensitivity_costs_20_F19():
    assert improvement_cost("force_sensitivity", None, ruleset=HOUSE).character_points == 20


def test_house_gives_no_cost_for_a_new_force_skill():
    with pytest.raises(NotInRuleset, match="House Rules"):
        improvement_cost("new_force_skill", None, ruleset=HOUSE)


@pytest.mark.parametrize(
    ("dex", "cp", "days"),
    [
        pytest.param("4D", 7, 35, id="C-12-4D-7cp-minimum-month"),
        pytest.param("3D+1", 15, 75, id="C-12-3D+1-15cp"),
        pytest.param("2D+2", 30, 150, id="C-12-2D+2-30cp"),
    ],
)
def test_house_ambidexterity(dex, cp, days):
    cost = ambidexterity_cost(dex, ruleset=HOUSE)
    assert (cost.character_points, cost.training_days) == (cp, days)


def test_ambidexterity_is_house_only():
    with pytest.raises(NotInRuleset):
        ambidexterity_cost("4D", ruleset=UPG)


# --- Rules Companion skill points ---------------------------------------------------------------
def test_rc_skill_pip_costs_number_before_the_d():
    cost = improvement_cost("skill", "4D", ruleset=RC)
    assert (cost.character_points, cost.currency, cost.training_days) == (4, "skill points", None)


@pytest.mark.parametrize(
    ("teacher", "teacher_code", "sp"),
    [
        pytest.param(True, "7D+1", 14, id="C-44-F-13-above-teachers-code-doubles"),
        pytest.param(True, "7D+2", 7, id="teacher-above-pupil-normal-cost"),
        pytest.param(False, None, 14, id="self-trained-doubles"),
    ],
)
def test_rc_force_skill_pip(teacher, teacher_code, sp):
    cost = improvement_cost(
        "force_skill", "7D+1", ruleset=RC, teacher=teacher, teacher_code=teacher_code
    )
    assert cost.character_points == sp


@pytest.mark.parametrize(
    ("sp", "days"),
    [
        pytest.param(0, 70, id="F-14-ten-weeks"),
        pytest.param(4, 42, id="F-14-4-sp-six-weeks"),
        pytest.param(9, 7, id="F-14-9-sp-one-week"),
        pytest.param(12, 7, id="F-14-never-below-one-week"),
    ],
)
def test_rc_new_force_skill_training(sp, days):
    cost = improvement_cost("new_force_skill", None, ruleset=RC, extra_cp=sp)
    assert (cost.training_days, cost.new, cost.character_points) == (days, DieCode(1), sp)


def test_rc_new_force_skill_needs_a_teacher():
    with pytest.raises(AdvancementError, match="teacher or master"):
        improvement_cost("new_force_skill", None, ruleset=RC, teacher=False)


@pytest.mark.parametrize(
    ("teacher", "sp"),
    [pytest.param(True, 0, id="F-16-teacher-free"), pytest.param(False, 1, id="F-16-self-1-sp")],
)
def test_rc_mastering_a_power_takes_a_week(teacher, sp):
    cost = improvement_cost("force_power", None, ruleset=RC, teacher=teacher)
    assert (cost.character_points, cost.training_days) == (sp, 7)


@pytest.mark.parametrize("kind", ["attribute", "specialization", "advanced"])
def test_rc_does_not_price_other_improvements(kind):
    with pytest.raises(NotInRuleset, match="Rules Companion"):
        improvement_cost(kind, "3D", ruleset=RC)


# --- Bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "current", "message"),
    [
        ("juggling", "3D", "unknown improvement"),
        ("skill", None, "give the current die code"),
        ("skill", 4, "not a die code"),
        ("skill", "4D+4", "not a code on a character sheet"),
        ("skill", "0D+2", "no die before the D"),
        ("move", "10", "Move must be a whole number"),
        ("move", 0, "Move must be a whole number"),
        ("skill", "4X", "contains"),
    ],
)
def test_bad_input_is_explained(kind, current, message):
    with pytest.raises(ValueError, match=message):
        improvement_cost(kind, current, ruleset=UPG)


def test_negative_extra_cp_is_refused():
    with pytest.raises(AdvancementError, match="0 or more"):
        improvement_cost("skill", "3D", ruleset=UPG).with_extra_cp(-1)


def test_improvement_cost_is_immutable():
    cost = improvement_cost("skill", "3D", ruleset=UPG)
    assert isinstance(cost, ImprovementCost)
    with pytest.raises(AttributeError):
        cost.extra_cp = 3  # type: ignore[misc]


def test_cost_without_a_stated_time_cannot_be_shortened():
    with pytest.raises(AdvancementError, match="no training time is set"):
        improvement_cost("skill", "3D", ruleset=RC).with_extra_cp(1)


# --- One pip per adventure ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kind", "raised", "allowed"),
    [
        pytest.param("skill", 0, True, id="first-pip"),
        pytest.param("skill", 1, False, id="C-20-second-pip-of-blaster"),
        pytest.param("force_skill", 1, False, id="F-38-second-pip-of-control"),
        pytest.param("specialization", 1, False, id="A-C7-specializations-too"),
        pytest.param("attribute", 1, True, id="A-C7-attributes-not-limited"),
    ],
)
def test_one_pip_per_skill_between_adventures(kind, raised, allowed):
    assert can_raise_this_downtime(kind, raised, ruleset=UPG) is allowed


def test_second_pip_is_refused_with_a_message_C20():
    with pytest.raises(AdvancementError, match="blaster was already raised a pip"):
        check_one_pip_per_adventure("skill", "blaster", 1, ruleset=UPG)


def test_one_pip_limit_can_be_switched_off():
    ruleset = RuleSet(one_pip_per_skill_between_adventures=False)
    check_one_pip_per_adventure("skill", "blaster", 3, ruleset=ruleset)
    assert can_raise_this_downtime("skill", 3, ruleset=ruleset)


def test_negative_pips_raised_is_refused():
    with pytest.raises(AdvancementError):
        can_raise_this_downtime("skill", -1, ruleset=UPG)


# --- Attribute improvement roll ---------------------------------------------------------------
@pytest.mark.parametrize(
    ("mine", "gms", "improved", "refund"),
    [
        pytest.param(13, 15, True, 0, id="C-23-13-vs-15-rises"),
        pytest.param(15, 15, True, 0, id="equal-rises"),
        pytest.param(17, 15, False, 15, id="C-23-17-vs-15-half-back"),
    ],
)
def test_attribute_roll(mine, gms, improved, refund):
    result = resolve_attribute_roll(mine, gms, 30)
    assert (result.improved, result.refund) == (improved, refund)


def test_attribute_roll_uses_the_dice_C23():
    # character rolls 4D: 3, 3, 3 and Wild Die 4 = 13; GM rolls 4D: 4, 4, 4, Wild Die 3 = 15
    rng = FixedDice([3, 3, 3, 4, 4, 4, 4, 3])
    result = attribute_improvement_roll("4D", "4D", 30, ruleset=UPG, rng=rng)
    assert (result.character_roll, result.gamemaster_roll, result.improved) == (13, 15, True)


def test_attribute_roll_is_skipped_when_the_ruleset_has_none():
    result = attribute_improvement_roll("4D", "4D", 30, ruleset=HOUSE, rng=FixedDice([]))
    assert result.improved and result.character_roll is None


def test_negative_cp_spent_is_refused():
    with pytest.raises(AdvancementError):
        resolve_attribute_roll(1, 2, -5)


# --- Schools, debt and the CP slot [HOUSE] -------------------------------------------------------
def test_nco_leadership_grants_missing_skills_at_the_attribute_C35():
    attrs = {"Perception": "3D", "Strength": "3D", "Knowledge": "2D+1"}
    result = apply_school(NCO_LEADERSHIP_I, {"command": "4D"}, attrs)
    assert result == {
        "command": DieCode(4, 2),
        "persuasion": DieCode(3, 1),
        "stamina": DieCode(3, 1),
        "survival": DieCode(3),
        "tactics": DieCode(2, 2),
        "willpower": DieCode(2, 2),
    }
    assert (NCO_LEADERSHIP_I.cp_cost, NCO_LEADERSHIP_I.length_days(ruleset=HOUSE)) == (5, 15)


def test_school_needs_the_attribute_of_a_missing_skill():
    school = School("Test", 1, 1, (("Strength", "lifting", 1),))
    with pytest.raises(AdvancementError, match="needs the Strength code"):
        apply_school(school, {}, {})


def test_school_debt_is_capped_at_100_C36():
    check_school_debt(95, 5)
    with pytest.raises(AdvancementError, match="100 CP limit"):
        check_school_debt(100, 5)


@pytest.mark.parametrize(
    ("earned", "debt", "split"),
    [
        pytest.param(12, 100, (6, 6), id="C-36-half-to-the-debt"),
        pytest.param(12, 4, (4, 8), id="never-more-than-owed"),
        pytest.param(5, 50, (3, 2), id="odd-rounds-up"),
    ],
)
def test_earned_cp_repay_school_debt(earned, debt, split):
    assert split_earned_cp(earned, debt) == split


def test_negative_earnings_are_refused():
    with pytest.raises(AdvancementError):
        split_earned_cp(-1, 5)


@pytest.mark.parametrize(
    ("joined", "full_might", "cap"),
    [
        pytest.param(False, False, 20, id="C-37-before-joining-20"),
        pytest.param(True, False, 30, id="C-37-after-joining-30"),
        pytest.param(True, True, None, id="full-might-no-cap"),
    ],
)
def test_house_cp_slot_cap(joined, full_might, cap):
    assert cp_slot_cap(joined, full_might, ruleset=HOUSE) == cap


def test_no_cp_slot_outside_house():
    assert cp_slot_cap(False, ruleset=UPG) is None


def test_holding_25_before_joining_is_refused_unless_earned_C37():
    with pytest.raises(AdvancementError, match="at most 20"):
        check_cp_slot(25, ruleset=HOUSE)
    check_cp_slot(25, earned_in_play=5, ruleset=HOUSE)
    check_cp_slot(30, joined_group=True, ruleset=HOUSE)
