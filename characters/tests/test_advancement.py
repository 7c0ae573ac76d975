"""Advancement through the service (characters/advancement.py): the worked examples of
characters-and-advancement.md §4 and §6 (C-19…C-44) and force.md (F-16, F-41) for each
ruleset, the attribute roll with its half refund, the GM's decisions, and bad input that must
change nothing."""

from __future__ import annotations

import pytest
from django.db import transaction

from campaigns.tests.factories import MembershipFactory
from characters.advancement import (
    InsufficientPoints,
    NotAllowed,
    approve,
    complete_due,
    quote,
    refuse,
    request_advancement,
    seeded_dice,
    withdraw,
)
from characters.models import Advancement, LedgerEntry, Skill
from characters.tests.advancement_fixtures import (
    PRESETS,
    campaign_for,
    character_with,
    ended_adventure,
    snapshot,
    used_in,
)
from rules import FixedDice
from rules.advancement import AdvancementError, attribute_improvement_roll
from rules.errors import RulesError

pytestmark = pytest.mark.django_db

Status = Advancement.Status
FORCE = ("force", "force")


def _skill(name, code, attribute="dexterity", kind="skill", base=""):
    return (name, code, attribute, kind, base)


# (id, preset, skills, character fields, kind, target, options, used last adventure,
#  CP, training days, new code)
WORKED = [
    # --- Second Edition with the Rules Upgrade ------------------------------------------------
    ("C-19 used", "2e", [("blaster", "4D+2")], {}, "skill", "blaster", {}, True, 4, 0, "5D"),
    ("C-19 teacher", "2e", [("blaster", "4D+2")], {}, "skill", "blaster", {}, False, 4, 4, "5D"),
    (
        "C-19 alone",
        "2e",
        [("blaster", "4D+2")],
        {},
        "skill",
        "blaster",
        {"teacher": False},
        False,
        4,
        8,
        "5D",
    ),
    (
        "C-19 alone, 7 extra CP",
        "2e",
        [("blaster", "4D+2")],
        {},
        "skill",
        "blaster",
        {"teacher": False, "extra_cp": 7},
        False,
        11,
        1,
        "5D",
    ),
    (
        "C-21",
        "2e",
        [
            ("blaster", "4D+2"),
            _skill("blaster pistol", "5D", kind="specialization", base="blaster"),
        ],
        {},
        "specialization",
        "Blaster Pistol",
        {},
        False,
        3,
        3,
        "5D+1",
    ),
    (
        "C-22",
        "2e",
        [_skill("medicine", "3D", "technical", "advanced")],
        {},
        "advanced",
        "medicine",
        {},
        False,
        6,
        42,
        "3D+1",
    ),
    (
        "C-22 alone",
        "2e",
        [_skill("medicine", "3D", "technical", "advanced")],
        {},
        "advanced",
        "medicine",
        {"teacher": False},
        False,
        6,
        84,
        "3D+1",
    ),
    ("C-23", "2e", [], {"dexterity": "3D+2"}, "attribute", "Dexterity", {}, False, 30, 210, "4D"),
    ("C-24", "2e", [], {"move": 10}, "move", "", {}, False, 10, 70, "11"),
    (
        "C-25 / F-18",
        "2e",
        [_skill("control", "2D", *FORCE)],
        {"force_sensitive": True},
        "force_skill",
        "control",
        {},
        False,
        2,
        2,
        "2D+1",
    ),
    (
        "C-25 / F-18 alone",
        "2e",
        [_skill("control", "2D", *FORCE)],
        {"force_sensitive": True},
        "force_skill",
        "control",
        {"teacher": False},
        False,
        4,
        8,
        "2D+1",
    ),
    ("C-26", "2e", [], {}, "force_sensitivity", "", {}, False, 20, 0, ""),
    # --- House Rules --------------------------------------------------------------------------
    (
        "C-27",
        "house",
        [("blaster", "4D")],
        {"dexterity": "3D"},
        "new_specialization",
        "blaster pistol",
        {"base_skill": "Blaster"},
        False,
        7,
        0,
        "4D+1",
    ),
    (
        "C-28",
        "house",
        [_skill("medicine", "3D", "technical", "advanced")],
        {},
        "new_advanced_specialization",
        "cyborging",
        {"base_skill": "medicine"},
        False,
        10,
        0,
        "1D",
    ),
    (
        "C-28 pip",
        "house",
        [
            _skill("medicine", "3D", "technical", "advanced"),
            _skill("cyborging", "1D", "technical", "specialization", "medicine"),
        ],
        {},
        "advanced_specialization",
        "cyborging",
        {},
        False,
        1,
        5,
        "1D+1",
    ),
    ("C-29", "house", [], {"move": 10}, "move", "", {}, False, 10, 35, "11"),
    (
        "C-29, 45 extra CP",
        "house",
        [],
        {"move": 10},
        "move",
        "",
        {"extra_cp": 45},
        False,
        55,
        5,
        "11",
    ),
    ("C-29 alone", "house", [], {"move": 10}, "move", "", {"teacher": False}, False, 20, 70, "11"),
    (
        "C-30",
        "house",
        [],
        {"knowledge": "3D+2"},
        "attribute",
        "knowledge",
        {},
        False,
        30,
        35,
        "4D",
    ),
    (
        "C-30 from 4D",
        "house",
        [],
        {"knowledge": "4D"},
        "attribute",
        "knowledge",
        {},
        False,
        40,
        70,
        "4D+1",
    ),
    ("C-31", "house", [], {"perception": "3D"}, "new_skill", "bargain", {}, False, 5, 0, "3D"),
    (
        "C-32",
        "house",
        [_skill("first aid", "5D", "technical")],
        {},
        "new_advanced",
        "medicine",
        {},
        False,
        10,
        50,
        "1D",
    ),
    (
        "C-32 alone",
        "house",
        [_skill("first aid", "5D", "technical")],
        {},
        "new_advanced",
        "medicine",
        {"teacher": False},
        False,
        10,
        100,
        "1D",
    ),
    (
        "C-33",
        "house",
        [_skill("medicine", "2D", "technical", "advanced")],
        {},
        "advanced",
        "medicine",
        {},
        False,
        4,
        20,
        "2D+1",
    ),
    (
        "C-33 alone",
        "house",
        [_skill("medicine", "2D", "technical", "advanced")],
        {},
        "advanced",
        "medicine",
        {"teacher": False},
        False,
        8,
        80,
        "2D+1",
    ),
    ("C-34 3D+1", "house", [("blaster", "3D+1")], {}, "skill", "blaster", {}, False, 3, 3, "3D+2"),
    ("C-34 5D", "house", [("blaster", "5D")], {}, "skill", "blaster", {}, False, 5, 5, "5D+1"),
    ("C-34 7D+1", "house", [("blaster", "7D+1")], {}, "skill", "blaster", {}, False, 7, 10, "7D+2"),
    (
        "C-34 alone",
        "house",
        [("blaster", "3D+1")],
        {},
        "skill",
        "blaster",
        {"teacher": False},
        False,
        6,
        6,
        "3D+2",
    ),
    ("C-34 used", "house", [("blaster", "3D+1")], {}, "skill", "blaster", {}, True, 3, 0, "3D+2"),
    (
        "F-41",
        "house",
        [_skill("control", "4D+1", *FORCE)],
        {"force_sensitive": True},
        "force_skill",
        "control",
        {},
        False,
        4,
        5,
        "4D+2",
    ),
    (
        "F-41 alone",
        "house",
        [_skill("control", "4D+1", *FORCE)],
        {"force_sensitive": True},
        "force_skill",
        "control",
        {"teacher": False},
        False,
        8,
        10,
        "4D+2",
    ),
    # --- Rules Companion (skill points) -------------------------------------------------------
    (
        "C-44",
        "rc",
        [_skill("control", "6D+2", *FORCE)],
        {"force_sensitive": True},
        "force_skill",
        "control",
        {"teacher_code": "7D+1"},
        False,
        6,
        None,
        "7D",
    ),
    (
        "C-44 above the teacher",
        "rc",
        [_skill("control", "7D+1", *FORCE)],
        {"force_sensitive": True},
        "force_skill",
        "control",
        {"teacher_code": "7D+1"},
        False,
        14,
        None,
        "7D+2",
    ),
    (
        "F-16 from a teacher",
        "rc",
        [_skill("control", "1D", *FORCE)],
        {"force_sensitive": True},
        "force_power",
        "control pain",
        {},
        False,
        0,
        7,
        "",
    ),
    (
        "F-16 self-taught",
        "rc",
        [_skill("control", "1D", *FORCE)],
        {"force_sensitive": True},
        "force_power",
        "control pain",
        {"teacher": False},
        False,
        1,
        7,
        "",
    ),
    ("RC new Force skill", "rc", [], {}, "new_force_skill", "sense", {}, False, 0, 70, "1D"),
]


def _setup(preset, skills, fields, used, target, cp=100):
    campaign = campaign_for(preset)
    character = character_with(campaign, cp=cp, skills=skills, **fields)
    if used:
        used_in(ended_adventure(campaign), character, target.lower())
    return campaign, character


@pytest.mark.parametrize(
    ("preset", "skills", "fields", "kind", "target", "options", "used", "cp", "days", "new"),
    [case[1:] for case in WORKED],
    ids=[case[0] for case in WORKED],
)
def test_worked_examples_are_priced_by_the_service(
    preset, skills, fields, kind, target, options, used, cp, days, new
):
    _, character = _setup(preset, skills, fields, used, target)
    q = quote(character, kind, target, ruleset=PRESETS[preset], **options)
    assert (q.cp, q.days, "" if q.new is None else str(q.new)) == (cp, days, new)
    assert q.used_last_adventure is used


@pytest.mark.parametrize(
    ("preset", "skills", "fields", "kind", "target", "options", "used", "cp", "days", "new"),
    [case[1:] for case in WORKED if case[9] is not None],
    ids=[case[0] for case in WORKED if case[9] is not None],
)
def test_asking_for_a_worked_example_holds_its_cp_and_trains_its_days(
    preset, skills, fields, kind, target, options, used, cp, days, new
):
    campaign, character = _setup(preset, skills, fields, used, target)
    campaign.game_day = 12
    campaign.save()
    advancement = request_advancement(character, kind, target, actor=character.owner, **options)
    character.refresh_from_db()
    assert character.character_points == 100 - cp
    held = LedgerEntry.objects.filter(character=character, currency="cp").order_by("-pk")
    assert [e.delta for e in held[: 1 if cp else 0]] == ([-cp] if cp else [])
    assert (advancement.cp_cost, advancement.training_days, advancement.new) == (cp, days, new)
    if days:
        assert advancement.status == Status.TRAINING
        assert (advancement.start_day, advancement.due_day) == (12, 12 + days)
    else:  # no training: done at once
        assert advancement.status == Status.DONE
        assert advancement.completed_day == 12


@pytest.mark.parametrize(
    ("preset", "skills", "fields", "kind", "target", "options", "used", "cp", "days", "new"),
    [case[1:] for case in WORKED if case[9] and case[10]],
    ids=[case[0] for case in WORKED if case[9] and case[10]],
)
def test_a_worked_example_lands_on_the_sheet_on_its_due_day(
    preset, skills, fields, kind, target, options, used, cp, days, new
):
    campaign, character = _setup(preset, skills, fields, used, target)
    advancement = request_advancement(character, kind, target, actor=character.owner, **options)
    assert complete_due(campaign.pk, days - 1, seed=1) == []
    lines = complete_due(campaign.pk, days, seed=1, rng_for=lambda seed, pk: FixedDice([1] * 8))
    advancement.refresh_from_db()
    assert [line["outcome"] for line in lines] == ["improved"]
    assert (advancement.status, advancement.completed_day) == (Status.DONE, days)
    character.refresh_from_db()
    if kind == "attribute":
        assert str(character.attribute(target.lower())) == new
    elif kind == "move":
        assert str(character.move) == new
    else:
        assert str(Skill.objects.get(character=character, name__iexact=target).code) == new


def test_c27_a_new_house_specialization_starts_a_pip_above_its_base_skill():
    _, character = _setup("house", [("blaster", "4D")], {"dexterity": "3D"}, False, "")
    request_advancement(
        character,
        "new_specialization",
        "blaster pistol",
        actor=character.owner,
        base_skill="blaster",
    )
    spec = Skill.objects.get(character=character, name="blaster pistol")
    assert (str(spec.code), spec.kind, spec.base_skill, spec.attribute) == (
        "4D+1",
        Skill.Kind.SPECIALIZATION,
        "blaster",
        "dexterity",
    )


def test_c31_a_new_house_skill_starts_at_its_attribute():
    _, character = _setup("house", [], {"perception": "3D"}, False, "")
    request_advancement(character, "new_skill", "bargain", actor=character.owner)
    skill = Skill.objects.get(character=character, name="bargain")
    assert (str(skill.code), skill.attribute) == ("3D", "perception")


def test_c26_becoming_force_sensitive_takes_20_cp_and_no_training():
    _, character = _setup("2e", [], {}, False, "")
    advancement = request_advancement(character, "force_sensitivity", "", actor=character.owner)
    character.refresh_from_db()
    assert advancement.status == Status.DONE
    assert (character.force_sensitive, character.character_points) == (True, 80)


def test_c30_a_house_attribute_lifts_its_skills_but_not_advanced_ones():
    campaign, character = _setup(
        "house",
        [
            _skill("bureaucracy", "4D", "knowledge"),
            _skill("medicine", "2D", "knowledge", "advanced"),
        ],
        {"knowledge": "3D+2"},
        False,
        "",
    )
    request_advancement(character, "attribute", "knowledge", actor=character.owner)
    complete_due(campaign.pk, 35, seed=7)
    character.refresh_from_db()
    codes = {s.name: str(s.code) for s in Skill.objects.filter(character=character)}
    assert (str(character.knowledge), codes) == ("4D", {"bureaucracy": "4D+1", "medicine": "2D"})


# --- The [UPG] attribute roll (C-23) ----------------------------------------------------------
def _dexterity_in_training():
    campaign, character = _setup("2e", [], {"dexterity": "3D+2"}, False, "")
    advancement = request_advancement(character, "attribute", "dexterity", actor=character.owner)
    assert (advancement.cp_cost, advancement.due_day) == (30, 210)
    return campaign, character, advancement


def test_c23_the_attribute_rises_when_the_roll_is_not_above_the_species_maximum():
    campaign, character, advancement = _dexterity_in_training()
    # 4D rolled (three dice and the Wild Die): 3+3+3+4 = 13; the GM's human maximum 4D: 15.
    dice = FixedDice([3, 3, 3, 4, 4, 4, 4, 3])
    lines = complete_due(campaign.pk, 210, seed=0, rng_for=lambda seed, pk: dice)
    character.refresh_from_db()
    advancement.refresh_from_db()
    assert str(character.dexterity) == "4D"
    assert character.character_points == 70
    assert advancement.status == Status.DONE
    assert (advancement.roll["character_roll"], advancement.roll["gamemaster_roll"]) == (13, 15)
    assert advancement.roll["faces"] == [3, 3, 3, 4, 4, 4, 4, 3]
    assert advancement.roll["character"]["normal"] == [3, 3, 3]
    assert advancement.roll["gamemaster"]["wild"] == [3]
    assert lines[0]["roll"] == advancement.roll
    assert lines[0]["outcome"] == "improved"


def test_c23_a_roll_above_the_species_maximum_gives_half_the_cp_back():
    campaign, character, advancement = _dexterity_in_training()
    dice = FixedDice([5, 5, 3, 4, 4, 4, 4, 3])  # 17 against 15
    lines = complete_due(campaign.pk, 210, seed=0, rng_for=lambda seed, pk: dice)
    character.refresh_from_db()
    advancement.refresh_from_db()
    assert str(character.dexterity) == "3D+2"
    assert character.character_points == 100 - 30 + 15
    assert advancement.status == Status.FAILED
    entry = LedgerEntry.objects.filter(character=character).order_by("-pk").first()
    assert (entry.delta, entry.balance_after) == (15, 85)
    assert (lines[0]["outcome"], lines[0]["cp_back"]) == ("not_improved", 15)


def test_the_attribute_roll_uses_the_seeded_dice_of_the_advance():
    campaign, character, advancement = _dexterity_in_training()
    # A seed whose dice fail the roll, found with the engine itself.
    seed = next(
        s
        for s in range(500)
        if not attribute_improvement_roll(
            "4D", "4D", 30, ruleset=PRESETS["2e"], rng=seeded_dice(s, advancement.pk)
        ).improved
    )
    complete_due(campaign.pk, 210, seed=seed)
    character.refresh_from_db()
    advancement.refresh_from_db()
    assert (character.character_points, str(character.dexterity)) == (85, "3D+2")
    roll = advancement.roll
    assert roll["character_roll"] > roll["gamemaster_roll"]
    assert roll["character"]["total"] == roll["character_roll"]
    assert sum(roll["faces"]) == roll["character_roll"] + roll["gamemaster_roll"]


def test_without_the_attribute_roll_the_house_attribute_simply_rises():
    campaign, character = _setup("house", [], {"knowledge": "3D+2"}, False, "")
    advancement = request_advancement(character, "attribute", "knowledge", actor=character.owner)
    complete_due(campaign.pk, 35, seed=3)
    advancement.refresh_from_db()
    assert (advancement.status, advancement.roll) == (Status.DONE, None)


# --- Rules Companion: the GM gives what the rules do not --------------------------------------
def test_rc_skill_points_price_a_skill_and_the_gm_gives_the_days():
    campaign, character = _setup("rc", [("blaster", "4D")], {}, False, "")
    q = quote(character, "skill", "blaster", ruleset=PRESETS["rc"])
    assert (q.cp, q.days, q.currency, q.waiting_for) == (4, None, "skill points", ("days",))
    advancement = request_advancement(character, "skill", "blaster", actor=character.owner)
    assert advancement.status == Status.AWAITING
    gm = campaign.created_by
    with pytest.raises(AdvancementError, match="training time"):
        approve(advancement, actor=gm)
    approve(advancement, actor=gm, days=3)
    advancement.refresh_from_db()
    assert (advancement.status, advancement.due_day) == (Status.TRAINING, 3)
    complete_due(campaign.pk, 3, seed=1)
    assert str(Skill.objects.get(character=character, name="blaster").code) == "4D+1"


def test_the_rules_companion_prices_no_attribute_and_nothing_changes():
    _, character = _setup("rc", [], {}, False, "")
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="gamemaster sets it"):
        request_advancement(character, "attribute", "dexterity", actor=character.owner)
    assert snapshot(character) == before


def test_an_unknown_species_maximum_waits_for_the_gm():
    campaign, character = _setup("2e", [], {"species": "Ewok", "dexterity": "3D"}, False, "")
    advancement = request_advancement(character, "attribute", "dexterity", actor=character.owner)
    assert advancement.status == Status.AWAITING
    gm = campaign.created_by
    with pytest.raises(AdvancementError, match="species maximum"):
        approve(advancement, actor=gm)
    approve(advancement, actor=gm, species_maximum="4D")
    advancement.refresh_from_db()
    assert advancement.status == Status.TRAINING
    assert advancement.training["species_maximum"] == "4D"


def test_a_player_cannot_give_the_species_maximum():
    _, character = _setup("2e", [], {"species": "Ewok"}, False, "")
    before = snapshot(character)
    with pytest.raises(NotAllowed):
        request_advancement(
            character, "attribute", "dexterity", actor=character.owner, species_maximum="6D"
        )
    assert snapshot(character) == before


# --- The GM's approval ------------------------------------------------------------------------
def _awaiting():
    campaign = campaign_for("2e", approve_advancement=True)
    character = character_with(campaign, cp=10, skills=[("blaster", "4D+2")])
    advancement = request_advancement(character, "skill", "blaster", actor=character.owner)
    return campaign, character, advancement


def test_a_request_waits_for_the_gm_with_its_cp_held():
    _, character, advancement = _awaiting()
    character.refresh_from_db()
    assert (advancement.status, character.character_points) == (Status.AWAITING, 6)


def test_the_gm_approves_and_training_starts_that_day():
    campaign, _, advancement = _awaiting()
    campaign.game_day = 20
    campaign.save()
    approve(advancement, actor=campaign.created_by)
    advancement.refresh_from_db()
    assert (advancement.status, advancement.start_day, advancement.due_day) == (
        Status.TRAINING,
        20,
        24,
    )
    assert advancement.decided_by == campaign.created_by


def test_a_refusal_returns_the_cp_with_its_reason():
    campaign, character, advancement = _awaiting()
    refuse(advancement, actor=campaign.created_by, reason="No teacher on Hoth")
    character.refresh_from_db()
    advancement.refresh_from_db()
    assert (advancement.status, advancement.reason) == (Status.REFUSED, "No teacher on Hoth")
    assert character.character_points == 10
    assert LedgerEntry.objects.filter(character=character).order_by("-pk")[0].delta == 4


def test_a_player_withdraws_before_training_and_gets_the_cp_back():
    _, character, advancement = _awaiting()
    withdraw(advancement, actor=character.owner)
    character.refresh_from_db()
    advancement.refresh_from_db()
    assert (advancement.status, character.character_points) == (Status.WITHDRAWN, 10)


def test_training_cannot_be_withdrawn():
    campaign, character, advancement = _awaiting()
    approve(advancement, actor=campaign.created_by)
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="already training"):
        withdraw(advancement, actor=character.owner)
    assert snapshot(character) == before


def test_a_player_cannot_approve_their_own_request():
    _, character, advancement = _awaiting()
    before = snapshot(character)
    with pytest.raises(NotAllowed):
        approve(advancement, actor=character.owner)
    assert snapshot(character) == before


def test_a_gms_own_request_needs_no_approval():
    campaign = campaign_for("2e", approve_advancement=True)
    character = character_with(campaign, cp=10, skills=[("blaster", "4D+2")])
    advancement = request_advancement(character, "skill", "blaster", actor=campaign.created_by)
    assert advancement.status == Status.TRAINING


# --- Skills used in the last adventure ---------------------------------------------------------
def test_the_pip_limit_starts_again_after_the_next_adventure():
    campaign, character = _setup("2e", [("blaster", "4D+2")], {}, False, "")
    request_advancement(character, "skill", "blaster", actor=character.owner)
    complete_due(campaign.pk, 4, seed=1)
    ended_adventure(campaign, start=5, end=9)
    advancement = request_advancement(character, "skill", "blaster", actor=character.owner)
    assert (advancement.current, advancement.new) == ("5D", "5D+1")


# --- Bad input: a clear message, nothing changed -----------------------------------------------
def test_c20_a_second_pip_on_the_same_skill_this_downtime_is_refused():
    _, character = _setup("2e", [("blaster", "4D+2")], {}, True, "blaster")
    first = request_advancement(character, "skill", "blaster", actor=character.owner)
    assert (first.status, first.new) == (Status.DONE, "5D")
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="one pip between adventures"):
        request_advancement(character, "skill", "blaster", actor=character.owner)
    assert snapshot(character) == before


def test_a_second_request_while_the_first_trains_is_refused():
    _, character = _setup("2e", [("blaster", "4D+2")], {}, False, "")
    request_advancement(character, "skill", "blaster", actor=character.owner)
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="already asked for"):
        request_advancement(character, "skill", "blaster", actor=character.owner)
    assert snapshot(character) == before


@pytest.mark.parametrize(("preset", "move"), [("2e", 12), ("house", 12)])
def test_c24_move_cannot_rise_above_the_species_maximum(preset, move):
    _, character = _setup(preset, [], {"move": move}, False, "")  # Human: at most 12
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="species maximum 12"):
        request_advancement(character, "move", "", actor=character.owner)
    assert snapshot(character) == before


def test_the_gm_cannot_approve_move_above_a_maximum_he_gives():
    campaign, character = _setup("2e", [], {"species": "Ewok", "move": 9}, False, "")
    advancement = request_advancement(character, "move", "", actor=character.owner)
    assert advancement.status == Status.AWAITING
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="species maximum 9"):
        approve(advancement, actor=campaign.created_by, species_maximum=9)
    assert snapshot(character) == before


def test_cp_the_player_does_not_have_are_refused_by_the_ledger():
    _, character = _setup("2e", [("blaster", "4D+2")], {}, False, "", cp=3)
    before = snapshot(character)
    with pytest.raises(InsufficientPoints, match="4 needed, 3 held"):
        request_advancement(character, "skill", "blaster", actor=character.owner)
    assert snapshot(character) == before
    assert not Advancement.objects.exists()


def test_approving_an_already_refused_request_is_refused():
    campaign, character, advancement = _awaiting()
    refuse(advancement, actor=campaign.created_by, reason="Not yet")
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="already refused"):
        approve(advancement, actor=campaign.created_by)
    with pytest.raises(AdvancementError, match="already refused"):
        refuse(advancement, actor=campaign.created_by, reason="Again")
    assert snapshot(character) == before


def test_refusing_a_request_already_training_is_refused():
    campaign, character, advancement = _awaiting()
    approve(advancement, actor=campaign.created_by)
    before = snapshot(character)
    with pytest.raises(AdvancementError, match="already training"):
        refuse(advancement, actor=campaign.created_by, reason="Changed my mind")
    assert snapshot(character) == before


def test_a_player_cannot_improve_another_players_character():
    campaign, character = _setup("2e", [("blaster", "4D+2")], {}, False, "")
    other = MembershipFactory(campaign=campaign).user
    before = snapshot(character)
    with pytest.raises(NotAllowed, match="player or the GM"):
        request_advancement(character, "skill", "blaster", actor=other)
    with pytest.raises(NotAllowed):
        request_advancement(character, "skill", "blaster", actor=None)
    assert snapshot(character) == before


@pytest.mark.parametrize(
    ("kind", "target", "message"),
    [
        ("new_skill", "x" * 81, "too long"),
        ("new_skill", "blas\x00ter", "NUL"),
        ("skill", "blas\x00ter", "NUL"),
        ("skill", "", "name the skill"),
        ("skill", None, "name the skill"),
        ("skill", "gunnery", "no skill called gunnery"),
        ("specialization", "blaster", "is a skill, not a specialization"),
        ("attribute", "luck", "not an attribute"),
        ("new_skill", "Blaster", "already has"),
        ("new_skill", "podracing", "which attribute"),
        ("force_skill", "control", "no skill called control"),
        ("cooking", "blaster", "unknown improvement"),
        ("new_specialization", "blaster pistol", "name the skill it specializes"),
        ("new_advanced", "medicine", "first aid at 5D"),
    ],
)
def test_bad_requests_get_a_clear_message_and_change_nothing(kind, target, message):
    _, character = _setup("2e", [("blaster", "4D+2")], {}, False, "")
    before = snapshot(character)
    with pytest.raises(RulesError, match=message):
        request_advancement(character, kind, target, actor=character.owner)
    assert snapshot(character) == before


@pytest.mark.parametrize(
    "options",
    [{"extra_cp": -1}, {"extra_cp": True}, {"extra_cp": 10**9}, {"teacher": "yes"}],
)
def test_bad_options_are_refused(options):
    _, character = _setup("2e", [("blaster", "4D+2")], {}, False, "")
    before = snapshot(character)
    with pytest.raises(AdvancementError):
        request_advancement(character, "skill", "blaster", actor=character.owner, **options)
    assert snapshot(character) == before


def test_a_refusal_reason_with_nul_or_too_long_is_refused():
    campaign, character, advancement = _awaiting()
    before = snapshot(character)
    for reason in ("no\x00", "x" * 201, "  "):
        with pytest.raises(AdvancementError):
            refuse(advancement, actor=campaign.created_by, reason=reason)
    assert snapshot(character) == before


# --- Completing: once, in order, whatever the chunks ------------------------------------------
def _busy_campaign():
    """Three characters: a skill with a teacher (4 days), one alone (8 days), a specialization
    used in the adventure (at once), and an attribute (210 days) that rolls."""
    campaign = campaign_for("2e")
    one = character_with(campaign, skills=[("blaster", "4D+2"), ("dodge", "3D")])
    two = character_with(campaign, skills=[("pilot", "5D")], dexterity="3D+2")
    three = character_with(campaign, skills=[("sneak", "2D+1")], perception="2D")
    for character, kind, target, options in (
        (one, "skill", "blaster", {}),
        (one, "skill", "dodge", {"teacher": False}),
        (two, "skill", "pilot", {"teacher": False, "extra_cp": 3}),
        (two, "attribute", "dexterity", {}),
        (three, "attribute", "perception", {}),
        (three, "skill", "sneak", {}),
    ):
        request_advancement(character, kind, target, actor=character.owner, **options)
    return campaign, (one, two, three)


class _Rollback(Exception):
    pass


def _state_after(run, characters):
    """Run ``run`` and snapshot, then roll it all back, so another run starts from the same
    rows (the seeded dice depend on each advancement's id)."""
    state = {}
    try:
        with transaction.atomic():
            run()
            state = snapshot(*characters)
            raise _Rollback
    except _Rollback:
        pass
    return state


def test_the_same_days_give_the_same_state_whatever_the_chunks():
    campaign, characters = _busy_campaign()
    at_once = _state_after(lambda: complete_due(campaign.pk, 220, seed=99), characters)

    def day_by_day():
        for day in range(1, 221):
            complete_due(campaign.pk, day, seed=99)

    def in_chunks():
        for day in (3, 8, 150, 209, 220):
            complete_due(campaign.pk, day, seed=99)

    assert _state_after(day_by_day, characters) == at_once
    assert _state_after(in_chunks, characters) == at_once
    statuses = [r[3] for c in at_once.values() for r in c["requests"]]
    assert Status.TRAINING not in statuses


def test_complete_due_twice_for_the_same_day_applies_once():
    campaign, characters = _busy_campaign()
    first = complete_due(campaign.pk, 210, seed=5)
    after_first = snapshot(*characters)
    assert len(first) == 6
    assert complete_due(campaign.pk, 210, seed=5) == []
    assert snapshot(*characters) == after_first


def test_complete_due_completes_in_due_day_order_and_stops_at_the_day():
    campaign, _ = _busy_campaign()
    lines = complete_due(campaign.pk, 8, seed=5)
    assert [(line["target"], line["day"]) for line in lines] == [
        ("sneak", 2),
        ("blaster", 4),
        ("dodge", 6),
        ("pilot", 7),
    ]
    assert all(line["day"] <= 8 for line in lines)
    assert Advancement.objects.filter(status=Status.TRAINING).count() == 2


def test_complete_due_refuses_a_bad_day():
    campaign, _ = _busy_campaign()
    with pytest.raises(AdvancementError):
        complete_due(campaign.pk, -5, seed=1)


def test_a_skill_removed_during_training_gives_the_cp_back():
    campaign, character = _setup("2e", [("blaster", "4D+2")], {}, False, "")
    advancement = request_advancement(character, "skill", "blaster", actor=character.owner)
    Skill.objects.filter(character=character).delete()
    complete_due(campaign.pk, 4, seed=1)
    advancement.refresh_from_db()
    character.refresh_from_db()
    assert (advancement.status, character.character_points) == (Status.FAILED, 100)
