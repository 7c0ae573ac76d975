"""Creation budgets and the Force at creation, from the engine: what the wizard shows
(budget, used, left) and the Force checks it made by itself before (issue 13)."""

from __future__ import annotations

import pytest

from rules.creation import (
    CreationError,
    SkillPick,
    SpeciesLimits,
    attribute_budget,
    attribute_pips_moved,
    check_creation,
    skill_budget,
)
from rules.dice import DieCode, DieCodeError
from rules.force import starting_power_problems
from rules.ruleset import PRESETS, RuleSet
from rules.traits import ATTRIBUTE_LABELS, ATTRIBUTES

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")
RULESETS = [pytest.param(RuleSet.preset(name), id=name) for name in PRESETS]

EVEN = {a: "3D" for a in ATTRIBUTES}  # 18D
FIVE_DICE = [SkillPick("blaster", "5D"), SkillPick("dodge", "5D"), SkillPick("sneak", "4D")]


# --- Budgets -------------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_player_character_spends_18D_and_an_npc_12D_of_attributes(ruleset):
    assert attribute_budget(ruleset=ruleset, npc=False) == DieCode(18)
    assert attribute_budget(ruleset=ruleset, npc=True) == DieCode(12)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_preset_gives_7D_of_skills(ruleset):
    assert skill_budget(ruleset=ruleset) == DieCode(7)


def test_a_house_template_is_the_attribute_budget():
    template = {**EVEN, "strength": "4D"}
    assert attribute_budget(ruleset=HOUSE, npc=False, template=template) == DieCode(19)


def test_a_rules_companion_alien_pc_adds_6D_to_its_template():
    template = {a: "2D" for a in ATTRIBUTES}
    assert attribute_budget(ruleset=RC, npc=False, template=template) == DieCode(18)
    assert attribute_budget(ruleset=RC, npc=True, template=template) == DieCode(12)


def test_a_template_with_a_bad_code_says_so():
    with pytest.raises(DieCodeError):
        attribute_budget(ruleset=HOUSE, npc=False, template={a: "3X" for a in ATTRIBUTES})


def test_a_template_missing_an_attribute_is_refused():
    with pytest.raises(CreationError, match="all six attributes"):
        attribute_budget(ruleset=HOUSE, npc=False, template={"dexterity": "3D"})


def test_the_report_gives_budget_used_and_left_for_attributes_and_skills():
    attrs = {**EVEN, "technical": "2D+1"}
    report = check_creation(attrs, FIVE_DICE, ruleset=UPG)
    assert report.attribute_dice_budget == DieCode(18)
    assert report.attribute_dice_used == DieCode(17, 1)
    assert report.attribute_dice_left == DieCode(0, 2)
    assert (report.skill_dice_budget, report.skill_dice_used) == (DieCode(7), DieCode(5))
    assert report.skill_dice_left == DieCode(2)


def test_an_npc_report_counts_against_12D():
    report = check_creation({a: "2D" for a in ATTRIBUTES}, ruleset=UPG, npc=True)
    assert report.ok
    assert (report.attribute_dice_budget, report.attribute_dice_used) == (DieCode(12), DieCode(12))


def test_overspent_dice_are_used_beyond_the_budget():
    report = check_creation({**EVEN, "dexterity": "4D"}, ruleset=UPG)
    assert report.attribute_dice_used == DieCode(19)
    assert report.attribute_dice_left == DieCode(-1)


# --- Attribute names -----------------------------------------------------------------------------
def test_attributes_are_keyed_as_the_engine_names_them_in_any_case():
    capitalised = {ATTRIBUTE_LABELS[a]: code for a, code in EVEN.items()}
    assert check_creation(capitalised, ruleset=UPG) == check_creation(EVEN, ruleset=UPG)


def test_an_attribute_given_twice_is_named():
    report = check_creation({**EVEN, "Dexterity": "4D"}, ruleset=UPG)
    assert "Dexterity is given twice" in report.problems


def test_messages_name_attributes_as_the_sheet_writes_them():
    report = check_creation({**EVEN, "dexterity": "5D", "knowledge": "1D"}, ruleset=UPG)
    assert "Dexterity 5D is above the species maximum 4D" in report.problems
    assert "Knowledge 1D is below the species minimum 2D" in report.problems


def test_species_limits_take_lowercase_or_capitalised_attributes():
    lower = SpeciesLimits.of("Any", {a: ("1D", "5D") for a in ATTRIBUTES})
    upper = SpeciesLimits.of("Any", {ATTRIBUTE_LABELS[a]: ("1D", "5D") for a in ATTRIBUTES})
    assert lower == upper
    assert lower.range_of("Strength") == lower.range_of("strength") == (DieCode(1), DieCode(5))


def test_species_limits_with_an_unknown_attribute_are_refused():
    with pytest.raises(CreationError, match="'Luck' is not an attribute"):
        SpeciesLimits.of("Any", {"Luck": ("1D", "2D")})


def test_a_skill_names_its_attribute_in_any_case():
    pick = SkillPick("podracing", "5D", attribute="mechanical")
    report = check_creation(EVEN, [pick, *FIVE_DICE], ruleset=UPG)
    assert report.ok, report.problems


def test_pips_moved_read_either_spelling():
    assert attribute_pips_moved(EVEN, {**EVEN, "Dexterity": "4D"}) == 3
    with pytest.raises(CreationError):
        attribute_pips_moved(EVEN, {"Luck": "4D"})


# --- The Force at creation -----------------------------------------------------------------------
def test_force_skills_are_bought_with_skill_dice_from_0D():
    report = check_creation(
        EVEN,
        FIVE_DICE,
        ruleset=UPG,
        force_sensitive=True,
        force_skills={"control": "1D", "sense": "1D"},
        force_powers=["Control Pain", "Life Sense"],
    )
    assert report.ok, report.problems
    assert report.skill_dice_used == DieCode(7)


def test_more_than_2D_in_one_force_skill_is_refused():
    report = check_creation(
        EVEN, ruleset=UPG, force_sensitive=True, force_skills={"control": "2D+1"}
    )
    assert "Control 2D+1: at most 2D may be put in one Force skill at creation" in report.problems


def test_force_skills_need_force_sensitivity():
    report = check_creation(EVEN, ruleset=UPG, force_skills={"control": "1D"})
    assert "only a Force-sensitive character starts with Force skills" in report.problems


def test_a_force_skill_must_be_control_sense_or_alter():
    report = check_creation(
        EVEN, ruleset=UPG, force_sensitive=True, force_skills={"telepathy": "1D"}
    )
    assert any("'telepathy' is not a Force skill" in p for p in report.problems)


@pytest.mark.parametrize(
    ("powers", "skills", "ruleset", "problem"),
    [
        pytest.param(
            ["Mind Trick"],
            {"control": "1D"},
            UPG,
            "Mind Trick is not a Force power in the list",
            id="unknown",
        ),
        pytest.param(
            ["Telekinesis"], {"control": "1D"}, UPG, "Telekinesis needs alter", id="needs-skill"
        ),
        pytest.param(
            ["Control Pain", "Remain Conscious"],
            {"control": "1D"},
            UPG,
            "2 Force powers chosen; the first die in each Force skill gives 1 in all",
            id="upg-one-per-first-die",
        ),
        pytest.param(
            ["Control Pain", "Remain Conscious"],
            {"control": "0D+2"},
            RC,
            "2 Force powers chosen; the first die in each Force skill gives 0 in all",
            id="no-first-die-no-power",
        ),
    ],
)
def test_starting_powers_are_checked(powers, skills, ruleset, problem):
    assert problem in starting_power_problems(powers, skills, ruleset=ruleset)
    report = check_creation(
        EVEN, ruleset=ruleset, force_sensitive=True, force_skills=skills, force_powers=powers
    )
    assert problem in report.problems


def test_the_rules_companion_gives_three_powers_with_the_first_die():
    powers = ["Control Pain", "Remain Conscious", "Force of Will"]
    assert starting_power_problems(powers, {"control": "1D"}, ruleset=RC) == []


def test_house_rules_set_no_count_of_starting_powers():
    powers = ["Control Pain", "Remain Conscious", "Force of Will"]
    assert starting_power_problems(powers, {"control": "1D"}, ruleset=HOUSE) == []
