"""A roll needs at least 1D after penalties (dice-and-core.md A5, suggested handling)."""

import pytest

from rules import RuleSet
from rules.dice import PoolTooSmallError, rollable_pool


def test_a_pool_of_one_die_or_more_is_rolled_as_it_is():
    assert str(rollable_pool("4D+1", actions=4, ruleset=RuleSet())) == "1D+1"


def test_six_actions_on_4d_plus_1_are_refused_saying_why():
    with pytest.raises(PoolTooSmallError) as refused:
        rollable_pool("4D+1", actions=6, ruleset=RuleSet())
    assert str(refused.value) == (
        "6 actions take 5D from 4D+1, leaving 0D+1: a roll needs at least 1D (take fewer actions)"
    )


def test_wounds_and_actions_are_both_named():
    with pytest.raises(PoolTooSmallError, match="2 actions take 1D and wounds take 2D from 3D"):
        rollable_pool("3D", actions=2, penalty_dice=2, ruleset=RuleSet())


def test_a_force_point_doubles_before_the_penalties():
    assert str(rollable_pool("2D", actions=4, force_point=True, ruleset=RuleSet())) == "1D"
