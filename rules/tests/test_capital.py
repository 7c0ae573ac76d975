"""Capital ship combat ([RC]): the worked examples of capital-ships.md (CS-n) and the rules
around them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.craft import (
    CapitalDamage,
    CapitalState,
    CraftError,
    apply_capital_damage,
    attack_pools,
    capital_damage,
    capital_die_cap,
    capital_ships,
    command_budget,
    coordinated_guns,
    counter_battery,
    crew_code_range,
    crew_quality,
    declaration_order,
    facing_change_cost,
    gun_status,
    guns_modifier,
    hull_resistance_code,
    ram_damage_code,
    ram_hits,
    reduce_by_pips,
    reroute_shield_power,
    ship_code,
    ship_damage_status,
    subordinate_bonus,
    swarm_fighter_status,
    targeting,
    template_boxes,
)
from rules.dice import DieCode
from rules.scale import die_cap_total

D = DieCode.parse


# --- Attacks ---------------------------------------------------------------------------------
def test_cs1_mon_cal_twelve_turbolasers_roll_8d3_to_hit_and_6d1_damage():
    pools = attack_pools(D("2D"), D("4D"), 12, D("4D+2"))
    assert pools.to_hit == DieCode(8, 3)  # rolled as printed, pips not converted
    assert pools.to_hit.total_pips == 27
    assert pools.damage == D("6D+1")


@pytest.mark.parametrize(
    ("guns", "modifier"),
    [
        pytest.param(1, "0D", id="CS-2-1"),
        pytest.param(2, "+2", id="CS-2-2"),
        pytest.param(3, "1D", id="CS-2-3"),
        pytest.param(8, "2D", id="CS-2-8"),
        pytest.param(12, "2D+1", id="CS-2-12"),
        pytest.param(250, "5D+1", id="CS-2-250"),
        pytest.param(10, "2D", id="between-rows-10"),
        pytest.param(20, "2D+2", id="between-rows-20"),
        pytest.param(80, "4D", id="between-rows-80"),
        pytest.param(500, "5D+1", id="above-the-chart"),
    ],
)
def test_cs2_guns_modifier_chart(guns, modifier):
    assert guns_modifier(guns) == D(modifier)


@pytest.mark.parametrize("guns", [0, -3, True])
def test_no_guns_is_refused(guns):
    with pytest.raises(CraftError):
        guns_modifier(guns)


def test_cs13_swarm_of_eight_fighters_uses_plus_2d():
    assert guns_modifier(8) == D("2D")


def test_cs17_coordinated_mon_cals_roll_9d2_to_hit_and_keep_6d1_damage():
    guns = coordinated_guns([(12, False), (12, False)])
    assert guns == 24
    assert guns_modifier(guns) == D("3D")
    pools = attack_pools(D("2D"), D("4D"), 12, D("4D+2"), coordinated_guns=guns)
    assert (pools.to_hit, pools.damage) == (D("9D+2"), D("6D+1"))


def test_ion_and_other_attacks_cannot_be_coordinated():
    with pytest.raises(CraftError, match="ion"):
        coordinated_guns([(12, False), (20, True)])
    with pytest.raises(CraftError):
        coordinated_guns([])


def test_coordinated_guns_include_the_ships_own():
    with pytest.raises(CraftError):
        attack_pools(D("2D"), D("4D"), 12, D("4D"), coordinated_guns=6)


def test_cs6_triple_vital_location_attack():
    aim = targeting("hull", vital_locations=3)
    assert (aim.hit, aim.hull_penalty) == (D("-6D"), D("3D"))


def test_cs7_vital_location_on_the_sublight_engines():
    aim = targeting("sublight", vital_locations=1)
    assert (aim.hit, aim.hull_penalty, aim.target) == (D("-4D"), D("1D"), "sublight")
    after = apply_capital_damage(CapitalState(), CapitalDamage(pips=2), D("3D"), target="sublight")
    assert (after.sublight, after.ship_damage) == (2, 0)


def test_cs19_vital_location_on_fire_control():
    aim = targeting("fire_control", vital_locations=1)
    assert (aim.hit, aim.hull_penalty, aim.damage) == (D("-6D"), D("1D"), D("2D"))
    shielded = attack_pools(D("4D"), D("5D"), 10, D("4D"), aim=aim, shields_down=False)
    penetrated = attack_pools(D("4D"), D("5D"), 10, D("4D"), aim=aim, shields_down=True)
    assert (shielded.damage, penetrated.damage) == (D("7D"), D("9D"))
    assert shielded.to_hit == D("4D")  # 4D + 2D + 4D - 6D
    after = apply_capital_damage(CapitalState(), CapitalDamage(pips=1), None, target="fire_control")
    assert after.fire_control == 1


def test_missile_tubes_are_harder_to_damage():
    pools = attack_pools(D("2D"), D("5D"), 1, D("4D"), aim=targeting("weapon_missile"))
    assert (pools.to_hit, pools.damage) == (D("4D"), D("4D"))


def test_a_large_targeting_penalty_leaves_at_least_0d():
    pools = attack_pools(D("0D"), D("2D"), 1, D("2D+1"), aim=targeting("command", 2))
    assert pools.to_hit == D("0D")


@pytest.mark.parametrize(("target", "vital"), [("bridge", 0), ("hull", -1)])
def test_unknown_targets_are_refused(target, vital):
    with pytest.raises(CraftError):
        targeting(target, vital)


def test_cs20_ship_damage_reduces_actions_but_not_the_hull():
    pools = attack_pools(D("2D"), D("4D"), 12, D("4D+2"), ship_damage_pips=4)
    assert pools.to_hit == D("7D+2")
    assert pools.damage == D("6D+1")
    assert ship_code(D("6D"), 4, roll="hull") == D("6D")
    assert ship_damage_status(4).penalty == D("1D+1")
    assert ship_damage_status(9).level == "destroyed"


def test_ship_damage_can_reduce_weapon_damage_when_the_gm_rules_so():
    pools = attack_pools(
        D("2D"), D("4D"), 12, D("4D+2"), ship_damage_pips=3, ship_damage_reduces_weapon_damage=True
    )
    assert pools.damage == D("5D+1")


@pytest.mark.parametrize(
    ("roll", "expected"), [("action", "3D+2"), ("weapon_damage", "4D"), ("hull", "6D")]
)
def test_ship_codes_after_damage_and_ionization(roll, expected):
    code = D("6D") if roll == "hull" else D("5D") if roll == "weapon_damage" else D("5D+1")
    assert ship_code(code, 2, 1, roll=roll) == D(expected)


# --- Damage ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pips", "level", "penalty"),
    [
        pytest.param(0, "none", "0D", id="undamaged"),
        pytest.param(2, "damaged", "0D+2", id="two-pips"),
        pytest.param(3, "heavily", "1D", id="CS-8-3-pips"),
        pytest.param(6, "severely", "2D", id="CS-8-6-pips"),
        pytest.param(8, "severely", "2D+2", id="eight-pips"),
        pytest.param(9, "destroyed", "3D", id="CS-8-9-pips"),
    ],
)
def test_cs8_ship_damage_row(pips, level, penalty):
    status = ship_damage_status(pips)
    assert (status.level, status.penalty) == (level, D(penalty))


@pytest.mark.parametrize(
    ("dr", "hr", "ion", "result"),
    [
        pytest.param(40, 10, False, CapitalDamage(pips=4), id="CS-9"),
        pytest.param(40, 10, True, CapitalDamage(ion_dice=4), id="CS-10"),
        pytest.param(8, 12, False, CapitalDamage(shield_pips=1), id="CS-11"),
        pytest.param(5, 12, False, CapitalDamage(), id="CS-12"),
        pytest.param(8, 12, True, CapitalDamage(), id="ion-below-hull"),
        pytest.param(12, 12, False, CapitalDamage(pips=1), id="equal"),
        pytest.param(200, 10, False, CapitalDamage(pips=9), id="at-most-9"),
        pytest.param(3, 0, True, CapitalDamage(ion_dice=9), id="zero-hull"),
    ],
)
def test_capital_damage_summary(dr, hr, ion, result):
    assert capital_damage(dr, hr, ion=ion) == result


def test_negative_capital_totals_are_refused():
    with pytest.raises(CraftError):
        capital_damage(-1, 4)
    with pytest.raises(CraftError):
        ship_damage_status(-1)


def test_hits_the_shields_held_come_off_the_shields_first():
    state = CapitalState(shield_pips_lost=4)  # 2D shields: 2 pips left
    after = apply_capital_damage(state, CapitalDamage(pips=3), D("2D"), shields_held=True)
    assert (after.shield_pips_lost, after.ship_damage) == (6, 1)


def test_a_shield_pip_is_lost_only_while_shields_remain():
    first = apply_capital_damage(CapitalState(), CapitalDamage(shield_pips=1), D("1D"))
    assert first.shield_pips_lost == 1
    blown = apply_capital_damage(
        CapitalState(shield_pips_lost=3), CapitalDamage(shield_pips=1), D("1D")
    )
    assert (blown.shield_pips_lost, blown.ship_damage) == (3, 0)


def test_penetrating_hits_and_ionization_are_recorded():
    after = apply_capital_damage(CapitalState(ship_damage=7), CapitalDamage(pips=2), D("3D"))
    assert after.destroyed
    ionized = apply_capital_damage(CapitalState(), CapitalDamage(ion_dice=2), D("3D"))
    assert ionized.ionization == 2 and not ionized.destroyed


def test_weapon_damage_goes_through_counter_battery():
    with pytest.raises(CraftError, match="counter_battery"):
        apply_capital_damage(CapitalState(), CapitalDamage(pips=1), None, target="weapon_beam")


def test_cs15_counter_battery_destroys_all_four_guns():
    points = counter_battery(1, 12, 4)
    assert points == (3, 3, 3, 3)
    assert {gun_status(p) for p in points} == {"destroyed"}


def test_counter_battery_spreads_damage_evenly():
    assert counter_battery(1, 5, 3) == (2, 2, 1)


@pytest.mark.parametrize(("args"), [(1, 0, 3), (1, 3, 0), (-1, 3, 3)])
def test_counter_battery_inputs_are_checked(args):
    with pytest.raises(CraftError):
        counter_battery(*args)


@pytest.mark.parametrize(
    ("points", "status"), [(0, "ok"), (1, "wounded"), (2, "incapacitated"), (5, "destroyed")]
)
def test_gun_status(points, status):
    assert gun_status(points) == status


@pytest.mark.parametrize(
    ("points", "status"),
    [
        pytest.param(0, "undamaged", id="none"),
        pytest.param(1, "heavily", id="CS-14-1"),
        pytest.param(2, "severely", id="CS-14-2"),
        pytest.param(3, "destroyed", id="CS-14-3"),
    ],
)
def test_cs14_swarm_fighter_damage(points, status):
    assert swarm_fighter_status(points) == status


def test_negative_points_are_refused():
    with pytest.raises(CraftError):
        gun_status(-1)
    with pytest.raises(CraftError):
        swarm_fighter_status(-1)


def test_cs16_capital_maneuver_and_shields_against_starfighters_ignore_sixes():
    assert capital_die_cap("starfighter") == 5
    assert capital_die_cap("starfighter", "shields") == 5
    assert die_cap_total([6, 5, 4, 6], capital_die_cap("starfighter")) == 9
    assert capital_die_cap("capital") == 6


def test_capital_die_caps_cover_maneuver_and_shields_only():
    with pytest.raises(CraftError):
        capital_die_cap("starfighter", "gunnery")  # type: ignore[arg-type]


# --- Command ---------------------------------------------------------------------------------
def test_cs5_two_haste_orders_cost_2d_of_command():
    budget = command_budget(D("5D"), haste_orders=2)
    assert budget.after_uses == D("3D")
    assert budget.commanded == ("pilot", "gunnery", "shields")
    assert budget.left_over == D("0D")


def test_officers_without_a_die_of_command_are_uncommanded():
    budget = command_budget(
        D("4D+1"), coordinations=1, bonuses=1, officers=("shields", "pilot", "gunnery")
    )
    assert budget.commanded == ("shields", "pilot")
    assert budget.uncommanded == ("gunnery",)


@pytest.mark.parametrize(
    "kwargs",
    [{"haste_orders": 4}, {"bonuses": -1}, {"officers": ("pilot", "pilot", "shields")}],
)
def test_command_cannot_go_below_zero_or_skip_officers(kwargs):
    with pytest.raises(CraftError):
        command_budget(D("3D+2"), **kwargs)


def test_subordinate_bonus_adds_pips():
    assert subordinate_bonus(D("4D"), 2) == D("4D+2")
    with pytest.raises(CraftError):
        subordinate_bonus(D("4D"), -1)


def test_declaration_order_lowest_command_acts_first_npc_first_on_ties():
    actions, reactions = declaration_order(
        [("Ackbar", D("6D"), False), ("PC captain", D("4D"), True), ("Imperial", D("4D"), False)]
    )
    assert actions == ("Imperial", "PC captain", "Ackbar")
    assert reactions == ("Ackbar", "Imperial", "PC captain")


@pytest.mark.parametrize(
    ("side", "quality", "low", "high"),
    [
        ("imperial", "recruit", "3D", "3D"),
        ("imperial", "average", "3D+1", "4D"),
        ("rebel", "veteran", "5D+1", "6D"),
        ("rebel", "hand_picked_elite", "7D+1", None),
    ],
)
def test_crew_quality_table(side, quality, low, high):
    assert crew_code_range(quality, side) == (D(low), None if high is None else D(high))


@pytest.mark.parametrize(
    ("code", "side", "quality"),
    [
        ("4D+2", "rebel", "average"),
        ("4D+2", "imperial", "veteran"),
        ("2D", "imperial", None),
        ("9D", "imperial", "hand_picked_elite"),
    ],
)
def test_crew_quality_of_a_code(code, side, quality):
    assert crew_quality(D(code), side) == quality


def test_unknown_crew_side_or_quality_is_refused():
    with pytest.raises(CraftError):
        crew_quality(D("4D"), "pirate")  # type: ignore[arg-type]
    with pytest.raises(CraftError):
        crew_code_range("legendary", "rebel")  # type: ignore[arg-type]


# --- Facing and shields ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("current", "new", "cost"),
    [
        pytest.param("top", "bottom", 2, id="CS-4-opposite"),
        pytest.param("top", "left", 1, id="CS-4-adjacent"),
        pytest.param("forward", "rear", 2, id="forward-rear"),
        pytest.param("rear", "rear", 0, id="stay"),
    ],
)
def test_cs4_facing_changes(current, new, cost):
    assert facing_change_cost(current, new) == cost


def test_unknown_facing_is_refused():
    with pytest.raises(CraftError):
        facing_change_cost("port", "top")


def test_cs18_rerouting_rear_shield_to_right_doubles_it():
    shields = {"right": D("3D"), "rear": D("3D"), "top": D("3D")}
    reroute = reroute_shield_power(shields, donor="rear", receiver="right")
    assert reroute.shields["right"] == D("6D")
    assert reroute.shields["rear"] is None
    assert reroute.shields["top"] == D("3D")
    assert reroute.other_shielding_penalty == D("1D")


@pytest.mark.parametrize(
    ("shields", "donor", "receiver"),
    [
        pytest.param({"right": D("3D"), "rear": None}, "rear", "right", id="CS-18-one-facing-left"),
        pytest.param({"right": D("3D"), "rear": D("3D")}, "right", "right", id="same-facing"),
        pytest.param(
            {"right": D("3D"), "rear": D("3D"), "top": None}, "top", "right", id="dead-donor"
        ),
    ],
)
def test_cs18_rerouting_needs_two_working_facings(shields, donor, receiver):
    with pytest.raises(CraftError):
        reroute_shield_power(shields, donor, receiver)


def test_cs3_fire_control_2d2_leaves_eight_boxes_open():
    assert template_boxes(D("2D+2")) == (8, 4)
    with pytest.raises(CraftError):
        template_boxes(D("5D"))


# --- Ramming ---------------------------------------------------------------------------------
def test_cs21_ramming_damage_rolls():
    assert ram_hits(15, 14) and not ram_hits(14, 14)
    assert ram_damage_code(D("5D"), 2) == D("7D")
    assert ram_damage_code(D("4D"), 1) == D("5D")
    assert hull_resistance_code(D("4D"), None, "hull") == D("4D")  # defender: no shielding
    with pytest.raises(CraftError):
        ram_damage_code(D("5D"), -1)


# --- Reference data --------------------------------------------------------------------------
def test_capital_ship_seed_data():
    ships = {ship.name: ship for ship in capital_ships()}
    assert len(ships) == 22
    isd = ships["Imperial Star Destroyer I"]
    assert (isd.hull, isd.shields, isd.sublight, isd.maneuverability) == (
        D("7D"),
        D("3D"),
        D("3D"),
        D("1D"),
    )
    assert [(w.count, w.code, str(w.fire_control), str(w.damage)) for w in isd.weapons] == [
        (60, "TLB", "4D", "5D"),
        (60, "ION", "2D+2", "3D"),
        (10, "TB", "4D", "6D"),
    ]
    assert ships["Loronar FSCV"].shields is None
    assert ships["Interdictor"].weapons[1].damage is None


def test_cs1_attack_from_seed_data():
    mon_cal = next(s for s in capital_ships() if s.name == "Mon Cal Cruiser")
    turbolasers = mon_cal.weapons[0]
    pools = attack_pools(turbolasers.fire_control, turbolasers.damage, 12, D("4D+2"))
    assert (pools.to_hit, pools.damage) == (DieCode(8, 3), D("6D+1"))


# --- Properties ------------------------------------------------------------------------------
codes = st.builds(DieCode, st.integers(0, 20), st.integers(0, 5))


@given(codes, st.integers(0, 80))
def test_reducing_by_pips_takes_exactly_that_many_pips_down_to_zero(code, pips):
    assert reduce_by_pips(code, pips).total_pips == max(0, code.total_pips - pips)


@given(st.integers(1, 400), st.integers(1, 400))
def test_more_guns_never_lower_the_modifier(fewer, extra):
    assert guns_modifier(fewer + extra) >= guns_modifier(fewer)


@given(st.integers(0, 200), st.integers(1, 60))
def test_capital_damage_never_exceeds_nine(dr, hr):
    result = capital_damage(dr, hr)
    assert 0 <= result.pips <= 9 and result.shield_pips <= 1


def test_negative_reduction_is_refused():
    with pytest.raises(CraftError):
        reduce_by_pips(D("1D"), -1)
