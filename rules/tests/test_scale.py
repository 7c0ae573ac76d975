"""Scale: the modifiers in dice ([UPG]/[HOUSE]) and the [RC] die caps (vehicles-and-starships.md
§3 V1–V9, V31; combat.md §6). Shared by character combat and craft."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import DieCode, FixedDice, roll
from rules.ruleset import RuleSet
from rules.scale import (
    Scale,
    ScaleError,
    adjusted_modifier,
    apply_die_cap,
    die_cap_total,
    scale_adjustment,
    scale_modifier,
)

D = DieCode.parse
UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")


# --- Scale -----------------------------------------------------------------------------------
def test_v1_landspeeder_against_at_at_has_adjusted_modifier_2d():
    assert adjusted_modifier("speeder", "walker", ruleset=UPG) == D("2D")


def test_v2_lower_scale_adds_modifier_to_attack_and_target_adds_it_to_resistance():
    adjustment = scale_adjustment("speeder", "walker", ruleset=UPG)
    assert adjustment.attack_bonus == D("2D")
    assert adjustment.dodge_bonus == D("0D")  # the AT-AT dodges with its own 0D
    assert adjustment.damage_bonus == D("0D")  # the cannon rolls its normal 3D+1
    assert D("6D").pool_add(adjustment.resist_bonus) == D("8D")


def test_v3_higher_scale_adds_modifier_to_damage_and_target_adds_it_to_dodge():
    adjustment = scale_adjustment("walker", "speeder", ruleset=UPG)
    assert adjustment.attack_bonus == D("0D")
    assert adjustment.dodge_bonus == D("2D")
    assert adjustment.damage_bonus == D("2D")
    assert adjustment.resist_bonus == D("0D")


@pytest.mark.parametrize(
    ("ruleset", "first", "second", "expected"),
    [
        pytest.param(UPG, "character", "starfighter", "6D", id="V31-upg-character-starfighter"),
        pytest.param(UPG, "speeder", "capital", "10D", id="V31-upg-speeder-capital"),
        pytest.param(HOUSE, "character", "starfighter", "8D", id="V31-house-character-starfighter"),
        pytest.param(HOUSE, "speeder", "capital", "12D", id="V31-house-speeder-capital"),
    ],
)
def test_v31_adjusted_modifiers_by_ruleset(ruleset, first, second, expected):
    assert adjusted_modifier(first, second, ruleset=ruleset) == D(expected)


def test_same_scale_has_no_adjustment():
    assert scale_adjustment("starfighter", "starfighter", ruleset=UPG) == scale_adjustment(
        "walker", "walker", ruleset=UPG
    )
    assert scale_adjustment("starfighter", "starfighter", ruleset=UPG).attack_bonus == D("0D")


@pytest.mark.parametrize(
    ("scale", "upg", "house"),
    [
        ("character", "0D", "0D"),
        ("starfighter", "6D", "8D"),
        ("capital", "12D", "14D"),
        ("Death Star", "24D", "24D"),
    ],
)
def test_scale_modifiers_table(scale, upg, house):
    assert scale_modifier(scale, ruleset=UPG) == D(upg)
    assert scale_modifier(scale, ruleset=HOUSE) == D(house)


def test_rules_companion_has_no_scale_modifiers():
    with pytest.raises(ScaleError, match="die caps"):
        scale_modifier("speeder", ruleset=RC)


@pytest.mark.parametrize(
    ("text", "scale"),
    [
        ("creature", Scale.CHARACTER),
        ("Capitol", Scale.CAPITAL),
        ("death-star", Scale.DEATH_STAR),
        (Scale.WALKER, Scale.WALKER),
        ("repulsorlift", Scale.SPEEDER),
    ],
)
def test_scale_names_people_write_are_understood(text, scale):
    assert Scale.parse(text) is scale


@pytest.mark.parametrize("bad", ["dreadnought", 3])
def test_unknown_scale_is_refused(bad):
    with pytest.raises(ScaleError):
        Scale.parse(bad)


def test_scale_key_is_the_data_spelling():
    assert Scale.DEATH_STAR.key == "death_star"


def test_v6_die_cap_drops_dice_above_the_cap():
    assert die_cap_total([5, 2, 3, 6], 3) == 5


def test_v7_character_shooting_a_speeder_has_to_hit_cap_6():
    assert scale_adjustment("character", "speeder", ruleset=RC).to_hit_cap == 6


def test_v8_speeder_crew_shooting_a_character_has_to_hit_cap_5():
    assert scale_adjustment("speeder", "character", ruleset=RC).to_hit_cap == 5


def test_v9_character_resisting_a_speeder_weapon_has_strength_cap_3():
    adjustment = scale_adjustment("speeder", "character", ruleset=RC)
    assert adjustment.resist_cap == 3
    assert adjustment.damage_cap == 6


def test_rc_capital_dodging_starfighters_is_capped_at_5():
    assert scale_adjustment("starfighter", "capital", ruleset=RC).dodge_cap == 5


def test_death_star_cannot_target_a_character():
    assert not scale_adjustment("death star", "character", ruleset=RC).possible
    assert scale_adjustment("capital", "death star", ruleset=RC).possible


def test_impossible_die_cap_is_refused():
    with pytest.raises(ScaleError, match="not possible"):
        die_cap_total([1, 2], None)
    with pytest.raises(ScaleError, match="1 to 6"):
        die_cap_total([1, 2], 7)


def test_die_cap_applies_to_a_kept_roll_without_wild_die():
    kept = roll("4D+1", ruleset=RC, rng=FixedDice([5, 2, 3, 6]))
    assert apply_die_cap(kept, 3) == 6


def test_die_cap_drops_a_wild_six_without_exploding():
    kept = roll("3D", ruleset=UPG, rng=FixedDice([5, 2, 6, 4]))
    assert kept.total == 17
    assert apply_die_cap(kept, 5) == 7
    assert apply_die_cap(kept, 6) == 17


def test_die_cap_wild_one_removes_the_highest_counted_die():
    kept = roll("3D", ruleset=UPG.replace(wild_die_one="subtract"), rng=FixedDice([5, 4, 1]))
    assert apply_die_cap(kept, 4) == 0


def test_die_cap_counts_character_point_dice_and_modifiers():
    kept = roll("1D", ruleset=RC, rng=FixedDice([2, 6, 3]), cp_dice=1, modifier=2)
    assert apply_die_cap(kept, 6) == 13
    assert apply_die_cap(kept, 5) == 4


# --- Properties ------------------------------------------------------------------------------
faces = st.lists(st.integers(1, 6), max_size=12)


@given(faces, st.integers(1, 6))
def test_a_die_cap_never_raises_a_total(rolled, cap):
    assert die_cap_total(rolled, cap) <= die_cap_total(rolled, 6) == sum(rolled)
