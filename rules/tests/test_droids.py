"""Droid building dice and droid skills [RC] (droids-and-equipment.md §2, examples E11-E16)."""

from __future__ import annotations

import dataclasses

import pytest

from rules.dice import DieCode
from rules.droids import (
    DROID_SKILL_CAP,
    NEW_DROID_SKILL_CREDITS,
    DroidDesign,
    DroidError,
    DroidItem,
    DroidSkill,
    armor_building_dice,
    attribute_building_dice,
    building_dice,
    building_dice_budget,
    droid_skill_cost,
    droid_starting_force_points,
    item_building_dice,
    load_droid_templates,
    skill_building_dice,
    skill_from_building_dice,
    speed_building_dice,
    validate_droid,
)
from rules.ruleset import RuleSet

RC = RuleSet.preset("rc")


# --- worked examples --------------------------------------------------------------------------
def test_E11_raising_droid_dexterity_from_1d_to_3d_costs_10d():
    assert attribute_building_dice("3D") == 10


def test_E12_two_building_dice_raise_a_skill_by_2d():
    assert skill_from_building_dice("2D", 2) == DieCode(4)
    assert skill_building_dice("4D", "2D") == 2


def test_E13_r2_astromech_costs_34d_of_its_35d_budget():
    r2 = load_droid_templates()["r2"]
    dice = building_dice(r2)
    assert (dice.attributes, dice.speed, dice.armor, dice.skills, dice.equipment) == (
        5,
        3,
        3,
        12,
        11,
    )
    assert (dice.total, dice.budget, dice.unspent) == (34, 35, 1)


def test_E13_r2_is_accepted_with_a_warning_about_the_unspent_die():
    assert validate_droid(load_droid_templates()["r2"]) == ("1D of building dice unspent",)


def test_E14_3po_costs_exactly_35d():
    threepio = load_droid_templates()["3po"]
    dice = building_dice(threepio)
    assert (dice.attributes, dice.skills, dice.equipment, dice.total) == (15, 13, 7, 35)
    assert validate_droid(threepio) == ()


def test_E14_charging_the_vocabulator_sounds_as_a_feature_puts_3po_over_budget():
    threepio = load_droid_templates()["3po"]
    items = tuple(
        dataclasses.replace(i, features=1) if i.name.startswith("vocabulator") else i
        for i in threepio.items
    )
    with pytest.raises(DroidError, match="36D of building dice; the budget is 35D"):
        validate_droid(dataclasses.replace(threepio, items=items))


@pytest.mark.parametrize(
    ("current", "points", "credits"),
    [(None, 2, NEW_DROID_SKILL_CREDITS), ("4D", 4, 0), ("12D+2", 12, 0)],
    ids=["E15-new-skill-1000-credits", "improve-4D", "improve-to-13D"],
)
def test_E15_droid_skills_cost_skill_points_and_a_new_one_1000_credits(current, points, credits):
    cost = droid_skill_cost("astrogation", current, "2D", ruleset=RC)
    assert (cost.points, cost.credits, cost.new_skill) == (points, credits, current is None)


def test_E15_a_new_droid_skill_starts_one_pip_above_its_attribute():
    assert droid_skill_cost("astrogation", None, "2D", ruleset=RC).result == DieCode(2, 1)


def test_a_new_droid_skill_costs_no_credits_outside_the_rules_companion():
    assert droid_skill_cost("astrogation", None, "2D", ruleset=RuleSet()).credits == 0


def test_E16_a_player_character_droid_gets_65d_and_one_force_point():
    assert building_dice_budget(player_character=True) == 65
    assert droid_starting_force_points(player_character=True) == 1


def test_an_npc_droid_gets_35d_and_no_force_point():
    assert building_dice_budget(player_character=False) == 35
    assert droid_starting_force_points(player_character=False) == 0


@pytest.mark.parametrize("skill", ["control", "Sense", "alter"])
def test_E16_droids_may_never_have_force_skills(skill):
    droid = DroidDesign("RX", skills=(DroidSkill(skill, "perception", DieCode(2)),))
    with pytest.raises(DroidError, match="never have Force skills"):
        validate_droid(droid)


def test_E16_no_droid_skill_may_exceed_13d():
    droid = DroidDesign(
        "Brainiac", player_character=True, skills=(DroidSkill("languages", "knowledge", "13D+1"),)
    )
    with pytest.raises(DroidError, match="limit of droid technology"):
        validate_droid(droid)


def test_a_13d_droid_skill_is_allowed():
    droid = DroidDesign(
        "Scholar",
        player_character=True,
        skills=(DroidSkill("languages", "knowledge", DROID_SKILL_CAP),),
    )
    assert building_dice(droid).skills == 12
    assert validate_droid(droid) == ("53D of building dice unspent",)


def test_improving_a_droid_skill_past_13d_is_refused():
    with pytest.raises(DroidError, match="13D"):
        droid_skill_cost("languages", "13D", "2D", ruleset=RC)


def test_adding_a_force_skill_to_a_droid_is_refused():
    with pytest.raises(DroidError, match="Force skills"):
        droid_skill_cost("sense", None, "1D", ruleset=RC)


def test_a_droid_skill_below_its_attribute_cannot_be_improved():
    with pytest.raises(DroidError, match="below its attribute"):
        droid_skill_cost("languages", "1D", "2D", ruleset=RC)


# --- costs of each heading ----------------------------------------------------------------
def test_speed_bought_above_dexterity_costs_3d_per_die():
    assert speed_building_dice("2D", "1D") == 3
    assert speed_building_dice("4D", "2D") == 6


def test_speed_equal_to_dexterity_is_free():
    assert speed_building_dice(None, "2D") == 0
    assert DroidDesign("R5", dexterity=DieCode(2)).speed_code == DieCode(2)


def test_speed_below_dexterity_is_refused():
    with pytest.raises(DroidError, match="below Dexterity"):
        speed_building_dice("1D", "2D")


def test_armor_costs_3d_per_die():
    assert armor_building_dice("2D") == 6


def test_negative_armor_is_refused():
    with pytest.raises(DroidError, match="negative"):
        armor_building_dice("-1D")


def test_each_item_costs_1d_and_each_extra_feature_1d():
    assert item_building_dice(DroidItem("arm", quantity=2)) == 2
    assert item_building_dice(DroidItem("video screen", features=1)) == 2


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": " "}, "needs a name"),
        ({"name": "arm", "quantity": 0}, "at least one"),
        ({"name": "arm", "features": -1}, "negative"),
    ],
)
def test_malformed_items_are_refused(kwargs, message):
    with pytest.raises(DroidError, match=message):
        DroidItem(**kwargs)


def test_building_dice_buy_whole_dice_only():
    with pytest.raises(DroidError, match="whole dice only"):
        attribute_building_dice("2D+1")


def test_a_droid_attribute_below_1d_is_refused():
    with pytest.raises(DroidError, match="below 1D"):
        attribute_building_dice("0D+2")


def test_a_skill_lower_than_its_attribute_is_refused():
    with pytest.raises(DroidError, match="cannot be lower"):
        skill_building_dice("1D", "2D")


def test_negative_building_dice_for_a_skill_are_refused():
    with pytest.raises(DroidError, match="negative"):
        skill_from_building_dice("2D", -1)


def test_an_unknown_attribute_is_refused():
    with pytest.raises(DroidError, match="not an attribute"):
        DroidSkill("juggling", "luck", DieCode(2))
    with pytest.raises(DroidError, match="not an attribute"):
        DroidDesign("R2").attribute("luck")


def test_macrobinoculars_need_some_form_of_vision():
    blind = DroidDesign("Probe", items=(DroidItem("macrobinoculars"),))
    with pytest.raises(DroidError, match="macrobinoculars need some form of vision"):
        validate_droid(blind)


def test_macrobinoculars_on_a_droid_with_photoreceptors_are_fine():
    seeing = DroidDesign("Probe", items=(DroidItem("photoreceptors"), DroidItem("macrobinoculars")))
    assert validate_droid(seeing) == ("33D of building dice unspent",)


def test_a_droid_over_its_budget_is_refused():
    heavy = DroidDesign("Tank", strength=DieCode(9))
    with pytest.raises(DroidError, match="uses 40D of building dice; the budget is 35D"):
        validate_droid(heavy)


def test_a_design_that_spends_exactly_the_budget_has_no_warning():
    # 5 x 5D attributes + 10 equipment items = 35D
    droid = DroidDesign(
        "Exact",
        dexterity=DieCode(2),
        knowledge=DieCode(2),
        mechanical=DieCode(2),
        perception=DieCode(2),
        technical=DieCode(2),
        items=(DroidItem("tool", quantity=10),),
    )
    assert building_dice(droid).total == 35
    assert validate_droid(droid) == ()


def test_r2_reference_data_keeps_its_printed_values():
    r2 = load_droid_templates()["r2"]
    assert r2.technical == DieCode(2)
    assert r2.speed_code == DieCode(2)
    assert r2.armor == DieCode(1)
    assert {s.name: str(s.code) for s in r2.skills} == {
        "binary language": "3D",
        "computer programming & repair": "7D",
        "starship repair": "7D",
    }
