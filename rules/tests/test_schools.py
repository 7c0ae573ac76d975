"""[HOUSE] schools in the engine (rules.advancement.schools), the parts the Schools page and the
downtime job use: which campaigns offer schools, enrolling with part of the price paid, the
debt limit in words, half of the CP earned repaying the debt when an award comes in parts,
and the GM's bonuses written one a line."""

import pytest

from rules.advancement import AdvancementError
from rules.advancement.schools import (
    NCO_LEADERSHIP_I,
    bonuses_text,
    check_school_debt,
    enrol,
    parse_bonuses,
    schools_in_use,
    split_earned_cp,
)
from rules.ruleset import RuleSet

HOUSE = RuleSet.preset("house")


@pytest.mark.parametrize(
    ("ruleset", "offered"),
    [
        (HOUSE, True),
        (RuleSet.preset("2e"), False),
        (RuleSet.preset("rc"), False),
        (RuleSet.preset("2e", advancement_table="house"), True),
    ],
)
def test_schools_follow_the_house_advancement_rules(ruleset, offered):
    assert schools_in_use(ruleset=ruleset) is offered


def test_paying_part_of_the_price_owes_only_the_rest():
    assert enrol(NCO_LEADERSHIP_I, 96, ruleset=HOUSE, paid=1).days_needed == 15
    with pytest.raises(AdvancementError, match="to 101 CP, past the 100 CP limit"):
        enrol(NCO_LEADERSHIP_I, 96, ruleset=HOUSE, paid=0)
    assert enrol(NCO_LEADERSHIP_I, 100, ruleset=HOUSE, paid=5).days_needed == 15


@pytest.mark.parametrize("paid", [-1, 6, True, "5"])
def test_a_payment_outside_the_price_is_refused(paid):
    with pytest.raises(AdvancementError, match="pay from 0 to 5 CP"):
        enrol(NCO_LEADERSHIP_I, 0, ruleset=HOUSE, paid=paid)


def test_the_debt_limit_says_how_far_it_would_go():
    check_school_debt(100, 0)
    with pytest.raises(AdvancementError, match="owing 99 CP already, 2 CP more"):
        check_school_debt(99, 2)


@pytest.mark.parametrize(
    ("earned", "debt", "before", "split"),
    [
        pytest.param(1, 50, 1, (0, 1), id="1+1-repays-1-in-all"),
        pytest.param(3, 50, 12, (2, 1), id="kill-bonus-after-12"),
        pytest.param(3, 50, 11, (1, 2), id="kill-bonus-after-11"),
        pytest.param(12, 100, 0, (6, 6), id="C-36"),
        pytest.param(10, 1, 4, (1, 9), id="never-more-than-owed"),
    ],
)
def test_an_award_in_parts_repays_half_of_the_whole(earned, debt, before, split):
    assert split_earned_cp(earned, debt, earned_before=before) == split


def test_negative_points_before_are_refused():
    with pytest.raises(AdvancementError):
        split_earned_cp(1, 1, earned_before=-1)


def test_the_house_example_school_reads_from_its_own_words():
    text = "PER: command +2\nPER: persuasion +1\nSTR: stamina +1\nKNO: survival +2\n" + (
        "KNO: tactics +1\nKNO: willpower +1"
    )
    assert parse_bonuses(text) == NCO_LEADERSHIP_I.bonuses
    assert parse_bonuses(bonuses_text(NCO_LEADERSHIP_I.bonuses)) == NCO_LEADERSHIP_I.bonuses


def test_die_codes_are_pips_and_blank_lines_are_skipped():
    assert parse_bonuses("\n Dexterity: blaster +1D \n\nTechnical: repair +1D+2\n") == (
        ("dexterity", "blaster", 3),
        ("technical", "repair", 5),
    )


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "give at least one bonus"),
        ("command +2", "line 1 ('command +2'): write it as 'attribute: skill +pips'"),
        ("Perception: command", "write it as"),
        ("Perception: +2", "write it as"),
        ("Perception: command +٢", "write it as"),
        ("Luck: gambling +1", "'Luck' is not an attribute"),
        ("Pe: command +1", "'Pe' is not an attribute"),
        ("Perception: command +0", "a bonus adds 1 to 30 pips"),
        ("Perception: command +31", "a bonus adds 1 to 30 pips"),
        ("PER: command +1\nPER: Command +1", "line 2 ('PER: Command +1'): Command is already"),
        (f"PER: {'x' * 81} +1", "at most 80 characters"),
    ],
)
def test_bad_bonuses_name_the_line(text, words):
    with pytest.raises(AdvancementError, match=None) as caught:
        parse_bonuses(text)
    assert words in str(caught.value)
