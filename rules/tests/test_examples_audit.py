"""Worked examples that no other test cited under their own id (audit of every digest's
"Worked examples" section, /work/shared/rules/*.md).

Each test carries the digest id in its name or pytest id and asserts the values printed in
the digest. Where an example repeats another one that is tested elsewhere (C-3 = E11,
C-38…C-43 = E1…E8, CB-45 = D-26, D-7 = M-28/V12/V16, D-21 = V11, D-22 = V13), the values are
re-asserted here under the missing id.

CB-3 as a whole round is replayed through the encounter engine's ``apply`` in
test_encounter_cb3.py. Not here, deferred to the downtime work (they need the database or a
job): the haste sequencing of M-43, and the downtime-job examples H-58, H-66, H-67.
"""

from __future__ import annotations

import pytest

from rules.advancement import AdvancementError, improvement_cost, max_cp_per_roll
from rules.combat import (
    full_reaction_penalty,
    is_hit,
    multiple_action_penalty,
    wound_level,
)
from rules.craft import facing_change_cost
from rules.dice import DieCode, effective_pool
from rules.difficulty import DIFFICULT, ROUND, level_for, number_range
from rules.droids import (
    attribute_building_dice,
    building_dice,
    item_building_dice,
    load_droid_templates,
    skill_building_dice,
)
from rules.equipment import (
    rc_armor_improvement,
    rc_hyperdrive_improvement,
    rc_improvement,
    rc_weapon_install,
)
from rules.force import cp_damage_gives_dark_side_point
from rules.injuries import WoundLevel, apply_wound, healing_cp_dice
from rules.movement import (
    rc_distance_per_action,
    rc_loss_of_control,
    rc_max_speed_actions,
    rc_movement_pool,
)
from rules.ruleset import RuleSet
from rules.tasks import prepare
from rules.time import DAYS_PER_MONTH, weeks_to_days

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
HOUSE7 = HOUSE.replace(days_per_week=7)
RC = RuleSet.preset("rc")
D = DieCode.parse
DAY = 24 * 60
NONE, STUNNED, W, W2, INC, MW, KILLED = WoundLevel


def _item(template: str, name_start: str):
    (item,) = [i for i in load_droid_templates()[template].items if i.name.startswith(name_start)]
    return item


# --- characters-and-advancement.md §6 -------------------------------------------------------
@pytest.mark.parametrize(
    ("ruleset", "weeks", "days"),
    [
        pytest.param(UPG, 6, 42, id="A-C17-C-22-six-weeks-42-days"),
        pytest.param(UPG, 30, 210, id="A-C17-C-23-thirty-weeks-210-days"),
        pytest.param(HOUSE, 6, 30, id="A-C17-house-six-weeks-30-days"),
    ],
)
def test_a_c17_week_length_by_campaign(ruleset, weeks, days):
    assert weeks_to_days(weeks, ruleset=ruleset) == days


def test_a_c17_a_month_is_35_days_in_both_calendars():
    assert DAYS_PER_MONTH == 35
    assert weeks_to_days(7, ruleset=HOUSE) == weeks_to_days(5, ruleset=UPG) == 35


def test_c3_droid_dexterity_1d_to_3d_costs_10d_of_building_dice():
    assert attribute_building_dice("3D") == 10


def test_c4_3po_spends_exactly_the_35d_npc_budget():
    threepio = load_droid_templates()["3po"]
    assert [threepio.attribute(a) for a in ("dexterity", "knowledge", "perception")] == [
        D("2D")
    ] * 3
    assert attribute_building_dice("2D") == 5
    knowledge = threepio.knowledge
    skills = {s.name: skill_building_dice(s.code, knowledge) for s in threepio.skills}
    assert sorted(skills.values()) == [1, 2, 2, 8]
    dice = building_dice(threepio)
    assert (dice.attributes, dice.skills, dice.equipment) == (15, 13, 7)
    assert (dice.total, dice.budget, dice.unspent) == (35, 35, 0)


@pytest.mark.parametrize(
    ("template", "item", "dice"),
    [
        pytest.param("r2", "video sensor, extendable", 2, id="C-5-r2-extendable-sensor-plus-1D"),
        pytest.param("r2", "video screen, can project", 2, id="C-5-r2-hologram-option-plus-1D"),
        pytest.param("3po", "two legs", 1, id="C-5-3po-legs-one-locomotion"),
        pytest.param("3po", "arm", 2, id="C-5-3po-two-arms-1D-each"),
        pytest.param("3po", "video sensor", 2, id="C-5-3po-two-video-sensors-1D-each"),
    ],
)
def test_c5_droid_item_building_dice(template, item, dice):
    assert item_building_dice(_item(template, item)) == dice


def test_c38_blaster_damage_4d_to_4d1_costs_4_skill_points():
    (step,) = rc_improvement("4D", "4D", "4D+1", ruleset=UPG)
    assert (step.skill_points, step.credits, step.minutes) == (4, 40, DAY)


def test_c39_armor_1d_to_1d1_costs_4_skill_points():
    (step,) = rc_improvement("1D", "1D", "1D+1", ruleset=UPG, additive=True)
    assert step.skill_points == 4


def test_c40_armor_1d_to_1d2_with_the_dexterity_penalty_cancelled_costs_16():
    steps = rc_armor_improvement("1D", "1D", "1D+2", ruleset=UPG)
    assert [s.skill_points for s in steps] == [4, 4, 4, 4]
    assert sum(s.skill_points for s in steps) == 16


def test_c41_the_4th_pip_is_difficult_after_5_skill_points_and_50_credits():
    (step,) = rc_improvement("4D", "5D", "5D+1", ruleset=UPG, scale="character")
    assert (step.ordinal, step.difficulty, step.skill_points, step.credits) == (
        4,
        DIFFICULT,
        5,
        50,
    )


@pytest.mark.parametrize(
    ("old", "new", "points"),
    [
        pytest.param("x2", "x1", 20, id="C-42-x2-x1-20"),
        pytest.param("x1", "x1/2", 40, id="C-42-x1-xhalf-40"),
    ],
)
def test_c42_hyperdrive_skill_points(old, new, points):
    (step,) = rc_hyperdrive_improvement(old, new, ruleset=UPG)
    assert step.skill_points == points


def test_c43_a_1d_1d_weapon_on_a_speeder_costs_9_sp_or_price_plus_1500_plus_9_sp():
    assert rc_weapon_install("speeder", ruleset=UPG).skill_points == 9
    bought = rc_weapon_install("speeder", ruleset=UPG, purchased_price=2_000)
    assert (bought.credits, bought.skill_points) == (2_000 + 1_500, 9)


# --- combat.md §13 ----------------------------------------------------------------------------
def test_cb45_d26_preparing_a_4d_blaster_for_a_round_gives_5d_next_round():
    prepared = prepare("4D", ROUND, ruleset=RC)
    assert prepared.code == D("5D")
    assert prepared.time == ROUND * 2


# --- dice-and-core.md §11 ---------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "actions"),
    [pytest.param("2D+1", 3, id="D-7-2D1-three"), pytest.param("3D+2", 4, id="D-7-dex-3D2-four")],
)
def test_d7_rc_speed_actions_round_pips_up(code, actions):
    assert rc_max_speed_actions(code) == actions


def test_d17_sandor_17_misses_the_dodge_20_but_would_have_hit_14():
    assert not is_hit(20 - 3, 20)
    assert is_hit(20 - 3, 14)


def test_d21_speeder_bike_four_speed_actions_rolls_5d2():
    assert rc_movement_pool("4D+2", 4, ruleset=UPG, speed_code="4D") == D("5D+2")


def test_d22_landspeeder_rolls_3d2_and_loses_control_in_the_second_action_as_printed():
    assert rc_movement_pool("4D+2", 4, ruleset=UPG, speed_code="2D") == D("3D+2")
    assert 14 - 11 == 3
    assert rc_loss_of_control(3, 3, 250, ruleset=UPG).lost_in_action == 2
    as_text = RuleSet(rc_loss_of_control_point="as_text")
    assert rc_loss_of_control(3, 3, 250, ruleset=as_text).lost_in_action == 3


# --- injuries-and-healing.md §12 --------------------------------------------------------------
@pytest.mark.parametrize(
    ("damage", "level"),
    [
        pytest.param(9, "none", id="H-4-margin-minus-1"),
        pytest.param(10, "stunned", id="H-5-margin-0"),
        pytest.param(13, "stunned", id="H-5-margin-3"),
        pytest.param(14, "wounded", id="H-6-margin-4"),
        pytest.param(18, "wounded", id="H-6-margin-8"),
        pytest.param(19, "incapacitated", id="H-7-margin-9"),
        pytest.param(22, "incapacitated", id="H-7-margin-12"),
        pytest.param(23, "mortally_wounded", id="H-8-margin-13"),
        pytest.param(25, "mortally_wounded", id="H-8-margin-15"),
    ],
)
def test_h4_to_h8_2e_chart_against_resistance_10(damage, level):
    assert wound_level(damage, 10, ruleset=UPG).name == level


@pytest.mark.parametrize(
    ("ruleset", "after_first", "after_second"),
    [
        pytest.param(UPG, W2, INC, id="H-21-2e-ladder"),
        pytest.param(RC, INC, MW, id="H-21-rc-ladder"),
    ],
)
def test_h21_a_puncturing_wound_plus_an_additional_wound(ruleset, after_first, after_second):
    first = apply_wound(W, W, ruleset=ruleset)
    assert first == after_first
    assert apply_wound(first, W, ruleset=ruleset) == after_second


def test_h64_house_cp_on_damage_and_on_strength():
    assert max_cp_per_roll("damage", ruleset=HOUSE) == 2
    assert cp_damage_gives_dark_side_point("being", False, ruleset=HOUSE)
    assert not cp_damage_gives_dark_side_point("being", True, ruleset=HOUSE)
    assert max_cp_per_roll("resist_damage", ruleset=HOUSE) == 5


@pytest.mark.parametrize(
    ("ruleset", "per_roll", "on_hand", "dice"),
    [
        pytest.param(UPG, 3, 10, 2, id="H-72-2e-attribute-limit-2"),
        pytest.param(HOUSE, 3, 10, 2, id="H-72-house-attribute-limit-2"),
        pytest.param(RC, 3, 10, 0, id="H-72-rc-no-character-points"),
        pytest.param(UPG, 3, 1, 1, id="capped-at-cp-on-hand"),
        pytest.param(UPG, 0, 10, 0, id="default-none-set-in-advance"),
        pytest.param(RuleSet(cp_spend_limits="none"), 3, 10, 3, id="no-limit-in-ruleset"),
    ],
)
def test_h72_cp_dice_on_a_healing_roll(ruleset, per_roll, on_hand, dice):
    assert healing_cp_dice(per_roll, on_hand, ruleset=ruleset) == dice


def test_healing_cp_dice_cannot_be_negative():
    with pytest.raises(ValueError, match="cannot be negative"):
        healing_cp_dice(-1, 10, ruleset=UPG)


# --- movement.md §10 --------------------------------------------------------------------------
def test_m13_the_mine_shaft_swing_is_difficult_low_in_the_range():
    low, high = number_range(DIFFICULT, ruleset=RuleSet())
    assert (low, high) == (16, 20)
    assert level_for(16, ruleset=RuleSet()) == DIFFICULT


def test_m24_upg_move_10_to_11_costs_10_cp():
    assert improvement_cost("move", 10, ruleset=UPG).character_points == 10


@pytest.mark.parametrize(
    ("teacher", "extra", "cp", "days"),
    [
        pytest.param(True, 0, 10, 35, id="M-24-house-instructor-5-weeks"),
        pytest.param(True, 45, 55, 7, id="M-24-house-45-extra-cp-1-week"),
        pytest.param(False, 0, 20, 70, id="M-24-house-alone-10-weeks"),
    ],
)
def test_m24_house_move_increase(teacher, extra, cp, days):
    cost = improvement_cost("move", 10, ruleset=HOUSE7, teacher=teacher, extra_cp=extra)
    assert (cost.character_points, cost.training_days) == (cp, days)


def test_m24_refused_at_the_species_maximum():
    with pytest.raises(AdvancementError, match="species maximum"):
        improvement_cost("move", 10, ruleset=UPG, species_maximum=10)


def test_m43_six_actions_cost_5d_and_each_speed_action_is_10_m():
    assert multiple_action_penalty(6, ruleset=UPG) == 5
    assert rc_distance_per_action("character") == 10


def test_m44_full_dodge_with_its_speed_action_keeps_5d2_moves_at_4d2():
    penalty = full_reaction_penalty(2, ruleset=UPG)
    pool = effective_pool("5D+2", penalty_dice=penalty, ruleset=RuleSet())
    assert pool == D("5D+2")
    assert rc_movement_pool("5D+2", 2, ruleset=UPG) == D("4D+2")
    assert rc_distance_per_action("character") == 10


def test_m45_cliff_rolls_take_1d_for_a_second_simultaneous_roll():
    assert multiple_action_penalty(2, ruleset=UPG) == 1


@pytest.mark.parametrize(
    ("new", "cost"),
    [
        pytest.param("left", 1, id="M-46-adjacent-1"),
        pytest.param("bottom", 2, id="M-46-opposite-2"),
    ],
)
def test_m46_capital_facing_change(new, cost):
    assert facing_change_cost("top", new) == cost
