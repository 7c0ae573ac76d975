"""Droid designs as stored values, every problem of a design at once (the builder's live
check), the Move a speed code gives, and what a droid pays or is refused on top of any
character's improvement (droids-and-equipment.md §2)."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.advancement import improvement_cost
from rules.dice import DieCode
from rules.droids import (
    NEW_DROID_SKILL_CREDITS,
    DroidDesign,
    DroidError,
    DroidItem,
    DroidSkill,
    check_droid,
    droid_improvement_credits,
    droid_move,
    droid_new_skill_improvement,
    load_droid_templates,
)
from rules.ruleset import RuleSet
from rules.traits import ATTRIBUTES

UPG = RuleSet()
RC = RuleSet.preset("rc")

codes = st.builds(DieCode, st.integers(0, 20), st.integers(0, 2))
names = st.text(min_size=1, max_size=30).filter(lambda s: s.strip())
skills = st.builds(DroidSkill, names, st.sampled_from(ATTRIBUTES), codes)
items = st.builds(DroidItem, names, st.integers(1, 9), st.integers(0, 4), st.booleans())
designs = st.builds(
    DroidDesign,
    name=st.text(max_size=30),
    player_character=st.booleans(),
    **{a: codes for a in ATTRIBUTES},
    speed=st.none() | codes,
    armor=codes,
    skills=st.lists(skills, max_size=5).map(tuple),
    items=st.lists(items, max_size=5).map(tuple),
)


# --- storing ----------------------------------------------------------------------------------
@given(designs)
def test_a_stored_design_reads_back_the_same(design):
    assert DroidDesign.from_json(design.to_json()) == design


@given(designs)
def test_a_stored_design_survives_a_trip_through_json_text(design):
    assert DroidDesign.from_json(json.loads(json.dumps(design.to_json()))) == design


@pytest.mark.parametrize("key", ["r2", "3po"])
def test_the_templates_store_and_read_back(key):
    template = load_droid_templates()[key]
    assert DroidDesign.from_json(template.to_json()) == template


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: [], "a droid design must be a JSON object"),
        (lambda d: {**d, "attributes": "1D"}, "attributes must be a JSON object"),
        (lambda d: {**d, "attributes": {**d["attributes"], "strength": 3}}, "strength"),
        (lambda d: {**d, "attributes": {**d["attributes"], "strength": "3X"}}, "Strength"),
        (lambda d: {**d, "speed_code": 2}, "speed code"),
        (lambda d: {**d, "armor": "lots"}, "armor"),
        (lambda d: {**d, "skills": {}}, "skills must be a list"),
        (lambda d: {**d, "skills": [{"name": "x", "attribute": "luck", "code": "2D"}]}, "luck"),
        (lambda d: {**d, "skills": [{"name": " ", "attribute": "strength", "code": "2D"}]}, "name"),
        (lambda d: {**d, "equipment": [{"name": "arm", "quantity": "2"}]}, "quantity"),
        (lambda d: {**d, "equipment": [{"name": "arm", "quantity": True}]}, "quantity"),
        (lambda d: {**d, "equipment": [{"name": "arm", "vision": 1}]}, "vision"),
        (lambda d: {**d, "equipment": [{"name": "arm", "quantity": 0}]}, "at least one"),
        (lambda d: {**d, "player_character": "yes"}, "player_character"),
        (lambda d: {**d, "name": None}, "name must be text"),
    ],
)
def test_a_damaged_stored_design_is_refused_with_the_reason(change, message):
    stored = change(load_droid_templates()["r2"].to_json())
    with pytest.raises(DroidError, match=message):
        DroidDesign.from_json(stored)


# --- every problem at once (the builder) ------------------------------------------------------
def test_r2_checks_with_34d_used_and_the_unspent_die_as_a_warning():
    check = check_droid(load_droid_templates()["r2"])
    assert (check.ok, check.dice.total, check.dice.budget) == (True, 34, 35)
    assert check.warnings == ("1D of building dice unspent",)


def test_3po_checks_at_exactly_35d_with_no_warning():
    check = check_droid(load_droid_templates()["3po"])
    assert (check.ok, check.dice.total, check.warnings) == (True, 35, ())


def test_every_problem_of_a_design_is_listed_at_once():
    design = DroidDesign(
        "Mess",
        dexterity=DieCode(2, 1),
        armor=DieCode(-1),
        speed=DieCode(1),
        skills=(
            DroidSkill("sense", "perception", "2D"),
            DroidSkill("languages", "knowledge", "14D"),
            DroidSkill("repair", "technical", "2D"),
            DroidSkill("Repair", "technical", "1D"),
        ),
        items=(DroidItem("macrobinoculars"),),
    )
    problems = check_droid(design).problems
    assert problems == (
        "Dexterity 2D+1: building dice buy whole dice only (no pips); make it 2D or 3D",
        "speed code 1D is below Dexterity 2D+1; speed is only bought above it (leave it empty "
        "to move at Dexterity)",
        "armor cannot be negative (got -1D)",
        "droids may never have Force skills (sense)",
        "languages 14D is above 13D, the limit of droid technology",
        "two skills are called Repair: keep one row per skill",
        "macrobinoculars need some form of vision first, such as photoreceptors",
    )


def test_pips_on_a_skill_are_refused_with_the_codes_to_choose():
    design = DroidDesign("Pips", skills=(DroidSkill("repair", "technical", "3D+2"),))
    assert check_droid(design).problems == (
        "repair 3D+2: building dice buy whole dice only (no pips); make it 3D or 4D",
    )


def test_an_over_budget_design_says_by_how_much_and_still_counts_its_dice():
    heavy = DroidDesign("Tank", player_character=True, strength=DieCode(14))
    check = check_droid(heavy)
    assert check.dice.total == 65
    assert check.ok
    heavier = dataclasses.replace(heavy, armor=DieCode(2))
    assert check_droid(heavier).problems == (
        "Tank uses 71D of building dice; the budget is 65D (6D over)",
    )


def test_an_entry_the_rules_refuse_counts_no_dice():
    design = DroidDesign("Half", strength=DieCode(3, 1), technical=DieCode(2))
    assert check_droid(design).dice.attributes == 5


# --- Move from the speed code (derived) --------------------------------------------------------
@pytest.mark.parametrize(
    ("speed", "move"),
    [("1D", 3), ("2D", 7), ("3D", 10), ("3D+1", 13), ("4D", 13), ("5D", 17), ("0D", 1)],
)
def test_a_speed_code_gives_a_move_scaled_so_that_3d_is_the_human_move_10(speed, move):
    assert droid_move(speed) == move


def test_r2_and_3po_move_7():
    templates = load_droid_templates()
    assert [droid_move(templates[k].speed_code) for k in ("r2", "3po")] == [7, 7]


# --- improvements: what a droid pays or is refused ---------------------------------------------
def test_E15_a_new_droid_skill_in_the_rules_companion_costs_points_and_1000_credits():
    cost = droid_new_skill_improvement("astrogation", "2D", ruleset=RC)
    assert (cost.character_points, cost.currency, cost.new) == (2, "skill points", DieCode(2, 1))
    assert cost.training_days is None  # not in the sources: the GM sets it
    assert droid_improvement_credits("new_skill", "astrogation", cost.new, ruleset=RC) == (
        NEW_DROID_SKILL_CREDITS
    )


def test_improving_a_droid_skill_costs_no_credits():
    assert droid_improvement_credits("skill", "astrogation", "4D+1", ruleset=RC) == 0


def test_outside_the_rules_companion_a_new_droid_skill_costs_no_credits():
    cost = improvement_cost("new_skill", "2D", ruleset=UPG)
    assert droid_improvement_credits("new_skill", "astrogation", cost.new, ruleset=UPG) == 0


@pytest.mark.parametrize(
    "kind", ["force_skill", "new_force_skill", "force_power", "force_sensitivity"]
)
def test_a_droid_is_refused_every_force_improvement(kind):
    with pytest.raises(DroidError, match="droids may never have Force"):
        droid_improvement_credits(kind, "sense", "1D", ruleset=RC)


def test_a_droid_skill_raised_past_13d_is_refused():
    with pytest.raises(DroidError, match="above 13D"):
        droid_improvement_credits("skill", "languages", "13D+1", ruleset=UPG)


def test_a_new_droid_skill_named_as_a_force_skill_is_refused():
    with pytest.raises(DroidError, match="Force skills"):
        droid_improvement_credits("new_skill", "Sense", "2D+1", ruleset=RC)


def test_raising_an_attribute_is_not_held_to_the_skill_cap():
    assert droid_improvement_credits("attribute", "strength", "14D", ruleset=UPG) == 0


def test_a_droid_skill_needs_a_name():
    with pytest.raises(DroidError, match="every droid skill needs a name"):
        DroidSkill("  ", "knowledge", "2D")
