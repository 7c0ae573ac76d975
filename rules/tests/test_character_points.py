"""Character Points in play: the per-roll limits (characters-and-advancement.md §3.2)."""

from __future__ import annotations

import pytest

from rules.advancement import (
    AdvancementError,
    check_cp_spend,
    cp_and_fp_same_round_allowed,
    max_cp_per_roll,
)
from rules.ruleset import RuleSet

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")


# --- Character Points per roll --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("roll_kind", "ruleset", "limit"),
    [
        pytest.param("attack", UPG, 2, id="C-15-blaster-attack-2"),
        pytest.param("dodge", UPG, 5, id="C-15-dodge-5"),
        pytest.param("lightsaber parry", UPG, 5, id="C-15-lightsaber-parry-5"),
        pytest.param("resist_force_power", UPG, 5, id="C-15-F-39-control-vs-power-5"),
        pytest.param("specialization", UPG, 5, id="UPG-specialization-5"),
        pytest.param("skill", UPG, 2, id="UPG-skill-2"),
        pytest.param("reaction", UPG, 5, id="UPG-reaction-5"),
        pytest.param("starship dodge", UPG, 5, id="UPG-starship-dodge-5"),
        pytest.param("damage", UPG, 0, id="A-C16-no-cp-on-damage"),
        pytest.param("resist damage", UPG, 2, id="A-C16-resist-damage-2"),
        pytest.param("talent", UPG, 2, id="talent-is-a-house-term"),
        pytest.param("gear_survival", UPG, 0, id="no-gear-roll-in-2e"),
        pytest.param("initiative", UPG, 0, id="C-17-no-cp-on-initiative"),
        pytest.param("brawling_parry", HOUSE, 5, id="C-16-brawling-parry-5"),
        pytest.param("brawling_attack", HOUSE, 2, id="C-16-brawling-attack-2"),
        pytest.param("damage", HOUSE, 2, id="C-16-damage-2"),
        pytest.param("resist_damage", HOUSE, 5, id="C-16-resist-damage-5"),
        pytest.param("talent", HOUSE, 5, id="house-talent-5"),
        pytest.param("resist_force_power", HOUSE, 2, id="house-resist-power-is-a-skill-use"),
        pytest.param("gear_survival", HOUSE, 2, id="house-gear-roll-2"),
        pytest.param("initiative", HOUSE, 0, id="house-no-cp-on-initiative"),
        pytest.param("skill", RC, None, id="rc-no-limits"),
    ],
)
def test_max_cp_per_roll(roll_kind, ruleset, limit):
    assert max_cp_per_roll(roll_kind, ruleset=ruleset) == limit


@pytest.mark.parametrize(
    ("roll_kind", "limit"),
    [
        pytest.param("brawling_attack", 5, id="C-16-attack-reading-attack-5"),
        pytest.param("melee_parry", 2, id="attack-reading-parry-2"),
        pytest.param("dodge", 5, id="attack-reading-dodge-5"),
    ],
)
def test_house_melee_brawling_attack_reading(roll_kind, limit):
    ruleset = HOUSE.replace(house_cp_melee_brawling="attack")
    assert max_cp_per_roll(roll_kind, ruleset=ruleset) == limit


def test_unknown_roll_kind_is_refused():
    with pytest.raises(AdvancementError, match="unknown kind of roll"):
        max_cp_per_roll("juggling", ruleset=UPG)


@pytest.mark.parametrize(
    ("roll_kind", "cp", "fp", "message"),
    [
        pytest.param("attack", 3, False, "up to 2", id="C-15-three-on-an-attack"),
        pytest.param("resist_force_power", 6, False, "up to 5", id="F-39-six-vs-a-power"),
        pytest.param("dodge", 1, True, "never both", id="C-15-F-39-cp-and-fp"),
        pytest.param("initiative", 1, False, "cannot be spent", id="C-17-initiative"),
        pytest.param("skill", -1, False, "0 or more", id="negative"),
    ],
)
def test_check_cp_spend_refuses(roll_kind, cp, fp, message):
    with pytest.raises(AdvancementError, match=message):
        check_cp_spend(roll_kind, cp, force_point_this_round=fp, ruleset=UPG)


def test_check_cp_spend_accepts_legal_spending():
    check_cp_spend("dodge", 5, ruleset=UPG)
    check_cp_spend("attack", 0, force_point_this_round=True, ruleset=UPG)
    check_cp_spend("skill", 9, ruleset=RC, force_point_this_round=True)


def test_cp_and_fp_in_one_round_only_without_upg_limits():
    assert not cp_and_fp_same_round_allowed(ruleset=UPG)
    assert not cp_and_fp_same_round_allowed(ruleset=HOUSE)
    assert cp_and_fp_same_round_allowed(ruleset=RC)
