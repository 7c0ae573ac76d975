"""Equipment improvement, repairs, House gear damage and improvement projects
(droids-and-equipment.md §3-§9, worked examples E1-E10 and E17-E37)."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.combat import (
    combined_action_bonus,
    max_combining,
    rc_combined_code,
    split_combined_bonus,
)
from rules.dice import DieCode, FixedDice
from rules.difficulty import DIFFICULT, EASY, HEROIC, MODERATE, VERY_DIFFICULT, VERY_EASY
from rules.equipment import (
    MINUTES_PER_DAY,
    EquipmentError,
    ProjectRequest,
    abandon_project,
    advance_project,
    armor_dexterity_penalty,
    availability_fee,
    black_market_price_range,
    gear_must_roll,
    gear_survives,
    license_check_difficulty,
    parse_hyperdrive,
    rc_armor_improvement,
    rc_credits,
    rc_hyperdrive_improvement,
    rc_improvement,
    rc_pip_cost,
    rc_tech_difficulty,
    rc_time_per_pip,
    rc_weapon_install,
    repair_requirement,
    resolve_roll,
    resume_project,
    upg_improvement,
    validate_project,
    work_pace,
)
from rules.ruleset import RuleSet
from rules.time import DAYS_PER_MONTH

UPG = RuleSet()
RC = RuleSet.preset("rc")
HOUSE = RuleSet.preset("house")
DAY = MINUTES_PER_DAY
MONTH = DAYS_PER_MONTH * DAY


def total(steps, field):
    return sum(getattr(s, field) for s in steps)


# =============================================================================================
# [RC] skill-point customization
# =============================================================================================
def test_E1_erissons_blaster_5d_to_5d1_is_a_difficult_4th_pip_for_5_sp_and_50_credits():
    (step,) = rc_improvement("4D", "5D", "5D+1", ruleset=UPG, scale="character")
    assert (step.ordinal, step.difficulty, step.skill_points, step.credits) == (
        4,
        DIFFICULT,
        5,
        50,
    )
    assert step.minutes == 1 * DAY


def test_E2_blaster_damage_4d_to_4d1_costs_4_skill_points():
    (step,) = rc_improvement("4D", "4D", "4D+1", ruleset=UPG)
    assert (step.skill_points, step.credits, step.minutes, step.difficulty) == (
        4,
        40,
        DAY,
        VERY_EASY,
    )


def test_E3_armor_1d_to_1d1_costs_4_skill_points():
    (step,) = rc_improvement("1D", "1D", "1D+1", ruleset=UPG, additive=True)
    assert step.skill_points == 4


def test_E4_armor_1d_to_1d2_with_the_dexterity_penalty_erased_costs_16_skill_points():
    steps = rc_armor_improvement("1D", "1D", "1D+2", ruleset=UPG)
    assert [s.skill_points for s in steps] == [4, 4, 4, 4]
    assert total(steps, "skill_points") == 16
    assert total(steps, "credits") == 160
    assert total(steps, "minutes") == 4 * DAY
    assert [s.difficulty for s in steps] == [VERY_EASY, EASY, VERY_EASY, EASY]


@pytest.mark.parametrize(
    ("old", "new", "skill_points"),
    [("x4", "x3", 5), ("x3", "x2", 10), ("x2", "x1", 20), ("x1", "x1/2", 40)],
    ids=["E5-x4-x3", "E5-x3-x2", "E5-x2-x1", "E5-x1-xhalf"],
)
def test_E5_hyperdrive_multiplier_changes_cost_5_10_20_40(old, new, skill_points):
    (step,) = rc_hyperdrive_improvement(old, new, ruleset=UPG)
    assert step.skill_points == skill_points


def test_E6_an_npc_taking_a_starfighter_hyperdrive_from_x2_to_x1_charges_20000_credits():
    (step,) = rc_hyperdrive_improvement("x2", "x1", ruleset=UPG, scale="starfighter", npc=True)
    assert step.credits == 20_000


def test_E7_a_new_weapon_with_1d_fire_control_and_1d_damage_costs_9_skill_points():
    assert rc_weapon_install("starfighter", ruleset=UPG).skill_points == 9


@pytest.mark.parametrize(
    ("scale", "fee"),
    [("starfighter", 6_000), ("speeder", 1_500), ("character", 150), ("capital", 10_000_000)],
    ids=["E8-starfighter", "E8-speeder", "E8-armor", "E8-capital"],
)
def test_E8_installing_a_purchased_weapon_costs_price_plus_fee_plus_9_skill_points(scale, fee):
    cost = rc_weapon_install(scale, ruleset=UPG, purchased_price=1_000)
    assert (cost.credits, cost.skill_points) == (1_000 + fee, 9)


@pytest.mark.parametrize(
    ("method", "skill_points", "credits"),
    [("fee", 0, 1_000 + 6_000), ("skill_points", 9, 1_000)],
    ids=["E37-fee", "E37-skill-points"],
)
def test_E37_with_fee_or_sp_the_owner_pays_either_the_fee_or_9_skill_points(
    method, skill_points, credits
):
    ruleset = RuleSet(rc_weapon_install="fee_or_sp")
    cost = rc_weapon_install("starfighter", purchased_price=1_000, method=method, ruleset=ruleset)
    assert (cost.skill_points, cost.credits) == (skill_points, credits)


def test_E37_without_a_choice_both_options_are_offered():
    ruleset = RuleSet(rc_weapon_install="fee_or_sp")
    cost = rc_weapon_install("starfighter", purchased_price=1_000, ruleset=ruleset)
    assert cost.options == ((0, 7_000), (9, 1_000))


def test_E9_pips_carry_into_dice_when_equipment_improves():
    steps = rc_improvement("3D", "3D", "4D", ruleset=UPG)
    assert [s.after for s in steps] == ["3D+1", "3D+2", "4D"]
    assert DieCode.parse("1D+2") + DieCode.parse("2D+1") == DieCode(4)


@pytest.mark.parametrize(
    ("additive", "skill_points"),
    [(False, 1), (True, 4)],
    ids=["E10-standalone-0D", "E10-additive-0D"],
)
def test_E10_improving_a_0d_code_costs_1_point_per_pip_plus_3_if_additive(additive, skill_points):
    assert rc_pip_cost("0D", additive) == skill_points
    assert rc_pip_cost("0D+2", additive) == skill_points


@pytest.mark.parametrize(
    ("ordinal", "difficulty"),
    [
        (1, VERY_EASY),
        (2, EASY),
        (3, MODERATE),
        (4, DIFFICULT),
        (5, VERY_DIFFICULT),
        (9, VERY_DIFFICULT),
    ],
)
def test_technology_difficulty_grows_with_each_pip_then_stays_very_difficult(ordinal, difficulty):
    assert rc_tech_difficulty(ordinal) == difficulty


@pytest.mark.parametrize(
    ("scale", "days", "rate"),
    [
        ("character", 1, 10),
        ("speeder", 3, 100),
        ("walker", 3, 500),
        ("starfighter", 7, 500),
        ("capital", 35, 1_000_000),
        ("death_star", 70, 1_000_000_000),
    ],
)
def test_rc_time_and_credits_follow_the_scale_table(scale, days, rate):
    assert rc_time_per_pip(scale, ruleset=UPG) == days * DAY
    assert rc_credits(1, scale) == rate


def test_a_week_follows_the_campaigns_week_length():
    assert rc_time_per_pip("starfighter", ruleset=HOUSE) == 5 * DAY


@pytest.mark.parametrize("scale", ["capital", "death_star"])
def test_npc_labour_does_not_double_capital_and_death_star_costs(scale):
    assert rc_credits(1, scale, npc=True) == rc_credits(1, scale)


def test_npc_labour_doubles_credits_at_smaller_scales():
    assert rc_credits(5, "character", npc=True) == 100


def test_dexterity_enhancement_may_not_exceed_the_armor_penalty():
    with pytest.raises(EquipmentError, match="only cancel"):
        rc_armor_improvement("1D", "1D", "1D+1", ruleset=UPG, target_enhancement="0D+2")


def test_armor_penalty_is_one_dexterity_pip_per_armor_pip():
    assert armor_dexterity_penalty("1D", "1D+2") == DieCode(0, -2)
    assert armor_dexterity_penalty("1D", "1D+2", "0D+1") == DieCode(0, -1)


def test_armor_can_keep_its_dexterity_penalty():
    steps = rc_armor_improvement("1D", "1D", "1D+2", ruleset=UPG, target_enhancement="0D")
    assert total(steps, "skill_points") == 8


def test_buying_only_dexterity_enhancement_on_improved_armor():
    steps = rc_armor_improvement("1D", "1D+2", "1D+2", ruleset=UPG, enhancement="0D+1")
    assert [(s.before, s.after) for s in steps] == [("0D+1", "0D+2")]


def test_armor_already_at_its_code_has_nothing_to_improve():
    with pytest.raises(EquipmentError, match="nothing to improve"):
        rc_armor_improvement("1D", "1D", "1D", ruleset=UPG)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("4D", "3D", "4D"), "below its original"),
        (("4D", "4D", "4D"), "not an improvement"),
    ],
)
def test_rc_improvement_refuses_nonsense(args, message):
    with pytest.raises(EquipmentError, match=message):
        rc_improvement(*args, ruleset=UPG)


def test_rc_pip_cost_refuses_negative_codes():
    with pytest.raises(EquipmentError, match="never negative"):
        rc_pip_cost("-1D")


def test_pips_of_improvement_count_from_one():
    with pytest.raises(EquipmentError, match="from 1"):
        rc_tech_difficulty(0)


def test_unknown_scales_are_refused():
    with pytest.raises(EquipmentError, match="unknown scale"):
        rc_time_per_pip("moon", ruleset=UPG)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("x2", Fraction(2)),
        ("X4", Fraction(4)),
        ("x1/2", Fraction(1, 2)),
        ("x½", Fraction(1, 2)),
        ("x.5", Fraction(1, 2)),
        (0.5, Fraction(1, 2)),
        (3, Fraction(3)),
    ],
)
def test_hyperdrive_multipliers_parse_from_common_spellings(text, value):
    assert parse_hyperdrive(text) == value


@pytest.mark.parametrize("text", ["x5", "fast", "x1/0"])
def test_hyperdrive_multipliers_off_the_chain_are_refused(text):
    with pytest.raises(EquipmentError, match="hyperdrive"):
        parse_hyperdrive(text)


def test_a_hyperdrive_improves_by_lowering_its_multiplier():
    with pytest.raises(EquipmentError, match="lowering"):
        rc_hyperdrive_improvement("x1", "x2", ruleset=UPG)


def test_walker_weapon_installation_needs_a_gm_fee():
    with pytest.raises(EquipmentError, match="GM sets one"):
        rc_weapon_install("walker", ruleset=UPG, purchased_price=500)
    assert (
        rc_weapon_install("walker", ruleset=UPG, purchased_price=500, gm_fee=2_000).credits == 2_500
    )


def test_weapon_installation_refuses_a_negative_price_and_an_unknown_method():
    with pytest.raises(EquipmentError, match="negative"):
        rc_weapon_install("speeder", ruleset=UPG, purchased_price=-1)
    with pytest.raises(EquipmentError, match="fee"):
        rc_weapon_install(
            "speeder",
            purchased_price=1,
            method="barter",  # type: ignore[arg-type]
            ruleset=RuleSet(rc_weapon_install="fee_or_sp"),
        )


@given(
    start=st.integers(min_value=0, max_value=30),
    pips=st.integers(min_value=1, max_value=12),
    additive=st.booleans(),
)
def test_rc_skill_points_sum_the_number_before_the_d_of_each_pip(start, pips, additive):
    steps = rc_improvement(
        DieCode.from_pips(start),
        DieCode.from_pips(start),
        DieCode.from_pips(start + pips),
        ruleset=UPG,
        additive=additive,
    )
    expected = sum(max(1, p // 3) + 3 * additive for p in range(start, start + pips))
    assert total(steps, "skill_points") == expected
    assert [s.ordinal for s in steps] == list(range(1, pips + 1))


# --- availability -------------------------------------------------------------------------
def test_E17_availability_p_costs_a_5_percent_fee_ranging_1_to_15_percent():
    fee = availability_fee("P", 1_000)
    assert (fee.standard, fee.low, fee.high, fee.background_check) == (50, 10, 150, False)


def test_E18_availability_r_costs_a_10_percent_licence_and_a_background_check():
    fee = availability_fee("r", 1_000)
    assert (fee.standard, fee.low, fee.high, fee.background_check) == (100, 50, 1_000, True)


@pytest.mark.parametrize(
    ("renown", "difficulty"),
    [("unknown", DIFFICULT), ("infamous", MODERATE), ("famous", EASY)],
    ids=["E18-unknown", "E18-infamous", "E18-famous"],
)
def test_E18_licence_background_check_gets_easier_with_fame(renown, difficulty):
    assert license_check_difficulty(renown) == difficulty


def test_unknown_availability_codes_and_renown_are_refused():
    with pytest.raises(EquipmentError, match="only P and R"):
        availability_fee("X", 100)
    with pytest.raises(EquipmentError, match="negative"):
        availability_fee("P", -1)
    with pytest.raises(EquipmentError, match="renown"):
        license_check_difficulty("legendary")  # type: ignore[arg-type]


def test_house_black_market_prices_run_two_to_five_times_list():
    assert black_market_price_range(450) == (900, 2_250)
    with pytest.raises(EquipmentError, match="negative"):
        black_market_price_range(-5)


# =============================================================================================
# [UPG] percentage improvement
# =============================================================================================
def test_E19_maneuverability_1d_to_1d2_on_a_100000_credit_craft():
    steps = upg_improvement("maneuverability", "1D", "1D", "1D+2", ruleset=UPG, base_value=100_000)
    assert [(s.after, s.difficulty, s.credits) for s in steps] == [
        ("1D+1", EASY, 5_000),
        ("1D+2", MODERATE, 10_000),
    ]
    assert total(steps, "credits") == 15_000
    assert all(s.minutes == MONTH for s in steps)


@pytest.mark.parametrize(
    ("multiplier", "credits"), [(2, 30_000), (3, 45_000)], ids=["E19-hired-x2", "E19-hired-x3"]
)
def test_E19_hired_work_doubles_or_triples_the_cost(multiplier, credits):
    steps = upg_improvement(
        "maneuverability",
        "1D",
        "1D",
        "1D+2",
        ruleset=UPG,
        base_value=100_000,
        hired_multiplier=multiplier,
    )
    assert total(steps, "credits") == credits


def test_E36_cumulative_reading_charges_the_difference_between_rows():
    ruleset = RuleSet(upg_improve_cost="cumulative_total")
    steps = upg_improvement(
        "maneuverability", "1D", "1D", "1D+2", base_value=100_000, ruleset=ruleset
    )
    assert [s.credits for s in steps] == [5_000, 5_000]
    assert total(steps, "credits") == 10_000


def test_E20_maneuverability_already_at_plus_1d2_cannot_rise_further():
    with pytest.raises(EquipmentError, match=r"more than \+1D\+2 above stock"):
        upg_improvement("maneuverability", "1D", "2D+2", "3D", ruleset=UPG, base_value=100_000)


def test_E21_hyperdrive_x2_to_x1_is_very_difficult_at_25_percent():
    (step,) = upg_improvement("hyperdrive", "x2", "x2", "x1", ruleset=UPG, base_value=100_000)
    assert (step.difficulty, step.percent, step.credits) == (VERY_DIFFICULT, 25, 25_000)


def test_E22_vehicle_move_50_to_70_takes_four_steps_totalling_70_percent():
    steps = upg_improvement("move", 50, 50, 70, ruleset=UPG, base_value=100)
    assert [(s.after, s.difficulty, s.percent) for s in steps] == [
        ("55", MODERATE, 10),
        ("60", DIFFICULT, 15),
        ("65", VERY_DIFFICULT, 20),
        ("70", HEROIC, 25),
    ]
    assert total(steps, "percent") == 70


def test_E22_move_beyond_four_moves_is_refused():
    with pytest.raises(EquipmentError, match=r"more than \+20"):
        upg_improvement("move", 50, 70, 75, ruleset=UPG, base_value=100)


@pytest.mark.parametrize(
    ("stat", "stock", "target", "percent"),
    [
        ("maneuverability", "1D", "2D+2", 75),
        ("move", 50, 70, 70),
        ("space", 5, 9, 70),
        ("shields", "1D", "2D+2", 155),
        ("damage", "4D", "5D+2", 155),
        ("fire_control", "0D", "1D+2", 155),
        ("range", 0, 25, 75),
    ],
)
def test_a_full_upgrade_costs_the_sum_of_its_rows(stat, stock, target, percent):
    steps = upg_improvement(stat, stock, stock, target, ruleset=UPG, base_value=100)
    assert total(steps, "percent") == percent


def test_a_full_hyperdrive_upgrade_x4_to_xhalf_costs_85_percent():
    steps = upg_improvement("hyperdrive", "x4", "x4", "x1/2", ruleset=UPG, base_value=100)
    assert [s.difficulty for s in steps] == [EASY, MODERATE, VERY_DIFFICULT, HEROIC]
    assert total(steps, "percent") == 85


def test_space_rises_one_point_per_step_to_plus_4():
    steps = upg_improvement("space", 5, 6, 8, ruleset=UPG, base_value=1_000)
    assert [(s.ordinal, s.difficulty, s.credits) for s in steps] == [
        (2, DIFFICULT, 150),
        (3, VERY_DIFFICULT, 200),
    ]


@pytest.mark.parametrize(
    ("stat", "stock", "current", "target", "message"),
    [
        ("warp", "1D", "1D", "1D+1", "cannot improve 'warp'"),
        ("maneuverability", "2D", "1D", "2D+1", "below its stock value"),
        ("move", 50, 55, 55, "not an improvement"),
        ("move", 50, 50, 53, "steps of 5"),
        ("range", 0, 0, "lots", "whole number"),
    ],
)
def test_upg_improvement_refuses_what_the_tables_do_not_cover(
    stat, stock, current, target, message
):
    with pytest.raises(EquipmentError, match=message):
        upg_improvement(stat, stock, current, target, ruleset=UPG, base_value=100)


def test_upg_range_accepts_percent_signs():
    (step,) = upg_improvement("range", "0%", "0%", "5%", ruleset=UPG, base_value=100)
    assert (step.difficulty, step.credits) == (EASY, 5)


def test_upg_costs_need_a_sensible_value_and_multiplier():
    with pytest.raises(EquipmentError, match="negative"):
        upg_improvement("move", 50, 50, 55, ruleset=UPG, base_value=-1)
    with pytest.raises(EquipmentError, match="double or triple"):
        upg_improvement("move", 50, 50, 55, ruleset=UPG, base_value=1, hired_multiplier=4)


@given(
    stock=st.integers(min_value=0, max_value=15),
    done=st.integers(min_value=0, max_value=4),
    more=st.integers(min_value=1, max_value=8),
)
def test_upg_dice_stats_never_pass_plus_1d2(stock, done, more):
    current, target = stock + done, stock + done + more
    codes = [DieCode.from_pips(p) for p in (stock, current, target)]
    if target - stock > 5:
        with pytest.raises(EquipmentError, match="more than"):
            upg_improvement("shields", *codes, ruleset=UPG, base_value=1_000)
    else:
        steps = upg_improvement("shields", *codes, ruleset=UPG, base_value=1_000)
        assert len(steps) == more
        assert steps[-1].ordinal == target - stock


# =============================================================================================
# Repairs
# =============================================================================================
def test_E23_repairing_minus_2d_maneuverability_on_a_100000_credit_ship():
    need = repair_requirement("maneuverability", 2, ruleset=UPG, base_value=100_000)
    assert (need.difficulty, need.credits) == (MODERATE, 15_000)


@pytest.mark.parametrize(
    ("multiplier", "credits"), [(2, 30_000), (3, 45_000)], ids=["E23-hired-x2", "E23-hired-x3"]
)
def test_E23_hired_repairs_cost_double_or_triple(multiplier, credits):
    need = repair_requirement(
        "maneuverability", 2, ruleset=UPG, base_value=100_000, hired_multiplier=multiplier
    )
    assert need.credits == credits


@pytest.mark.parametrize(
    ("ruleset", "difficulty", "percent"),
    [(RuleSet(), DIFFICULT, 20), (HOUSE, VERY_DIFFICULT, 30)],
    ids=["E24-upg", "E24-house"],
)
def test_E24_repairing_minus_4d_maneuverability_upg_vs_house(ruleset, difficulty, percent):
    need = repair_requirement("maneuverability", 4, base_value=100, ruleset=ruleset)
    assert (need.difficulty, need.percent) == (difficulty, percent)


def test_house_maneuverability_beyond_minus_4d_uses_the_minus_4d_row():
    need = repair_requirement("maneuverability", 6, base_value=100, ruleset=HOUSE)
    assert (need.difficulty, need.percent) == (VERY_DIFFICULT, 30)


def test_E25_repairing_minus_4d_shields_is_very_difficult_at_10_percent():
    need = repair_requirement("shields", 4, ruleset=UPG, base_value=100)
    assert (need.difficulty, need.percent) == (VERY_DIFFICULT, 10)


def test_E26_heavily_damaged_laser_cannon_costs_25_percent_of_the_weapon():
    need = repair_requirement("weapon", "heavy", ruleset=UPG, base_value=2_000)
    assert (need.difficulty, need.credits) == (MODERATE, 500)


def test_E27_replacing_a_destroyed_drive_is_difficult_at_35_percent():
    need = repair_requirement("drive", ruleset=UPG, base_value=100_000)
    assert (need.difficulty, need.percent, need.credits) == (DIFFICULT, 35, 35_000)


@pytest.mark.parametrize(
    ("policy", "percent"), [("drive_rule", 35), ("upg_table", 100)], ids=["drive-rule", "001"]
)
def test_five_lost_moves_means_replacing_the_drive(policy, percent):
    need = repair_requirement(
        "moves", 5, base_value=100, ruleset=RuleSet(lost_moves_5_repair=policy)
    )
    assert (need.difficulty, need.percent) == (DIFFICULT, percent)


@pytest.mark.parametrize(
    ("system", "damage", "difficulty", "percent"),
    [
        ("maneuverability", 1, EASY, 10),
        ("maneuverability", 3, DIFFICULT, 20),
        ("moves", 1, EASY, 10),
        ("moves", 4, VERY_DIFFICULT, 25),
        ("shields", 1, EASY, 5),
        ("shields", 3, DIFFICULT, 5),
        ("shields", 6, VERY_DIFFICULT, 10),
        ("weapon", "light", EASY, 15),
        ("weapon", "Severe", VERY_DIFFICULT, 35),
    ],
)
def test_repair_table_rows(system, damage, difficulty, percent):
    need = repair_requirement(system, damage, ruleset=UPG, base_value=1_000)
    assert (need.difficulty, need.percent) == (difficulty, percent)
    assert need.first_roll_minutes == 15


def test_hyperdrive_repairs_are_moderate_after_an_hour_at_a_gm_set_cost():
    need = repair_requirement("hyperdrive", ruleset=UPG)
    assert (need.difficulty, need.first_roll_minutes, need.credits) == (MODERATE, 60, None)


@pytest.mark.parametrize(
    ("system", "damage", "message"),
    [
        ("weapon", "destroyed", "may not be repaired"),
        ("weapon", "scratched", "lightly"),
        ("shields", 0, "nothing to repair"),
        ("flux", 1, "unknown system"),
        ("shields", 1, "of the original value"),
    ],
)
def test_repairs_the_rules_refuse(system, damage, message):
    with pytest.raises(EquipmentError, match=message):
        repair_requirement(system, damage, ruleset=UPG)


def test_E29_rushing_a_one_hour_repair_halves_time_and_skill():
    assert work_pace(60, "6D", "rushed", ruleset=UPG) == (30, DieCode(3))


def test_preparing_doubles_the_time_for_plus_1d():
    assert work_pace(60, "6D", "prepared", ruleset=UPG) == (120, DieCode(7))
    assert work_pace(60, "6D", ruleset=UPG) == (60, DieCode(6))


def test_the_rules_companion_forbids_preparing_for_repairs():
    with pytest.raises(EquipmentError, match="cannot be prepared"):
        work_pace(60, "6D", "prepared", ruleset=RC)


def test_work_pace_refuses_unknown_paces_and_negative_time():
    with pytest.raises(EquipmentError, match="pace"):
        work_pace(60, "6D", "lazy", ruleset=UPG)  # type: ignore[arg-type]
    with pytest.raises(EquipmentError, match="negative"):
        work_pace(-1, "6D", ruleset=UPG)


# =============================================================================================
# Combined work on repairs (answered by rules.combat; a project takes the bonus as ``bonus``)
# =============================================================================================
def test_E30_danik_commanding_eight_troops_gives_2d2_and_the_trooper_rolls_6d3():
    bonus = combined_action_bonus(8, ruleset=UPG, command_margin=27 - 12)
    assert bonus == DieCode(2, 2)
    pool = DieCode.parse("4D+1").pool_add(bonus)
    assert pool == DieCode(6, 3)
    assert pool.normalized() == DieCode(7)


@pytest.mark.parametrize(
    ("command_total", "bonus"),
    [(11, DieCode(1, 2)), (10, DieCode(0, 2)), (9, DieCode())],
    ids=["E31-11", "E31-10", "E31-9"],
)
def test_E31_a_failed_command_roll_takes_1d_per_point_missed(command_total, bonus):
    assert combined_action_bonus(8, ruleset=UPG, command_margin=command_total - 12) == bonus


def test_E32_splitting_2d2_gives_7d_to_hit_and_6d2_damage():
    to_hit, damage = split_combined_bonus("2D+2", "1D")
    assert DieCode(6).pool_add(to_hit) == DieCode(7)
    assert DieCode(5).pool_add(damage) == DieCode(6, 2)


@pytest.mark.parametrize(
    ("actions", "code"), [(1, DieCode(3, 6)), (2, DieCode(2, 4))], ids=["E33-one", "E33-two"]
)
def test_E33_three_stormtroopers_combine_one_shot_at_3d6_or_two_at_2d4(actions, code):
    assert rc_combined_code("3D", ["3D", "3D"], actions=actions) == code


def test_E34_under_time_pressure_at_most_three_3d_technicians_combine_for_3d6():
    limit = max_combining("3D", ruleset=RC)
    assert limit == 3
    assert rc_combined_code("3D", ["3D", "3D"], limit=limit) == DieCode(3, 6)


def test_E34_a_coordinator_who_also_works_drops_to_2d_and_can_combine_only_two():
    assert max_combining("3D", actions=2, ruleset=RC) == 2


def test_E30_a_repair_project_rolls_the_best_skill_plus_the_combined_bonus():
    request = ProjectRequest(
        kind="repair",
        stat="hyperdrive",
        skill=DieCode(4, 1),
        bonus=combined_action_bonus(8, ruleset=UPG, command_margin=15),
        difficulty_numbers=((MODERATE, 15),),
    )
    # 6D+3: five normal dice 1 + Wild Die 1 (a complication, counted) + 3 = 9
    done = advance_project(
        validate_project(request, ruleset=UPG),
        Fraction(60, DAY),
        rng=FixedDice([1] * 6),
        ruleset=UPG,
    )
    assert done.log[0].total == 9


# =============================================================================================
# [HOUSE] severe wounds and equipment
# =============================================================================================
def test_E35_a_minus_3d_area_wound_makes_every_item_roll_body():
    assert gear_must_roll(3, area_effect=True, ruleset=HOUSE)


@pytest.mark.parametrize(
    ("wound", "area", "extends", "ruleset", "expected"),
    [
        (2, True, False, HOUSE, False),
        (3, False, False, HOUSE, False),
        (3, False, True, HOUSE, True),
        (3, True, False, RuleSet(), False),
    ],
    ids=["lesser-wound", "not-area", "gm-extends", "not-house"],
)
def test_gear_rolls_only_for_severe_area_wounds_in_house_games(
    wound, area, extends, ruleset, expected
):
    assert gear_must_roll(wound, area_effect=area, gm_extends=extends, ruleset=ruleset) is expected


def test_E35_a_weapon_resists_with_2d_and_up_to_two_character_point_dice():
    # 2D: normal 4, Wild Die 3 = 7; two CP dice 5 and 2 -> 14 against damage 14: survives
    check = gear_survives(14, cp=2, rng=FixedDice([4, 3, 5, 2]), ruleset=HOUSE)
    assert check.roll.total == 14
    assert check.survived


def test_gear_beaten_by_the_damage_is_destroyed():
    check = gear_survives(15, "3D", weapon=False, rng=FixedDice([1, 2, 3]), ruleset=HOUSE)
    assert check.roll.total == 6
    assert not check.survived


def test_gear_without_a_body_code_and_too_many_character_points_are_refused():
    with pytest.raises(EquipmentError, match="no Body code"):
        gear_survives(10, weapon=False, ruleset=HOUSE, rng=FixedDice([]))
    with pytest.raises(EquipmentError, match="0 to 2"):
        gear_survives(10, cp=3, ruleset=HOUSE, rng=FixedDice([]))


def test_a_weapon_without_a_printed_body_uses_2d_even_outside_house_games():
    check = gear_survives(5, ruleset=UPG, rng=FixedDice([2, 2]))
    assert check.roll.code == DieCode(2)
    assert not check.survived


# =============================================================================================
# Improvement projects
# =============================================================================================
def maneuver_request(**changes):
    base = ProjectRequest(
        kind="improve",
        stat="maneuverability",
        stock="1D",
        current="1D",
        target="1D+2",
        item_value=100_000,
        skill=DieCode(5),
        difficulty_numbers=((EASY, 10), (MODERATE, 15)),
    )
    return dataclasses.replace(base, **changes)


def test_E19_project_prices_every_step_up_front():
    state = validate_project(maneuver_request(), ruleset=UPG)
    assert state.system == "upg"
    assert state.credits_planned == 15_000
    assert [s.difficulty for s in state.steps] == [EASY, MODERATE]
    assert state.value == "1D"
    assert state.current_step == state.steps[0]


def test_E19_project_rolls_once_a_month_and_completes():
    state = validate_project(maneuver_request(), ruleset=UPG)
    # month 1: 5D rolls 3,3,3,3 + Wild 4 = 16 vs Easy 10; month 2: 16 vs Moderate 15
    after = advance_project(
        state, 2 * DAYS_PER_MONTH, rng=FixedDice([3, 3, 3, 3, 4] * 2), ruleset=UPG
    )
    assert after.status == "completed"
    assert after.value == "1D+2"
    assert after.current_step is None
    assert after.credits_spent == 15_000
    assert [(e.at_minutes, e.success) for e in after.log] == [(MONTH, True), (2 * MONTH, True)]


def test_E19_project_waits_a_full_month_before_the_first_roll():
    state = validate_project(maneuver_request(), ruleset=UPG)
    after = advance_project(state, DAYS_PER_MONTH - 1, rng=FixedDice([]), ruleset=UPG)
    assert after.log == ()
    assert after.minutes_worked == (DAYS_PER_MONTH - 1) * DAY
    assert after.elapsed_minutes == (DAYS_PER_MONTH - 1) * DAY


def test_project_first_roll_can_be_immediate():
    state = validate_project(maneuver_request(first_roll_immediate=True), ruleset=UPG)
    after = advance_project(state, 0, rng=FixedDice([3, 3, 3, 3, 4]), ruleset=UPG)
    assert after.value == "1D+1"


def test_a_failed_upg_roll_retries_a_month_later_and_charges_again():
    state = validate_project(maneuver_request(target="1D+1"), ruleset=UPG)
    failed = advance_project(state, DAYS_PER_MONTH, rng=FixedDice([1, 1, 1, 1, 2]), ruleset=UPG)
    assert (failed.status, failed.attempt, failed.credits_spent) == ("in_progress", 1, 5_000)
    retried = advance_project(failed, DAYS_PER_MONTH, rng=FixedDice([3, 3, 3, 3, 4]), ruleset=UPG)
    assert (retried.status, retried.credits_spent) == ("completed", 10_000)


def test_credits_charged_on_success_only_when_the_campaign_says_so():
    state = validate_project(
        maneuver_request(target="1D+1", charge_credits="on_success"), ruleset=UPG
    )
    failed = advance_project(state, DAYS_PER_MONTH, rng=FixedDice([1, 1, 1, 1, 2]), ruleset=UPG)
    assert failed.credits_spent == 0
    done = advance_project(failed, DAYS_PER_MONTH, rng=FixedDice([3, 3, 3, 3, 4]), ruleset=UPG)
    assert done.credits_spent == 5_000
    assert done.log[-1].credits == 5_000


def test_E21_a_failed_hyperdrive_modification_waits_for_the_gm():
    request = ProjectRequest(
        kind="improve", stat="hyperdrive", current="x2", target="x1", item_value=100_000
    )
    state = validate_project(request, ruleset=UPG)
    assert "damage it permanently" in state.warnings[0]
    failed = advance_project(
        state, DAYS_PER_MONTH, rng=FixedDice([1, 1, 1, 2, 6, 6, 6, 6, 6, 6, 6]), ruleset=UPG
    )
    assert failed.status == "awaiting_gm"
    assert "hyperdrive" in failed.log[-1].note
    assert advance_project(failed, 100, rng=FixedDice([]), ruleset=UPG) is failed
    assert resume_project(failed).status == "in_progress"


def test_E28_a_repair_gets_its_first_roll_after_15_minutes():
    request = ProjectRequest(
        kind="repair",
        stat="maneuverability",
        damage=2,
        item_value=100_000,
        skill=DieCode(4),
        difficulty_numbers=((MODERATE, 12),),
    )
    state = validate_project(request, ruleset=UPG)
    early = advance_project(state, Fraction(14, DAY), rng=FixedDice([]), ruleset=UPG)
    assert early.log == ()
    done = advance_project(early, Fraction(1, DAY), rng=FixedDice([3, 3, 3, 4]), ruleset=UPG)
    assert done.log[0].at_minutes == 15
    assert done.status == "completed"
    assert done.credits_spent == 15_000


def test_repair_retry_interval_can_be_set_by_the_gm():
    request = ProjectRequest(
        kind="repair",
        stat="shields",
        damage=1,
        item_value=1_000,
        skill=DieCode(2),
        retry_minutes=60,
        difficulty_numbers=((EASY, 10),),
    )
    state = validate_project(request, ruleset=UPG)
    failed = advance_project(state, Fraction(15, DAY), rng=FixedDice([1, 2]), ruleset=UPG)
    assert failed.attempt == 1
    waiting = advance_project(failed, Fraction(59, DAY), rng=FixedDice([]), ruleset=UPG)
    assert waiting.attempt == 1
    done = advance_project(waiting, Fraction(1, DAY), rng=FixedDice([5, 5]), ruleset=UPG)
    assert done.status == "completed"
    assert done.log[-1].at_minutes == 15 + 60


def test_rushed_repairs_roll_half_the_skill_in_half_the_time():
    request = ProjectRequest(
        kind="repair",
        stat="hyperdrive",
        skill=DieCode(6),
        pace="rushed",
        difficulty_numbers=((MODERATE, 11),),
    )
    state = validate_project(request, ruleset=UPG)
    assert state.steps[0].minutes == 30
    # 3D: 4 + 4 + Wild 3 = 11 vs Moderate 11
    done = advance_project(state, Fraction(30, DAY), rng=FixedDice([4, 4, 3]), ruleset=UPG)
    assert done.status == "completed"
    assert done.log[0].total == 11


def test_prepared_repairs_take_twice_as_long_for_plus_1d():
    request = ProjectRequest(
        kind="repair",
        stat="shields",
        damage=1,
        item_value=100,
        skill=DieCode(1),
        pace="prepared",
        difficulty_numbers=((EASY, 6),),
    )
    state = validate_project(request, ruleset=UPG)
    assert state.steps[0].minutes == 30
    done = advance_project(state, Fraction(30, DAY), rng=FixedDice([3, 3]), ruleset=UPG)
    assert done.log[0].total == 6


def test_preparing_a_repair_is_refused_in_a_rules_companion_campaign():
    request = ProjectRequest(kind="repair", stat="hyperdrive", pace="prepared")
    with pytest.raises(EquipmentError, match="cannot be prepared"):
        validate_project(request, ruleset=RC)


def test_unpinned_difficulties_are_rolled_with_the_random_difficulty_dice():
    request = ProjectRequest(kind="repair", stat="hyperdrive", skill=DieCode(2))
    state = validate_project(request, ruleset=UPG)
    # skill 2D: 5 + Wild 5 = 10; Moderate rolls 3D: 2 + 2 + 2 = 6
    done = advance_project(state, Fraction(60, DAY), rng=FixedDice([5, 5, 2, 2, 2]), ruleset=UPG)
    assert (done.log[0].total, done.log[0].number, done.status) == (10, 6, "completed")


def test_E1_rc_customization_project_pays_skill_points_and_rolls_technology():
    request = ProjectRequest(
        kind="improve",
        stat="damage",
        stock="4D",
        current="5D",
        target="5D+1",
        skill=DieCode(4),
        difficulty_numbers=((DIFFICULT, 16),),
    )
    state = validate_project(request, ruleset=RC)
    assert state.system == "rc"
    assert (state.skill_points_planned, state.credits_planned) == (5, 50)
    # RC has no Wild Die: 4D rolls 4,4,4,4 = 16 vs Difficult 16
    done = advance_project(state, 1, rng=FixedDice([4, 4, 4, 4]), ruleset=RC)
    assert (done.status, done.value, done.skill_points_spent) == ("completed", "5D+1", 5)


def test_a_failed_rc_technology_roll_wastes_the_skill_points():
    request = ProjectRequest(
        kind="improve",
        stat="damage",
        stock="4D",
        current="5D",
        target="5D+1",
        skill=DieCode(2),
        difficulty_numbers=((DIFFICULT, 16),),
    )
    state = validate_project(request, ruleset=RC)
    failed = advance_project(state, 1, rng=FixedDice([1, 1]), ruleset=RC)
    assert (failed.status, failed.skill_points_spent, failed.value) == ("in_progress", 5, "5D")
    assert "wasted" in failed.log[0].note
    again = advance_project(failed, 1, rng=FixedDice([6, 6, 6, 6]), ruleset=RC)
    assert again.skill_points_spent == 10


def test_rc_projects_warn_that_the_5th_pip_is_very_difficult():
    request = ProjectRequest(
        kind="improve", stat="damage", stock="4D", current="5D+1", target="5D+2"
    )
    state = validate_project(request, ruleset=RC)
    assert state.warnings == ("the 5th and later pips need Very Difficult technology rolls",)


def test_rc_projects_cover_hyperdrives_and_armor_dexterity():
    hyper = ProjectRequest(
        kind="improve", stat="hyperdrive", current="x2", target="x1", scale="starfighter"
    )
    assert validate_project(hyper, ruleset=RC).skill_points_planned == 20
    dex = ProjectRequest(
        kind="improve", stat="armor_dexterity", stock="-2", current="0D", target="0D+2"
    )
    assert validate_project(dex, ruleset=RC).skill_points_planned == 8


def test_rc_armor_dexterity_project_refuses_more_than_the_penalty():
    dex = ProjectRequest(
        kind="improve", stat="armor_dexterity", stock="-1", current="0D", target="0D+2"
    )
    with pytest.raises(EquipmentError, match="only cancel"):
        validate_project(dex, ruleset=RC)
    no_penalty = dataclasses.replace(dex, stock=None)
    with pytest.raises(EquipmentError, match="Dexterity penalty"):
        validate_project(no_penalty, ruleset=RC)


def test_hired_rc_work_doubles_the_credits():
    request = ProjectRequest(
        kind="improve", stat="damage", current="4D", target="4D+1", labour="hired"
    )
    assert validate_project(request, ruleset=RC).credits_planned == 80


def test_upg_projects_need_the_items_value():
    with pytest.raises(EquipmentError, match="original value"):
        validate_project(maneuver_request(item_value=None), ruleset=UPG)


def test_upg_projects_refuse_the_cap_up_front():
    with pytest.raises(EquipmentError, match="more than"):
        validate_project(maneuver_request(current="2D+2", target="3D"), ruleset=UPG)


def test_player_rolled_projects_wait_for_the_roll():
    state = validate_project(maneuver_request(roll_mode="player", target="1D+1"), ruleset=UPG)
    waiting = advance_project(state, DAYS_PER_MONTH, rng=FixedDice([]), ruleset=UPG)
    assert (waiting.status, waiting.credits_spent) == ("awaiting_roll", 5_000)
    done = resolve_roll(waiting, total=12, difficulty_number=10)
    assert (done.status, done.value, done.credits_spent) == ("completed", "1D+1", 5_000)
    with pytest.raises(EquipmentError, match="not waiting for a roll"):
        resolve_roll(done, 12, 10)


def test_add_weapon_project_uses_the_rc_rule_and_a_first_pip_technology_roll():
    request = ProjectRequest(
        kind="add_weapon", stat="weapon", scale="starfighter", purchased_price=3_000
    )
    state = validate_project(request, ruleset=RC)
    assert (state.credits_planned, state.skill_points_planned) == (9_000, 9)
    assert state.steps[0].difficulty == VERY_EASY
    assert state.warnings == ()
    assert validate_project(request, ruleset=UPG).warnings == (
        "adding weapons is a Rules Companion rule",
    )


def test_add_weapon_with_fee_or_sp_needs_a_choice():
    ruleset = RC.replace(rc_weapon_install="fee_or_sp")
    request = ProjectRequest(kind="add_weapon", stat="weapon", scale="speeder", purchased_price=100)
    with pytest.raises(EquipmentError, match="choose how"):
        validate_project(request, ruleset=ruleset)
    chosen = dataclasses.replace(request, install_method="skill_points")
    assert validate_project(chosen, ruleset=ruleset).credits_planned == 100


def test_E15_droid_skill_project_charges_1000_credits_for_a_new_skill():
    request = ProjectRequest(
        kind="droid_skill", stat="astrogation", current=None, target="2D+2", attribute=DieCode(2)
    )
    state = validate_project(request, ruleset=RC)
    assert [s.after for s in state.steps] == ["2D+1", "2D+2"]
    assert (state.skill_points_planned, state.credits_planned) == (4, 1_000)
    done = advance_project(state, 0, rng=FixedDice([]), ruleset=RC)
    assert (done.status, done.value, done.rolls_made) == ("completed", "2D+2", 0)


def test_droid_skill_projects_take_the_gms_training_time():
    request = ProjectRequest(
        kind="droid_skill",
        stat="astrogation",
        current="3D",
        target="3D+1",
        attribute=DieCode(2),
        step_minutes=3 * DAY,
    )
    state = validate_project(request, ruleset=UPG)
    assert state.system == "gm"
    assert advance_project(state, 2, rng=FixedDice([]), ruleset=UPG).status == "in_progress"
    assert advance_project(state, 3, rng=FixedDice([]), ruleset=UPG).status == "completed"


def test_droid_skill_projects_need_the_attribute():
    request = ProjectRequest(kind="droid_skill", stat="astrogation", target="2D+1")
    with pytest.raises(EquipmentError, match="attribute"):
        validate_project(request, ruleset=UPG)


def test_step_minutes_overrides_the_time_of_other_projects():
    state = validate_project(maneuver_request(step_minutes=DAY), ruleset=UPG)
    assert [s.minutes for s in state.steps] == [DAY, DAY]


def test_five_lost_moves_repair_warns_that_the_vehicle_is_destroyed():
    request = ProjectRequest(kind="repair", stat="moves", damage=5, item_value=10_000)
    state = validate_project(request, ruleset=UPG)
    assert state.steps[0].credits == 3_500
    assert state.warnings == (
        "drive destroyed: it must be replaced",
        "at -5 Moves the vehicle is destroyed: rebuild only with the GM's leave",
    )


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"kind": "teleport"}, "unknown project kind"),
        ({"labour": "hired", "hired_multiplier": 5}, "double or triple"),
        ({"pace": "rushed"}, "only repairs"),
        ({"difficulty_numbers": (("Tricky", 12),)}, "not a difficulty level"),
        ({"difficulty_numbers": ((EASY, 12),)}, "Easy difficulty number is 6-10"),
    ],
)
def test_validate_project_refuses_bad_requests(changes, message):
    with pytest.raises(EquipmentError, match=message):
        validate_project(maneuver_request(**changes), ruleset=UPG)


def test_advancing_is_pure_for_the_same_state_days_and_seed():
    state = validate_project(maneuver_request(difficulty_numbers=()), ruleset=UPG)
    first = advance_project(state, 3 * DAYS_PER_MONTH, rng=1234, ruleset=UPG)
    assert advance_project(state, 3 * DAYS_PER_MONTH, rng=1234, ruleset=UPG) == first
    assert state.log == ()


def test_time_cannot_run_backwards_and_abandoned_projects_stay_put():
    state = validate_project(maneuver_request(), ruleset=UPG)
    with pytest.raises(EquipmentError, match="forward"):
        advance_project(state, -1, rng=FixedDice([]), ruleset=UPG)
    stopped = abandon_project(state)
    assert stopped.status == "abandoned"
    assert advance_project(stopped, 100, rng=FixedDice([]), ruleset=UPG) is stopped


def test_completed_projects_cannot_be_abandoned_and_only_gm_waits_resume():
    state = validate_project(
        maneuver_request(first_roll_immediate=True, target="1D+1"), ruleset=UPG
    )
    done = advance_project(state, 0, rng=FixedDice([3, 3, 3, 3, 4]), ruleset=UPG)
    with pytest.raises(EquipmentError, match="cannot be abandoned"):
        abandon_project(done)
    with pytest.raises(EquipmentError, match="not waiting for the GM"):
        resume_project(done)
