"""Movement, chases and falling: worked examples of movement.md §10 (ids M-n) and edge cases."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import DieCode, effective_pool
from rules.difficulty import DifficultyLevel
from rules.errors import RulesError
from rules.movement import (
    CHARACTER_FAILURE_ROWS,
    FailureRow,
    FatigueFailure,
    MoveEffect,
    MovementError,
    RamResult,
    Speed,
    actions_this_round,
    chase_gap,
    chase_status,
    collision_damage,
    effective_move,
    falling_damage,
    fatigue_difficulty,
    fatigue_failure,
    fatigue_interval_minutes,
    fatigue_rolls,
    full_distance,
    house_knockback,
    maneuver_difficulty,
    maneuver_modifier_range,
    movement_check,
    movement_failure,
    partial_move_range,
    ram_result,
    rc_collision_row,
    rc_crawl_distance,
    rc_declare_movement,
    rc_distance_per_action,
    rc_loss_of_control,
    rc_maneuver_reserved,
    rc_max_speed_actions,
    rc_may_ram,
    rc_movement_difficulty,
    rc_movement_pool,
    rc_partial_range,
    rc_ram,
    rc_unopposed_maneuver,
    rc_walking_distance,
    speed_cap,
    speed_info,
    speed_kmh,
    speed_options,
    speeds,
)
from rules.ruleset import RuleSet

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")

VE, E, M, D, VD, H = (DifficultyLevel(i) for i in range(6))
H10, H20 = DifficultyLevel(6), DifficultyLevel(7)


# --- Speeds and distances -------------------------------------------------------------------
def test_speed_sets_follow_the_campaign():
    assert speeds(ruleset=UPG) == (Speed.CAUTIOUS, Speed.CRUISING, Speed.HIGH, Speed.ALL_OUT)
    assert speeds(ruleset=HOUSE) == (
        Speed.CAUTIOUS,
        Speed.NORMAL,
        Speed.FAST,
        Speed.HIGH,
        Speed.ALL_OUT,
    )


@pytest.mark.parametrize(
    ("example", "speed", "full", "window"),
    [
        ("M-1", "cautious", 5, (0, 5)),
        ("M-3", "cruising", 10, (5, 10)),
        ("M-4", "high", 20, (10, 20)),
        ("M-5", "all_out", 40, (20, 40)),
    ],
)
def test_speed_distances_for_move_10(example, speed, full, window):
    assert full_distance(10, speed, ruleset=UPG) == full
    assert partial_move_range(10, speed, ruleset=UPG) == window


@pytest.mark.parametrize(
    ("speed", "window"),
    [("cautious", (0, 5.5)), ("cruising", (5.5, 11)), ("high", (11, 22)), ("all_out", (22, 44))],
)
def test_m9_odd_move_keeps_half_metres(speed, window):
    assert partial_move_range(11, speed, ruleset=UPG) == window


@pytest.mark.parametrize(
    ("speed", "full", "window"),
    [
        ("cautious", 5, (0, 5)),
        ("normal", 10, (5, 10)),
        ("fast", 20, (10, 20)),
        ("high", 30, (15, 30)),
        ("all-out", 40, (20, 40)),
    ],
)
def test_m21_house_five_speeds(speed, full, window):
    assert full_distance(10, speed, ruleset=HOUSE) == full
    assert partial_move_range(10, speed, ruleset=HOUSE) == window


def test_m10_kmh_of_human_and_vehicle_speeds():
    assert speed_kmh(10, "cruising", ruleset=UPG) == Fraction(36, 5)  # 7.2
    assert speed_kmh(10, "all_out", ruleset=UPG) == Fraction(144, 5)  # 28.8
    assert full_distance(35, "all_out", ruleset=UPG) == 140
    assert round(speed_kmh(35, "all_out", ruleset=UPG)) == 101  # "≈ 100 kmh"


def test_speed_names_accept_table_spellings():
    assert speed_info("All-Out", ruleset=UPG).speed is Speed.ALL_OUT
    assert speed_info("high speed", ruleset=UPG).speed is Speed.HIGH


def test_speed_missing_from_the_campaign_is_refused():
    with pytest.raises(MovementError, match="not a speed in this campaign"):
        speed_info("cruising", ruleset=HOUSE)
    with pytest.raises(MovementError, match="not a speed"):
        speed_info("fast", ruleset=UPG)


@pytest.mark.parametrize("move", [-1, "10", True])
def test_bad_move_is_refused(move):
    with pytest.raises(MovementError, match="Move"):
        full_distance(move, "cruising", ruleset=UPG)


# --- Terrain × speed matrix -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "speed", "terrain", "roll", "level", "action"),
    [
        ("M-1", "cautious", VE, False, None, False),
        ("M-1", "cautious", E, False, None, False),
        ("M-1", "cautious", M, False, None, False),
        ("M-2", "cautious", VD, True, D, True),
        ("M-3", "cruising", M, False, None, True),
        ("M-3", "cruising", D, True, D, True),
        ("M-3", "cruising", H, True, H, True),
        ("M-4", "high", E, True, E, True),
        ("M-4", "high", D, True, VD, True),
        ("M-5", "all_out", E, True, M, True),
        ("M-5", "all_out", VE, True, E, True),
        ("M-5", "all_out", M, True, D, True),
        ("M-5", "all_out", D, True, H, True),
        ("M-5", "all_out", VD, True, H10, True),
        ("M-5", "all_out", H, True, H20, True),
        ("M-6", "cautious", H, True, VD, True),
        ("M-6", "cruising", H, True, H, True),
        ("M-6", "high", H, True, H10, True),
        ("M-6", "high", VD, True, H, True),
    ],
)
def test_terrain_speed_matrix(example, speed, terrain, roll, level, action):
    check = movement_check(speed, terrain, ruleset=UPG)
    assert (check.roll_needed, check.difficulty, check.counts_as_action) == (
        roll,
        level,
        action,
    )


def test_difficulty_names_read_like_the_rules():
    assert movement_check("all_out", VD, ruleset=UPG).difficulty_name == "Heroic+10"
    assert movement_check("high", D, ruleset=UPG).difficulty_name == "Very Difficult"
    assert movement_check("cruising", E, ruleset=UPG).difficulty_name is None
    assert movement_check("all_out", H, ruleset=UPG).difficulty == H20
    assert movement_check("cruising", "Very Difficult", ruleset=UPG).difficulty_name == (
        "Very Difficult"
    )


def test_m12_landspeeder_on_a_choppy_lake():
    assert movement_check("cruising", E, ruleset=UPG, mover="vehicle").roll_needed is False
    high = movement_check("high", E, ruleset=UPG, mover="vehicle")
    assert (high.roll_needed, high.difficulty) == (True, E)


def test_m12_vehicles_skip_the_easy_terrain_roll_when_the_flag_is_off():
    rules = RuleSet(vehicle_rolls_high_speed_easy_terrain=False)
    assert movement_check("high", E, ruleset=rules, mover="vehicle").roll_needed is False
    assert movement_check("high", E, ruleset=rules, mover="character").roll_needed is True


@pytest.mark.parametrize(
    ("option", "terrain", "level"),
    [
        ("interpolate", E, M),
        ("interpolate", D, VD),
        ("as_fast", E, E),
        ("as_fast", D, VD),
        ("as_all_out", E, M),
        ("as_all_out", D, H),
    ],
)
def test_m21_house_high_speed_terrain(option, terrain, level):
    rules = HOUSE.replace(house_high_terrain=option)
    assert movement_check("high", terrain, ruleset=rules).difficulty == level


def test_house_fast_is_rolled_like_upg_high_speed():
    assert movement_check("fast", D, ruleset=HOUSE).difficulty == VD


def test_house_cautious_in_hard_terrain_can_be_free():
    free = HOUSE.replace(house_cautious_hard_terrain="free")
    assert movement_check("cautious", VD, ruleset=HOUSE).counts_as_action is True
    check = movement_check("cautious", VD, ruleset=free)
    assert (check.roll_needed, check.difficulty, check.counts_as_action) == (True, D, False)


def test_complex_maneuver_calls_for_a_roll_where_speed_alone_does_not():
    check = movement_check("cautious", M, ruleset=UPG, complex_maneuver=True)
    assert (check.roll_needed, check.difficulty, check.counts_as_action) == (True, M, False)
    assert movement_check("high", D, ruleset=UPG, complex_maneuver=True).difficulty == VD


@pytest.mark.parametrize("terrain", [-1, 6, "rough"])
def test_terrain_outside_the_ladder_is_refused(terrain):
    with pytest.raises(MovementError, match="terrain"):
        movement_check("cruising", terrain, ruleset=UPG)


def test_unknown_mover_is_refused():
    with pytest.raises(MovementError, match="mover"):
        movement_check("cruising", E, ruleset=UPG, mover="droid army")


# --- Actions and the multiple action penalty (M-7) -------------------------------------------
@pytest.mark.parametrize(
    ("case", "speed", "terrain", "shots", "actions", "running", "blaster"),
    [
        ("a", "cruising", E, 1, 2, None, "4D"),
        ("b", "cautious", E, 1, 1, None, "5D"),
        ("c", "cautious", D, 1, 2, "3D+1", "4D"),
        ("d", "high", M, 2, 3, "2D+1", "3D"),
        ("e", "all_out", E, 0, 1, "4D+1", None),
    ],
)
def test_m7_movement_counts_toward_the_multiple_action_penalty(
    case, speed, terrain, shots, actions, running, blaster
):
    n = actions_this_round(speed, terrain, shots, ruleset=UPG)
    assert n == actions
    if running is not None:
        assert movement_check(speed, terrain, ruleset=UPG).roll_needed
        assert effective_pool("4D+1", actions=n, ruleset=RuleSet()) == DieCode.parse(running)
    if blaster is not None:
        assert effective_pool("5D", actions=n, ruleset=RuleSet()) == DieCode.parse(blaster)


def test_m5_all_out_with_a_dodge_is_refused():
    with pytest.raises(MovementError, match="all-out"):
        actions_this_round("all_out", E, 1, ruleset=UPG)


def test_negative_other_actions_are_refused():
    with pytest.raises(MovementError, match="other actions"):
        actions_this_round("cruising", E, -1, ruleset=UPG)


# --- Complex maneuvers (M-11) ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("complexity", "modifier", "difficulty"),
    [
        ("somewhat_difficult", 8, 21),
        ("fairly_easy", 3, 16),
        ("very_difficult", 12, 25),
        ("almost_impossible", 18, 31),
    ],
)
def test_m11_complex_maneuvers_add_to_the_difficulty(complexity, modifier, difficulty):
    assert maneuver_difficulty(13, complexity, modifier) == difficulty


def test_maneuver_modifier_outside_its_band_is_refused():
    assert maneuver_modifier_range("almost_impossible") == (16, None)
    with pytest.raises(MovementError, match=r"\+1 to \+5"):
        maneuver_difficulty(13, "fairly_easy", 8)
    with pytest.raises(MovementError, match=r"\+16 or more"):
        maneuver_difficulty(13, "almost_impossible", 10)
    with pytest.raises(MovementError, match="not a maneuver complexity"):
        maneuver_modifier_range("insane")


# --- Acceleration (M-8, M-50, M-51) ----------------------------------------------------------
def test_m8_character_changes_speed_by_two_levels():
    assert speed_options("cautious", ruleset=UPG).fastest is Speed.HIGH
    options = speed_options("all_out", ruleset=UPG)
    assert options.slowest is Speed.CRUISING
    assert options.may_stop is False


def test_m8_vehicle_changes_speed_by_one_level():
    assert speed_options("cautious", ruleset=UPG, mover="vehicle").fastest is Speed.CRUISING


def test_m8_character_from_a_stop_reaches_all_out_in_round_two():
    assert speed_options(None, ruleset=UPG).fastest is Speed.CRUISING
    assert speed_options("cruising", ruleset=UPG).fastest is Speed.ALL_OUT


def test_m8_vehicle_from_a_stop_needs_four_rounds():
    reached, previous = [], None
    for _ in range(4):
        previous = speed_options(previous, ruleset=UPG, mover="vehicle").fastest
        reached.append(previous)
    assert reached == [Speed.CAUTIOUS, Speed.CRUISING, Speed.HIGH, Speed.ALL_OUT]


def test_m51_without_standstill_level_a_stopped_mover_counts_as_cautious():
    rules = RuleSet(standstill_is_level=False)
    assert speed_options(None, ruleset=rules).fastest is Speed.HIGH
    assert speed_options("high", ruleset=rules).fastest is Speed.ALL_OUT
    assert speed_options(None, ruleset=rules, mover="vehicle").fastest is Speed.CRUISING
    assert speed_options("all_out", ruleset=rules).may_stop is True


def test_m51_with_standstill_level_stopping_from_cruising_is_allowed():
    assert speed_options("cruising", ruleset=UPG).may_stop is True
    assert speed_options("high", ruleset=UPG, mover="vehicle").may_stop is False


def test_m50_house_character_from_a_stop():
    assert speed_options(None, ruleset=HOUSE).fastest is Speed.NORMAL
    assert speed_options("normal", ruleset=HOUSE).fastest is Speed.HIGH
    assert speed_options("high", ruleset=HOUSE).fastest is Speed.ALL_OUT


def test_lost_moves_cap_overrides_deceleration():
    options = speed_options("all_out", ruleset=UPG, lost_moves=3)
    assert options.speeds == (Speed.CAUTIOUS,)
    assert options.may_stop is True


def test_lost_moves_cap_the_reachable_speeds():
    assert speed_options("high", ruleset=UPG, lost_moves=1).fastest is Speed.HIGH


# --- Lost Moves (M-22, M-49, M-50) -----------------------------------------------------------
@pytest.mark.parametrize(
    ("lost", "cap"),
    [(0, Speed.ALL_OUT), (1, Speed.HIGH), (2, Speed.CRUISING), (1 + 2, Speed.CAUTIOUS)],
)
def test_m22_lost_moves_cap_a_creature(lost, cap):
    assert speed_cap(lost, ruleset=UPG, mover="creature") is cap


def test_m22_m49_character_beyond_three_lost_moves_keeps_cautious():
    assert speed_cap(4, ruleset=UPG) is Speed.CAUTIOUS


@pytest.mark.parametrize("lost", [4, 5])
def test_m49_vehicle_with_four_or_more_lost_moves_cannot_move(lost):
    assert speed_cap(lost, ruleset=UPG, mover="vehicle") is None
    options = speed_options("cruising", ruleset=UPG, mover="vehicle", lost_moves=lost)
    assert options.speeds == ()
    assert options.may_stop is True


@pytest.mark.parametrize(
    ("lost", "option", "cap", "metres"),
    [
        (1, "normal", Speed.HIGH, 30),
        (2, "normal", Speed.NORMAL, 10),
        (2, "fast", Speed.FAST, 20),
        (3, "normal", Speed.CAUTIOUS, 5),
    ],
)
def test_m50_house_lost_moves(lost, option, cap, metres):
    rules = HOUSE.replace(house_lost_moves_cruising=option)
    assert speed_cap(lost, ruleset=rules) is cap
    assert full_distance(10, cap, ruleset=rules) == metres


@pytest.mark.parametrize("lost", [-1, 1.5, True])
def test_bad_lost_moves_are_refused(lost):
    with pytest.raises(MovementError, match="Lost Moves"):
        speed_cap(lost, ruleset=UPG)


# --- House Move effects (M-23, M-52) ---------------------------------------------------------
@pytest.mark.parametrize(
    ("effect", "move"),
    [
        ("off_balance", 8),
        ("hamstring", 5),
        ("temporarily_lame", 3),
        ("revived_by_first_aid", 2.5),
        ("raised_by_medpac", 5),
    ],
)
def test_m23_house_injuries_change_move(effect, move):
    assert effective_move(10, [effect], ruleset=HOUSE) == move


@pytest.mark.parametrize(
    ("effects", "order", "move"),
    [
        ((MoveEffect.HAMSTRING, MoveEffect.OFF_BALANCE), "halve_then_subtract", 3),
        ((MoveEffect.HAMSTRING, MoveEffect.OFF_BALANCE), "subtract_then_halve", 4),
        ((MoveEffect.HAMSTRING, MoveEffect.TEMPORARILY_LAME), "halve_then_subtract", 0),
        ((MoveEffect.HAMSTRING, MoveEffect.TEMPORARILY_LAME), "subtract_then_halve", 1.5),
    ],
)
def test_m52_combined_move_effects(effects, order, move):
    assert effective_move(10, effects, ruleset=HOUSE.replace(move_mod_order=order)) == move


def test_unknown_move_effect_is_refused():
    with pytest.raises(MovementError, match="not a Move effect"):
        effective_move(10, ["sprained ankle"], ruleset=UPG)


@pytest.mark.parametrize(
    ("wound", "metres"),
    [
        ("Wounded", (1, 1)),
        ("incapacitated", (1, 3)),
        ("mortally wounded", (1, 3)),
        ("stunned", (0, 0)),
    ],
)
def test_m23_house_knockback(wound, metres):
    assert house_knockback(wound) == metres


def test_unknown_wound_level_for_knockback_is_refused():
    with pytest.raises(MovementError, match="not a wound level"):
        house_knockback("bruised")


# --- Fatigue (M-14, M-15) --------------------------------------------------------------------
def test_m14_all_out_stamina_rolls_every_minute():
    assert fatigue_rolls("all_out", 7, ruleset=UPG) == (VE, E, M, D, VD, H, H10)


def test_m14_failed_minute_three_roll_rests_six_minutes():
    assert fatigue_failure(4, 3, "all_out", ruleset=UPG) == FatigueFailure(rest_minutes=6)


def test_m15_high_speed_stamina_rolls_every_ten_minutes():
    assert fatigue_rolls("high", 60, ruleset=UPG) == (VE, E, M, D, VD, H)
    assert fatigue_rolls("high", 59, ruleset=UPG) == (VE, E, M, D, VD)


def test_m15_cruising_for_an_hour_needs_no_rolls():
    assert fatigue_rolls("cruising", 60, ruleset=UPG) == ()
    assert fatigue_interval_minutes("cautious", ruleset=UPG) is None


def test_vehicle_fatigue_uses_longer_intervals():
    assert fatigue_interval_minutes("all_out", ruleset=UPG, mover="vehicle") == 10
    assert fatigue_interval_minutes("high", ruleset=UPG, mover="vehicle") == 60


def test_house_fast_and_high_both_tire_like_high_speed():
    assert fatigue_interval_minutes("fast", ruleset=HOUSE) == 10
    assert fatigue_interval_minutes("high", ruleset=HOUSE) == 10
    assert fatigue_interval_minutes("normal", ruleset=HOUSE) is None


def test_vehicle_failing_by_eleven_breaks_down():
    result = fatigue_failure(11, 20, "all_out", ruleset=UPG, mover="vehicle")
    assert result == FatigueFailure(None, True, M, 60)
    assert fatigue_failure(10, 20, "all_out", ruleset=UPG, mover="vehicle").rest_minutes == 40


def test_high_speed_fatigue_failure_can_be_left_to_the_gm():
    assert fatigue_failure(2, 30, "high", ruleset=UPG).rest_minutes == 60
    gm = RuleSet(high_speed_fatigue_failure="gm")
    assert fatigue_failure(2, 30, "high", ruleset=gm).rest_minutes is None


def test_bad_fatigue_inputs_are_refused():
    with pytest.raises(MovementError, match="counted from 1"):
        fatigue_difficulty(0)
    with pytest.raises(MovementError, match="minutes"):
        fatigue_rolls("all_out", -1, ruleset=UPG)
    with pytest.raises(MovementError, match="misses by 1"):
        fatigue_failure(0, 3, "all_out", ruleset=UPG)
    with pytest.raises(MovementError, match="negative"):
        fatigue_failure(1, -3, "all_out", ruleset=UPG)
    with pytest.raises(MovementError, match="never call"):
        fatigue_failure(1, 3, "cruising", ruleset=UPG)


# --- Movement failures (M-16, M-17, M-18, M-53) ----------------------------------------------
@pytest.mark.parametrize("margin", [7, 8, 10])
def test_m16_fall_at_high_speed(margin):
    result = movement_failure(margin, "high", 20, ruleset=UPG)
    assert result.name == "Fall"
    assert result.distance == 10
    assert result.stance == "kneeling"
    assert result.lose_rest_of_round and not result.lose_next_round
    assert result.penalty_dice_next_round == 2
    assert result.damage == DieCode()
    assert result.in_sources


@pytest.mark.parametrize("margin", [11, 12, 15])
def test_m17_minor_tumble_at_all_out_deals_1d(margin):
    result = movement_failure(margin, "all_out", 40, ruleset=UPG)
    assert result.name == "Minor Tumble"
    assert result.distance == 10
    assert result.lose_rest_of_round and result.lose_next_round
    assert result.damage == DieCode(1)


def test_m17_minor_tumble_at_high_speed_deals_no_damage():
    result = movement_failure(12, "high", 20, ruleset=UPG)
    assert (result.distance, result.damage) == (5, DieCode())


@pytest.mark.parametrize(("margin", "name"), [(6, "Stumble"), (16, "Major Tumble")])
def test_m18_unprinted_rows_come_from_the_gm_table(margin, name):
    result = movement_failure(margin, "high", 20, ruleset=UPG)
    assert result.name == name
    assert result.in_sources is False


def test_m18_placeholder_major_tumble_deals_collision_damage():
    result = movement_failure(16, "high", 20, ruleset=UPG)
    assert result.collision and result.damage == DieCode(3)


@pytest.mark.parametrize(("rows", "damage"), [("11_15", DieCode()), ("7_15", DieCode(1))])
def test_m53_fall_at_all_out_damage_depends_on_flag(rows, damage):
    result = movement_failure(8, "all_out", 40, ruleset=RuleSet(tumble_damage_rows=rows))
    assert (result.name, result.distance, result.penalty_dice_next_round) == ("Fall", 20, 2)
    assert result.damage == damage


def test_vehicle_failure_uses_the_vehicle_placeholder_table():
    result = movement_failure(12, "all_out", 140, ruleset=UPG, mover="vehicle")
    assert (result.name, result.collision, result.damage) == ("Collision", True, DieCode(10))
    assert movement_failure(3, "cruising", 35, ruleset=UPG, mover="vehicle").distance == Fraction(
        35, 2
    )


def test_gm_table_replaces_the_default_rows():
    table = (FailureRow(1, 20, "Trip", Fraction(0), "prone", True, False, 1, "none", False),)
    result = movement_failure(5, "cruising", 10, ruleset=UPG, table=table)
    assert (result.name, result.distance, result.penalty_dice_next_round) == ("Trip", 0, 1)
    with pytest.raises(MovementError, match="no row"):
        movement_failure(21, "cruising", 10, ruleset=UPG, table=table)


def test_movement_failure_needs_a_miss():
    with pytest.raises(MovementError, match="misses by 1"):
        movement_failure(0, "cruising", 10, ruleset=UPG)


def test_printed_failure_rows_are_7_to_15():
    printed = [(r.low, r.high) for r in CHARACTER_FAILURE_ROWS if r.in_sources]
    assert printed == [(7, 10), (11, 15)]


# --- Collisions (M-19, M-20, M-41) -----------------------------------------------------------
@pytest.mark.parametrize(
    ("speed", "character", "vehicle"),
    [("cautious", 1, 2), ("cruising", 2, 4), ("high", 3, 6), ("all_out", 4, 10)],
)
def test_m19_upg_collision_damage(speed, character, vehicle):
    assert collision_damage(speed, ruleset=UPG) == DieCode(character)
    assert collision_damage(speed, ruleset=UPG, mover="vehicle") == DieCode(vehicle)


@pytest.mark.parametrize(
    ("speed", "character", "vehicle"),
    [("cautious", 1, 2), ("normal", 2, 4), ("fast", 3, 6), ("high", 4, 8), ("all_out", 6, 10)],
)
def test_m20_house_collision_damage(speed, character, vehicle):
    assert collision_damage(speed, ruleset=HOUSE) == DieCode(character)
    assert collision_damage(speed, ruleset=HOUSE, mover="vehicle") == DieCode(vehicle)


@pytest.mark.parametrize(
    ("actions", "damage"), [(1, 2), (2, 3), (3, 3), (4, 5), (7, 5), (8, 6), (10, 6)]
)
def test_m41_rc_collision_by_speed_actions(actions, damage):
    assert collision_damage(actions, ruleset=RC) == DieCode(damage)


def test_m41_rc_speeder_three_actions_band():
    row = rc_collision_row(3, "speeder")
    assert (row.damage, row.kmh_low, row.kmh_high) == (DieCode(10), 361, 540)
    assert 3 * rc_distance_per_action("speeder") * Fraction(72, 100) == 540


def test_rc_collision_chart_edges():
    assert rc_collision_row(0).damage == DieCode(2)  # walking uses the first row (MV-20)
    assert rc_collision_row(12).damage == DieCode(6)
    assert rc_collision_row(4, "walker").damage == DieCode(9)
    assert rc_collision_row(2, "starfighter").damage == DieCode(14)
    with pytest.raises(MovementError, match="speed actions"):
        rc_collision_row(-1)
    with pytest.raises(MovementError, match="number of speed actions"):
        collision_damage("high", ruleset=RC)


# --- Ramming (M-47) --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "result"),
    [
        (23, RamResult("rammed")),
        (22, RamResult("rammed")),
        (15, RamResult("ram_fails")),
        (9, RamResult("movement_failure", 3)),
    ],
)
def test_m47_vehicle_ramming(total, result):
    assert ram_result(12, total) == result


# --- Falling (M-25, M-26, M-27) --------------------------------------------------------------
@pytest.mark.parametrize(
    ("metres", "dice"),
    [
        (3, 2),
        (6, 2),
        (7, 3),
        (12, 3),
        (13, 4),
        (18, 4),
        (19, 5),
        (30, 5),
        (31, 7),
        (50, 7),
        (51, 9),
        (200, 9),
        (2, 0),
        (6.5, 2),
        (Fraction(25, 2), 3),
    ],
)
def test_m25_falling_damage_by_distance(metres, dice):
    assert falling_damage(metres, ruleset=UPG) == DieCode(dice)


def test_m26_falling_speeder_takes_the_same_dice_at_its_own_scale():
    assert falling_damage(15, ruleset=UPG) == DieCode(4)


@pytest.mark.parametrize(
    ("metres", "gravity", "dice"),
    [(10, "high", 5), (10, "low", 0), (40, "high", 11), (40, "low", 4), (2, "high", 0)],
)
def test_m27_gravity_shifts_falling_damage(metres, gravity, dice):
    assert falling_damage(metres, ruleset=UPG, gravity=gravity) == DieCode(dice)


def test_gravity_shift_levels_option():
    assert falling_damage(10, ruleset=RuleSet(gravity_shift_levels=1), gravity="high") == DieCode(4)
    with pytest.raises(RulesError, match="0 or more"):
        falling_damage(10, ruleset=RuleSet(gravity_shift_levels=-1), gravity="high")


def test_bad_falls_are_refused():
    with pytest.raises(MovementError, match="negative"):
        falling_damage(-3, ruleset=UPG)
    with pytest.raises(MovementError, match="gravity"):
        falling_damage(10, ruleset=UPG, gravity="zero")


# --- Chases (M-48) ---------------------------------------------------------------------------
def test_m48_foot_chase_two_rounds():
    check = movement_check("all_out", E, ruleset=UPG)
    assert check.difficulty == M
    difficulty = 12
    gap = Fraction(20)
    # Round 1: quarry 14 and pursuer 13 both make the GM's 12 and run 40 m.
    gap = chase_gap(
        gap, full_distance(10, "all_out", ruleset=UPG), full_distance(10, "all_out", ruleset=UPG)
    )
    assert gap == 20
    # Round 2: quarry 12 succeeds; pursuer 5 misses by 7 and falls halfway.
    fall = movement_failure(difficulty - 5, "all_out", 40, ruleset=UPG)
    gap = chase_gap(gap, 40, fall.distance)
    assert (fall.name, fall.distance, gap) == ("Fall", 20, 40)
    assert fall.lose_rest_of_round and fall.penalty_dice_next_round == 2
    assert chase_status(gap) == "chasing"


@pytest.mark.parametrize(
    ("gap", "escape", "status"),
    [(0, None, "caught"), (-3, 50, "caught"), (60, 50, "escaped"), (50, 50, "chasing")],
)
def test_chase_status(gap, escape, status):
    assert chase_status(gap, escape_distance=escape) == status


# --- Rules Companion speed actions (M-28 … M-42) ---------------------------------------------
@pytest.mark.parametrize(("code", "actions"), [("2D+1", 3), ("3D+2", 4), ("4D", 4), ("2D+4", 4)])
def test_m28_m29_speed_actions_round_pips_up(code, actions):
    assert rc_max_speed_actions(code) == actions


def test_negative_speed_code_is_refused():
    with pytest.raises(MovementError, match="negative"):
        rc_max_speed_actions("-1D")


def test_m29_erisson_runs_across_the_field():
    declared = rc_declare_movement("3D+2", 3)
    assert rc_movement_pool("5D+2", declared.movement_actions, ruleset=UPG) == DieCode.parse("3D+2")
    assert rc_movement_difficulty(3) == 3
    assert declared.distance_actions * rc_distance_per_action() == 30


def test_m30_speeder_bike_four_speed_actions():
    declared = rc_declare_movement("4D", 4)
    pool = rc_movement_pool("4D+2", declared.movement_actions, ruleset=UPG, speed_code="4D")
    assert pool == DieCode.parse("5D+2")
    assert declared.distance_actions * rc_distance_per_action("repulsorlift") == 1000


def test_m31_partial_movement():
    assert rc_partial_range(2) == (11, 20)
    assert rc_partial_range(1, "walker") == (10, 100)
    assert rc_partial_range(1, "repulsorlift") == (100, 250)


@pytest.mark.parametrize(
    ("mover", "walk", "action"),
    [
        ("character", 5, 10),
        ("walker", 50, 100),
        ("speeder", 125, 250),
        ("starfighter", 5000, 10_000),
    ],
)
def test_m32_walking_and_speed_action_distances(mover, walk, action):
    assert rc_walking_distance(mover) == walk
    assert rc_distance_per_action(mover) == action


def test_m33_erisson_overspeeds_on_foot():
    declared = rc_declare_movement("4D", 4, overspeed=1)
    assert declared.movement_actions == 5
    assert rc_movement_pool("5D+2", declared.movement_actions, ruleset=UPG) == DieCode.parse("1D+2")
    assert rc_movement_difficulty(3, overspeed=1) == 6
    assert declared.distance_actions * rc_distance_per_action() == 50


def test_m34_landspeeder_loses_control_in_the_second_action():
    declared = rc_declare_movement("2D", 2, overspeed=1)
    actions = declared.movement_actions + 1  # the full evade
    pool = rc_movement_pool("4D+2", actions, ruleset=UPG, speed_code="2D")
    assert pool == DieCode.parse("3D+2")
    difficulty = rc_movement_difficulty(11, overspeed=1)
    assert difficulty == 14
    lost = rc_loss_of_control(difficulty - 11, declared.distance_actions, 250, ruleset=UPG)
    assert (lost.actions_not_taken, lost.lost_in_action) == (1, 2)
    assert lost.distance == (250, 500)


@pytest.mark.parametrize(
    ("margin", "point", "k", "action", "metres"),
    [
        (7, "as_example", 2, 2, (10, 20)),
        (7, "as_text", 2, 3, (20, 20)),
        (2, "as_example", 0, 4, (30, 40)),
        (2, "as_text", 0, 5, (40, 40)),
        (12, "as_example", 4, 0, (0, 0)),
        (14, "as_text", 4, 1, (0, 0)),
    ],
)
def test_m35_point_of_lost_control(margin, point, k, action, metres):
    lost = rc_loss_of_control(margin, 4, 10, ruleset=RuleSet(rc_loss_of_control_point=point))
    assert (lost.actions_not_taken, lost.lost_in_action, lost.distance) == (k, action, metres)


def test_loss_of_control_needs_a_miss_and_a_movement():
    with pytest.raises(MovementError, match="misses by 1"):
        rc_loss_of_control(0, 3, ruleset=UPG)
    with pytest.raises(MovementError, match="at least one speed action"):
        rc_loss_of_control(3, 0, ruleset=UPG)


def test_m36_regaining_control_adds_five_unless_stopped_by_a_collision():
    assert rc_movement_difficulty(3, regaining_control=True) == 8
    assert rc_movement_difficulty(3, regaining_control=True, stopped_by_collision=True) == 3


@pytest.mark.parametrize(
    ("winner", "reserved"), [(11, 1), (20, 1), (21, 2), (30, 2), (31, 3), (10, 0)]
)
def test_m37_maneuver_chart_against_a_loser_of_10(winner, reserved):
    assert rc_maneuver_reserved(winner, 10) == reserved


def test_m37_reserved_actions_never_exceed_those_declared():
    assert rc_maneuver_reserved(35, 10, declared_speed_actions=2) == 2


def test_m37_unopposed_maneuver():
    assert rc_unopposed_maneuver(True) == 2
    assert rc_unopposed_maneuver(False) == 0


def test_m38_foot_chase_with_maneuvers():
    erisson = rc_declare_movement("4D", 3, maneuver=True)
    trooper = rc_declare_movement("2D", 2, maneuver=True)
    assert rc_movement_pool("5D+2", erisson.movement_actions, ruleset=UPG) == DieCode.parse("2D+2")
    assert rc_movement_pool("3D", trooper.movement_actions, ruleset=UPG) == DieCode(1)
    e_metres = erisson.distance_actions * rc_distance_per_action()
    t_metres = trooper.distance_actions * rc_distance_per_action()
    assert (e_metres, t_metres) == (30, 20)
    assert chase_gap(0, e_metres, t_metres) == 10
    reserved = rc_maneuver_reserved(9, 4, declared_speed_actions=erisson.speed_actions)
    assert (reserved, reserved * rc_distance_per_action()) == (2, 20)


@pytest.mark.parametrize(
    ("rammer", "target", "loser", "modifier", "fails", "succeeds", "immediate", "occupants"),
    [
        (16, 15, "target", 5, "wounded", None, None, False),
        (31, 15, "target", 10, "incapacitated", "wounded", None, True),
        (46, 15, "target", 0, None, None, "mortally wounded", False),
        (15, 15, None, 0, None, None, None, False),
        (10, 25, "rammer", 10, "incapacitated", "wounded", None, True),
    ],
)
def test_m39_rc_ramming_chart(
    rammer, target, loser, modifier, fails, succeeds, immediate, occupants
):
    result = rc_ram(rammer, target)
    assert result.loser == loser
    assert result.difficulty_modifier == modifier
    assert (result.if_movement_fails, result.if_movement_succeeds) == (fails, succeeds)
    assert result.immediate == immediate
    assert result.occupants_take_collision_damage is occupants


def test_m39_rammed_vehicle_uses_vehicle_words():
    assert rc_ram(31, 15, loser_kind="vehicle").if_movement_fails == "severely damaged"
    assert rc_ram(46, 15, loser_kind="vehicle").immediate == "destroyed"
    with pytest.raises(MovementError, match="character or a vehicle"):
        rc_ram(31, 15, loser_kind="droid")


def test_m39_ram_range():
    assert rc_may_ram(9) and not rc_may_ram(10)
    assert rc_may_ram(249, "repulsorlift") and not rc_may_ram(250, "repulsorlift")


def test_m40_secondary_medium_drops_a_scale():
    assert rc_distance_per_action(secondary_medium=True) == 2
    assert 3 * rc_distance_per_action(secondary_medium=True) == 6
    assert rc_distance_per_action("starfighter", secondary_medium=True) == 250
    assert rc_partial_range(2, secondary_medium=True) == (3, 4)


def test_m42_crawling_two_metres_per_die():
    assert rc_crawl_distance(2) == 4
    with pytest.raises(MovementError, match="negative"):
        rc_crawl_distance(-1)


def test_rc_declaration_limits():
    with pytest.raises(MovementError, match="allows 3 speed actions"):
        rc_declare_movement("2D+1", 4)
    with pytest.raises(MovementError, match="before any overspeed"):
        rc_declare_movement("4D", 3, overspeed=1)
    with pytest.raises(MovementError, match="negative"):
        rc_declare_movement("4D", -1)
    with pytest.raises(MovementError, match="at least one"):
        rc_partial_range(0)
    with pytest.raises(MovementError, match="negative"):
        rc_movement_difficulty(3, overspeed=-1)
    with pytest.raises(MovementError, match="not a Rules Companion mover"):
        rc_distance_per_action("sail barge")


def test_rc_ram_declaration_counts_as_an_action():
    assert rc_declare_movement("3D", 3, ram=True).movement_actions == 4


# --- Properties ------------------------------------------------------------------------------
@given(st.integers(0, 500), st.integers(0, 500), st.sampled_from(["standard", "high", "low"]))
def test_a_longer_fall_never_hurts_less(shorter, extra, gravity):
    assert falling_damage(shorter + extra, ruleset=UPG, gravity=gravity) >= falling_damage(
        shorter, ruleset=UPG, gravity=gravity
    )


@given(st.fractions(min_value=0, max_value=100), st.sampled_from(["2e", "house"]))
def test_faster_speeds_cover_more_ground(move, preset):
    rules = RuleSet.preset(preset)
    distances = [full_distance(move, s, ruleset=rules) for s in speeds(ruleset=rules)]
    assert distances == sorted(distances)
    for speed in speeds(ruleset=rules):
        low, high = partial_move_range(move, speed, ruleset=rules)
        assert 0 <= low <= high == full_distance(move, speed, ruleset=rules)
