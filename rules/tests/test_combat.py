"""Combat rules: worked examples from combat.md §13 and dice-and-core.md §11 (D-15…D-39)."""

import pytest

from rules.combat import (
    ActionCount,
    Actor,
    Armour,
    RangeBand,
    Scale,
    ScaleAdjustment,
    WeaponRange,
    WoundLevel,
    action_order,
    adjusted_modifier,
    apply_wound,
    auto_fire_difficulty_modifier,
    blast_damage,
    called_shot,
    combined_action_bonus,
    concentrated_fire_hits,
    damage_code,
    damage_result,
    die_cap_total,
    full_auto_may_react,
    full_reaction_penalty,
    grenade_scatter_dice,
    house_attack_bonus,
    house_parry_bonus,
    initiative_pool,
    initiative_roller,
    initiative_winner,
    is_hit,
    max_combining,
    modified_difficulty,
    multiple_action_penalty,
    range_difficulty,
    rc_combined_code,
    rc_declaration_order,
    reacted_difficulty,
    reaction_skills,
    resistance_code,
    roll_grenade_scatter,
    scale_adjustment,
    scale_modifier,
    situational_modifier,
    split_combined_bonus,
    spray_follow_up,
    stun_switch_actions,
    suppression_fumble_hits,
    suppression_successes,
    surprised_targets,
    target_size_modifier,
    thrown_damage,
    wound_effects,
    wound_level,
    wound_penalty,
)
from rules.dice import DieCode, FixedDice, effective_pool, roll
from rules.difficulty import number_range, shift
from rules.injuries import Duration
from rules.ruleset import RuleSet

STD = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")
D = DieCode.parse


# --- Multiple-action penalty -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "actions", "penalty"),
    [
        ("D-15 two actions", 2, 1),
        ("D-15 three actions", 3, 2),
        ("CB-35 Gamorrean haste and attack", 2, 1),
        ("CB-35 Erisson shot haste parry", 3, 2),
        ("CB-40 rise shoot dodge", 3, 2),
        ("CB-37 five actions", 5, 4),
        ("D-23 CB-36 six actions", 6, 5),
        ("one action", 1, 0),
    ],
)
def test_each_action_beyond_the_first_costs_one_die(example, actions, penalty):
    assert multiple_action_penalty(actions, ruleset=STD) == penalty


def test_d20_three_speed_actions_roll_dodge_at_minus_2d():
    assert effective_pool("5D+2", actions=3, ruleset=RuleSet()) == D("3D+2")


def test_cb31_surprise_haste_is_free_but_a_dodge_is_not():
    assert multiple_action_penalty(3, free_actions=2, ruleset=RC) == 0
    assert multiple_action_penalty(4, free_actions=2, ruleset=RC) == 1


def test_multiple_action_penalty_refuses_zero_actions_and_too_many_free_ones():
    with pytest.raises(ValueError, match="at least one action"):
        multiple_action_penalty(0, ruleset=STD)
    with pytest.raises(ValueError, match="free actions"):
        multiple_action_penalty(1, ruleset=STD, free_actions=2)


def test_cb5_a_reaction_using_a_declared_action_adds_no_penalty():
    count = ActionCount(3).take().take().react(use_declared=True)
    assert count.penalty_dice(ruleset=STD) == 2
    assert count.remaining == 0


def test_cb5_a_reaction_as_an_extra_action_raises_the_penalty_for_the_round():
    count = ActionCount(2).take()
    assert count.penalty_dice(ruleset=STD) == 1
    after = count.react(use_declared=False)
    assert (after.total, after.penalty_dice(ruleset=STD)) == (3, 2)


def test_d18_with_no_declared_actions_left_a_dodge_must_be_an_extra_action():
    sandor = ActionCount(2).take().take()
    with pytest.raises(ValueError, match="no declared actions"):
        sandor.react(use_declared=True)
    assert sandor.react(use_declared=False).penalty_dice(ruleset=STD) == 2


def test_cb8_a_wound_loses_the_remaining_actions_but_keeps_the_penalty():
    count = ActionCount(3).take().lose_remaining()
    assert (count.remaining, count.penalty_dice(ruleset=STD)) == (0, 2)


def test_action_count_refuses_more_used_than_declared():
    with pytest.raises(ValueError):
        ActionCount(1, used=2)


# --- Combined actions ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "combining", "margin", "bonus"),
    [
        ("D-29 eight troops", 8, 0, "2D+2"),
        ("D-30 missed by 1", 8, -1, "1D+2"),
        ("D-30 missed by 2", 8, -2, "+2"),
        ("D-30 missed by 3", 8, -3, "0D"),
        ("D-30 missed by 5", 8, -5, "0D"),
        ("D-33 one", 1, 0, "+1"),
        ("D-33 two", 2, 0, "+2"),
        ("D-33 three", 3, 0, "1D"),
        ("D-33 four", 4, 0, "1D+1"),
        ("D-33 twelve", 12, 0, "4D"),
        ("success margin changes nothing", 8, 5, "2D+2"),
    ],
)
def test_command_combined_action_bonus(example, combining, margin, bonus):
    assert combined_action_bonus(combining, margin, ruleset=STD) == D(bonus)


def test_d28_a_leader_commands_as_many_as_his_command_dice():
    assert max_combining("8D+2", ruleset=STD) == 8


def test_d34_a_leader_who_commands_and_works_rolls_command_at_minus_1d():
    assert effective_pool("5D", actions=2, ruleset=RuleSet()) == D("4D")


def test_d31_the_bonus_added_to_repair_keeps_its_pips_or_normalizes():
    bonus = combined_action_bonus(8, ruleset=STD)
    assert D("4D+1").pool_add(bonus) == DieCode(6, 3)
    assert D("4D+1") + bonus == D("7D")


def test_d32_cb32_the_bonus_splits_between_attack_and_damage():
    to_attack, to_damage = split_combined_bonus("2D+2", "1D")
    assert (to_attack, to_damage) == (D("1D"), D("1D+2"))
    assert D("6D").pool_add(to_attack) == D("7D")
    assert D("5D").pool_add(to_damage) == D("6D+2")


def test_split_combined_bonus_cannot_give_more_than_the_bonus():
    with pytest.raises(ValueError, match="between"):
        split_combined_bonus("1D", "1D+1")


@pytest.mark.parametrize(
    ("example", "actions", "bonus", "code"),
    [
        ("D-35 CB-33 one combined shot", 1, DieCode(0, 6), DieCode(3, 6)),
        ("D-36 CB-33 two combined shots", 2, DieCode(0, 4), DieCode(2, 4)),
    ],
)
def test_rc_stormtroopers_combine_fire(example, actions, bonus, code):
    supporters = ["3D", "3D"]
    got = combined_action_bonus(3, ruleset=RC, supporter_codes=supporters, actions=actions)
    assert got == bonus
    assert rc_combined_code("3D", supporters, actions=actions) == code


def test_d37_rc_work_under_pressure_is_limited_by_the_highest_skill():
    assert max_combining("3D", ruleset=RC) == 3
    assert max_combining("3D", actions=2, ruleset=RC) == 2


def test_d38_cb33_a_coordinator_who_also_fires_combines_one_fewer():
    assert max_combining("4D", actions=2, ruleset=RC) == 3


def test_d39_rc_over_the_limit_loses_the_bonus_and_three_pips_each():
    assert rc_combined_code("3D", ["3D"] * 4, limit=3) == DieCode(3, -6)


def test_rc_combined_actions_need_every_supporters_code():
    with pytest.raises(ValueError, match="supporters' die codes"):
        combined_action_bonus(3, ruleset=RC)
    with pytest.raises(ValueError, match="one die code for every supporter"):
        combined_action_bonus(3, ruleset=RC, supporter_codes=["3D"])


def test_combined_action_bonus_refuses_a_negative_count():
    with pytest.raises(ValueError, match="negative"):
        combined_action_bonus(-1, ruleset=STD)


# --- Scale (shared with rules.ships) --------------------------------------------------------
def test_v1_speeder_against_walker_has_an_adjusted_modifier_of_2d():
    assert adjusted_modifier("speeder", "walker", ruleset=STD) == D("2D")


def test_v2_v3_walker_resists_the_speeder_with_8d_and_adds_2d_damage_firing_back():
    assert D("6D").pool_add(scale_adjustment("speeder", "walker", ruleset=STD).resist_bonus) == D(
        "8D"
    )
    back = scale_adjustment("walker", "speeder", ruleset=STD)
    assert (back.dodge_bonus, back.damage_bonus, back.attack_bonus) == (D("2D"), D("2D"), D("0D"))


def test_cb27_a_character_fires_at_a_landspeeder():
    adj = scale_adjustment(Scale.CHARACTER, Scale.SPEEDER, ruleset=STD)
    assert D("5D").pool_add(adj.attack_bonus) == D("7D")
    assert damage_code("4D", bonuses=[adj.damage_bonus]) == D("4D")
    assert D("2D").pool_add(adj.resist_bonus) == D("4D")
    assert adj.dodge_bonus == D("0D")


def test_cb27_the_landspeeder_fires_back_at_the_character():
    adj = scale_adjustment(Scale.SPEEDER, Scale.CHARACTER, ruleset=STD)
    assert D("4D").pool_add("2D").pool_add(adj.attack_bonus) == D("6D")
    assert D("4D").pool_add(adj.dodge_bonus) == D("6D")
    assert damage_code("3D+1", bonuses=[adj.damage_bonus]) == D("5D+1")
    assert resistance_code("3D", scale_bonus=adj.resist_bonus) == D("3D")


@pytest.mark.parametrize(
    ("example", "target", "upg", "house"),
    [
        ("CB-28 starfighter", "starfighter", "6D", "8D"),
        ("CB-28 capital", "capital", "12D", "14D"),
        ("CB-28 walker", "walker", "4D", "4D"),
        ("Death Star", "death_star", "24D", "24D"),
    ],
)
def test_cb28_house_scale_dice(example, target, upg, house):
    assert adjusted_modifier("character", target, ruleset=STD) == D(upg)
    assert adjusted_modifier("character", target, ruleset=HOUSE) == D(house)


def test_same_scale_adds_no_scale_dice():
    assert scale_adjustment("walker", "walker", ruleset=STD) == ScaleAdjustment()
    assert scale_modifier("character", ruleset=STD) == D("0D")


def test_cb29_v7_v9_rc_die_caps_between_a_character_and_a_speeder():
    hunter_fires = scale_adjustment("character", "speeder", ruleset=RC)
    speeder_fires = scale_adjustment("speeder", "character", ruleset=RC)
    assert hunter_fires.to_hit_cap == 6
    assert speeder_fires.to_hit_cap == 5
    assert speeder_fires.resist_cap == 3
    assert hunter_fires.attack_bonus == D("0D")
    assert die_cap_total([6, 3, 2, 5], hunter_fires.damage_cap) == 5
    assert die_cap_total([4, 3, 1], speeder_fires.resist_cap) == 4


def test_d6_v6_dice_above_the_cap_are_dropped():
    assert die_cap_total([5, 2, 3, 6], 3) == 5


def test_the_death_star_cannot_target_a_character():
    caps = scale_adjustment("death_star", "character", ruleset=RC)
    assert not caps.possible
    with pytest.raises(ValueError, match="not possible"):
        die_cap_total([3], caps.to_hit_cap)


# --- Attack difficulty -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "band", "level", "std", "rc"),
    [
        ("CB-9 CB-10 point-blank", "point_blank", "Very Easy", (1, 5), (3, 5)),
        ("CB-9 CB-10 short", "short", "Easy", (6, 10), (6, 10)),
        ("CB-9 CB-10 medium", "medium", "Moderate", (11, 15), (11, 15)),
        ("CB-9 CB-10 long", "long", "Difficult", (16, 20), (16, 20)),
    ],
)
def test_range_difficulty(example, band, level, std, rc):
    got = range_difficulty(band, ruleset=STD)
    assert (str(got.level), (got.low, got.high)) == (level, std)
    rc_got = range_difficulty(band, ruleset=RC)
    assert (rc_got.low, rc_got.high) == rc


def test_cb9_the_gms_14_and_15_are_medium_range_numbers():
    medium = range_difficulty(RangeBand.medium, ruleset=STD)
    assert medium.low <= 14 <= medium.high and medium.low <= 15 <= medium.high


def test_cb9_long_range_mostly_behind_cover_is_very_difficult():
    level = shift(range_difficulty("long", ruleset=STD).level, 1, ruleset=RuleSet())
    assert (str(level), number_range(level, ruleset=RuleSet())) == ("Very Difficult", (21, 30))


def test_beyond_long_range_a_weapon_cannot_hit():
    with pytest.raises(ValueError, match="cannot be hit"):
        range_difficulty("out_of_range", ruleset=STD)


@pytest.mark.parametrize(
    ("distance", "band"),
    [
        (2, "point_blank"),
        (3, "short"),
        (10, "short"),
        (11, "medium"),
        (30, "medium"),
        (31, "long"),
        (120, "long"),
        (121, "out_of_range"),
    ],
)
def test_cb11_reading_weapon_ranges(distance, band):
    assert WeaponRange.parse("3-10/30/120").band(distance) == RangeBand(band)


def test_weapon_ranges_reject_bad_text_and_negative_distances():
    with pytest.raises(ValueError, match="3-10/30/120"):
        WeaponRange.parse("short")
    with pytest.raises(ValueError, match="grow"):
        WeaponRange(5, 3, 30, 120)
    with pytest.raises(ValueError, match="negative"):
        WeaponRange.parse("3-10/30/120").band(-1)


def test_d10_a_tie_hits():
    assert is_hit(14, 14)
    assert not is_hit(13, 14)


def test_cb12_a_brawling_parry_becomes_the_difficulty():
    assert str(range_difficulty("point_blank", ruleset=STD).level) == "Very Easy"
    assert reacted_difficulty(5, 13, ruleset=STD) == 13


@pytest.mark.parametrize(
    ("example", "size_cm", "difficulty", "house_damage"),
    [
        ("CB-13 30 cm", 30, "1D", "1D"),
        ("CB-13 5 cm", 5, "4D", "2D"),
        ("CB-13 5 mm", 0.5, "8D", "3D"),
        ("10 cm belongs to the +1D row", 10, "1D", "1D"),
    ],
)
def test_cb13_called_shots(example, size_cm, difficulty, house_damage):
    assert called_shot(size_cm, ruleset=STD).difficulty == D(difficulty)
    assert called_shot(size_cm, ruleset=STD).damage_bonus == D("0D")
    assert called_shot(size_cm, ruleset=HOUSE).damage_bonus == D(house_damage)


def test_cb13_a_called_shot_at_short_range_rolls_its_extra_die():
    assert (
        modified_difficulty(
            8, called_shot(30, ruleset=STD).difficulty, ruleset=STD, rng=FixedDice([4])
        )
        == 12
    )


def test_cb13_house_called_shot_hit_adds_damage():
    assert damage_code("4D", bonuses=[called_shot(30, ruleset=HOUSE).damage_bonus]) == D("5D")


def test_called_shots_are_for_small_targets_only():
    with pytest.raises(ValueError, match="50 cm"):
        called_shot(60, ruleset=STD)
    with pytest.raises(ValueError, match="positive"):
        called_shot(0, ruleset=STD)


def test_cb14_rc_fire_modifiers():
    prone, cover = (
        situational_modifier("prone", ruleset=RC),
        situational_modifier("medium_cover", ruleset=RC),
    )
    assert modified_difficulty(13, prone, cover, ruleset=STD, rng=FixedDice([])) == 17
    assert (
        modified_difficulty(
            13, prone, situational_modifier("window", ruleset=RC), ruleset=STD, rng=FixedDice([])
        )
        == 18
    )


@pytest.mark.parametrize(
    ("example", "size_cm", "modifier"),
    [
        ("CB-14 5 m tall", 500, -3),
        ("CB-14 200 m long", 20000, -10),
        ("under 1 cm", 0.5, 15),
        ("1 cm", 1, 10),
        ("10 cm", 10, 10),
        ("30 cm", 30, 5),
        ("75 cm", 75, 2),
        ("1 m", 100, 0),
        ("3 m", 300, 0),
        ("10 m", 1000, -5),
        ("100 m", 10000, -10),
    ],
)
def test_rc_target_size_modifier(example, size_cm, modifier):
    assert target_size_modifier(size_cm) == modifier
    assert called_shot(size_cm, ruleset=RC).difficulty == DieCode(0, modifier)


def test_cb15_half_cover_rolls_2d_onto_long_range():
    assert (
        modified_difficulty(
            18, situational_modifier("half_cover", ruleset=STD), ruleset=STD, rng=FixedDice([3, 4])
        )
        == 25
    )
    assert situational_modifier("complete_darkness", ruleset=STD) == D("4D")


def test_dice_on_a_difficulty_count_three_each_when_the_campaign_fixes_them():
    fixed = RuleSet(difficulty_dice="fixed")
    assert modified_difficulty(10, "2D", "+1", ruleset=fixed, rng=FixedDice([])) == 17
    assert modified_difficulty(10, "-1D", ruleset=fixed, rng=FixedDice([])) == 7


def test_cb40_a_prone_target_is_harder_to_hit_only_in_rc():
    assert (
        modified_difficulty(
            8, situational_modifier("prone", ruleset=RC), ruleset=STD, rng=FixedDice([])
        )
        == 10
    )
    assert situational_modifier("prone", ruleset=STD) == D("+0")


def test_cover_modifiers_follow_the_campaigns_chart():
    assert situational_modifier("half_cover", ruleset=RuleSet(cover_modifiers="none")) == D("0D")
    with pytest.raises(ValueError, match="Rules Companion fire modifiers chart"):
        situational_modifier("half_cover", ruleset=RC)
    with pytest.raises(ValueError, match="not a 2E modifier"):
        situational_modifier("window", ruleset=STD)
    with pytest.raises(ValueError, match="cannot be hit directly"):
        situational_modifier("full_cover", ruleset=STD)
    with pytest.raises(ValueError, match="unknown combat condition"):
        situational_modifier("behind a bantha", ruleset=STD)


def test_target_size_must_be_positive():
    with pytest.raises(ValueError, match="positive"):
        target_size_modifier(0)


# --- Stun settings ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "damage", "strength", "level", "knockout"),
    [
        ("CB-17 9 v 7", 9, 7, WoundLevel.stunned, None),
        ("CB-17 15 v 9", 15, 9, WoundLevel.none, Duration(2, "minutes")),
        ("CB-17 30 v 10", 30, 10, WoundLevel.none, Duration(2, "minutes")),
        ("H-13 11 v 12", 11, 12, WoundLevel.none, None),
        ("H-13 12 v 12", 12, 12, WoundLevel.stunned, None),
        ("H-13 15 v 12", 15, 12, WoundLevel.stunned, None),
        ("H-13 16 v 12", 16, 12, WoundLevel.none, Duration(2, "minutes")),
        ("H-13 28 v 12", 28, 12, WoundLevel.none, Duration(2, "minutes")),
    ],
)
def test_upg_stun_setting(example, damage, strength, level, knockout):
    result = damage_result(damage, strength, ruleset=STD, stun_weapon=True)
    assert (result.level, result.unconscious_for) == (level, knockout)


def test_h13_two_d_minutes_of_3_and_4_is_84_rounds():
    assert (
        damage_result(16, 12, ruleset=STD, stun_weapon=True).unconscious_for.roll_rounds(
            rng=FixedDice([3, 4])
        )
        == 84
    )


@pytest.mark.parametrize(
    ("example", "damage", "strength", "level", "knockout"),
    [
        ("CB-18 17 v 10", 17, 10, WoundLevel.none, Duration(7, "rounds")),
        ("CB-18 12 v 10", 12, 10, WoundLevel.stunned, None),
        ("H-15 15 v 12", 15, 12, WoundLevel.stunned, None),
        ("H-15 18 v 12", 18, 12, WoundLevel.none, Duration(6, "rounds")),
    ],
)
def test_house_stun_setting_knocks_out_for_the_margin_in_dice_of_rounds(
    example, damage, strength, level, knockout
):
    result = damage_result(damage, strength, ruleset=HOUSE, stun_weapon=True)
    assert (result.level, result.unconscious_for) == (level, knockout)


def test_h15_six_d_rounds_rolled_1_to_6_is_21_rounds():
    assert Duration(6, "rounds").roll_rounds(rng=FixedDice([1, 2, 3, 4, 5, 6])) == 21


@pytest.mark.parametrize(
    ("example", "damage", "strength", "points", "unconscious"),
    [
        ("H-11 DR 4", 4, 10, 0, False),
        ("H-11 DR 9", 9, 10, 0, False),
        ("H-11 DR 10", 10, 10, 1, False),
        ("H-11 DR 20", 20, 10, 2, False),
        ("H-11 DR 30", 30, 10, 0, True),
        ("CB-41 DR 11", 11, 12, 0, False),
        ("CB-41 DR 23", 23, 12, 1, False),
        ("CB-41 DR 35", 35, 12, 2, False),
        ("CB-41 DR 36", 36, 12, 0, True),
    ],
)
def test_rc_stun_damage_summary(example, damage, strength, points, unconscious):
    result = damage_result(damage, strength, ruleset=RC, stun_weapon=True)
    assert result.stun_points == points
    assert (result.unconscious_for is not None) == unconscious
    assert result.level in (WoundLevel.none, WoundLevel.stunned)


@pytest.mark.parametrize(
    ("example", "ruleset", "actions"),
    [("H-14 CB-18 House", HOUSE, 1), ("H-16 CB-44 RC", RC, 1), ("baseline is free", STD, 0)],
)
def test_setting_a_blaster_to_stun(example, ruleset, actions):
    assert stun_switch_actions(ruleset=ruleset) == actions
    assert multiple_action_penalty(1 + stun_switch_actions(ruleset=ruleset), ruleset=STD) == actions


# --- Grenades and thrown weapons -------------------------------------------------------------
@pytest.mark.parametrize(
    ("band", "dice"), [("point_blank", 1), ("short", 1), ("medium", 2), ("long", 3)]
)
def test_cb46_rc_grenade_scatter_dice(band, dice):
    assert grenade_scatter_dice(band, ruleset=RC) == dice
    assert grenade_scatter_dice(band, ruleset=STD) == 0


def test_cb46_a_medium_range_miss_with_7_on_2d_lands_7_m_away():
    assert roll_grenade_scatter("medium", rng=FixedDice([3, 4]), ruleset=RC) == 7


def test_grenades_and_rocks_cannot_be_thrown_out_of_range():
    with pytest.raises(ValueError, match="beyond long range"):
        grenade_scatter_dice("out_of_range", ruleset=RC)
    with pytest.raises(ValueError, match="beyond long range"):
        thrown_damage("2D", "out_of_range")


def test_blast_radius_bands_give_each_distance_its_damage():
    bands = [(2, "5D"), (4, "4D"), (6, "3D")]
    assert [blast_damage(d, bands) for d in (0, 2, 3, 6, 7)] == [
        D("5D"),
        D("5D"),
        D("4D"),
        D("3D"),
        None,
    ]
    with pytest.raises(ValueError, match="centre outwards"):
        blast_damage(1, [(4, "4D"), (2, "5D")])
    with pytest.raises(ValueError, match="negative"):
        blast_damage(-1, bands)


def test_cb16_strength_based_damage():
    assert damage_code("STR+1D", strength="3D") == D("4D")
    assert damage_code("STR", strength="3D+1") == D("3D+1")
    assert damage_code("STR-1D", strength="2D") == D("1D")
    assert [thrown_damage("2D", b) for b in ("short", "medium", "long")] == [
        D("2D"),
        D("2D"),
        D("1D"),
    ]
    with pytest.raises(ValueError, match="Strength"):
        damage_code("STR+1D")


# --- Reactions -------------------------------------------------------------------------------
def test_cb4_a_2e_reaction_replaces_the_difficulty_even_when_lower():
    difficulty = reacted_difficulty(18, 11, ruleset=STD)
    assert difficulty == 11 and is_hit(13, difficulty)


def test_cb4_an_rc_combat_dodge_keeps_the_higher_number():
    assert reacted_difficulty(18, 11, ruleset=RC) == 18


def test_cb4_a_full_reaction_adds_to_the_difficulty():
    assert reacted_difficulty(18, 11, ruleset=STD, full=True) == 29
    assert reacted_difficulty(18, 11, ruleset=RC, full=True) == 29


@pytest.mark.parametrize(
    ("example", "roll_total", "full", "reaction_haste", "attack_haste", "difficulty"),
    [
        ("CB-38 low combat dodge", 11, False, 0, 0, 15),
        ("CB-38 high combat dodge", 19, False, 0, 0, 19),
        ("CB-38 full dodge", 11, True, 0, 0, 26),
        ("CB-38 too little haste", 19, False, 2, 3, 15),
        ("CB-35 same haste counts", 19, False, 1, 1, 19),
    ],
)
def test_cb38_rc_reactions(example, roll_total, full, reaction_haste, attack_haste, difficulty):
    got = reacted_difficulty(
        15,
        roll_total,
        ruleset=RC,
        full=full,
        reaction_haste=reaction_haste,
        attack_haste=attack_haste,
    )
    assert got == difficulty


def test_d16_d18_wiki_round_reaction_totals():
    assert reacted_difficulty(14, 25 - 5, ruleset=STD) == 20
    assert not is_hit(20 - 3, 20)
    assert is_hit(25 - 3, reacted_difficulty(15, 21, ruleset=STD))


def test_cb6_without_a_reaction_the_range_difficulty_stands():
    assert reacted_difficulty(14, None, ruleset=STD) == 14


def test_full_reactions_can_be_switched_off():
    with pytest.raises(ValueError, match="no full reactions"):
        reacted_difficulty(18, 11, ruleset=RuleSet(full_reaction="none"), full=True)


def test_cb39_an_rc_full_dodge_gets_its_speed_actions_die_back():
    assert effective_pool(
        "4D", penalty_dice=full_reaction_penalty(2, ruleset=STD), ruleset=RuleSet()
    ) == D("4D")
    assert effective_pool("4D", actions=2, ruleset=RuleSet()) == D("3D")
    assert effective_pool(
        "4D", penalty_dice=full_reaction_penalty(3, ruleset=STD), ruleset=RuleSet()
    ) == D("3D")
    assert effective_pool("4D", actions=3, ruleset=RuleSet()) == D("2D")


def test_cb7_house_armed_and_unarmed_modifiers():
    assert 12 + house_parry_bonus(defender_armed=True, attacker_armed=False, ruleset=HOUSE) == 17
    attack = 9 + house_attack_bonus(attacker_armed=True, defender_armed=False, ruleset=HOUSE)
    assert attack == 19 and is_hit(attack, 11)


def test_armed_and_unarmed_modifiers_are_house_only():
    assert house_parry_bonus(ruleset=STD, defender_armed=True, attacker_armed=False) == 0
    assert house_attack_bonus(ruleset=STD, attacker_armed=True, defender_armed=False) == 0
    assert house_parry_bonus(defender_armed=True, attacker_armed=True, ruleset=HOUSE) == 0


@pytest.mark.parametrize(
    ("attack", "kwargs", "skills"),
    [
        ("ranged", {}, ("dodge",)),
        ("melee", {}, ("melee parry",)),
        ("melee", {"lightsaber": True}, ("melee parry", "lightsaber")),
        ("brawling", {}, ("brawling parry",)),
        ("brawling", {"armed": True}, ("brawling parry", "melee parry")),
        ("vehicle", {}, ("vehicle dodge",)),
        ("starship", {}, ("starship dodge",)),
        ("melee", {"ruleset": RuleSet(dodge_covers_melee=True)}, ("melee parry", "dodge")),
    ],
)
def test_which_reaction_answers_which_attack(attack, kwargs, skills):
    assert reaction_skills(attack, **{"ruleset": STD, **kwargs}) == skills


def test_unknown_attack_kind_is_refused():
    with pytest.raises(ValueError, match="unknown attack kind"):
        reaction_skills("psychic", ruleset=STD)


# --- Damage, armour and the wound level ------------------------------------------------------
@pytest.mark.parametrize(
    ("example", "damage", "strength", "level"),
    [
        ("CB-19 -1", 9, 10, "none"),
        ("CB-19 0", 10, 10, "stunned"),
        ("CB-19 3", 13, 10, "stunned"),
        ("CB-19 4", 14, 10, "wounded"),
        ("CB-19 8", 18, 10, "wounded"),
        ("CB-19 9", 19, 10, "incapacitated"),
        ("CB-19 12", 22, 10, "incapacitated"),
        ("CB-19 13", 23, 10, "mortally_wounded"),
        ("CB-19 15", 25, 10, "mortally_wounded"),
        ("CB-19 16", 26, 10, "killed"),
        ("H-9 40", 40, 10, "killed"),
        ("H-1 D-19 18 v 14", 18, 14, "wounded"),
    ],
)
def test_2e_character_damage_chart(example, damage, strength, level):
    result = wound_level(damage, strength, ruleset=STD)
    assert str(result) == level and result.name == level


@pytest.mark.parametrize(
    ("example", "damage", "strength", "level"),
    [
        ("H-10 DR 4", 4, 10, "none"),
        ("H-10 DR 5", 5, 10, "stunned"),
        ("H-10 DR 9", 9, 10, "stunned"),
        ("H-10 DR 10", 10, 10, "wounded"),
        ("H-10 DR 19", 19, 10, "wounded"),
        ("H-10 DR 20", 20, 10, "incapacitated"),
        ("H-10 DR 29", 29, 10, "incapacitated"),
        ("H-10 DR 30", 30, 10, "mortally_wounded"),
        ("H-10 DR 60 never killed", 60, 10, "mortally_wounded"),
        ("H-12 DR 5", 5, 11, "none"),
        ("H-12 DR 6", 6, 11, "stunned"),
        ("H-12 DR 11", 11, 11, "wounded"),
        ("H-12 DR 22", 22, 11, "incapacitated"),
        ("H-12 DR 33", 33, 11, "mortally_wounded"),
        ("CB-41 DR 5", 5, 12, "none"),
        ("CB-41 DR 6", 6, 12, "stunned"),
        ("CB-41 DR 12", 12, 12, "wounded"),
        ("CB-41 DR 24", 24, 12, "incapacitated"),
        ("CB-41 DR 36", 36, 12, "mortally_wounded"),
    ],
)
def test_rc_damage_summary(example, damage, strength, level):
    assert wound_level(damage, strength, ruleset=RC) == WoundLevel(level)


def test_rc_multiples_without_escaping_unscathed_still_stun():
    assert wound_level(4, 10, ruleset=RC.replace(escaping_unscathed=False)) == WoundLevel.stunned


def test_a_stunned_result_carries_one_stun_point():
    assert damage_result(10, 10, ruleset=STD).stun_points == 1
    assert damage_result(14, 10, ruleset=STD).stun_points == 0


def test_damage_totals_cannot_be_negative():
    with pytest.raises(ValueError, match="negative"):
        wound_level(-1, 10, ruleset=STD)


def test_h1_a_wound_knocks_him_prone_out_of_the_round_at_minus_1d():
    effects = wound_effects(wound_level(18, 14, ruleset=STD), ruleset=STD)
    assert (
        effects.falls_prone,
        effects.loses_rest_of_round,
        effects.penalty_dice,
    ) == (
        True,
        True,
        1,
    )


def test_h2_cb20_wounded_again_at_full_strength_is_wounded_twice():
    assert resistance_code("3D") == D("3D")
    assert (
        apply_wound(WoundLevel.wounded, wound_level(20, 14, ruleset=STD), ruleset=STD)
        == WoundLevel.wounded_twice
    )
    assert wound_penalty(WoundLevel.wounded_twice, ruleset=STD) == 2


def test_cb21_armour_adds_to_strength_against_damage():
    assert resistance_code("3D", "2D") == D("5D")
    assert resistance_code("1D", Armour.uniform("1D")) == D("2D")


def test_armour_can_protect_differently_against_energy_and_physical_attacks():
    vest = Armour(physical=D("2D"), energy=D("1D"))
    assert resistance_code("3D", vest) == D("4D")
    assert resistance_code("3D", vest, attack="physical") == D("5D")


def test_only_explicit_effects_lower_the_strength_roll():
    assert resistance_code("4D", penalty_dice=2) == D("2D")
    with pytest.raises(ValueError, match="negative"):
        resistance_code("4D", penalty_dice=-1)


@pytest.mark.parametrize(
    ("example", "damage", "strength", "band", "level", "needs_gm"),
    [
        ("CB-23 short range stun becomes wounded twice", 14, 11, "short", "wounded_twice", False),
        ("CB-23 strength above damage", 14, 16, "short", "none", True),
        ("CB-23 point-blank", 20, 12, "point_blank", "mortally_wounded", False),
        ("short-range incapacitation stays", 21, 11, "short", "incapacitated", False),
        ("medium range is unchanged", 14, 11, "medium", "stunned", False),
    ],
)
def test_cb23_house_short_and_point_blank_hits(example, damage, strength, band, level, needs_gm):
    result = damage_result(damage, strength, ruleset=HOUSE, range_band=band)
    assert (result.level, result.needs_gm) == (WoundLevel(level), needs_gm)


def test_the_short_range_rule_is_off_outside_house_campaigns():
    assert damage_result(14, 11, ruleset=STD, range_band="short").level == WoundLevel.stunned


def test_cb22_house_wild_die_six_as_a_critical_or_an_explosion():
    crit = roll("5D", ruleset=HOUSE, rng=FixedDice([2, 3, 4, 5, 6]), offer_crit=lambda chain: True)
    assert (crit.total, crit.critical_injury) == (20, True)
    boom = roll(
        "5D", ruleset=HOUSE, rng=FixedDice([2, 3, 4, 5, 6, 4]), offer_crit=lambda chain: False
    )
    assert (boom.total, boom.critical_injury) == (24, False)


# --- House automatic and suppression fire ----------------------------------------------------
def test_cb24_full_auto_bursts():
    penalty = multiple_action_penalty(2, full_auto=True, ruleset=HOUSE)
    assert effective_pool("5D", penalty_dice=penalty, ruleset=RuleSet()) == D("3D")
    assert 8 + auto_fire_difficulty_modifier(auto_specialization=False, ruleset=HOUSE) == 10
    with_dodge = multiple_action_penalty(3, full_auto=True, ruleset=HOUSE)
    assert effective_pool("5D", penalty_dice=with_dodge, ruleset=RuleSet()) == D("2D")
    assert full_auto_may_react(0, ruleset=HOUSE) and not full_auto_may_react(1, ruleset=HOUSE)
    assert effective_pool("6D", penalty_dice=penalty, ruleset=RuleSet()) == D("4D")
    assert 8 + auto_fire_difficulty_modifier(auto_specialization=True, ruleset=HOUSE) == 8


@pytest.mark.parametrize(
    ("roll_total", "hits", "bonus"), [(12, 6, "2D"), (9, 3, "1D"), (8, 0, "0D")]
)
def test_cb24_concentrated_fire(roll_total, hits, bonus):
    assert concentrated_fire_hits(6, roll_total, 10, ruleset=HOUSE) == hits
    assert DieCode.from_pips(hits) == D(bonus)


def test_cb25_spraying_fire():
    assert spray_follow_up(0.5, ruleset=HOUSE) == (0, 1)
    assert str(shift("Moderate", -1, ruleset=RuleSet())) == "Easy"
    assert spray_follow_up(4, 5, ruleset=HOUSE) == (4, 0)
    with pytest.raises(ValueError, match="new burst"):
        spray_follow_up(4, 12, ruleset=HOUSE)


def test_cb26_suppression_fire():
    rolls = [17, 12, 20]
    assert suppression_successes(rolls, 16, ruleset=HOUSE) == 2
    assert suppression_fumble_hits(rolls, 1, ruleset=HOUSE) == [20]
    assert suppression_fumble_hits(rolls, 2, ruleset=HOUSE) == [20, 17]
    assert suppression_fumble_hits(rolls, 4, ruleset=HOUSE) == [20, 17, 12, None]


def test_house_fire_modes_are_refused_in_other_campaigns():
    with pytest.raises(ValueError, match="automatic-fire"):
        multiple_action_penalty(2, ruleset=STD, full_auto=True)
    with pytest.raises(ValueError, match="automatic-fire"):
        concentrated_fire_hits(6, 12, 10, ruleset=STD)
    with pytest.raises(ValueError, match="suppression"):
        suppression_successes([17], 16, ruleset=STD)


def test_bad_bursts_are_refused():
    with pytest.raises(ValueError, match="at least one shot"):
        concentrated_fire_hits(0, 12, 10, ruleset=HOUSE)
    with pytest.raises(ValueError, match="negative"):
        spray_follow_up(-1, ruleset=HOUSE)


# --- Initiative, order of actions, surprise --------------------------------------------------
SIDE_A = [("P1", "4D", WoundLevel.wounded), ("P2", "3D+1", WoundLevel.none)]


def test_cb2_who_rolls_initiative():
    printed = RuleSet(initiative_roller="highest_printed")
    assert initiative_roller(SIDE_A, ruleset=printed) == "P1"
    assert initiative_pool("4D", ruleset=STD, wound=WoundLevel.wounded) == D("3D")
    assert initiative_roller(SIDE_A, ruleset=STD) == "P2"
    assert initiative_pool("3D+1", ruleset=STD) == D("3D+1")


def test_cb2_ties_are_rerolled_and_the_higher_roll_chooses():
    assert initiative_winner(12, 12) is None
    assert initiative_winner(9, 14) == "b"
    assert initiative_winner(14, 9) == "a"


def test_cb2_no_character_points_on_initiative():
    with pytest.raises(ValueError, match="Character Points"):
        initiative_pool("3D", ruleset=STD, cp_dice=1)


def test_cb2_house_slowed_down_costs_another_die():
    assert initiative_pool("4D", ruleset=STD, wound=WoundLevel.wounded, slowed_down=True) == D("2D")


def test_initiative_needs_someone_on_the_side():
    with pytest.raises(ValueError, match="at least one"):
        initiative_roller([], ruleset=STD)


def test_cb1_order_of_actions():
    first = [Actor("X", D("4D"), 2), Actor("Y", D("3D"), 1)]
    second = [Actor("Z", D("3D+2"), 3), Actor("W", D("2D"), 1)]
    assert action_order(first, second) == [
        ("X", 1),
        ("Y", 1),
        ("Z", 1),
        ("W", 1),
        ("X", 2),
        ("Z", 2),
        ("Z", 3),
    ]


def test_cb3_whole_pose_replays_the_wiki_round():
    first = [Actor("Sandor", D("3D"), 2)]
    second = [Actor("Cantrell", D("3D"), 2), Actor("Mahon", D("2D"), 1)]
    assert action_order(first, second, whole_pose=True) == [
        ("Sandor", 1),
        ("Sandor", 2),
        ("Cantrell", 1),
        ("Cantrell", 2),
        ("Mahon", 1),
    ]


def test_cb2_winded_characters_act_last_in_every_pass():
    first = [Actor("P1", D("4D"), 1, winded=True), Actor("P2", D("3D"), 1)]
    assert action_order(first, [Actor("Q", D("2D"), 1)]) == [("P2", 1), ("Q", 1), ("P1", 1)]


def test_cb34_rc_declaration_order():
    actors = [("A", "3D+2", False), ("B", "3D+2", True), ("C", "2D+1", False), ("D", "4D", True)]
    assert rc_declaration_order(actors, 1) == ["C", "B", "A", "D"]
    assert rc_declaration_order(actors, 2) == ["D", "B", "A", "C"]
    with pytest.raises(ValueError, match="segment"):
        rc_declaration_order(actors, 3)


def test_cb30_surprise_per_target_and_any_spotter():
    sneaks, searches = {"A": 14, "B": 9}, {"T1": 10, "T2": 8}
    assert surprised_targets(sneaks, searches, ruleset=STD) == {"T2"}
    alert_all = RuleSet(surprise_granularity="any_spotter_alerts_all")
    assert surprised_targets(sneaks, searches, ruleset=alert_all) == frozenset()
    assert surprised_targets(sneaks, {"T2": 8}, ruleset=alert_all) == {"T2"}
    with pytest.raises(ValueError, match="ambusher"):
        surprised_targets({}, searches, ruleset=STD)
