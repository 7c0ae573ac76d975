"""Character creation budgets: worked examples from
/work/shared/rules/characters-and-advancement.md §6 (C-n)."""

from __future__ import annotations

import pytest

from rules import reference
from rules.creation import (
    HOUSE_TIMELINE_BONUS,
    HUMAN,
    SkillPick,
    SpeciesLimits,
    attribute_pips_moved,
    check_creation,
    check_party,
    house_skill_cap_problem,
    house_starting_points,
    proposed_species_problems,
    skill_attribute,
    starting_credits,
    starting_force_points,
)
from rules.dice import DieCode
from rules.ruleset import RuleSet
from rules.traits import ATTRIBUTES

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")

EVEN = {a: "3D" for a in ATTRIBUTES}  # 18D
NPC_EVEN = {a: "2D" for a in ATTRIBUTES}  # 12D


def _attrs(**changes: str) -> dict[str, str]:
    return {**EVEN, **changes}


# --- Attributes ----------------------------------------------------------------------------------
def test_eighteen_dice_within_limits_is_valid():
    report = check_creation(EVEN, ruleset=UPG)
    assert report.ok
    assert report.attribute_dice_left == DieCode(0)


def test_attribute_above_species_maximum_is_named():
    report = check_creation(_attrs(dexterity="5D", knowledge="2D"), ruleset=UPG)
    assert "Dexterity 5D is above the species maximum 4D" in report.problems


def test_attribute_below_species_minimum_is_named():
    report = check_creation(_attrs(strength="1D+2", knowledge="4D+1"), ruleset=UPG)
    assert "Strength 1D+2 is below the species minimum 2D" in report.problems


def test_overspent_attributes_are_reported():
    report = check_creation(_attrs(dexterity="4D"), ruleset=UPG)
    assert "Attributes use 19D of 18D" in report.problems
    assert report.attribute_dice_left == DieCode(-1)


def test_underspent_attributes_are_reported():
    report = check_creation(_attrs(dexterity="2D+1"), ruleset=UPG)
    assert "Attributes: 2 left to spend" not in report.problems
    assert "Attributes: 0D+2 left to spend" in report.problems
    assert report.attribute_dice_left == DieCode(0, 2)


def test_missing_and_unknown_attributes_are_named():
    attrs = {a: "3D" for a in ATTRIBUTES[:5]} | {"Charisma": "3D"}
    report = check_creation(attrs, ruleset=UPG)
    assert "Technical has no code yet" in report.problems
    assert any("'Charisma' is not an attribute" in p for p in report.problems)


@pytest.mark.parametrize(
    ("npc", "attrs", "ok"),
    [
        pytest.param(True, NPC_EVEN, True, id="C-1-npc-12D"),
        pytest.param(False, EVEN, True, id="C-1-pc-18D"),
        pytest.param(True, EVEN, False, id="npc-with-18D-overspends"),
    ],
)
def test_npc_and_pc_attribute_budgets(npc, attrs, ok):
    species = SpeciesLimits.uniform("Any", "1D", "5D")
    assert check_creation(attrs, species=species, npc=npc, ruleset=RC).ok is ok


EWOK_NPC = {
    "dexterity": "2D",
    "knowledge": "2D",
    "mechanical": "2D",
    "perception": "2D",
    "strength": "2D",
    "technical": "2D",
}
WIDE = SpeciesLimits.uniform("Ewok", "1D", "9D")


def test_rc_alien_pc_adds_1D_to_each_attribute_C2():
    attrs = {a: "3D" for a in ATTRIBUTES}
    assert check_creation(attrs, species=WIDE, ruleset=RC, template=EWOK_NPC).ok


def test_rc_alien_pc_with_all_6D_in_strength_is_invalid_C2():
    attrs = {**EWOK_NPC, "strength": "8D"}
    report = check_creation(attrs, species=WIDE, ruleset=RC, template=EWOK_NPC)
    assert not report.ok
    assert any("1D of the 6D goes to each attribute" in p for p in report.problems)


def test_template_must_give_every_attribute():
    with pytest.raises(ValueError, match="all six attributes"):
        check_creation(EVEN, template={"dexterity": "3D"}, ruleset=HOUSE)


@pytest.mark.parametrize(
    ("proposed", "ok"),
    [
        pytest.param(_attrs(dexterity="4D", knowledge="2D"), True, id="C-9-three-pips-allowed"),
        pytest.param(
            _attrs(dexterity="4D", knowledge="2D", mechanical="3D+1", perception="2D+2"),
            False,
            id="C-9-four-pips-invalid",
        ),
    ],
)
def test_house_attribute_pips_moved(proposed, ok):
    assert check_creation(proposed, ruleset=HOUSE, template=EVEN).ok is ok


def test_house_moving_pips_still_respects_species_maximum_C9():
    report = check_creation(
        _attrs(dexterity="4D+1", knowledge="2D+2"),
        species=HUMAN,
        ruleset=HOUSE,
        template=_attrs(dexterity="4D"),
    )
    assert "Dexterity 4D+1 is above the species maximum 4D" in report.problems


def test_pips_moved_counts_rises_only():
    assert attribute_pips_moved(EVEN, _attrs(dexterity="4D", knowledge="2D")) == 3


def test_species_with_per_attribute_limits():
    limits = {a: ("1D", "4D") for a in ATTRIBUTES} | {"strength": ("2D", "5D")}
    wookiee = SpeciesLimits.of("Wookiee", limits, move=11)
    assert check_creation(_attrs(strength="5D", knowledge="1D"), species=wookiee, ruleset=UPG).ok
    with pytest.raises(ValueError, match="no limits given for"):
        SpeciesLimits.of("Partial", {"Strength": ("1D", "2D")})


# --- Skills --------------------------------------------------------------------------------------
def _seven_dice() -> list[SkillPick]:
    return [
        SkillPick("blaster", "5D"),
        SkillPick("dodge", "5D"),
        SkillPick("sneak", "5D"),
        SkillPick("search", "4D"),
    ]


def test_seven_skill_dice_spent_is_valid():
    report = check_creation(EVEN, _seven_dice(), ruleset=UPG)
    assert report.ok, report.problems
    assert report.skill_dice_left == DieCode(0)


def test_skill_dice_left_are_reported():
    report = check_creation(
        EVEN, [SkillPick("blaster", "5D"), SkillPick("dodge", "4D")], ruleset=UPG
    )
    assert "Skills: 4D left to spend" in report.problems
    assert report.skill_dice_left == DieCode(4)


def test_skill_dice_overspent_are_reported():
    report = check_creation(EVEN, [*_seven_dice(), SkillPick("hide", "3D+1")], ruleset=UPG)
    assert "Skills use 7D+1 of 7D" in report.problems


def test_more_than_2D_on_one_skill_is_refused():
    report = check_creation(EVEN, [SkillPick("blaster", "6D")], ruleset=UPG)
    assert any("at most 2D may be added to one skill" in p for p in report.problems)


def test_skill_below_its_attribute_is_refused():
    report = check_creation(EVEN, [SkillPick("blaster", "2D")], ruleset=UPG)
    assert "blaster 2D is below its attribute Dexterity 3D" in report.problems


def test_custom_skill_needs_its_attribute():
    report = check_creation(EVEN, [SkillPick("podracing", "4D")], ruleset=UPG)
    assert "say which attribute podracing belongs to" in report.problems
    ok = check_creation(EVEN, [SkillPick("podracing", "4D", attribute="Mechanical")], ruleset=UPG)
    assert "say which attribute podracing belongs to" not in ok.problems


def test_skill_with_an_unknown_attribute_is_refused():
    report = check_creation(EVEN, [SkillPick("podracing", "4D", attribute="Luck")], ruleset=UPG)
    assert "podracing: 'Luck' is not an attribute" in report.problems


def test_a_skill_chosen_twice_is_reported():
    report = check_creation(
        EVEN, [SkillPick("blaster", "4D"), SkillPick("blaster", "4D")], ruleset=UPG
    )
    assert "blaster is chosen 2 times" in report.problems


def test_a_skill_chosen_twice_in_different_cases_is_the_same_skill():
    report = check_creation(
        EVEN, [SkillPick("blaster", "4D"), SkillPick("Blaster", "4D")], ruleset=UPG
    )
    assert "blaster is chosen 2 times" in report.problems


# --- Limits a player proposes for a species without printed statistics ----------------------------
def test_a_player_proposal_within_the_human_range_has_no_problems():
    proposal = SpeciesLimits.uniform("Ewok", "1D", "4D", move=10)
    assert proposed_species_problems(proposal) == []


@pytest.mark.parametrize(
    ("minimum", "maximum", "move", "problem"),
    [
        ("0D", "4D", 10, "Dexterity minimum 0D: every attribute has at least 1D"),
        ("1D", "4D+1", 10, "Dexterity maximum 4D+1: a player may propose at most 4D"),
        ("0D", "30D", 10, "Technical maximum 30D: a player may propose at most 4D"),
        ("1D", "4D", 11, "Move 11: a player may propose at most 10"),
    ],
)
def test_a_player_proposal_beyond_the_human_range_is_the_gms_to_set(
    minimum, maximum, move, problem
):
    problems = proposed_species_problems(SpeciesLimits.uniform("Titan", minimum, maximum, move))
    assert any(p.startswith(problem) for p in problems), problems
    assert all("GM" in p or "at least 1D" in p for p in problems)


def test_a_printed_species_is_not_held_to_the_proposal_range():
    # Wookiee Strength 6D and Move 11 are printed values, not a player's proposal.
    wookiee = SpeciesLimits.from_reference(reference.species_by_name("Wookiee"))
    assert wookiee.move == 11
    assert wookiee.range_of("Strength") == (DieCode.parse("2D+2"), DieCode(6))


def test_limits_not_entered_yet_refuse_no_code():
    unknown = SpeciesLimits.not_entered("Ewok")
    report = check_creation(_attrs(dexterity="9D", knowledge="0D"), species=unknown, ruleset=UPG)
    assert not any("species m" in p for p in report.problems)


def test_starting_credits_are_the_ruleset_start():
    assert starting_credits(ruleset=RuleSet()) == 1000
    assert starting_credits(ruleset=HOUSE) == 1000


def test_trading_1D_for_three_specializations_C45():
    picks = [
        SkillPick("blaster", "5D"),
        SkillPick("dodge", "5D"),
        SkillPick("sneak", "5D"),
        SkillPick("blaster: blaster pistol", "6D", specialization_of="blaster"),
        SkillPick("dodge: energy weapons", "6D", specialization_of="dodge"),
        SkillPick("sneak: jungle", "6D", specialization_of="sneak"),
    ]
    report = check_creation(EVEN, picks, ruleset=UPG)
    assert report.ok, report.problems
    assert (report.skill_dice_left, report.specialization_dice_left) == (DieCode(0), DieCode(0))


def test_specialization_dice_left_after_a_partial_trade():
    picks = [*_seven_dice()[:3], SkillPick("blaster: heavy", "6D", specialization_of="blaster")]
    report = check_creation(EVEN, picks, ruleset=UPG)
    assert report.specialization_dice_left == DieCode(2)
    assert report.skill_dice_left == DieCode(0)


def test_specialization_of_a_skill_not_taken_is_bought_above_the_attribute():
    picks = [*_seven_dice()[:3], SkillPick("blaster: heavy", "4D", specialization_of="blaster")]
    assert check_creation(EVEN, picks[1:], ruleset=UPG).specialization_dice_left == DieCode(2)


def test_specialization_must_be_above_its_skill():
    picks = [
        SkillPick("blaster", "4D"),
        SkillPick("blaster: heavy", "4D", specialization_of="blaster"),
    ]
    report = check_creation(EVEN, picks, ruleset=UPG)
    assert "blaster: heavy 4D must be above blaster 4D" in report.problems


def test_specialization_of_a_custom_skill_takes_its_attribute():
    picks = [
        SkillPick("podracing", "4D", attribute="Mechanical"),
        SkillPick("podracing: Boonta", "5D", specialization_of="podracing"),
    ]
    assert not any(
        "say which attribute" in p for p in check_creation(EVEN, picks, ruleset=UPG).problems
    )


def test_advanced_skills_are_bought_from_zero():
    report = check_creation(
        EVEN, [SkillPick("(A) medicine", "1D", "Technical", advanced=True)], ruleset=UPG
    )
    assert report.skill_dice_left == DieCode(6)


# --- House skill limits --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("code", "specialization", "ok"),
    [
        pytest.param("6D+1", False, False, id="C-8-skill-6D+1-invalid"),
        pytest.param("6D", False, True, id="skill-6D-valid"),
        pytest.param("8D", True, True, id="C-8-specialization-8D-valid"),
        pytest.param("8D+1", True, False, id="C-8-specialization-8D+1-invalid"),
    ],
)
def test_house_starting_code_caps(code, specialization, ok):
    assert (house_skill_cap_problem("x", code, specialization) is None) is ok


def test_house_validator_applies_the_skill_cap_C8():
    attrs = _attrs(dexterity="4D+1", knowledge="2D+2")
    report = check_creation(attrs, [SkillPick("blaster", "6D+1")], ruleset=HOUSE)
    assert "blaster 6D+1 is above the House starting limit of 6D for a skill" in report.problems


def test_house_three_specializations_at_plus_1D_C7():
    picks = [
        SkillPick("blaster", "5D"),
        SkillPick("dodge", "5D"),
        SkillPick("sneak", "5D"),
        SkillPick("blaster: pistol", "6D", specialization_of="blaster"),
        SkillPick("dodge: energy", "6D", specialization_of="dodge"),
        SkillPick("sneak: jungle", "6D", specialization_of="sneak"),
    ]
    assert check_creation(EVEN, picks, ruleset=HOUSE).ok


def test_house_fourth_specialization_is_refused_C7():
    picks = [
        SkillPick("blaster", "5D"),
        SkillPick("dodge", "5D"),
        SkillPick("sneak", "5D"),
        *[SkillPick(f"blaster: {k}", "6D", specialization_of="blaster") for k in "abcd"],
    ]
    report = check_creation(EVEN, picks, ruleset=HOUSE)
    assert any("at most 3 specializations" in p for p in report.problems)


def test_house_specialization_is_exactly_plus_1D_C7():
    picks = [
        SkillPick("blaster", "5D"),
        SkillPick("blaster: pistol", "5D+2", specialization_of="blaster"),
    ]
    report = check_creation(EVEN, picks, ruleset=HOUSE)
    assert any("plus 1D (6D)" in p for p in report.problems)


# --- Starting points -----------------------------------------------------------------------------
def test_2e_starting_points():
    report = check_creation(EVEN, force_sensitive=True, ruleset=UPG)
    assert (report.character_points, report.force_points, report.dark_side_points) == (5, 2, 0)
    assert check_creation(EVEN, ruleset=UPG).force_points == 1


def test_2e_new_character_has_no_dark_side_points():
    assert (
        "a new character starts with no Dark Side Points"
        in check_creation(EVEN, dark_side_points=1, ruleset=UPG).problems
    )


def test_pc_droid_starts_with_one_force_point_C6():
    assert starting_force_points(droid=True) == 1


def test_rc_starting_skill_points_are_left_to_the_gm():
    report = check_creation(EVEN, ruleset=RC)
    assert report.character_points is None and report.notes


@pytest.mark.parametrize(
    ("kwargs", "total"),
    [
        pytest.param({}, 30, id="A-C9-10-free-plus-20"),
        pytest.param({"dark_side_points": 3}, 60, id="C-10-three-dsp-plus-30"),
        pytest.param({"cyber_points": 2}, 40, id="C-10-two-cyber-plus-10"),
        pytest.param({"background_cp": 20}, 50, id="background-20"),
        pytest.param({"timeline_bonus": HOUSE_TIMELINE_BONUS["5 BBY"]}, 830, id="C-11-plus-800"),
    ],
)
def test_house_starting_cp(kwargs, total):
    start = house_starting_points(**kwargs, ruleset=HOUSE)
    assert start.total == total
    assert (start.cp_slot, start.extra_cp_slot) == (20, total - 20)
    assert not start.problems


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"dark_side_points": 6}, "at most 5", id="C-10-six-dsp-invalid"),
        pytest.param({"background_cp": 3}, "5 to 20", id="background-out-of-range"),
        pytest.param({"cyber_points": -1}, "negative", id="negative-cyber"),
    ],
)
def test_house_starting_cp_problems(kwargs, message):
    assert any(message in p for p in house_starting_points(**kwargs, ruleset=HOUSE).problems)


def test_house_validator_reports_starting_slots():
    report = check_creation(EVEN, ruleset=HOUSE, dark_side_points=3)
    assert (report.character_points, report.cp_slot, report.extra_cp_slot) == (60, 20, 40)


@pytest.mark.parametrize(
    ("species", "ok"),
    [pytest.param("Wookiee", False, id="C-13-wookiee-refused"), ("Human", True)],
)
def test_house_force_sensitive_species_C13(species, ok):
    limits = SpeciesLimits.uniform(species, "1D", "5D")
    assert check_creation(EVEN, species=limits, ruleset=HOUSE, force_sensitive=True).ok is ok


def test_house_gotal_force_sensitive_note_C13():
    gotal = SpeciesLimits.uniform("Gotal", "1D", "5D")
    report = check_creation(EVEN, species=gotal, ruleset=HOUSE, force_sensitive=True)
    assert report.ok and "cones" in report.notes[0]


# --- Party limits --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("types", "ok"),
    [
        pytest.param(
            ["jedi", "jedi", "force sensitive", "force attuned", "force attuned", "force attuned"],
            True,
            id="C-14-two-jedi-one-fs-three-attuned",
        ),
        pytest.param(["jedi"] * 3, False, id="C-14-three-jedi-invalid"),
        pytest.param(["space marine"] * 2, False, id="C-14-two-space-marines-invalid"),
        pytest.param(["time lord"], False, id="banned-type"),
    ],
)
def test_house_party_limits(types, ok):
    assert (check_party(types, ruleset=HOUSE) == []) is ok


def test_party_limits_lapse_once_the_campaign_has_started():
    assert check_party(["jedi"] * 3, campaign_started=True, ruleset=HOUSE) == []
    assert check_party(["dark side"], campaign_started=True, ruleset=HOUSE)


def test_no_party_limits_outside_house():
    assert check_party(["jedi"] * 5, ruleset=RuleSet()) == []


def test_standard_skill_list_names_its_attribute():
    assert skill_attribute("blaster") == "dexterity"
    assert skill_attribute("willpower") == "knowledge"
    assert skill_attribute("climbing/jumping") == "strength"
    assert skill_attribute("podracing") is None


def test_species_limits_from_the_reference_table():
    human = SpeciesLimits.from_reference(reference.species_by_name("Human"))
    assert human == HUMAN


def test_species_without_limits_in_the_sources_must_be_entered():
    blank = next(s for s in reference.species() if s.attributes is None)
    with pytest.raises(ValueError, match="give no attribute limits"):
        SpeciesLimits.from_reference(blank)
