"""The GM's set-up forms: a quick stat block becomes a group of NPCs (each tracked on its own,
ids never clashing with those already in the fight) and can be kept as a campaign template;
campaign characters join on a side. Bad input gets a message on the field that caused it.
Run on PostgreSQL too (scripts/test.sh): column lengths and stored JSON are checked there."""

from __future__ import annotations

import json

import pytest

from campaigns.tests.factories import CampaignFactory
from characters.tests.factories import CharacterFactory, NPCFactory
from encounters.forms import MAX_COUNT, AddCharactersForm, QuickStatBlockForm, save_stat_block
from encounters.models import StatBlock
from rules.combat import Armour, WeaponRange
from rules.dice import DieCode, FixedDice
from rules.encounter import AddCombatant, EncounterState, apply
from rules.ruleset import RuleSet
from rules.scale import Scale

pytestmark = pytest.mark.django_db

D = DieCode.parse

TROOPER = {
    "name": "Stormtrooper",
    "count": "4",
    "side": "empire",
    "perception": "2D",
    "dexterity": "2D",
    "strength": "2D",
    "skills": "blaster 4D, dodge 3D+1, brawling parry 3D",
    "weapon_name": "Blaster rifle",
    "weapon_damage": "5D",
    "weapon_skill": "blaster",
    "weapon_ranges": "3-30/100/300",
    "armour": "+1D physical, +2D energy",
    "scale": "character",
}


def form(**changes) -> QuickStatBlockForm:
    data = {**TROOPER, **changes}
    return QuickStatBlockForm({k: v for k, v in data.items() if v is not None})


def valid(**changes) -> QuickStatBlockForm:
    f = form(**changes)
    assert f.is_valid(), f.errors
    return f


def errors(field: str, **changes) -> str:
    f = form(**changes)
    assert not f.is_valid()
    assert field in f.errors, f.errors
    return " ".join(f.errors[field])


# --- a group of troopers -----------------------------------------------------------------------
def test_a_quick_stat_block_gives_each_trooper_the_same_codes_and_gear():
    troopers = valid().combatants(taken_ids=set())

    assert [t.name for t in troopers] == [f"Stormtrooper {n}" for n in range(1, 5)]
    assert len({t.id for t in troopers}) == 4
    for t in troopers:
        assert (t.side, t.npc, t.scale) == ("empire", True, Scale.CHARACTER)
        assert (t.perception, t.dexterity, t.strength) == (D("2D"), D("2D"), D("2D"))
        assert t.code("blaster") == D("4D")
        assert t.code("dodge") == D("3D+1")
        assert t.code("brawling parry") == D("3D")
        assert t.weapon is not None
        assert (t.weapon.name, t.weapon.damage, t.weapon.kind) == ("Blaster rifle", "5D", "ranged")
        assert t.weapon.ranges == WeaponRange(3, 30, 100, 300)
        assert t.weapon.energy and not t.weapon.stun
        assert t.armour == Armour(physical=D("1D"), energy=D("2D"))


def test_a_lone_npc_keeps_his_plain_name_and_the_defaults():
    f = valid(
        name="Greedo",
        count="",
        perception="",
        dexterity="",
        strength="",
        skills="",
        weapon_name="",
        weapon_damage="",
        weapon_ranges="",
        armour="",
    )

    (greedo,) = f.combatants(taken_ids=set())

    assert (greedo.name, greedo.id) == ("Greedo", "sb-greedo-1")
    assert (greedo.perception, greedo.dexterity, greedo.strength) == (D("2D"),) * 3
    assert greedo.weapon is None and greedo.armour == Armour()


def test_a_second_group_of_the_same_name_continues_the_numbering():
    first = valid().combatants(taken_ids=set())
    taken = {t.id for t in first} | {"pc-1", "npc-7"}

    second = valid(count="2").combatants(taken_ids=taken)

    assert [t.name for t in second] == ["Stormtrooper 5", "Stormtrooper 6"]
    assert not {t.id for t in second} & taken
    state = EncounterState.new()
    for trooper in (*first, *second):  # the engine refuses an id already in the fight
        state, _ = apply(state, AddCombatant(trooper), ruleset=RuleSet(), rng=FixedDice([]))
    assert len(state.combatants) == 6


def test_a_removed_troopers_id_is_never_handed_out_again():
    """Troopers 1 and 3 remain, 2 and 4 left the fight but are in the log under their ids."""
    taken = {"sb-stormtrooper-1", "sb-stormtrooper-2", "sb-stormtrooper-3", "sb-stormtrooper-4"}

    (newcomer,) = valid(count="1").combatants(taken_ids=taken)

    assert (newcomer.id, newcomer.name) == ("sb-stormtrooper-5", "Stormtrooper 5")


def test_a_lone_npc_joining_his_group_is_numbered_after_it():
    taken = {t.id for t in valid(count="3").combatants(taken_ids=set())}

    (late,) = valid(count="1").combatants(taken_ids=taken)

    assert late.name == "Stormtrooper 4"


def test_names_that_differ_only_in_spelling_do_not_share_ids():
    troopers = valid(name="Storm-trooper").combatants(taken_ids=set())
    taken = {t.id for t in troopers}

    others = valid(name="Stormtrooper").combatants(taken_ids=taken)

    assert not {t.id for t in others} & taken


def test_strength_damage_without_a_skill_is_a_physical_melee_weapon():
    f = valid(weapon_name="Vibroaxe", weapon_damage="str + 2d", weapon_skill="", weapon_ranges="")

    weapon = f.combatants(taken_ids=set())[0].weapon

    assert weapon is not None
    assert (weapon.damage, weapon.skill, weapon.kind, weapon.energy) == (
        "STR+2D",
        "melee combat",
        "melee",
        False,
    )


def test_a_stun_setting_and_a_scale_are_kept():
    f = valid(weapon_stun="on", scale="speeder")

    trooper = f.combatants(taken_ids=set())[0]

    assert trooper.weapon is not None and trooper.weapon.stun
    assert trooper.scale is Scale.SPEEDER


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("+1D", Armour.uniform("1D")),
        ("2D", Armour.uniform("2D")),
        ("+1D physical, +2D energy", Armour(physical=D("1D"), energy=D("2D"))),
        ("+2 energy", Armour(energy=D("+2"))),
        ("+1D, +2D Energy", Armour(physical=D("1D"), energy=D("2D"))),
        ("", Armour()),
    ],
)
def test_armour_is_read_for_all_attacks_or_by_kind(text, expected):
    assert valid(armour=text).combatants(taken_ids=set())[0].armour == expected


def test_unknown_skills_are_allowed_for_odd_npcs():
    f = valid(skills="Sabacc cheating 5D\nbeast riding: 3D+2; dodge 4D")

    trooper = f.combatants(taken_ids=set())[0]

    assert trooper.code("sabacc cheating") == D("5D")
    assert trooper.code("beast riding") == D("3D+2")
    assert trooper.code("dodge") == D("4D")


# --- bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("field", "code"), [("perception", "4X"), ("strength", "3D+3")])
def test_an_attribute_that_is_no_die_code_is_refused_on_its_field(field, code):
    message = errors(field, **{field: code})

    assert code in message


def test_a_skill_code_that_does_not_parse_names_its_entry():
    message = errors("skills", skills="blaster 4D, dodge 3X, sneak 2D+7")

    assert "dodge 3X" in message and "sneak 2D+7" in message
    assert "blaster 4D" not in message


@pytest.mark.parametrize(
    ("skills", "words"),
    [
        ("blaster", "give a die code"),
        ("4D", "name the skill"),
        ("dodge 3D, dodge 4D", "listed twice"),
        ("dexterity 4D", "its own field"),
    ],
)
def test_a_skill_entry_without_a_name_or_code_is_explained(skills, words):
    assert words in errors("skills", skills=skills)


def test_more_than_thirty_skills_are_refused():
    skills = ", ".join(f"skill {chr(97 + n // 26)}{chr(97 + n % 26)} 3D" for n in range(31))

    assert "At most 30 skills" in errors("skills", skills=skills)
    assert form(skills=skills.rsplit(",", 1)[0]).is_valid()


def test_a_name_longer_than_a_stat_block_can_hold_is_refused():
    assert "at most 80 characters" in errors("name", name="T" * 81)


@pytest.mark.parametrize("name", ["", "   "])
def test_a_stat_block_needs_a_name(name):
    assert "Give the NPC a name" in errors("name", name=name)


@pytest.mark.parametrize(
    ("count", "words"),
    [("0", "greater than or equal to 1"), ("51", "less than or equal to 50"), ("x", "number")],
)
def test_a_group_of_none_or_more_than_fifty_is_refused(count, words):
    assert words in errors("count", count=count)


def test_fifty_troopers_join_at_once():
    assert len(valid(count=str(MAX_COUNT)).combatants(taken_ids=set())) == MAX_COUNT


@pytest.mark.parametrize("side", ["", "   ", "x" * 41])
def test_a_group_needs_a_side_that_fits(side):
    assert errors("side", side=side)


def test_a_side_is_kept_with_its_spaces_tidied():
    assert valid(side="  Black   Sun ").combatants(taken_ids=set())[0].side == "Black Sun"


@pytest.mark.parametrize(
    ("ranges", "words"),
    [
        ("3/30/100", "short from-to / medium / long"),
        ("abc", "short from-to / medium / long"),
        ("3-30/100", "short from-to / medium / long"),
        ("30-3/100/300", "must grow"),
        ("3-30/100/999999999", "beyond a personal weapon"),
    ],
)
def test_malformed_ranges_are_explained(ranges, words):
    assert words in errors("weapon_ranges", weapon_ranges=ranges)


def test_ranges_written_with_dashes_only_are_read():
    weapon = valid(weapon_ranges="3-30-100-300").combatants(taken_ids=set())[0].weapon

    assert weapon is not None and weapon.ranges == WeaponRange(3, 30, 100, 300)


@pytest.mark.parametrize("damage", ["5X", "STR*2", "STR+1X", "4D+4", "-2D"])
def test_weapon_damage_that_is_no_code_is_refused(damage):
    assert errors("weapon_damage", weapon_damage=damage)


def test_a_weapon_needs_its_damage_and_damage_needs_a_weapon():
    assert "Give the weapon's damage" in errors("weapon_damage", weapon_damage="")
    assert "Name the weapon" in errors("weapon_name", weapon_name="")


def test_ranges_without_a_weapon_are_refused():
    assert "Name the weapon" in errors("weapon_name", weapon_name="", weapon_damage="")


@pytest.mark.parametrize("armour", ["+1D fire", "+1D physical, +2D physical", "+1X", "-1D"])
def test_armour_that_cannot_be_read_is_refused(armour):
    assert errors("armour", armour=armour)


def test_a_weapon_skill_the_npc_cannot_roll_is_refused():
    """An unlisted skill that is no skill of the rules would stop the fight at his first shot."""
    assert "list its code with the skills" in errors("weapon_skill", weapon_skill="bowcasting")


def test_an_odd_weapon_skill_is_fine_once_its_code_is_listed():
    f = valid(weapon_skill="Bowcasting", skills="bowcasting 5D, dodge 3D")

    trooper = f.combatants(taken_ids=set())[0]

    assert trooper.weapon is not None
    assert trooper.code(trooper.weapon.skill) == D("5D")


def test_an_unknown_scale_is_refused():
    assert errors("scale", scale="moon")


def test_an_invalid_form_gives_no_combatants():
    with pytest.raises(ValueError, match="errors"):
        form(count="0").combatants(taken_ids=set())


# --- campaign stat blocks ----------------------------------------------------------------------
def test_a_saved_stat_block_fills_the_form_for_the_next_fight():
    campaign = CampaignFactory()
    original = valid(weapon_stun="on", skills="brawling parry 3D, dodge 3D+1, blaster 4D")

    saved = save_stat_block(campaign, original)
    saved.refresh_from_db()  # what the database gives back (jsonb reorders object keys)
    initial = QuickStatBlockForm.initial_from_block(saved.block)
    again = QuickStatBlockForm(initial)

    assert again.is_valid(), again.errors
    assert again.combatants(taken_ids=set()) == original.combatants(taken_ids=set())
    assert initial["skills"] == "brawling parry 3D, dodge 3D+1, blaster 4D"
    assert json.loads(json.dumps(saved.block)) == saved.block


def test_saving_a_stat_block_again_updates_it():
    campaign = CampaignFactory()
    save_stat_block(campaign, valid())

    save_stat_block(campaign, valid(skills="blaster 5D"))

    (stored,) = StatBlock.objects.filter(campaign=campaign)
    assert stored.block["skills"] == [["blaster", "5D"]]


def test_a_stat_block_name_of_eighty_characters_is_stored():
    campaign = CampaignFactory()

    stored = save_stat_block(campaign, valid(name="T" * 80))

    assert StatBlock.objects.get(pk=stored.pk).name == "T" * 80


@pytest.mark.parametrize(
    "block",
    [
        {},
        {"name": "Stormtrooper"},
        {"name": 5, "count": True, "skills": {"blaster": "4D"}, "weapon_stun": "yes"},
        {"skills": [["blaster", "4D"], "junk", ["dodge"]]},
        "not a block",
    ],
)
def test_an_old_or_damaged_block_still_opens_the_form(block):
    initial = QuickStatBlockForm.initial_from_block(block)
    f = QuickStatBlockForm(initial=initial)

    assert isinstance(initial, dict)
    assert "weapon_stun" not in initial or isinstance(initial["weapon_stun"], bool)
    assert f["side"].value() == initial.get("side", "empire")
    assert f["perception"].value() == "2D"


def test_skills_kept_as_an_object_are_read_back():
    initial = QuickStatBlockForm.initial_from_block({"skills": {"blaster": "4D", "dodge": "3D"}})

    assert initial["skills"] == "blaster 4D, dodge 3D"


# --- campaign characters -----------------------------------------------------------------------
def test_characters_join_from_those_offered_on_a_side():
    kira = CharacterFactory(name="Kira")
    voss = NPCFactory(name="Voss", campaign=kira.campaign)
    offered = kira.campaign.characters.all()

    f = AddCharactersForm(
        {"characters": [kira.pk, voss.pk], "side": " rebels "}, characters=offered
    )

    assert f.is_valid(), f.errors
    assert set(f.cleaned_data["characters"]) == {kira, voss}
    assert f.cleaned_data["side"] == "rebels"
    assert {label for _, label in f.fields["characters"].choices} == {"Kira (PC)", "Voss (NPC)"}


def test_a_character_not_offered_cannot_join():
    """Another campaign's character, or one already in the fight (not offered)."""
    kira = CharacterFactory(name="Kira")
    stranger = CharacterFactory(name="Stranger")

    f = AddCharactersForm(
        {"characters": [kira.pk, stranger.pk], "side": "rebels"},
        characters=kira.campaign.characters.all(),
    )

    assert not f.is_valid()
    assert "characters" in f.errors


@pytest.mark.parametrize(
    "picked", [[], ["abc"], ["99999999999999999999"], ["-99999999999999999999"], ["-1"], ["²"]]
)
def test_bad_character_choices_are_refused(picked):
    kira = CharacterFactory()

    f = AddCharactersForm(
        {"characters": picked, "side": "rebels"}, characters=kira.campaign.characters.all()
    )

    assert not f.is_valid()
    assert "characters" in f.errors


@pytest.mark.parametrize("side", ["", "  ", "x" * 41])
def test_characters_need_a_side_that_fits(side):
    kira = CharacterFactory()

    f = AddCharactersForm(
        {"characters": [kira.pk], "side": side}, characters=kira.campaign.characters.all()
    )

    assert not f.is_valid()
    assert "side" in f.errors


def test_the_side_defaults_to_the_rebels():
    f = AddCharactersForm(characters=CampaignFactory().characters.all())

    assert f["side"].value() == "rebels"
