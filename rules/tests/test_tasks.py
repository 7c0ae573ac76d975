"""Opposed rolls, uncertainty dice, preparing and rushing (dice-and-core.md §4–§6, worked
examples D-24…D-27)."""

from datetime import timedelta

import pytest

from rules.dice import DieCode, FixedDice, SystemDice
from rules.difficulty import DifficultyError, succeeds
from rules.ruleset import RuleSet
from rules.tasks import (
    Tie,
    opposed,
    prepare,
    preparing_guideline,
    resolve_uncertainty,
    rush,
    uncertainty_pool,
)
from rules.time import ROUND

RC = RuleSet.preset("rc")
RC_UNCERTAIN = RC.replace(uncertainty_dice=True)


# --- opposed rolls ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("active", "opposing", "tie", "winner"),
    [
        (22, 21, "active", "active"),
        (17, 20, "active", "opposing"),
        (20, 20, "active", "active"),
        (20, 20, Tie.OPPOSING, "opposing"),
        (20, 20, "reroll", None),
        (25, 20, "reroll", "active"),
        (19, 20, "opposing", "opposing"),
    ],
)
def test_opposed_rolls_higher_wins_and_ties_follow_the_rule(active, opposing, tie, winner):
    result = opposed(active, opposing, tie)
    assert result.winner == winner
    assert result.reroll is (winner is None)
    assert result.margin == active - opposing


def test_an_opposed_tie_goes_to_the_acting_side_by_default():
    assert opposed(14, 14).winner == "active"


def test_an_unknown_tie_rule_is_refused():
    with pytest.raises(DifficultyError, match="not a tie rule"):
        opposed(3, 3, "coin")


# --- uncertainty dice -------------------------------------------------------------------------
def test_d27_astrogation_with_three_uncertainty_dice():
    assert uncertainty_pool("5D", 3, ruleset=RC_UNCERTAIN) == DieCode(8)
    result = resolve_uncertainty(27, 3, rng=FixedDice([4, 5, 4]), ruleset=RC_UNCERTAIN)
    assert result.gm_total == 13
    assert result.effective_total == 14
    assert succeeds(result.effective_total, 13)
    assert result.player_total == 27


def test_uncertainty_keeps_the_pips_of_the_skill():
    assert uncertainty_pool("4D+2", 2, ruleset=RC_UNCERTAIN) == DieCode(6, 2)


def test_an_uncertain_total_never_goes_below_zero():
    assert (
        resolve_uncertainty(8, 3, rng=FixedDice([6, 6, 6]), ruleset=RC_UNCERTAIN).effective_total
        == 0
    )


def test_uncertainty_dice_are_refused_unless_the_campaign_uses_them():
    with pytest.raises(DifficultyError, match="does not use the optional uncertainty"):
        uncertainty_pool("5D", 3, ruleset=RC)
    with pytest.raises(DifficultyError, match="does not use the optional uncertainty"):
        resolve_uncertainty(27, 3, rng=FixedDice([1, 1, 1]), ruleset=RuleSet())


@pytest.mark.parametrize("count", [1, 5, 0, 2.0])
def test_the_gm_picks_two_to_four_uncertainty_dice(count):
    with pytest.raises(DifficultyError, match="2 to 4"):
        uncertainty_pool("5D", count, ruleset=RC_UNCERTAIN)


def test_the_player_total_must_be_a_number():
    with pytest.raises(DifficultyError, match="whole number"):
        resolve_uncertainty("27", 3, rng=FixedDice([1, 1, 1]), ruleset=RC_UNCERTAIN)


def test_uncertainty_rolls_real_dice_from_the_system_source():
    result = resolve_uncertainty(20, 2, ruleset=RC_UNCERTAIN, rng=SystemDice())
    assert len(result.gm_dice) == 2
    assert all(1 <= d <= 6 for d in result.gm_dice)


# --- preparing and rushing --------------------------------------------------------------------
def test_d24_rushing_a_one_hour_repair_halves_time_and_skill():
    rushed = rush("6D", timedelta(hours=1))
    assert rushed.code == DieCode(3)
    assert rushed.time == timedelta(minutes=30)


@pytest.mark.parametrize(
    ("code", "halved"), [("5D+1", DieCode(2, 2)), ("4D+2", DieCode(2, 1)), ("1D", DieCode(0, 1))]
)
def test_rushing_halves_the_code_in_pips_rounding_down(code, halved):
    assert rush(code, ROUND * 2).code == halved


def test_one_round_actions_cannot_be_rushed():
    with pytest.raises(DifficultyError, match="one round cannot be rushed"):
        rush("4D", ROUND)


def test_d25_preparing_a_two_hour_repair_by_taking_four_hours_gives_1d():
    prepared = prepare("4D+1", timedelta(hours=2), ruleset=RuleSet())
    assert prepared.code == DieCode(5, 1)
    assert prepared.time == timedelta(hours=4)


def test_d25_the_rc_does_not_allow_preparing_a_repair():
    with pytest.raises(DifficultyError, match="only actions that take one round"):
        prepare("4D+1", timedelta(hours=2), ruleset=RC)


def test_d26_rc_preparing_a_blaster_for_one_round_gives_5d_next_round():
    prepared = prepare("4D", ROUND, ruleset=RC)
    assert prepared.code == DieCode(5)
    assert prepared.time == ROUND * 2


def test_2e_aiming_for_an_extra_round_gives_1d():
    assert prepare("4D", ruleset=RuleSet()) == prepare("4D", ROUND, ruleset=RuleSet())
    assert prepare("4D", ruleset=RuleSet()).code == DieCode(5)
    assert prepare("4D", ruleset=RuleSet()).time == ROUND * 2


@pytest.mark.parametrize("bad", [timedelta(0), timedelta(seconds=-5), 5])
def test_a_task_time_must_be_a_positive_duration(bad):
    with pytest.raises(DifficultyError, match="positive duration"):
        prepare("4D", bad, ruleset=RuleSet())
    with pytest.raises(DifficultyError, match="positive duration"):
        rush("4D", bad)


@pytest.mark.parametrize(
    ("skill", "advice"),
    [
        ("blaster", "allowed"),
        ("Starship Repair", "allowed"),
        ("Dodge", "not_allowed"),
        ("melee  parry", "not_allowed"),
        ("starfighter piloting", "not_allowed"),
        ("Swimming", "unlikely"),
        ("hide", "unlikely"),
    ],
)
def test_preparing_guideline_per_skill(skill, advice):
    assert preparing_guideline(skill) == advice
