"""Vehicles and starships: the worked examples of vehicles-and-starships.md (V-n) and the rules
around them."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import movement
from rules.craft import (
    SWR_LONG_SHOT_OFFSETS,
    CraftDamage,
    CraftError,
    CraftState,
    CraftStats,
    CraftWeapon,
    DamageEffect,
    RangeBands,
    apply_damage,
    apply_damage_effect,
    astrogation_difficulty,
    astrogation_minutes,
    combat_evasion_difficulty,
    craft_damage_result,
    damage_effect,
    dead_controls,
    effective_code,
    escalate,
    full_evasion,
    hull_resistance_code,
    hyperspace_travel_time,
    load_craft,
    lost_moves_status,
    missile_difficulty,
    missile_difficulty_dice,
    rc_astrogation_difficulty,
    rc_tractor_breaks_free,
    rc_tractor_escape_code,
    rc_weapon_ranges,
    shield_number,
    shielded_hit,
    star_warriors_speed,
    tractor_beam,
    vehicle_kmh,
    weapon_class,
)
from rules.dice import DieCode, FixedDice
from rules.ruleset import RuleSet
from rules.scale import Scale
from rules.tasks import UncertaintyResult

D = DieCode.parse
UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")

STARSHIP = CraftStats(
    "Test freighter",
    "starship",
    Scale.STARFIGHTER,
    maneuverability=D("2D"),
    hull=D("4D"),
    shields=D("2D"),
)
SPEEDER = CraftStats(
    "Test speeder", "vehicle", Scale.SPEEDER, maneuverability=D("1D+2"), hull=D("2D")
)


# --- Stat blocks and data --------------------------------------------------------------------
def test_v20_standard_y_wing_has_shields_3d2_and_hull_2d2():
    y_wing = next(c for c in load_craft("starships") if c.name == "Y-wing (standard)")
    assert (y_wing.shields, y_wing.hull) == (D("3D+2"), D("2D+2"))


def test_tie_rc_has_no_hyperdrive_and_no_shields():
    tie = next(c for c in load_craft("starships") if c.name == "TIE/rc starfighter")
    assert tie.hyperdrive is None and tie.shields is None
    assert tie.atmosphere_maneuverability == D("1D+2")
    assert tie.weapons[0].damage == D("2D+2")


def test_reference_craft_survive_a_round_trip():
    for file in ("starships", "vehicles"):
        for craft in load_craft(file):
            assert CraftStats.from_dict(craft.to_dict()) == craft


def test_reference_files_use_the_same_field_names():
    starship_fields = {tuple(c.to_dict()) for c in load_craft("starships")}
    vehicle_fields = {tuple(c.to_dict()) for c in load_craft("vehicles")}
    assert starship_fields == vehicle_fields and len(starship_fields) == 1


def test_unknown_reference_file_is_refused():
    with pytest.raises(CraftError):
        load_craft("walkers")  # type: ignore[arg-type]


def test_unknown_craft_field_is_refused():
    with pytest.raises(CraftError, match="unknown craft field"):
        CraftStats.from_dict({"name": "X", "kind": "starship", "scale": "starfighter", "warp": 9})


@pytest.mark.parametrize(
    "kwargs",
    [{"name": " "}, {"kind": "boat"}, {"move": -1}, {"hyperdrive": 0}],
)
def test_invalid_stat_blocks_are_refused(kwargs):
    values = {"name": "X", "kind": "vehicle", "scale": Scale.SPEEDER, **kwargs}
    with pytest.raises(CraftError):
        CraftStats(**values)


@pytest.mark.parametrize("kwargs", [{"name": ""}, {"name": "Gun", "count": 0}])
def test_invalid_weapons_are_refused(kwargs):
    with pytest.raises(CraftError):
        CraftWeapon(**kwargs)


def test_weapon_with_its_own_scale_round_trips():
    gun = CraftWeapon("Blaster cannon", D("1D"), D("4D+2"), kind="blaster", scale=Scale.SPEEDER)
    assert CraftWeapon.from_dict(gun.to_dict()) == gun


@pytest.mark.parametrize(
    ("metres", "band"),
    [(50, "short"), (300, "short"), (301, "medium"), (1000, "long"), (1001, None), (10, None)],
)
def test_range_bands(metres, band):
    assert rc_weapon_ranges("speeder", "light").band(metres) == band


def test_negative_distance_is_refused():
    with pytest.raises(CraftError):
        RangeBands((0, 10)).band(-1)


def test_range_bands_with_one_band_round_trip():
    torpedo = rc_weapon_ranges("starfighter", "torpedo")
    assert torpedo.band(20000) is None and torpedo.needs_review
    assert RangeBands.from_dict(torpedo.to_dict()) == torpedo


# --- Speeds and vehicle movement (answered with rules.movement) ------------------------------
@pytest.mark.parametrize(
    ("speed", "kmh"),
    [("all_out", 400), ("high", 200), ("cruising", 100), ("cautious", 50)],
    ids=["V5-all-out", "V5-high", "V5-cruising", "V5-cautious"],
)
def test_v5_kmh_listing_is_all_out_speed(speed, kmh):
    assert vehicle_kmh(400, speed, ruleset=UPG) == kmh


def test_house_kmh_follows_the_same_ratios():
    assert vehicle_kmh(400, "high", ruleset=HOUSE) == 300
    assert vehicle_kmh(400, "fast", ruleset=HOUSE) == 200
    with pytest.raises(CraftError):
        vehicle_kmh(-1, "high", ruleset=UPG)


def test_v25_all_out_body_strength_roll_failed_by_12_is_a_mechanical_failure():
    failure = movement.fatigue_failure(12, 10, "all_out", ruleset=UPG, mover="vehicle")
    assert failure.mechanical_failure


def test_v11_speeder_bike_movement_roll():
    assert movement.rc_movement_pool("4D+2", 4, ruleset=UPG, speed_code="4D") == D("5D+2")


def test_v12_on_foot_movement_roll_and_speed_actions():
    assert movement.rc_max_speed_actions("3D+2") == 4
    assert movement.rc_movement_pool("5D+2", 3, ruleset=UPG) == D("3D+2")


def test_v13_landspeeder_loses_control_in_the_second_speed_action_as_printed():
    assert movement.rc_movement_pool("4D+2", 4, ruleset=UPG, speed_code="2D") == D("3D+2")
    assert movement.rc_loss_of_control(14 - 11, 3, 250, ruleset=UPG).lost_in_action == 2


def test_v14_tie_fighter_in_atmosphere_moves_250_m_per_action():
    assert movement.rc_distance_per_action("starfighter", secondary_medium=True) == 250


def test_v15_at_at_full_move_is_at_least_10_m():
    assert movement.rc_partial_range(1, "walker")[0] == 10


def test_v16_speed_code_2d1_allows_three_speed_actions():
    assert movement.rc_max_speed_actions("2D+1") == 3


def test_v17_astrogation_with_uncertainty_dice_succeeds():
    result = UncertaintyResult(27, (4, 4, 5))
    assert result.effective_total == 14 >= 13


# --- Starship combat -------------------------------------------------------------------------
def test_v10_combat_evasion_and_shield_number():
    difficulty = combat_evasion_difficulty(6, 18)
    shields = shield_number(difficulty, 16)
    assert (difficulty, shields) == (18, 34)
    assert shielded_hit(17, difficulty, shields) == "miss"
    assert shielded_hit(18, difficulty, shields) == "shields"
    assert shielded_hit(33, difficulty, shields) == "shields"
    assert shielded_hit(34, difficulty, shields) == "hull"


def test_combat_evasion_keeps_a_higher_base_difficulty():
    assert combat_evasion_difficulty(15, 9) == 15


def test_no_shielding_roll_means_hull_only():
    assert shielded_hit(20, 10) == "hull"


def test_shield_dice_add_to_the_hull_except_against_ion_cannons():
    assert hull_resistance_code(D("4D"), D("2D"), "shields") == D("6D")
    assert hull_resistance_code(D("4D"), D("2D"), "shields", ion=True) == D("4D")
    assert hull_resistance_code(D("4D"), D("2D"), "hull") == D("4D")


@pytest.mark.parametrize(
    ("roll_", "effects"),
    [
        pytest.param(12, (12, 12, 5, 5), id="V30-roll-12"),
        pytest.param(3, (3, 3, 3, 3), id="V30-roll-3"),
    ],
)
def test_v30_full_evasion_effects_on_own_crew(roll_, effects):
    evasion = full_evasion(roll_)
    assert (
        evasion.attacker_difficulty,
        evasion.own_gunners_difficulty,
        evasion.other_actions_difficulty,
        evasion.shielding_penalty,
    ) == effects


def test_negative_evasion_is_refused():
    with pytest.raises(CraftError):
        full_evasion(-1)


def test_v32_missiles_add_1d_per_target_speed_action():
    assert missile_difficulty_dice(3) == D("3D")
    assert missile_difficulty(10, 3, rng=FixedDice([1, 2, 3])) == 16
    with pytest.raises(CraftError):
        missile_difficulty_dice(-1)


# --- Damage ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("margin", "level"),
    [
        (-1, "none"),
        (0, "controls_ionized"),
        (3, "controls_ionized"),
        (4, "lightly"),
        (8, "lightly"),
        (9, "heavily"),
        (12, "heavily"),
        (13, "severely"),
        (15, "severely"),
        (16, "destroyed"),
    ],
)
def test_2e_damage_bands(margin, level):
    assert craft_damage_result(10 + margin, 10, ruleset=UPG).level == level


def test_2e_low_margin_blows_a_shield_die_while_any_remain():
    result = craft_damage_result(12, 10, ruleset=UPG, shield_dice_left=2)
    assert (result.level, result.shield_dice_lost, result.ionization_dice) == (
        "shields_blown",
        1,
        0,
    )
    assert craft_damage_result(12, 10, ruleset=UPG).ionization_dice == 1


def test_2e_ion_damage_is_left_to_the_gm():
    with pytest.raises(CraftError, match="ion"):
        craft_damage_result(12, 10, ruleset=UPG, ion=True)


def test_negative_totals_are_refused():
    with pytest.raises(CraftError):
        craft_damage_result(-1, 3, ruleset=UPG)


def test_v28_rc_double_strength_severely_damages_or_ionizes_2d():
    assert craft_damage_result(20, 9, ruleset=RC).level == "severely"
    ion = craft_damage_result(20, 9, ruleset=RC, ion=True)
    assert (ion.level, ion.ionization_dice) == ("controls_ionized", 2)


def test_v29_rc_escaping_unscathed():
    assert craft_damage_result(4, 9, ruleset=RC).level == "none"
    assert craft_damage_result(4, 9, ruleset=RC, ion=True) == CraftDamage("none", rc=True)


def test_v29_rc_below_strength_is_lightly_damaged_or_loses_a_generator():
    shielded = craft_damage_result(5, 9, ruleset=RC, shield_dice_left=2, shields_in_use=True)
    assert (shielded.level, shielded.shield_dice_lost, shielded.ionization_dice) == (
        "lightly",
        1,
        0,
    )
    unshielded = craft_damage_result(5, 9, ruleset=RC)
    assert (unshielded.level, unshielded.ionization_dice) == ("lightly", 1)
    ion = craft_damage_result(5, 9, ruleset=RC, ion=True)
    assert (ion.level, ion.shield_dice_lost) == ("shields_blown", 1)


@pytest.mark.parametrize(
    ("dr", "sr", "ion", "level", "ionization", "dead"),
    [
        (9, 9, False, "heavily", 0, False),
        (27, 9, False, "destroyed", 0, False),
        (9, 9, True, "controls_ionized", 1, False),
        (30, 9, True, "controls_ionized", 3, True),
        (1, 0, False, "destroyed", 0, False),
    ],
)
def test_rc_damage_summary_rows(dr, sr, ion, level, ionization, dead):
    result = craft_damage_result(dr, sr, ruleset=RC, ion=ion)
    assert (result.level, result.ionization_dice, result.dead_controls) == (level, ionization, dead)


@pytest.mark.parametrize(
    ("current", "new", "after"),
    [
        pytest.param("heavily", "lightly", "severely", id="V24-heavy-then-light"),
        pytest.param("severely", "lightly", "destroyed", id="V26-severe-then-light"),
        pytest.param("lightly", "lightly", "lightly", id="light-any-number-of-times"),
        pytest.param("heavily", "heavily", "severely", id="heavy-then-heavy"),
        pytest.param("heavily", "severely", "severely", id="heavy-then-severe"),
        pytest.param("none", "heavily", "heavily", id="first-heavy"),
        pytest.param("lightly", "controls_ionized", "lightly", id="ionization-keeps-level"),
        pytest.param("severely", "none", "severely", id="no-damage"),
    ],
)
def test_starship_damage_escalation(current, new, after):
    assert escalate(current, new) == after


def test_vehicle_escalation_can_be_switched_off():
    assert escalate("heavily", "lightly", kind="vehicle") == "severely"
    assert escalate("heavily", "lightly", kind="vehicle", escalate_vehicles=False) == "heavily"


@pytest.mark.parametrize(
    ("kind", "level", "die", "text"),
    [
        ("vehicle", "lightly", 2, "-1D maneuverability"),
        ("vehicle", "lightly", 4, "weapon"),
        ("vehicle", "heavily", 5, "-2 Move"),
        ("vehicle", "severely", 3, "overloaded generator"),
        ("starship", "lightly", 4, "hyperdrive"),
        ("starship", "heavily", 3, "destroyed"),
        ("capital", "severely", 5, "structural damage"),
    ],
)
def test_damage_tables(kind, level, die, text):
    assert text in damage_effect(kind, level, die).text


def test_starship_disabled_weapons_rolls_again():
    assert damage_effect("starship", "severely", 4, 4).weapons == "all_severely_damaged"
    assert damage_effect("starship", "severely", 4, 5).weapons == "all_destroyed"
    with pytest.raises(CraftError, match="1D more"):
        damage_effect("starship", "severely", 4)


@pytest.mark.parametrize(("level", "die"), [("lightly", 7), ("destroyed", 1)])
def test_damage_table_inputs_are_checked(level, die):
    with pytest.raises(CraftError):
        damage_effect("vehicle", level, die)


# --- Lost moves ------------------------------------------------------------------------------
def test_v4_lost_moves_add_up_to_cautious_only():
    assert lost_moves_status(1 + 2, ruleset=UPG).top_speed == "cautious"


@pytest.mark.parametrize(
    ("total", "top"), [(0, "all_out"), (1, "high"), (2, "cruising"), (3, "cautious"), (4, None)]
)
def test_lost_moves_table(total, top):
    assert lost_moves_status(total, ruleset=UPG).top_speed == top


def test_v27_four_lost_moves_disable_the_drive():
    status = lost_moves_status(4, ruleset=UPG)
    assert status.drive_disabled and not status.destroyed
    assert status.top_speed is None


def test_five_lost_moves_destroy_or_wreck_the_drive_by_ruleset():
    assert lost_moves_status(5, ruleset=UPG).destroyed
    wreck = lost_moves_status(6, ruleset=UPG.replace(lost_moves_5="drive_destroyed"))
    assert wreck.drive_destroyed and not wreck.destroyed


@pytest.mark.parametrize(
    ("total", "cruising", "top"),
    [
        (1, "normal", "high"),
        (2, "normal", "normal"),
        (2, "fast", "fast"),
        (3, "normal", "cautious"),
    ],
)
def test_house_lost_moves_with_five_speeds(total, cruising, top):
    ruleset = HOUSE.replace(house_lost_moves_cruising=cruising)
    assert lost_moves_status(total, ruleset=ruleset).top_speed == top


def test_negative_lost_moves_are_refused():
    with pytest.raises(CraftError):
        lost_moves_status(-1, ruleset=UPG)


# --- Applying damage -------------------------------------------------------------------------
def test_v33_heavy_damage_at_minus_3_moves_destroys_the_vehicle():
    state = CraftState(damage="lightly", moves_lost=3)
    after = apply_damage_effect(state, damage_effect("vehicle", "heavily", 4), SPEEDER, ruleset=UPG)
    assert after.moves_lost == 5 and after.destroyed


def test_v33_with_drive_destroyed_option_the_vehicle_survives():
    ruleset = UPG.replace(lost_moves_5="drive_destroyed")
    after = apply_damage_effect(
        CraftState(moves_lost=3), damage_effect("vehicle", "heavily", 4), SPEEDER, ruleset=ruleset
    )
    assert after.moves_lost == 5 and not after.destroyed


def test_maneuverability_loss_at_0d_costs_moves():
    at_zero = CraftState(maneuverability_lost=1)
    after = apply_damage_effect(
        at_zero, damage_effect("vehicle", "heavily", 1), SPEEDER, ruleset=UPG
    )
    assert (after.maneuverability_lost, after.moves_lost) == (1, 2)


def test_maneuverability_loss_stops_at_0d():
    after = apply_damage_effect(
        CraftState(), damage_effect("vehicle", "heavily", 1), SPEEDER, ruleset=UPG
    )
    assert (after.maneuverability_lost, after.moves_lost) == (1, 0)


def test_shield_loss_with_no_shields_left_ionizes_the_controls():
    after = apply_damage_effect(
        CraftState(shield_dice_lost=2),
        damage_effect("starship", "heavily", 5),
        STARSHIP,
        ruleset=UPG,
    )
    assert (after.shield_dice_lost, after.controls_ionized) == (2, 2)


def test_hyperdrive_damage_only_gets_worse():
    heavy = apply_damage_effect(
        CraftState(), damage_effect("starship", "heavily", 4), STARSHIP, ruleset=UPG
    )
    light = apply_damage_effect(
        heavy, damage_effect("starship", "lightly", 4), STARSHIP, ruleset=UPG
    )
    assert heavy.hyperdrive == light.hyperdrive == "heavily_damaged"


def test_effects_without_numbers_are_kept_as_events():
    after = apply_damage_effect(
        CraftState(), damage_effect("starship", "severely", 2), STARSHIP, ruleset=UPG
    )
    assert after.events == ("overloaded generator: explodes in 1D rounds unless shut down",)


def test_light_damage_rolls_on_the_light_table():
    after = apply_damage(
        CraftState(),
        craft_damage_result(15, 10, ruleset=UPG),
        STARSHIP,
        rng=FixedDice([5]),
        ruleset=UPG,
    )
    assert (after.damage, after.shield_dice_lost) == ("lightly", 1)


def test_shields_blown_needs_no_table_roll():
    result = craft_damage_result(11, 10, ruleset=UPG, shield_dice_left=2)
    after = apply_damage(CraftState(), result, STARSHIP, rng=FixedDice([]), ruleset=UPG)
    assert (after.damage, after.shield_dice_lost) == ("none", 1)


def test_escalated_damage_rolls_on_the_severe_table():
    after = apply_damage(
        CraftState(damage="heavily"),
        craft_damage_result(20, 10, ruleset=UPG),
        STARSHIP,
        rng=FixedDice([4, 6]),
        ruleset=UPG,
    )
    assert after.damage == "severely"
    assert after.weapon_damage == ("all_destroyed",)


def test_destroyed_result_and_destroyed_craft():
    gone = apply_damage(
        CraftState(),
        craft_damage_result(30, 10, ruleset=UPG),
        STARSHIP,
        rng=FixedDice([]),
        ruleset=UPG,
    )
    assert gone.destroyed
    assert (
        apply_damage(
            gone, craft_damage_result(15, 10, ruleset=UPG), STARSHIP, rng=FixedDice([]), ruleset=UPG
        )
        is gone
    )


def test_severe_result_on_severe_craft_destroys_it():
    after = apply_damage(
        CraftState(damage="severely"),
        craft_damage_result(15, 10, ruleset=UPG),
        STARSHIP,
        rng=FixedDice([]),
        ruleset=UPG,
    )
    assert after.destroyed


def test_rc_light_damage_has_no_table():
    after = apply_damage(
        CraftState(), craft_damage_result(5, 9, ruleset=RC), STARSHIP, rng=FixedDice([]), ruleset=RC
    )
    assert (after.damage, after.controls_ionized) == ("lightly", 1)


def test_rc_heavy_damage_uses_the_upg_table():
    after = apply_damage(
        CraftState(),
        craft_damage_result(9, 9, ruleset=RC),
        STARSHIP,
        rng=FixedDice([6]),
        ruleset=RC,
    )
    assert (after.damage, after.moves_lost) == ("heavily", 2)


def test_rc_ion_dead_controls_are_recorded():
    after = apply_damage(
        CraftState(),
        craft_damage_result(27, 9, ruleset=RC, ion=True),
        STARSHIP,
        rng=FixedDice([]),
        ruleset=RC,
    )
    assert after.dead_controls and after.controls_ionized == 3 and after.damage == "none"


def test_vehicle_without_escalation_rolls_its_own_level():
    after = apply_damage(
        CraftState(damage="heavily"),
        craft_damage_result(15, 10, ruleset=UPG),
        SPEEDER,
        rng=FixedDice([6]),
        ruleset=UPG,
        escalate_vehicles=False,
    )
    assert (after.damage, after.moves_lost) == ("heavily", 1)


@pytest.mark.parametrize(
    ("ionized", "maneuverability", "dead"), [(1, "2D", False), (2, "2D", True), (1, "0D", True)]
)
def test_dead_controls_when_ionization_reaches_maneuverability(ionized, maneuverability, dead):
    assert dead_controls(ionized, D(maneuverability)) is dead


@pytest.mark.parametrize(
    ("ruleset", "stat", "expected"),
    [
        (UPG, "maneuverability", "0D+2"),
        (UPG, "fire_control", "2D"),
        (UPG, "hull", "4D"),
        (UPG, "sublight", "4D"),
        (RC, "sublight", "3D"),
        (RC, "hull", "4D"),
    ],
)
def test_effective_codes_after_damage_and_ionization(ruleset, stat, expected):
    state = CraftState(maneuverability_lost=1, controls_ionized=1)
    code = (
        D("2D+2") if stat == "maneuverability" else D("3D") if stat == "fire_control" else D("4D")
    )
    assert effective_code(code, stat, state, ruleset=ruleset) == D(expected)


def test_unknown_stat_is_refused():
    with pytest.raises(CraftError):
        effective_code(D("1D"), "cargo", CraftState(), ruleset=UPG)


# --- Tractor beams ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("beam", "hull", "units", "moves"),
    [
        pytest.param(20, 10, 2, 2, id="V22-beats-by-10"),
        pytest.param(12, 10, 0, 0, id="V23-beats-by-2"),
        pytest.param(26, 10, 4, 4, id="V27-beats-by-16"),
        pytest.param(15, 10, 1, 1, id="beats-by-5"),
        pytest.param(23, 10, 3, 3, id="beats-by-13"),
    ],
)
def test_tractor_beam_margins(beam, hull, units, moves):
    result = tractor_beam(beam, hull)
    assert (result.broke_free, result.units_reeled, result.moves_lost) == (False, units, moves)


def test_v27_tractor_damage_disables_the_drive():
    assert lost_moves_status(tractor_beam(26, 10).moves_lost, ruleset=UPG).drive_disabled


def test_higher_hull_roll_breaks_free():
    assert tractor_beam(9, 10).broke_free


def test_rc_tractor_beam_is_an_opposed_sublight_roll():
    assert rc_tractor_escape_code(D("3D+1"), 2) == D("5D+1")
    assert rc_tractor_breaks_free(15, 14)
    assert not rc_tractor_breaks_free(14, 14)
    with pytest.raises(CraftError):
        rc_tractor_escape_code(D("3D"), -1)


# --- Astrogation -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("base", "emergency", "hyperdrive", "difficulty"),
    [
        (10, False, "ok", 10),
        (10, True, "ok", 20),
        (10, True, "damaged", 30),
        (10, False, "damaged", 10),
        (10, False, "heavily_damaged", 20),
        (10, True, "heavily_damaged", 30),
    ],
)
def test_astrogation_difficulty(base, emergency, hyperdrive, difficulty):
    assert astrogation_difficulty(base, emergency=emergency, hyperdrive=hyperdrive) == difficulty


def test_disabled_hyperdrives_allow_no_jump():
    with pytest.raises(CraftError, match="disabled"):
        astrogation_difficulty(10, hyperdrive="disabled")
    with pytest.raises(CraftError, match="disabled"):
        astrogation_minutes("known_route", "disabled")
    with pytest.raises(CraftError):
        astrogation_difficulty(-1)


@pytest.mark.parametrize(
    ("situation", "hyperdrive", "minutes"),
    [
        ("known_route", "ok", 1),
        ("known_systems", "damaged", 60),
        ("emergency", "damaged", Fraction(1, 12)),
        ("new_destination", "ok", None),
        ("lost", "ok", 1440),
    ],
)
def test_astrogation_times(situation, hyperdrive, minutes):
    assert astrogation_minutes(situation, hyperdrive) == minutes


def test_unknown_astrogation_situation_is_refused():
    with pytest.raises(CraftError):
        astrogation_minutes("vacation")  # type: ignore[arg-type]


def test_rc_astrogation_hours():
    assert rc_astrogation_difficulty(10, listed_hours=6, planned_hours=4) == 12
    assert rc_astrogation_difficulty(10, listed_hours=6, planned_hours=8) == 8
    with pytest.raises(CraftError, match="one hour"):
        rc_astrogation_difficulty(10, 6, 0)


def test_travel_time_scales_with_the_multiplier():
    assert hyperspace_travel_time(10, 0.5) == 5
    with pytest.raises(CraftError):
        hyperspace_travel_time(10, 0)


# --- Weapon ranges and Star Warriors ---------------------------------------------------------
def test_v21_cloud_car_cannon_is_a_light_speeder_weapon():
    assert weapon_class(D("1D+2")) == "light"
    bands = rc_weapon_ranges("speeder", D("1D+2"))
    assert (bands.short, bands.medium, bands.long) == ((50, 300), (301, 500), (501, 1000))


@pytest.mark.parametrize(
    ("damage", "klass"), [("2D+2", "light"), ("3D", "medium"), ("4D+2", "medium"), ("5D", "heavy")]
)
def test_weapon_classes_by_damage(damage, klass):
    assert weapon_class(D(damage)) == klass


def test_missing_range_entry_is_refused():
    with pytest.raises(CraftError, match="no ranges"):
        rc_weapon_ranges("capital", "blaster")


def test_v18_silver_bolt_star_warriors_speeds():
    assert tuple(star_warriors_speed(D("4D+1")).values()) == (7, 4, 2, 7, 3, 8)


def test_v19_modified_long_shot_star_warriors_speeds():
    assert tuple(star_warriors_speed(D("3D+2"), SWR_LONG_SHOT_OFFSETS).values()) == (
        8,
        7,
        5,
        7,
        7,
        13,
    )


def test_unreadable_star_warriors_cell_stays_empty():
    assert star_warriors_speed(D("5D+2"))["speed_max"] is None


@pytest.mark.parametrize(
    ("code", "offsets"), [("10D+1", (0,) * 6), ("0D+2", (0,) * 6), ("3D", (1, 2))]
)
def test_star_warriors_inputs_are_checked(code, offsets):
    with pytest.raises(CraftError):
        star_warriors_speed(D(code), offsets)


# --- Rule options ----------------------------------------------------------------------------
def test_presets_choose_speeds_and_collision_tables():
    assert (UPG.speed_level_set, UPG.collision_table) == ("upg4", "upg")
    assert (HOUSE.speed_level_set, HOUSE.collision_table) == ("house5", "house")
    assert RC.collision_table == "rc"


# --- Properties ------------------------------------------------------------------------------
faces = st.lists(st.integers(1, 6), max_size=12)


@given(st.integers(0, 60), st.integers(0, 60))
def test_2e_damage_never_gets_better_with_a_higher_damage_roll(damage, resist):
    order = ["none", "controls_ionized", "lightly", "heavily", "severely", "destroyed"]
    low = craft_damage_result(damage, resist, ruleset=UPG).level
    high = craft_damage_result(damage + 1, resist, ruleset=UPG).level
    assert order.index(high) >= order.index(low)


@given(
    st.sampled_from(["none", "lightly", "heavily", "severely", "destroyed"]),
    st.sampled_from(["lightly", "heavily", "severely", "destroyed"]),
)
def test_escalation_never_repairs_a_craft(current, new):
    order = ["none", "lightly", "heavily", "severely", "destroyed"]
    assert order.index(escalate(current, new)) >= max(order.index(current), order.index(new))


def test_damage_effect_is_a_value():
    assert DamageEffect(1, "x") == DamageEffect(1, "x")


def test_every_reference_craft_names_its_source():
    for file in ("starships", "vehicles"):
        for craft in load_craft(file):
            assert craft.source in {"UPG", "WIKI", "HOUSE", "RC"} and craft.source_ref
