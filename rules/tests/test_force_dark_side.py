"""Force Points and the Dark Side: worked examples from /work/shared/rules/force.md §8 (F-n)."""

from __future__ import annotations

import pytest

from rules.dice import DieCode, FixedDice
from rules.difficulty import DIFFICULT
from rules.force import (
    ForceError,
    atone,
    check_force_point_spend,
    consumption_check,
    cp_damage_gives_dark_side_point,
    dark_side_call_difficulty,
    force_point_outcome,
    force_point_pool,
    is_consumed,
    lure_pool,
    lure_refused_level,
    power_gives_dark_side_point,
    redeem,
    resolve_dark_side_call,
)
from rules.ruleset import RuleSet

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")


# --- Force Points -----------------------------------------------------------------------------
def test_force_point_doubles_dice_and_pips_C18():
    assert force_point_pool("5D+2") == DieCode(10, 4)


@pytest.mark.parametrize(
    ("use", "returned", "dsp", "this_round"),
    [
        ("heroic", True, 0, False),
        ("selfish", False, 0, False),
        ("evil", False, 1, False),
        pytest.param("atonement", True, 0, False, id="F-6-atonement-fp-regained"),
        pytest.param("transfer_force", True, 0, False, id="F-35-transfer-returned"),
        pytest.param("dark_side_call", False, 0, True, id="F-3-spend-this-round"),
    ],
)
def test_force_point_outcome(use, returned, dsp, this_round):
    outcome = force_point_outcome(use)
    assert (outcome.returned_at_end_of_adventure, outcome.dark_side_points) == (returned, dsp)
    assert outcome.spend_this_round is this_round


def test_unknown_force_point_use_is_refused():
    with pytest.raises(ForceError):
        force_point_outcome("greedy")  # type: ignore[arg-type]


def test_force_point_limits_per_round_C15():
    check_force_point_spend(0, 0, ruleset=UPG)
    with pytest.raises(ForceError, match="never both"):
        check_force_point_spend(0, 1, ruleset=UPG)
    with pytest.raises(ForceError, match="only one Force Point"):
        check_force_point_spend(1, 0, ruleset=UPG)
    check_force_point_spend(0, 2, ruleset=RC)


# --- The Dark Side ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("power", "harm", "gives"),
    [
        pytest.param("Telekinesis", True, True, id="F-10-telekinesis-crate-at-guard"),
        pytest.param("Telekinesis", False, False, id="telekinesis-lifting"),
        pytest.param("Injure/Kill", False, True, id="F-10-injure-kill"),
        pytest.param("Inflict Pain", False, True, id="F-10-inflict-pain"),
        pytest.param("Telekinetic Kill", False, True, id="F-10-telekinetic-kill"),
        pytest.param("Control Pain", True, False, id="control-pain"),
    ],
)
def test_power_gives_dark_side_point(power, harm, gives):
    assert power_gives_dark_side_point(power, used_to_harm=harm) is gives


@pytest.mark.parametrize(
    ("target", "stun", "gives"),
    [
        pytest.param("being", False, True, id="C-16-stormtrooper-gives-dsp"),
        pytest.param("empty_vehicle", False, False, id="C-16-empty-speeder"),
        pytest.param("droid", False, False, id="C-16-droid"),
        pytest.param("being", True, False, id="C-16-stun-setting"),
    ],
)
def test_house_cp_on_damage_dark_side_point(target, stun, gives):
    assert cp_damage_gives_dark_side_point(target, stun, ruleset=HOUSE) is gives


def test_cp_on_damage_gives_no_dark_side_point_outside_house():
    assert not cp_damage_gives_dark_side_point("being", ruleset=UPG)
    with pytest.raises(ForceError):
        cp_damage_gives_dark_side_point("planet", ruleset=HOUSE)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("dsp", "die", "ruleset", "consumed"),
    [
        pytest.param(3, 3, RC, True, id="F-4-rc-3-dsp-roll-3-consumed"),
        pytest.param(3, 4, RC, False, id="F-4-rc-3-dsp-roll-4-safe"),
        pytest.param(3, 2, UPG, True, id="F-4-2e-3-dsp-roll-2-consumed"),
        pytest.param(3, 3, UPG, False, id="F-4-2e-3-dsp-roll-3-safe"),
        pytest.param(1, 1, RC, True, id="F-5-rc-first-dsp-roll-1-consumed"),
        pytest.param(1, 1, UPG, False, id="F-5-2e-first-dsp-never-consumed"),
    ],
)
def test_consumption(dsp, die, ruleset, consumed):
    assert is_consumed(dsp, die, ruleset=ruleset) is consumed


def test_negative_dark_side_points_are_refused():
    with pytest.raises(ForceError):
        is_consumed(-1, 3, ruleset=UPG)


def test_consumption_check_rolls_one_die():
    check = consumption_check(3, ruleset=UPG, rng=FixedDice([2]))
    assert (check.dice, check.total, check.consumed) == ((2,), 2, True)


def test_consumption_check_with_the_wild_die_explodes_a_six():
    check = consumption_check(
        6, ruleset=UPG.replace(dsp_check_wild_die=True), rng=FixedDice([6, 1])
    )
    assert (check.dice, check.total, check.consumed) == ((6, 1), 7, False)


@pytest.mark.parametrize(
    ("earlier", "harm", "difficulty"),
    [
        pytest.param(0, True, 6, id="F-1-first-call-6"),
        pytest.param(1, True, 9, id="F-1-second-call-9"),
        pytest.param(2, True, 12, id="F-1-third-call-12"),
        pytest.param(0, False, 16, id="F-2-no-harm-16"),
    ],
)
def test_dark_side_call_difficulty(earlier, harm, difficulty):
    assert dark_side_call_difficulty(earlier, harm, ruleset=RC) == difficulty


def test_dark_side_call_is_off_in_2e_A_F17():
    with pytest.raises(ForceError, match="not used in this campaign"):
        dark_side_call_difficulty(0, ruleset=UPG)


def test_negative_earlier_calls_are_refused():
    with pytest.raises(ForceError):
        dark_side_call_difficulty(-1, ruleset=RC)


def test_dark_side_call_success_and_failure_F3():
    win = resolve_dark_side_call(7, 6)
    lose = resolve_dark_side_call(5, 6)
    assert (win.force_points, win.dark_side_points, win.spend_this_round) == (1, 1, True)
    assert (lose.success, lose.force_points, lose.dark_side_points) == (False, 0, 0)


@pytest.mark.parametrize(
    ("accept", "gone_over", "ruleset", "pool"),
    [
        pytest.param(True, False, UPG, "6D", id="F-8-accepts-lure-6D"),
        pytest.param(False, False, UPG, "4D", id="F-8-refuses"),
        pytest.param(True, True, UPG, "4D", id="gone-over-no-bonus"),
        pytest.param(True, False, RC, "4D", id="rc-no-lure"),
    ],
)
def test_lure_of_the_dark_side(accept, gone_over, ruleset, pool):
    assert lure_pool("4D", 2, accept, gone_over, ruleset=ruleset) == DieCode.parse(pool)


def test_refusing_the_lure_raises_difficulty_a_level_F8():
    assert lure_refused_level("Moderate") == DIFFICULT


def test_atonement_removes_one_dark_side_point_F6():
    result = atone(3, 1)
    assert (result.dark_side_points, result.force_points) == (2, 0)
    assert result.force_point_regained_at_end


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param(
            {"atoned_this_adventure": True}, "one Dark Side Point", id="F-6-second-atonement"
        ),
        pytest.param({"force_point_from_dark_side": True}, "calling on the Dark Side", id="dsfp"),
    ],
)
def test_atonement_refusals(kwargs, message):
    with pytest.raises(ForceError, match=message):
        atone(3, 1, **kwargs)


def test_atonement_needs_a_dark_side_point_and_a_force_point():
    with pytest.raises(ForceError, match="no Dark Side Point"):
        atone(0, 1)
    with pytest.raises(ForceError, match="needs a Force Point"):
        atone(2, 0)


@pytest.mark.parametrize(
    ("dsp", "fp", "cp", "expected"),
    [
        pytest.param(9, 3, 12, 5, id="F-7-nine-drop-to-five"),
        pytest.param(3, 2, 7, 3, id="F-37-three-stay-three"),
    ],
)
def test_redemption(dsp, fp, cp, expected):
    result = redeem(dsp, fp, cp)
    assert (result.dark_side_points, result.force_points, result.character_points) == (
        expected,
        0,
        0,
    )


def test_redemption_needs_a_force_point():
    with pytest.raises(ForceError, match="Force Point"):
        redeem(9, 0, 12)
    with pytest.raises(ForceError, match="negative"):
        redeem(9, 1, -1)
