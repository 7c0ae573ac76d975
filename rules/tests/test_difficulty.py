"""Difficulty levels and numbers, modifiers and descriptions (dice-and-core.md §3, worked
examples D-8…D-14)."""

import json
import re
from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import DieCode, FixedDice, SeededDice, SystemDice
from rules.difficulty import (
    DIFFICULT,
    EASY,
    HEROIC,
    MODERATE,
    ROUND,
    RULE_OF_THUMB,
    VERY_DIFFICULT,
    VERY_EASY,
    DifficultyError,
    DifficultyLevel,
    add_to_difficulty,
    advantage_for,
    chart_range,
    describe,
    heroic_plus,
    legacy_number,
    level_for,
    lifting_difficulty,
    lifting_time_levels,
    margin,
    modifier_range,
    number_range,
    parse_level,
    random_dice,
    random_difficulty,
    shift,
    standard_levels,
    succeeds,
)
from rules.ruleset import RuleSet

RC = RuleSet.preset("rc")
RC_UNCERTAIN = RC.replace(uncertainty_dice=True)


# --- levels -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("level", "name"),
    [
        (VERY_EASY, "Very Easy"),
        (EASY, "Easy"),
        (MODERATE, "Moderate"),
        (DIFFICULT, "Difficult"),
        (VERY_DIFFICULT, "Very Difficult"),
        (HEROIC, "Heroic"),
        (DifficultyLevel(6), "Heroic+10"),
        (DifficultyLevel(8), "Heroic+30"),
    ],
)
def test_a_level_displays_its_name(level, name):
    assert str(level) == name
    assert repr(level) == f"DifficultyLevel('{name}')"


@pytest.mark.parametrize(
    ("text", "ordinal"),
    [
        ("Very Easy", 0),
        ("very easy", 0),
        ("  VERY-easy ", 0),
        ("very_difficult", 4),
        ("VE", 0),
        ("e", 1),
        ("M", 2),
        ("d", 3),
        ("VD", 4),
        ("Heroic", 5),
        ("H", 5),
        ("Heroic+10", 6),
        ("Heroic +20", 7),
        ("heroic + 30", 8),
        ("H+10", 6),
        ("Heroic+0", 5),
    ],
)
def test_level_names_are_parsed_in_the_spellings_people_type(text, ordinal):
    assert parse_level(text) == DifficultyLevel(ordinal)
    assert DifficultyLevel.parse(text) == DifficultyLevel(ordinal)


def test_parsing_a_level_returns_a_level_unchanged():
    assert parse_level(MODERATE) is MODERATE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Impossible", "not a difficulty level"),
        ("", "not a difficulty level"),
        ("Moderate+10", "only Heroic takes a"),
        ("Heroic+15", "steps of 10"),
        ("Heroic-10", "not a difficulty level"),
    ],
)
def test_unknown_level_names_are_refused_with_a_message(text, message):
    with pytest.raises(DifficultyError, match=message):
        parse_level(text)


def test_a_level_must_be_text():
    with pytest.raises(DifficultyError, match="must be text"):
        parse_level(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 1.5, True])
def test_a_level_ordinal_must_be_a_whole_number_from_very_easy(bad):
    with pytest.raises(DifficultyError):
        DifficultyLevel(bad)


@pytest.mark.parametrize("bad", [-10, 5, 15, True])
def test_heroic_plus_goes_in_steps_of_ten(bad):
    with pytest.raises(DifficultyError, match="steps of 10"):
        heroic_plus(bad)


def test_levels_are_ordered_from_very_easy_up():
    assert VERY_EASY < EASY < MODERATE < DIFFICULT < VERY_DIFFICULT < HEROIC < heroic_plus(10)
    assert sorted([HEROIC, EASY, heroic_plus(20)]) == [EASY, HEROIC, heroic_plus(20)]


@pytest.mark.parametrize(
    ("level", "plus"), [(MODERATE, None), (HEROIC, 0), (heroic_plus(10), 10), (heroic_plus(40), 40)]
)
def test_heroic_plus_reports_the_number_added(level, plus):
    assert level.heroic_plus == plus


@given(st.integers(min_value=0, max_value=60))
def test_str_of_a_level_parses_back_to_the_same_level(ordinal):
    level = DifficultyLevel(ordinal)
    assert parse_level(str(level)) == level


# --- numbers ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("level", "expected"),
    [
        ("Very Easy", (1, 5)),
        ("Easy", (6, 10)),
        ("Moderate", (11, 15)),
        ("Difficult", (16, 20)),
        ("Very Difficult", (21, 30)),
        ("Heroic", (31, 40)),
        pytest.param("Heroic+10", (41, 50), id="D-8-heroic+10"),
        pytest.param("Heroic+20", (51, 60), id="D-8-heroic+20"),
        pytest.param("Heroic+30", (61, 70), id="D-8-heroic+30-derived"),
    ],
)
def test_2e_difficulty_numbers_per_level(level, expected):
    assert number_range(level, ruleset=RuleSet()) == expected


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        ("Very Easy", (3, 5)),
        ("Easy", (6, 10)),
        ("Moderate", (11, 15)),
        ("Difficult", (16, 20)),
        ("Very Difficult", (21, 30)),
    ],
)
def test_rc_difficulty_numbers_per_level(level, expected):
    assert number_range(level, ruleset=RC) == expected


@pytest.mark.parametrize("level", ["Heroic", "Heroic+10"])
def test_the_rc_scale_has_no_heroic_level(level):
    with pytest.raises(DifficultyError, match="stops at Very Difficult"):
        number_range(level, ruleset=RC)


@pytest.mark.parametrize(
    ("number", "level"),
    [
        (-3, "Very Easy"),
        (0, "Very Easy"),
        (1, "Very Easy"),
        (5, "Very Easy"),
        (6, "Easy"),
        (10, "Easy"),
        (11, "Moderate"),
        pytest.param(14, "Moderate", id="D-10-medium-range-14-is-moderate"),
        (15, "Moderate"),
        (16, "Difficult"),
        (20, "Difficult"),
        (21, "Very Difficult"),
        (30, "Very Difficult"),
        (31, "Heroic"),
        (40, "Heroic"),
        (41, "Heroic+10"),
        (50, "Heroic+10"),
        (51, "Heroic+20"),
        (70, "Heroic+30"),
    ],
)
def test_2e_level_for_a_number(number, level):
    assert str(level_for(number, ruleset=RuleSet())) == level


@pytest.mark.parametrize(
    ("number", "level"),
    [
        (1, "Very Easy"),
        (3, "Very Easy"),
        pytest.param(5, "Very Easy", id="D-13-legacy-5"),
        pytest.param(10, "Easy", id="D-13-legacy-10"),
        pytest.param(15, "Moderate", id="D-13-legacy-15"),
        pytest.param(20, "Difficult", id="D-13-legacy-20"),
        pytest.param(30, "Very Difficult", id="D-13-legacy-30"),
        (45, "Very Difficult"),
    ],
)
def test_rc_level_for_a_number(number, level):
    assert str(level_for(number, ruleset=RC)) == level


@pytest.mark.parametrize("bad", [12.5, "12", True])
def test_level_for_needs_a_whole_number(bad):
    with pytest.raises(DifficultyError, match="whole number"):
        level_for(bad, ruleset=RuleSet())


@given(st.integers(min_value=1, max_value=500))
def test_every_2e_number_lies_in_the_range_of_its_level(number):
    low, high = number_range(level_for(number, ruleset=RuleSet()), ruleset=RuleSet())
    assert low <= number <= high


@given(st.integers(min_value=3, max_value=30))
def test_every_rc_number_lies_in_the_range_of_its_level(number):
    low, high = number_range(level_for(number, ruleset=RC), ruleset=RC)
    assert low <= number <= high


@pytest.mark.parametrize(
    ("level", "number"),
    [
        pytest.param(VERY_EASY, 5, id="D-13-very-easy-5"),
        pytest.param(EASY, 10, id="D-13-easy-10"),
        pytest.param(MODERATE, 15, id="D-13-moderate-15"),
        pytest.param(DIFFICULT, 20, id="D-13-difficult-20"),
        pytest.param(VERY_DIFFICULT, 30, id="D-13-very-difficult-30"),
    ],
)
def test_first_edition_fixed_numbers_map_onto_levels(level, number):
    assert legacy_number(level) == number
    assert level_for(number, ruleset=RC) == level


def test_first_edition_numbers_stop_at_very_difficult():
    with pytest.raises(DifficultyError, match="stop at 30"):
        legacy_number(HEROIC)


# --- the Rule of Thumb ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("total", "difficulty", "success"),
    [
        pytest.param(14, 14, True, id="D-10-tie-succeeds"),
        (15, 14, True),
        (13, 14, False),
        pytest.param(14, 13, True, id="D-27-effective-14-vs-13"),
    ],
)
def test_rule_of_thumb_a_roll_equal_or_higher_succeeds(total, difficulty, success):
    assert succeeds(total, difficulty) is success


def test_margin_is_the_roll_less_the_difficulty():
    assert margin(11, 14) == -3
    assert margin(14, 14) == 0
    assert margin(20, 12) == 8


def test_the_rule_of_thumb_text_is_quoted_from_the_rules_upgrade():
    assert "equal or higher" in RULE_OF_THUMB


# --- moving by levels and lifting -------------------------------------------------------------
@pytest.mark.parametrize(
    ("level", "levels", "expected"),
    [
        ("Easy", 1, "Moderate"),
        ("Difficult", -1, "Moderate"),
        ("Very Difficult", 1, "Heroic"),
        ("Heroic", 1, "Heroic+10"),
        ("Difficult", 4, "Heroic+20"),
        ("Heroic+20", -3, "Very Difficult"),
        ("Easy", -3, "Very Easy"),
        ("Moderate", 0, "Moderate"),
    ],
)
def test_shifting_a_2e_difficulty_by_levels(level, levels, expected):
    assert str(shift(level, levels, ruleset=RuleSet())) == expected


@pytest.mark.parametrize(
    ("level", "levels", "expected"),
    [("Difficult", 3, "Very Difficult"), ("Easy", -5, "Very Easy"), ("Easy", 2, "Difficult")],
)
def test_shifting_an_rc_difficulty_stays_on_its_scale(level, levels, expected):
    assert str(shift(level, levels, ruleset=RC)) == expected


def test_shifting_needs_whole_levels():
    with pytest.raises(DifficultyError, match="whole levels"):
        shift(EASY, 1.5, ruleset=RuleSet())  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kg", "expected"),
    [
        (5, "Very Easy"),
        (10, "Very Easy"),
        (50, "Easy"),
        (100, "Moderate"),
        (150, "Difficult"),
        (200, "Difficult"),
        (500, "Very Difficult"),
        pytest.param(750, "Heroic", id="D-9-750kg-heroic"),
        pytest.param(1000, "Heroic+10", id="D-9-1-ton-heroic+10"),
        (1500, "Heroic+20"),
        (2000, "Heroic+30"),
        (2500, "Heroic+40"),
        pytest.param(3000, "Heroic+50", id="D-9-3-tons-heroic+50"),
    ],
)
def test_lifting_difficulty_by_weight(kg, expected):
    assert str(lifting_difficulty(kg)) == expected


@pytest.mark.parametrize(
    ("held", "levels"),
    [
        (ROUND, 0),
        (ROUND * 6, 0),
        (ROUND * 7, 1),
        (timedelta(minutes=2), 1),
        (timedelta(minutes=3), 1),
        (timedelta(minutes=10), 2),
        (timedelta(minutes=30), 3),
        (timedelta(minutes=45), 4),
        (timedelta(hours=1), 4),
        (timedelta(hours=3), 4),
    ],
)
def test_holding_a_weight_longer_raises_the_difficulty(held, levels):
    assert lifting_time_levels(held) == levels


def test_d9_100kg_held_two_minutes_is_difficult():
    assert lifting_difficulty(100, timedelta(minutes=2)) == DIFFICULT


def test_d9_200kg_held_45_minutes_is_heroic_plus_20_numbers_51_to_60():
    level = lifting_difficulty(200, timedelta(minutes=45))
    assert str(level) == "Heroic+20"
    assert number_range(level, ruleset=RuleSet()) == (51, 60)


@pytest.mark.parametrize("kg", [0, -5, "heavy", True])
def test_lifting_needs_a_positive_weight(kg):
    with pytest.raises(DifficultyError, match="positive number of kg"):
        lifting_difficulty(kg)


def test_lifting_beyond_three_tons_is_left_to_the_gm():
    with pytest.raises(DifficultyError, match="beyond the lifting table"):
        lifting_difficulty(3001)


def test_a_weight_must_be_held_for_some_time():
    with pytest.raises(DifficultyError, match="some time"):
        lifting_time_levels(timedelta(0))


# --- random difficulties ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("level", "dice"),
    [
        ("Very Easy", (1, 1)),
        ("Easy", (2, 2)),
        pytest.param("Moderate", (3, 4), id="D-11-moderate-3D-or-4D"),
        ("Difficult", (5, 6)),
        ("Very Difficult", (7, 8)),
        pytest.param("Heroic", (9, None), id="D-11-heroic-9D-or-more"),
    ],
)
def test_random_difficulty_dice_per_level(level, dice):
    assert random_dice(level) == dice


def test_random_heroic_plus_has_no_dice_in_the_sources():
    with pytest.raises(DifficultyError, match="stops at Heroic"):
        random_dice("Heroic+10")


def test_a_random_difficulty_adds_up_the_dice_without_a_wild_die():
    rolled = random_difficulty("Moderate", rng=FixedDice([6, 6, 1]), ruleset=RuleSet())
    assert rolled.dice == (6, 6, 1)
    assert rolled.number == 13
    assert rolled.level == MODERATE


def test_the_gm_may_roll_the_larger_count_of_a_span():
    rolled = random_difficulty("Moderate", rng=FixedDice([2, 3, 4, 5]), dice=4, ruleset=RuleSet())
    assert rolled.number == 14


def test_a_random_heroic_difficulty_above_40_stays_heroic():
    rolled = random_difficulty("Heroic", rng=FixedDice([6] * 10), dice=10, ruleset=RuleSet())
    assert rolled.number == 60
    assert rolled.level == HEROIC


@pytest.mark.parametrize(
    ("level", "dice", "message"),
    [
        ("Moderate", 5, "3D or 4D, not 5D"),
        ("Heroic", 8, "9D or more, not 8D"),
        ("Easy", 1, "2D, not 1D"),
        ("Easy", 2.0, "whole number"),
    ],
)
def test_a_random_difficulty_refuses_dice_outside_its_level(level, dice, message):
    with pytest.raises(DifficultyError, match=message):
        random_difficulty(level, rng=FixedDice([3] * 9), dice=dice, ruleset=RuleSet())


def test_a_random_heroic_difficulty_is_refused_on_the_rc_scale():
    with pytest.raises(DifficultyError, match="no Heroic"):
        random_difficulty("Heroic", rng=FixedDice([3] * 9), ruleset=RC)


@given(st.integers(min_value=0, max_value=5), st.integers(min_value=0, max_value=10_000))
def test_a_random_difficulty_lies_between_its_fewest_and_most_faces(ordinal, seed):
    low, high = random_dice(DifficultyLevel(ordinal))
    number = random_difficulty(
        DifficultyLevel(ordinal), rng=SeededDice(seed), ruleset=RuleSet()
    ).number
    assert low <= number <= 6 * low
    assert high is None or number <= 6 * high


def test_random_difficulty_rolls_real_dice_from_the_system_source():
    assert 2 <= random_difficulty("Easy", ruleset=RuleSet(), rng=SystemDice()).number <= 12


# --- modifiers --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("modifier", "advantage"),
    [
        (1, "slight"),
        (5, "slight"),
        (6, "good"),
        pytest.param(10, "good", id="D-14-computer-expert-+10"),
        (11, "decisive"),
        pytest.param(15, "decisive", id="D-14-sabacc-cheater-chip-+15"),
        (16, "overpowering"),
        (40, "overpowering"),
    ],
)
def test_modifier_guidelines_name_the_advantage(modifier, advantage):
    assert advantage_for(modifier) == advantage


def test_d14_moff_who_knows_his_base_gets_a_good_advantage_for_search():
    assert advantage_for(10) == "good"
    assert add_to_difficulty(0, 10, ruleset=RuleSet(), rng=FixedDice([])).number == 10


@pytest.mark.parametrize("bad", [0, -5, 2.5, True])
def test_a_modifier_is_a_bonus_of_at_least_one(bad):
    with pytest.raises(DifficultyError, match="advantage"):
        advantage_for(bad)


@pytest.mark.parametrize(
    ("advantage", "span"),
    [("slight", (1, 5)), ("Good", (6, 10)), ("decisive", (11, 15)), ("overpowering", (16, None))],
)
def test_modifier_range_for_an_advantage(advantage, span):
    assert modifier_range(advantage) == span


def test_an_unknown_advantage_is_refused():
    with pytest.raises(DifficultyError, match="not an advantage"):
        modifier_range("huge")


@pytest.mark.parametrize(
    ("modifier", "number"), [(10, 24), ("+2", 16), ("-3", 11), (DieCode(0, 5), 19)]
)
def test_numbers_and_pips_are_added_to_a_difficulty_as_they_are(modifier, number):
    result = add_to_difficulty(14, modifier, ruleset=RuleSet(), rng=FixedDice([]))
    assert result.number == number
    assert result.dice == ()
    assert result.base == 14


def test_dice_added_to_a_difficulty_are_rolled_by_the_gm():
    result = add_to_difficulty(15, "+4D", rng=FixedDice([6, 1, 3, 2]), ruleset=RuleSet())
    assert result.dice == (6, 1, 3, 2)
    assert result.number == 27
    assert result.modifier == DieCode(4)


def test_dice_and_pips_added_to_a_difficulty_both_count():
    assert add_to_difficulty(10, "+1D+2", rng=FixedDice([4]), ruleset=RuleSet()).number == 16


def test_negative_dice_are_rolled_and_subtracted_never_below_zero():
    assert add_to_difficulty(15, "-1D", rng=FixedDice([4]), ruleset=RuleSet()).number == 11
    assert add_to_difficulty(3, "-2D", rng=FixedDice([6, 6]), ruleset=RuleSet()).number == 0


def test_a_campaign_may_count_three_per_die_added_to_a_difficulty():
    fixed = RuleSet(difficulty_dice="fixed")
    result = add_to_difficulty(15, "+4D", rng=FixedDice([]), ruleset=fixed)
    assert result.number == 27
    assert result.dice == ()


def test_dice_added_to_a_difficulty_roll_real_dice_from_the_system_source():
    assert 16 <= add_to_difficulty(15, "+1D", ruleset=RuleSet(), rng=SystemDice()).number <= 21


@pytest.mark.parametrize(
    ("number", "modifier", "message"),
    [(12.0, 3, "whole number"), (12, True, "die code like"), (12, "lots", "a die code uses only")],
)
def test_bad_difficulty_modifiers_are_refused(number, modifier, message):
    with pytest.raises(ValueError, match=message):
        add_to_difficulty(number, modifier, ruleset=RuleSet(), rng=FixedDice([]))


# --- descriptions -----------------------------------------------------------------------------
def test_2e_descriptions_say_who_succeeds_and_give_combat_examples():
    assert "Almost anyone" in describe("Very Easy", ruleset=RuleSet())
    assert describe("Moderate", scale="combat", ruleset=RuleSet()) == "Blaster at medium range."
    assert "exhaust port" in describe("Heroic", scale="combat", ruleset=RuleSet())
    assert "very small number" in describe("Heroic", scale="knowledge", ruleset=RuleSet())


def test_heroic_plus_reads_as_heroic():
    assert describe("Heroic+20", ruleset=RuleSet()) == describe("Heroic", ruleset=RuleSet())


@pytest.mark.parametrize(
    ("level", "scale", "entry"),
    [
        ("Very Easy", "task", "Very Easy"),
        ("Very Easy", "combat", "Point-Blank Range"),
        ("Difficult", "combat", "Long Range"),
        ("Moderate", "knowledge", "No Secret, But Not Widely Known"),
        ("Very Difficult", "general_knowledge", "Truly Comprehensive Knowledge"),
        ("Easy", "medpac", "Wounded"),
        ("Difficult", "medpac", "Mortally Wounded"),
    ],
)
def test_rc_chart_entries_per_level(level, scale, entry):
    assert describe(level, ruleset=RC, scale=scale) == entry


@pytest.mark.parametrize(
    ("level", "ruleset", "scale", "message"),
    [
        ("Very Difficult", RC, "combat", "no Very Difficult entry"),
        ("Very Easy", RC, "medpac", "no Very Easy entry"),
        ("Easy", RuleSet(), "medpac", "not a difficulty scale"),
        ("Heroic", RC, "task", "no Heroic"),
    ],
)
def test_descriptions_missing_from_a_scale_are_refused(level, ruleset, scale, message):
    with pytest.raises(DifficultyError, match=message):
        describe(level, ruleset=ruleset, scale=scale)


@pytest.mark.parametrize(
    ("scale", "entry", "span"),
    [
        pytest.param("medpac", "Wounded", (6, 10), id="D-12-medpac-wounded-6-to-10"),
        ("medpac", "Mortally Wounded", (16, 20)),
        ("combat", "short range", (6, 10)),
        ("general_knowledge", "Pretty Ignorant", (3, 5)),
    ],
)
def test_rc_chart_rows_have_number_ranges(scale, entry, span):
    assert chart_range(scale, entry) == span


def test_d12_medpac_numbers_for_a_blaster_bolt_and_a_thermal_detonator_are_both_wounded():
    low, high = chart_range("medpac", "Wounded")
    assert (low, high) == (6, 10)
    assert low <= 6 <= high and low <= 9 <= high
    assert level_for(6, ruleset=RC) == level_for(9, ruleset=RC) == EASY


@pytest.mark.parametrize(
    ("scale", "entry", "message"),
    [("medpac", "Stunned", "not on the Rules Companion"), ("weather", "Rain", "not a scale")],
)
def test_unknown_chart_rows_are_refused(scale, entry, message):
    with pytest.raises(DifficultyError, match=message):
        chart_range(scale, entry)


# --- one difficulty type: stored, parsed, from a number ---------------------------------------
levels = st.builds(DifficultyLevel, st.integers(min_value=0, max_value=60))


@given(levels)
def test_a_stored_difficulty_level_reads_back_as_the_same_level(level):
    assert DifficultyLevel.from_json(level.to_json()) == level
    assert DifficultyLevel.from_json(json.loads(json.dumps(level.to_json()))) == level


def test_a_difficulty_level_is_stored_by_its_name():
    assert heroic_plus(10).to_json() == {"level": "Heroic+10"}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("Moderate", 'is {"level": name}'),
        ({"level": "Moderate", "number": 15}, 'is {"level": name}'),
        ({"level": 2}, "must be text"),
        ({"level": "Tricky"}, "not a difficulty level"),
    ],
)
def test_a_damaged_stored_difficulty_level_is_refused(data, message):
    with pytest.raises(DifficultyError, match=re.escape(message)):
        DifficultyLevel.from_json(data)


@pytest.mark.parametrize(
    ("value", "ruleset", "expected"),
    [
        (MODERATE, RuleSet(), MODERATE),
        ("very difficult", RuleSet(), VERY_DIFFICULT),
        (14, RuleSet(), MODERATE),
        (45, RuleSet(), heroic_plus(10)),
        (45, RC, VERY_DIFFICULT),
    ],
)
def test_a_difficulty_is_one_type_whatever_the_caller_holds(value, ruleset, expected):
    assert DifficultyLevel.coerce(value, ruleset=ruleset) == expected


def test_a_level_from_a_number_follows_the_campaigns_scale():
    assert DifficultyLevel.from_number(35, ruleset=RuleSet()) == HEROIC
    assert DifficultyLevel.from_number(35, ruleset=RC) == VERY_DIFFICULT
    assert MODERATE.numbers(ruleset=RC) == (11, 15)


def test_raising_a_level_climbs_the_open_ladder_past_heroic():
    assert HEROIC.raised_by(2) == heroic_plus(20)
    assert EASY.raised_by(-3) == VERY_EASY
    with pytest.raises(DifficultyError, match="whole levels"):
        EASY.raised_by(1.5)  # type: ignore[arg-type]


def test_a_difficulty_of_another_kind_is_refused():
    with pytest.raises(DifficultyError, match="a level, its name or a number"):
        DifficultyLevel.coerce(15.0, ruleset=RuleSet())  # type: ignore[arg-type]


def test_the_standard_levels_follow_the_campaigns_scale():
    assert standard_levels(ruleset=RuleSet())[-1] == HEROIC
    assert standard_levels(ruleset=RC) == (VERY_EASY, EASY, MODERATE, DIFFICULT, VERY_DIFFICULT)
