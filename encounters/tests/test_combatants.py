"""Campaign characters entering a fight: the combatant carries the sheet's codes, skills, the
weapon the character would draw, the armour he wears and the wounds he already has; reading
a whole party costs the same few queries as reading one character."""

from __future__ import annotations

import pytest

from campaigns.tests.factories import CampaignFactory
from characters.droid_builder import build_droid
from characters.models import Character, Item
from characters.tests.factories import CharacterFactory, ItemFactory, NPCFactory, SkillFactory
from encounters.combatants import (
    character_id_of,
    combatant_for_character,
    combatant_id_for,
    combatants_for_characters,
    wound_state_of,
)
from rules.combat import Armour, WeaponRange
from rules.dice import DieCode, FixedDice
from rules.droids import load_droid_templates
from rules.encounter import AddCombatant, EncounterState, apply
from rules.injuries import Stun, WoundLevel, WoundState
from rules.ruleset import RuleSet

pytestmark = pytest.mark.django_db

D = DieCode.parse
RULES_2E = RuleSet.preset("2e")


def armed(character: Character, *items: dict) -> Character:
    for fields in items:
        ItemFactory(character=character, **fields)
    return character


# --- ids ---------------------------------------------------------------------------------------
def test_pc_and_npc_ids_lead_back_to_their_sheets():
    pc, npc = CharacterFactory(), NPCFactory()

    assert combatant_id_for(pc) == f"pc-{pc.pk}"
    assert combatant_id_for(npc) == f"npc-{npc.pk}"
    assert character_id_of(combatant_id_for(pc)) == pc.pk
    assert character_id_of(combatant_id_for(npc)) == npc.pk


@pytest.mark.parametrize(
    "combatant_id", ["sb-stormtrooper-1", "pc-", "pc-0", "pc-12x", "npc--3", "kira", "", "PC-1"]
)
def test_stat_block_npcs_and_odd_ids_have_no_sheet(combatant_id):
    """The aftermath writes wounds back only to real characters, never to a trooper."""
    assert character_id_of(combatant_id) is None


# --- codes and skills --------------------------------------------------------------------------
def test_a_character_fights_with_the_codes_and_skills_on_his_sheet():
    kira = CharacterFactory(name="Kira", perception="4D", dexterity="3D+2", strength="2D+1")
    SkillFactory(character=kira, name="Blaster", code="5D+1")
    SkillFactory(
        character=kira,
        name="Blaster pistol",
        code="6D+1",
        kind="specialization",
        base_skill="blaster",
    )
    SkillFactory(character=kira, name="dodge", code="4D+2")

    combatant = combatant_for_character(kira, side="rebels", ruleset=RULES_2E)

    assert (combatant.name, combatant.side, combatant.npc) == ("Kira", "rebels", False)
    assert (combatant.perception, combatant.dexterity, combatant.strength) == (
        D("4D"),
        D("3D+2"),
        D("2D+1"),
    )
    assert combatant.code("blaster") == D("5D+1")
    assert combatant.code("blaster pistol") == D("6D+1")  # the specialization, under its name
    assert combatant.code("dodge") == D("4D+2")
    assert combatant.code("brawling parry") == D("3D+2")  # not on the sheet: Dexterity


def test_an_npc_character_is_marked_as_an_npc():
    """NPCs' numbers stay hidden from the players' view."""
    officer = NPCFactory(name="Lieutenant Voss")

    combatant = combatant_for_character(officer, side="empire", ruleset=RULES_2E)

    assert combatant.npc is True
    assert combatant.id == f"npc-{officer.pk}"


# --- the weapon ---------------------------------------------------------------------------------
def test_a_wizard_vibroblade_fights_with_its_strength_damage_from_the_notes():
    """The wizard stores STR+1D as the note "Damage STR+1D" (Item.damage holds die codes
    only): the blade still swings for Strength plus 1D, as melee physical damage."""
    kira = armed(
        CharacterFactory(),
        {
            "name": "A vibroblade",
            "damage": None,
            "skill": "melee combat",
            "ranges": "",
            "notes": "Damage STR+1D",
        },
        {"name": "Blaster pistol", "damage": "4D", "skill": "blaster", "ranges": "3-10/30/120"},
    )

    weapon = combatant_for_character(kira, side="rebels", ruleset=RULES_2E).weapon

    assert weapon is not None
    assert (weapon.name, weapon.damage, weapon.kind, weapon.energy) == (
        "A vibroblade",
        "STR+1D",
        "melee",
        False,
    )


def test_the_first_weapon_with_a_damage_code_is_drawn():
    """Sheet order is by name; a weapon with neither a damage code nor Strength damage in its
    notes is passed over, gear is never a weapon."""
    kira = armed(
        CharacterFactory(),
        {"name": "A vibroblade", "damage": None, "skill": "melee combat", "ranges": ""},
        {"name": "Blaster pistol", "damage": "4D", "skill": "blaster", "ranges": "3-10/30/120"},
        {"name": "Heavy blaster pistol", "damage": "5D", "ranges": "3-7/25/50"},
        {"name": "A comlink", "kind": Item.Kind.GEAR, "damage": None, "skill": ""},
    )

    weapon = combatant_for_character(kira, side="rebels", ruleset=RULES_2E).weapon

    assert weapon is not None
    assert (weapon.name, weapon.damage, weapon.skill) == ("Blaster pistol", "4D", "blaster")
    assert weapon.ranges == WeaponRange(3, 10, 30, 120)
    assert (weapon.kind, weapon.energy, weapon.stun) == ("ranged", True, False)


@pytest.mark.parametrize(
    ("skill", "kind", "energy"),
    [
        ("melee combat", "melee", False),
        ("Lightsaber", "melee", True),
        ("brawling", "brawling", False),
        ("blaster", "ranged", True),
        ("grenade", "ranged", True),
        ("", "ranged", True),
    ],
)
def test_the_weapons_skill_decides_how_it_attacks_and_what_armour_stops(skill, kind, energy):
    hero = armed(CharacterFactory(), {"name": "Weapon", "damage": "5D", "skill": skill})

    weapon = combatant_for_character(hero, side="rebels", ruleset=RULES_2E).weapon

    assert weapon is not None
    assert (weapon.kind, weapon.energy) == (kind, energy)
    assert weapon.skill == (skill.lower() or "blaster")


@pytest.mark.parametrize(
    ("ranges", "expected"),
    [
        ("3-30/100/300", WeaponRange(3, 30, 100, 300)),
        ("3-10-30-120", WeaponRange(3, 10, 30, 120)),
        (" 3 - 7 / 25 / 50 ", WeaponRange(3, 7, 25, 50)),
        ("melee", None),
        ("", None),
        ("30-3/100/300", None),
        ("3-10/30", None),
    ],
)
def test_a_weapons_ranges_are_read_from_the_sheet_and_bad_ones_are_left_out(ranges, expected):
    hero = armed(CharacterFactory(), {"name": "Blaster", "ranges": ranges})

    weapon = combatant_for_character(hero, side="rebels", ruleset=RULES_2E).weapon

    assert weapon is not None and weapon.ranges == expected


def test_a_character_without_a_weapon_fights_barehanded():
    hero = CharacterFactory()

    assert combatant_for_character(hero, side="rebels", ruleset=RULES_2E).weapon is None


# --- armour -------------------------------------------------------------------------------------
def test_armour_pieces_add_up_and_only_armour_protects():
    trooper = armed(
        NPCFactory(),
        {"kind": Item.Kind.ARMOUR, "name": "Stormtrooper armour", "damage": None,
         "armour_physical": "2D", "armour_energy": "1D"},
        {"kind": Item.Kind.ARMOUR, "name": "Helmet", "damage": None,
         "armour_physical": "+1", "armour_energy": None},
        {"name": "Blaster rifle", "damage": "5D", "armour_physical": "3D"},
    )  # fmt: skip

    combatant = combatant_for_character(trooper, side="empire", ruleset=RULES_2E)

    assert combatant.armour == Armour(physical=D("2D+1"), energy=D("1D"))


# --- wounds -------------------------------------------------------------------------------------
def test_a_wounded_pc_enters_the_fight_wounded_with_his_stuns():
    state = WoundState(level=WoundLevel.wounded, stuns=(Stun(round=3),))
    hero = CharacterFactory()
    hero.set_wound_state(state)
    hero.save()

    combatant = combatant_for_character(hero, side="rebels", ruleset=RULES_2E)

    assert wound_state_of(combatant) == state
    assert combatant.wounds.level is WoundLevel.wounded


def test_wounded_twice_enters_a_rules_companion_fight_on_its_ladder():
    """The [RC] ladder has no wounded twice: two wounds are incapacitated there."""
    hero = CharacterFactory(wound_level=WoundLevel.wounded_twice.value)

    combatant = combatant_for_character(hero, side="rebels", ruleset=RuleSet.preset("rc"))

    assert combatant.wounds.level is WoundLevel.incapacitated
    assert combatant.out_of_fight


def test_a_sheet_combatant_joins_an_encounter():
    hero = armed(CharacterFactory(name="Kira"), {"name": "Blaster pistol"})
    combatant = combatant_for_character(hero, side="rebels", ruleset=RULES_2E)

    state, _ = apply(
        EncounterState.new(), AddCombatant(combatant), ruleset=RULES_2E, rng=FixedDice([])
    )

    assert [c.name for c in state.combatants] == ["Kira"]
    assert state.combatants[0] == combatant


# --- several at once ----------------------------------------------------------------------------
def _party(campaign, size: int) -> None:
    for n in range(size):
        hero = CharacterFactory(campaign=campaign, name=f"Hero {n}")
        SkillFactory(character=hero, name="blaster", code="5D")
        SkillFactory(character=hero, name="dodge", code="4D")
        ItemFactory(character=hero, name="Blaster pistol")
        ItemFactory(character=hero, kind=Item.Kind.ARMOUR, name="Blast vest", damage=None,
                    armour_physical="1D", armour_energy="1D")  # fmt: skip


@pytest.mark.parametrize("size", [1, 3, 12])
def test_a_party_is_read_in_the_same_queries_whatever_its_size(size, django_assert_num_queries):
    campaign = CharacterFactory().campaign
    Character.objects.filter(campaign=campaign).delete()
    _party(campaign, size)

    with django_assert_num_queries(3):  # characters, skills, items
        combatants = combatants_for_characters(
            Character.objects.filter(campaign=campaign),
            side_of=lambda c: "rebels",
            ruleset=RULES_2E,
        )

    assert len(combatants) == size
    assert all(c.code("blaster") == D("5D") and c.weapon for c in combatants)
    assert all(c.armour == Armour.uniform("1D") for c in combatants)


def test_characters_already_loaded_cost_two_queries(django_assert_num_queries):
    campaign = CharacterFactory().campaign
    _party(campaign, 4)
    people = list(Character.objects.filter(campaign=campaign))

    with django_assert_num_queries(2):  # skills, items
        combatants_for_characters(people, side_of=lambda c: "rebels", ruleset=RULES_2E)


def test_sides_can_be_given_by_character():
    """PCs with the rebels, a captured officer brought in on the empire's side."""
    kira, voss = CharacterFactory(name="Kira"), NPCFactory(name="Voss")

    combatants = combatants_for_characters(
        [kira, voss], side_of={kira.pk: "rebels", voss.pk: "empire"}, ruleset=RULES_2E
    )

    assert [(c.name, c.side) for c in combatants] == [("Kira", "rebels"), ("Voss", "empire")]


def test_an_untrained_character_gives_first_aid_with_his_technical():
    """First aid is a Technical skill; a fighter keeps only Perception, Dexterity and
    Strength, so a character without the skill brings his Technical code for it, and one with
    the skill brings the skill."""
    medic = CharacterFactory(technical="3D+1")
    trained = CharacterFactory(technical="2D")
    SkillFactory(character=trained, name="First aid", attribute="technical", code="5D")

    untrained_code = combatant_for_character(medic, side="rebels", ruleset=RULES_2E).code(
        "first aid"
    )
    trained_code = combatant_for_character(trained, side="rebels", ruleset=RULES_2E).code(
        "first aid"
    )

    assert (str(untrained_code), str(trained_code)) == ("3D+1", "5D")


def test_a_weapon_specialization_is_what_the_character_fires_with():
    """Tala's blaster pistol specialization (6D+1) beats her blaster skill (5D+1): her pistol
    rolls the specialization, and its odds and shots follow."""
    tala = armed(CharacterFactory(), {"name": "Blaster pistol", "damage": "4D", "skill": "blaster"})
    SkillFactory(character=tala, name="blaster", code="5D+1")
    SkillFactory(character=tala, name="Blaster pistol", code="6D+1", kind="specialization")

    fighter = combatant_for_character(tala, side="rebels", ruleset=RULES_2E)

    assert fighter.weapon is not None and fighter.weapon.skill == "blaster pistol"
    assert str(fighter.code(fighter.weapon.skill)) == "6D+1"


def test_a_built_droids_armour_protects_it_in_a_fight():
    """[RC] a droid's armour (bought with building dice) is added to its Strength against damage
    from both kinds of attack: the builder stores it as an armour item the fight reads."""
    campaign = CampaignFactory()
    r2 = load_droid_templates()["r2"]  # armour +1D
    droid = build_droid(campaign, campaign.created_by, r2, owner_id=None, model="R2")

    combatant = combatant_for_character(droid, side="rebels", ruleset=RULES_2E)

    assert combatant.armour == Armour(physical=D("1D"), energy=D("1D"))
    assert combatant.id == f"npc-{droid.pk}"
