"""Exact odds (rules.odds) against hand-worked fractions, a slow independent enumeration,
Monte Carlo runs of rules.dice.roll, and icepool through the benchmark's own comparison."""

from __future__ import annotations

import importlib.util
import itertools
import math
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.dice import DieCode, DieCodeError, SeededDice, roll
from rules.odds import (
    DIFFICULTY_LEVELS,
    Distribution,
    LevelChance,
    OddsError,
    chances_by_level,
    clear_cache,
    distribution,
    mean,
    success_chance,
    success_table,
)
from rules.ruleset import RuleSet

COMPLICATION = RuleSet()
SUBTRACT = RuleSet(wild_die_one="subtract")
HOUSE = RuleSet(wild_die_one="house_table")
NO_WILD = RuleSet(wild_die=False)
F = Fraction


# ---------------------------------------------------------------------------------------------
# An independent, slow reference: enumerate the normal dice and the first Wild Die roll, and
# follow the explosion with an exact tail recursion in Fractions.
# ---------------------------------------------------------------------------------------------
@cache
def exploding_at_least(k: int) -> Fraction:
    """P(an exploding d6 totals >= k)."""
    if k <= 1:
        return F(1)
    sure = sum(F(1, 6) for face in range(1, 6) if face >= k)
    return sure + F(1, 6) * exploding_at_least(k - 6)


@cache
def exploding_exactly(k: int) -> Fraction:
    """P(an exploding d6 totals exactly k)."""
    if 1 <= k <= 5:
        return F(1, 6)
    if k >= 7:
        return F(1, 6) * exploding_exactly(k - 6)
    return F(0)


@cache
def exploding_dice_reach(need: int, dice: int) -> Fraction:
    """P(``dice`` exploding d6 together total >= need)."""
    if need <= 0:
        return F(1)
    if dice == 0:
        return F(0)
    short = sum(
        (exploding_exactly(k) * exploding_dice_reach(need - k, dice - 1) for k in range(1, need)),
        F(0),
    )
    return short + exploding_at_least(need)


def reference_at_least(dice: int, pips: int, difficulty: int, rule: str, cp: int = 0) -> Fraction:
    """P(total >= difficulty) by brute force. rule: none | counted | subtract | house.

    Every normal die and the first Wild Die roll are enumerated; a first 6 adds 6 and one
    more exploding die; ``cp`` Character Point dice are exploding dice too."""
    if difficulty <= 0:  # a total below 0 counts as 0
        return F(1)
    if rule == "none":
        outcomes = list(itertools.product(range(1, 7), repeat=dice))
        return sum(
            (exploding_dice_reach(difficulty - sum(f) - pips, cp) for f in outcomes), F(0)
        ) / len(outcomes)
    chance = F(0)
    for normal in itertools.product(range(1, 7), repeat=dice - 1):
        base = sum(normal) + pips
        removed = base - max(normal, default=0)  # the 1 and the highest die taken away
        branches = {
            1: {
                "counted": [(F(1), base + 1)],
                "subtract": [(F(1), removed)],
                "house": [(F(1, 2), base + 1), (F(1, 2), removed)],
            }[rule],
            **{face: [(F(1), base + face)] for face in (2, 3, 4, 5)},
        }
        for branch in branches.values():
            for weight, total in branch:
                chance += weight * exploding_dice_reach(difficulty - total, cp)
        chance += exploding_dice_reach(difficulty - base - 6, cp + 1)  # 6, then it explodes
    return chance / 6**dice


# ---------------------------------------------------------------------------------------------
# Spot values worked by hand
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "difficulty", "expected"),
    [
        ("1D", 1, F(1)),  # any roll makes 1
        ("1D", 2, F(5, 6)),  # only a first 1 (counted) misses
        ("1D", 6, F(1, 6)),  # a 6 and anything after it
        ("1D", 7, F(1, 6)),  # a 6 is always followed by at least 1
        ("1D", 8, F(1, 6) * F(5, 6)),  # 6, then 2..6
        ("1D", 13, F(1, 36)),  # 6, 6, then anything
        ("2D", 2, F(1)),
        # normal die a = 1..6 needs the Wild Die to reach 11..6: (2+3+4+5+6+6)/36 each / 6
        ("2D", 12, F(13, 108)),
    ],
)
def test_complication_odds_match_hand_worked_fractions(code, difficulty, expected):
    assert success_chance(code, difficulty, ruleset=RuleSet()) == pytest.approx(
        float(expected), abs=1e-15
    )


def test_one_die_complication_distribution_is_the_exploding_die():
    dist = distribution("1D", ruleset=RuleSet())
    assert dist.low == 1  # totals that cannot come up are left out
    assert [dist.probability(t) for t in range(0, 14)] == pytest.approx(
        [0, *[1 / 6] * 5, 0, *[1 / 36] * 5, 0, 1 / 216], abs=1e-16
    )


def test_subtract_leaves_one_die_at_zero_and_never_at_one():
    dist = distribution("1D", ruleset=SUBTRACT)
    assert dist.probability(0) == pytest.approx(1 / 6, abs=1e-16)
    assert dist.probability(1) == 0
    assert success_chance("1D", 1, ruleset=SUBTRACT) == pytest.approx(5 / 6, abs=1e-15)
    assert success_chance("1D", 2, ruleset=SUBTRACT) == pytest.approx(5 / 6, abs=1e-15)


def test_subtract_on_two_dice_takes_the_normal_die_and_the_one():
    # Wild Die 1 with a normal die a: a + 1 - (1 + a) = 0, whatever a shows.
    assert distribution("2D", ruleset=SUBTRACT).probability(0) == pytest.approx(1 / 6, abs=1e-16)


def test_one_die_plus_pips_totals_the_pips_on_a_subtracted_one():
    assert distribution("1D+2", ruleset=SUBTRACT).probability(2) == pytest.approx(1 / 6, abs=1e-16)


def test_house_table_splits_a_wild_one_evenly_between_subtract_and_counted():
    # A1: GM 1D, 3-5 subtract (1/2), 1, 2, 6 count the 1 as rolled (1/2).
    dist = distribution("1D", ruleset=HOUSE)
    assert dist.probability(0) == pytest.approx(1 / 12, abs=1e-16)
    assert dist.probability(1) == pytest.approx(1 / 12, abs=1e-16)


@pytest.mark.parametrize("code", ["1D", "2D+1", "3D", "5D+2", "12D", "30D+2"])
def test_house_table_odds_are_the_average_of_counted_and_subtracted(code):
    # D-41 (A1 reading): the only difference is the first Wild Die 1, half of each.
    for d in range(1, 120, 7):
        both = (
            success_chance(code, d, ruleset=RuleSet()) + success_chance(code, d, ruleset=SUBTRACT)
        ) / 2
        assert success_chance(code, d, ruleset=HOUSE) == pytest.approx(both, abs=1e-15)


@pytest.mark.parametrize("option", ["normal", "gm_choice"])
def test_normal_and_gm_choice_count_the_one_like_complication(option):
    ruleset = RuleSet(wild_die_one=option)
    assert distribution("4D+1", ruleset=ruleset) == distribution("4D+1", ruleset=RuleSet())
    assert success_chance("4D+1", 17, ruleset=ruleset) == success_chance(
        "4D+1", 17, ruleset=RuleSet()
    )


def test_gm_choice_exposes_the_subtract_outcome_on_request():
    gm = RuleSet(wild_die_one="gm_choice")
    assert distribution("4D", ruleset=gm, wild_die_one="subtract") == distribution(
        "4D", ruleset=SUBTRACT
    )
    assert success_chance("4D", 14, ruleset=gm, wild_die_one="subtract") == success_chance(
        "4D", 14, ruleset=SUBTRACT
    )
    assert chances_by_level("4D", ruleset=gm, wild_die_one="subtract") == chances_by_level(
        "4D", ruleset=SUBTRACT
    )


def test_without_a_wild_die_two_dice_are_the_plain_triangle():
    dist = distribution("2D", ruleset=NO_WILD)
    assert dist.beyond == 0
    assert [dist.probability(t) for t in range(2, 13)] == pytest.approx(
        [k / 36 for k in (1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1)], abs=1e-16
    )
    assert success_chance("2D", 12, ruleset=NO_WILD) == pytest.approx(1 / 36, abs=1e-16)
    assert success_chance("2D", 13, ruleset=NO_WILD) == 0


def test_the_rc_preset_rolls_without_a_wild_die():
    assert distribution("3D+1", ruleset=RuleSet.preset("rc")) == distribution(
        "3D+1", ruleset=NO_WILD
    )


def test_zero_dice_is_a_point_mass_at_the_pips():
    dist = distribution("0D+3", ruleset=RuleSet())
    assert dist.items()[0] == (3, 1.0)
    assert dist.beyond == 0
    assert success_chance("0D+3", 3, ruleset=RuleSet()) == 1
    assert success_chance("0D+3", 4, ruleset=RuleSet()) == 0


def test_zero_dice_with_negative_pips_total_zero():
    # A5: a total below 0 counts as 0.
    assert distribution("0D-2", ruleset=RuleSet()).items() == [(0, 1.0)]
    assert mean("0D-2", ruleset=RuleSet()) == 0


def test_negative_dice_roll_as_zero_dice():
    assert distribution("-1D", ruleset=RuleSet()) == distribution("0D", ruleset=RuleSet())


def test_d10_a_tie_with_the_difficulty_succeeds():
    # D-10: difficulty 14, a roll of exactly 14 succeeds.
    assert success_chance("0D+14", 14, ruleset=RuleSet()) == 1
    assert success_chance("0D+13", 14, ruleset=RuleSet()) == 0
    dist = distribution("3D+2", ruleset=RuleSet())
    assert dist.at_least(14) == pytest.approx(dist.probability(14) + dist.at_least(15), abs=1e-15)


def test_d39_totals_below_zero_count_as_zero():
    # D-39 / A5: 3D-6 is rolled as it stands; a total below 0 counts as 0.
    dist = distribution("3D-6", ruleset=RuleSet())
    reaches_one = reference_at_least(3, -6, 1, "counted")
    assert dist.low == 0
    assert dist.probability(0) == pytest.approx(float(1 - reaches_one), abs=1e-15)
    assert success_chance("3D-6", 0, ruleset=RuleSet()) == 1
    assert success_chance("3D-6", 1, ruleset=RuleSet()) == pytest.approx(
        float(reaches_one), abs=1e-15
    )


def test_d5_pips_stay_pips_in_play_unless_the_campaign_normalizes():
    # D-5: 4D plus +6 pips rolls 4D+6, not 6D ([RC]); [HOUSE] carries 3 pips into a die.
    for d in (8, 15, 20, 31, 60, 130):
        assert success_chance("4D+6", d, ruleset=RuleSet()) == pytest.approx(
            success_chance("4D", d - 6, ruleset=RuleSet()), abs=1e-15
        )
    house = RuleSet.preset("house", wild_die_one="complication")
    assert distribution("4D+6", ruleset=house) == distribution("6D", ruleset=RuleSet())
    assert success_chance("4D+6", 21, ruleset=house) == success_chance("6D", 21, ruleset=RuleSet())


def test_a_modifier_shifts_the_total():
    for d in (3, 10, 18, 40, 104, 150):
        assert success_chance("5D", d, modifier=4, ruleset=RuleSet()) == pytest.approx(
            success_chance("5D", d - 4, ruleset=RuleSet()), abs=1e-15
        )
    assert distribution("5D", modifier=4, ruleset=RuleSet()).low == 9  # five 1s, +4


def test_d40_character_point_dice_explode_and_a_one_on_them_is_just_one():
    # D-40 / A16: a CP die is never the Wild Die and is never removed as the highest die.
    dist = distribution("1D", ruleset=SUBTRACT, cp_dice=1)
    assert dist.probability(0) == 0  # the CP die adds at least 1
    assert dist.probability(1) == pytest.approx(1 / 36, abs=1e-16)  # Wild 1 removed, CP 1
    for d in (1, 2, 5, 7, 8, 13, 20):
        expected = reference_at_least(1, 0, d, "subtract", cp=1)
        assert success_chance("1D", d, ruleset=SUBTRACT, cp_dice=1) == pytest.approx(
            float(expected), abs=1e-15
        )


@pytest.mark.parametrize("rule", ["counted", "subtract"])
def test_two_character_point_dice_on_two_dice_match_the_enumeration(rule):
    ruleset = COMPLICATION if rule == "counted" else SUBTRACT
    for d in (3, 6, 9, 14, 22):
        expected = reference_at_least(2, 1, d, rule, cp=2)
        assert success_chance("2D+1", d, ruleset=ruleset, cp_dice=2) == pytest.approx(
            float(expected), abs=1e-15
        )


# ---------------------------------------------------------------------------------------------
# The table against the brute-force enumeration
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("rule", ["counted", "subtract", "house", "none"])
@pytest.mark.parametrize("dice", [1, 2, 3, 4])
def test_table_matches_a_brute_force_enumeration(rule, dice):
    ruleset = {"counted": COMPLICATION, "subtract": SUBTRACT, "house": HOUSE, "none": NO_WILD}[rule]
    table = success_table(ruleset=ruleset)
    for pips in (0, 1, 2):
        for d in range(1, 45):
            expected = reference_at_least(dice, pips, d, rule)
            assert table.chance(dice, pips, d) == pytest.approx(float(expected), abs=1e-15)


@pytest.mark.parametrize("ruleset", [COMPLICATION, SUBTRACT, HOUSE, NO_WILD])
def test_small_tables_agree_with_the_standard_table(ruleset):
    standard = success_table(ruleset=ruleset)
    for max_difficulty in (1, 2, 5, 6, 7, 12):
        small = success_table(4, max_difficulty, ruleset=ruleset)
        for index, row in enumerate(small.rows):
            assert row == pytest.approx(standard.rows[index][:max_difficulty], abs=1e-15)


@pytest.mark.parametrize("option", RuleSet.choices("wild_die_one"))
def test_every_wild_die_one_option_has_its_odds(option):
    counted, removed = (F(reference_at_least(3, 0, 12, rule)) for rule in ("counted", "subtract"))
    expected = {
        "complication": counted,
        "normal": counted,
        "gm_choice": counted,
        "subtract": removed,
        "house_table": (counted + removed) / 2,
    }[option]
    assert success_chance("3D", 12, ruleset=RuleSet(wild_die_one=option)) == pytest.approx(
        float(expected), abs=1e-15
    )


def test_table_is_exact_far_into_the_explosions():
    # P(1D >= 6k + 1) = 6**-k: twenty sixes in a row, and more, still come out right.
    for k in (5, 10, 16):
        assert success_chance("1D", 6 * k + 1, ruleset=RuleSet()) == pytest.approx(
            6.0**-k, rel=1e-12
        )
    assert success_chance("1D", 1201, ruleset=RuleSet()) == pytest.approx(6.0**-200, rel=1e-12)


def test_large_pools_are_worked_out_directly():
    dist = distribution("45D", ruleset=RuleSet())
    assert dist.high == 270
    assert math.fsum(dist.probabilities) + dist.beyond == pytest.approx(1, abs=1e-13)
    assert success_chance("45D", 160, ruleset=RuleSet()) == pytest.approx(
        dist.at_least(160), abs=1e-15
    )


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------
OPTIONS = ["complication", "subtract", "house_table", "normal", "gm_choice"]
rulesets = st.one_of(
    st.sampled_from([RuleSet(wild_die_one=o) for o in OPTIONS]),
    st.just(NO_WILD),
)
codes = st.builds(DieCode, st.integers(0, 40), st.integers(-4, 6))


@given(code=codes, ruleset=rulesets, cp=st.integers(0, 2), modifier=st.integers(-3, 3))
@settings(max_examples=60, deadline=None)
def test_distribution_sums_to_one(code, ruleset, cp, modifier):
    dist = distribution(code, ruleset=ruleset, cp_dice=cp, modifier=modifier)
    assert math.fsum(dist.probabilities) + dist.beyond == pytest.approx(1, abs=1e-13)
    assert min(dist.probabilities) >= 0
    assert dist.beyond >= 0


@given(code=codes, ruleset=rulesets)
@settings(max_examples=60, deadline=None)
def test_chance_never_rises_with_the_difficulty(code, ruleset):
    chances = [success_chance(code, d, ruleset=ruleset) for d in range(-2, 140)]
    assert all(0 <= c <= 1 for c in chances)
    assert all(a >= b for a, b in itertools.pairwise(chances))


@given(code=codes, ruleset=rulesets, difficulty=st.integers(-5, 260))
@settings(max_examples=100, deadline=None)
def test_table_lookup_agrees_with_the_direct_computation(code, ruleset, difficulty):
    direct = distribution(code, ruleset=ruleset, up_to=difficulty).at_least(difficulty)
    assert success_chance(code, difficulty, ruleset=ruleset) == pytest.approx(direct, abs=1e-14)


def test_more_dice_never_lower_the_chance_with_complications():
    rows = success_table(ruleset=RuleSet()).rows
    for dice in range(1, 30):
        for pips in (0, 1, 2):
            fewer, more = rows[(dice - 1) * 3 + pips], rows[dice * 3 + pips]
            assert all(b >= a for a, b in zip(fewer, more, strict=True))


def test_table_rows_never_rise_and_stay_within_zero_and_one():
    for ruleset in (COMPLICATION, SUBTRACT, HOUSE, NO_WILD):
        for row in success_table(ruleset=ruleset).rows:
            assert all(0 <= c <= 1 for c in row)
            assert all(a >= b for a, b in itertools.pairwise(row))


@given(
    dice=st.integers(1, 6),
    pips=st.integers(-3, 3),
    cp=st.integers(0, 1),
    modifier=st.integers(-2, 2),
    ruleset=rulesets,
    seed=st.integers(0, 2**32 - 1),
)
@settings(max_examples=8, deadline=None)
def test_exact_odds_agree_with_rolling_the_dice(dice, pips, cp, modifier, ruleset, seed):
    rolls = 20_000
    code = DieCode(dice, pips)
    rng = SeededDice(seed)
    totals = [
        roll(code, ruleset=ruleset, rng=rng, cp_dice=cp, modifier=modifier).total
        for _ in range(rolls)
    ]
    dist = distribution(code, ruleset=ruleset, cp_dice=cp, modifier=modifier)
    for d in range(min(totals), max(totals) + 2):
        exact = dist.at_least(d)
        seen = sum(1 for t in totals if t >= d) / rolls
        sigma = math.sqrt(exact * (1 - exact) / rolls)
        assert abs(seen - exact) <= 5 * sigma + 1e-3, (code, d, seen, exact)


# ---------------------------------------------------------------------------------------------
# Mean
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "ruleset", "expected"),
    [
        ("1D", COMPLICATION, F(21, 5)),  # an exploding d6: 3.5 + 4.2 / 6
        ("2D", COMPLICATION, F(7, 2) + F(21, 5)),
        ("1D", SUBTRACT, F(21, 5) - F(1, 6)),  # a subtracted 1 loses the 1
        ("2D", SUBTRACT, F(77, 10) - F(1, 6) * (1 + F(7, 2))),  # the 1 and the normal die
        ("2D", HOUSE, F(77, 10) - F(1, 12) * (1 + F(7, 2))),
        ("3D+2", NO_WILD, F(25, 2)),
        ("0D+4", COMPLICATION, F(4)),
    ],
)
def test_mean_is_exact(code, ruleset, expected):
    assert mean(code, ruleset=ruleset) == pytest.approx(float(expected), abs=1e-12)


@pytest.mark.parametrize("code", ["1D-1", "3D-6", "2D-9", "4D+1"])
@pytest.mark.parametrize("ruleset", [COMPLICATION, SUBTRACT, HOUSE, NO_WILD])
def test_mean_agrees_with_the_distribution_including_the_clamp_at_zero(code, ruleset):
    dist = distribution(code, ruleset=ruleset, cp_dice=1, up_to=400)
    by_sum = math.fsum(t * p for t, p in dist.items())
    assert mean(code, ruleset=ruleset, cp_dice=1) == pytest.approx(by_sum, abs=1e-9)


# ---------------------------------------------------------------------------------------------
# Difficulty levels
# ---------------------------------------------------------------------------------------------
def test_chances_by_level_use_the_top_of_each_2e_band():
    levels = chances_by_level("4D+2", ruleset=RuleSet())
    assert [(c.level, c.difficulty) for c in levels] == [
        ("Very Easy", 5),
        ("Easy", 10),
        ("Moderate", 15),
        ("Difficult", 20),
        ("Very Difficult", 30),  # 21-30 [WIKI]
        ("Heroic", 40),  # 31-40: D-8, Heroic+10 is 41-50 [UPG]
    ]
    assert all(isinstance(c, LevelChance) for c in levels)
    assert levels[0].chance == 1  # 4D+2 totals at least 6
    for c in levels:
        assert c.chance == success_chance("4D+2", c.difficulty, ruleset=RuleSet())


def test_chances_by_level_follow_the_rc_scale_without_heroic():
    # D-13: RC Very Easy is 3-5 ... Very Difficult 21-30, and there is no Heroic level.
    rc = RuleSet.preset("rc")
    levels = chances_by_level("3D", ruleset=rc)
    assert [(c.level, c.difficulty) for c in levels] == list(DIFFICULTY_LEVELS["rc"])
    assert levels[-1] == ("Very Difficult", 30, 0.0)  # 3D without a Wild Die tops out at 18


def test_chances_by_level_include_character_points_and_modifiers():
    levels = chances_by_level("3D", ruleset=COMPLICATION, cp_dice=1, modifier=2)
    assert [c.chance for c in levels] == [
        success_chance("3D", d, cp_dice=1, modifier=2, ruleset=RuleSet())
        for _, d in DIFFICULTY_LEVELS["2e"]
    ]


# ---------------------------------------------------------------------------------------------
# The table and its cache
# ---------------------------------------------------------------------------------------------
def test_table_is_built_once_per_wild_die_rule():
    assert success_table(ruleset=RuleSet()) is success_table(ruleset=RuleSet())
    assert success_table(ruleset=RuleSet(days_per_week=5)) is success_table(ruleset=RuleSet())
    assert success_table(ruleset=SUBTRACT) is not success_table(ruleset=RuleSet())


def test_clearing_the_cache_builds_the_table_again_with_the_same_values():
    before = success_table(ruleset=RuleSet())
    clear_cache()
    after = success_table(ruleset=RuleSet())
    assert after is not before
    assert after == before


def test_table_has_three_rows_per_die_and_a_cell_per_difficulty():
    table = success_table(5, 12, ruleset=RuleSet())
    assert len(table.rows) == 15
    assert {len(row) for row in table.rows} == {12}
    assert table.chance(4, 2, 0) == 1
    assert table.chance(4, 2, 12) == success_chance("4D+2", 12, ruleset=RuleSet())


def test_table_lookups_outside_the_table_are_refused():
    table = success_table(5, 12, ruleset=RuleSet())
    with pytest.raises(OddsError, match="covers 1D to 5D"):
        table.chance(6, 0, 5)
    with pytest.raises(OddsError, match="stops at difficulty 12"):
        table.chance(2, 0, 13)


def test_distribution_outside_its_horizon_asks_for_more():
    dist = distribution("2D", ruleset=RuleSet())
    assert dist.high == 200
    with pytest.raises(OddsError, match="up_to=250"):
        dist.at_least(250)
    with pytest.raises(OddsError, match="up_to=250"):
        dist.probability(250)
    wider = distribution("2D", up_to=250, ruleset=RuleSet())
    assert wider.at_least(250) == pytest.approx(
        success_chance("2D", 250, ruleset=RuleSet()), rel=1e-12
    )


def test_a_complete_distribution_answers_any_total():
    dist = Distribution(low=2, probabilities=(0.5, 0.5))
    assert dist.high == 3
    assert dist.probability(1) == 0
    assert dist.probability(9) == 0
    assert dist.at_least(9) == 0
    assert dist.at_least(3) == 0.5


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: success_chance("4D", "12", ruleset=RuleSet()),
            "difficulty must be a whole number",
        ),
        (
            lambda: success_chance("4D", True, ruleset=RuleSet()),
            "difficulty must be a whole number",
        ),
        (lambda: success_chance("4D", 10**9, ruleset=RuleSet()), "beyond any roll"),
        (
            lambda: success_chance("4D", 10, cp_dice=-1, ruleset=RuleSet()),
            "Character Point dice must be",
        ),
        (
            lambda: success_chance("4D", 10, modifier=1.5, ruleset=RuleSet()),
            "modifier must be a whole number",
        ),
        (
            lambda: success_chance("4D", 10, wild_die_one="explode", ruleset=RuleSet()),
            "unknown Wild Die 1 rule",
        ),
        (lambda: success_chance("4D", 10, wild_die_one=3, ruleset=RuleSet()), "must be a name"),
        (lambda: success_chance("201D", 10, ruleset=RuleSet()), "pools up to 200D"),
        (lambda: distribution("4D", up_to=True, ruleset=RuleSet()), "up_to must be a whole number"),
        (lambda: success_table(0, ruleset=RuleSet()), "max_dice must be between 1 and 200"),
        (lambda: success_table(5, 0, ruleset=RuleSet()), "max_difficulty must be between 1"),
        (lambda: mean("4D", cp_dice=-2, ruleset=RuleSet()), "Character Point dice must be"),
    ],
)
def test_bad_input_is_refused_with_a_readable_message(call, message):
    with pytest.raises(OddsError, match=message):
        call()


@pytest.mark.parametrize("code", ["4X", "", 4, None])
def test_a_code_that_is_not_a_die_code_is_refused(code):
    with pytest.raises(DieCodeError):
        success_chance(code, 10, ruleset=RuleSet())


# ---------------------------------------------------------------------------------------------
# The benchmark's own correctness check
# ---------------------------------------------------------------------------------------------
def _bench_module():
    path = Path(__file__).resolve().parents[2] / "bench" / "odds.py"
    spec = importlib.util.spec_from_file_location("bench_odds", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("rule", ["complication", "subtract"])
def test_benchmark_comparison_agrees_with_icepool(rule):
    bench = _bench_module()
    assert bench.compare_with_icepool(6, 40, rule) < 1e-12
    # and the comparison can fail: a table off by one pip is far from icepool's
    shifted = [[*row[1:], 0.0] for row in bench.ours_table(6, 40, rule)]
    assert bench.max_abs_diff(shifted, bench.icepool_table(6, 40, rule)) > 1e-3


def test_benchmark_prints_every_figure_and_passes(capsys):
    bench = _bench_module()
    assert bench.main(["--max-dice", "3", "--max-diff", "20", "--repeats", "1"]) == 0
    out = capsys.readouterr().out
    for rule in ("complication", "subtract"):
        for label in ("ours", "ours api", "icepool", "ratio", "max abs diff"):
            assert f"{label} {rule}" in out
