"""The wizard uses the campaign's library (issue 17): its species with their real limits and
Move (a GM's later edit applies), its templates to start from, its weapons and armour as items,
and an imported character's balances and notes."""

import html

import pytest
from django.urls import reverse

from campaigns import library
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import approval
from characters.models import Character, CreationDraft, Currency, LedgerEntry
from characters.tests.test_wizard import (
    GOOD_ATTRIBUTES,
    begin,
    fill_all,
    live,
    save,
    start_url,
    step_url,
)

pytestmark = pytest.mark.django_db

LIMITS = {a: {"min": "1D", "max": "4D"} for a in GOOD_ATTRIBUTES}
ITHORIAN = {
    "name": "Ithorian",
    "source": "Galaxy Guide 4",
    "attributes": {**LIMITS, "strength": {"min": "2D", "max": "5D"}},
    "move": {"normal": 9, "max": 11},
    "special_abilities": "Bellow: a deafening roar, 3D stun damage to all within 10 metres.",
    "force_sensitivity": "allowed",
}
# 18D within the Ithorian limits, with Strength 4D+1 (a Human could not have it).
ITHORIAN_ATTRIBUTES = {
    "dexterity": "4D",
    "knowledge": "3D",
    "mechanical": "3D",
    "perception": "2D+2",
    "strength": "4D+1",
    "technical": "1D",
}


def text(response) -> str:
    return html.unescape(response.content.decode())


@pytest.fixture
def campaign():
    return CampaignFactory()


@pytest.fixture
def gm(campaign):
    return campaign.created_by


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


@pytest.fixture
def ithorian(campaign, gm):
    return library.save_entry(campaign, "species", ITHORIAN, actor=gm)


# ---------------------------------------------------------------------------------------------
# Species
# ---------------------------------------------------------------------------------------------
def test_the_species_step_offers_the_gms_species_with_its_numbers_and_abilities(
    client, campaign, player, ithorian
):
    draft = begin(client, campaign, player)
    page = text(client.get(step_url(draft, "species")))
    assert '<option value="Ithorian">Ithorian</option>' in page
    fragment = text(
        client.post(
            step_url(draft, "species"),
            {"species": "Ithorian", "_live": "1", "_part": "species-details"},
            HTTP_HX_REQUEST="true",
        )
    )
    assert "from the campaign's library" in fragment
    assert "Move 9 (at most 11)" in fragment
    assert "5D" in fragment
    assert "Bellow: a deafening roar" in fragment
    assert 'name="dexterity_min"' not in fragment


def test_a_library_species_brings_its_limits_and_move_whatever_was_typed(
    client, campaign, player, ithorian
):
    draft = begin(client, campaign, player)
    save(client, draft, "species", {"species": "Ithorian", "move": "40", "strength_max": "9D"})
    draft.refresh_from_db()
    assert draft.data["species"]["move"] == 9
    assert draft.data["species"]["limits"]["strength"] == ["2D", "5D"]


def test_an_attribute_above_the_library_maximum_shows_live_and_blocks_creation(
    client, campaign, player, ithorian
):
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=ITHORIAN_ATTRIBUTES)
    save(client, draft, "species", {"species": "Ithorian"})
    too_high = {**ITHORIAN_ATTRIBUTES, "strength": "5D+1", "perception": "1D+2"}

    fragment = text(live(client, draft, "attributes", too_high))
    save(client, draft, "attributes", too_high)
    client.post(step_url(draft, "review"))

    assert "Strength 5D+1 is above the species maximum 5D" in fragment
    assert not Character.objects.exists()


def test_a_character_of_a_library_species_is_created_with_its_move(
    client, campaign, player, ithorian
):
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=ITHORIAN_ATTRIBUTES)
    save(client, draft, "species", {"species": "Ithorian"})
    assert "No problems." in text(client.get(step_url(draft, "review")))

    client.post(step_url(draft, "review"))

    character = Character.objects.get()
    assert (character.species, character.move, str(character.strength)) == ("Ithorian", 9, "4D+1")


def test_a_gms_later_edit_of_the_species_applies_to_a_draft_in_progress(
    client, campaign, gm, player, ithorian
):
    draft = begin(client, campaign, player)
    fill_all(client, draft, attributes=ITHORIAN_ATTRIBUTES)
    save(client, draft, "species", {"species": "Ithorian"})
    narrower = {**ITHORIAN, "attributes": {**LIMITS, "strength": {"min": "2D", "max": "4D"}}}
    library.save_entry(campaign, "species", narrower, actor=gm, entry=ithorian)

    review = text(client.get(step_url(draft, "review")))
    client.post(step_url(draft, "review"))

    assert "Strength 4D+1 is above the species maximum 4D" in review
    assert not Character.objects.exists()


def test_a_gms_copy_of_a_species_without_numbers_gives_it_numbers(client, campaign, gm, player):
    ewok = {**ITHORIAN, "name": "Ewok", "move": {"normal": 7, "max": 9}}
    library.save_entry(campaign, "species", ewok, actor=gm, copied_from="Ewok")
    draft = begin(client, campaign, player)

    page = text(client.get(step_url(draft, "species")))
    save(client, draft, "species", {"species": "Ewok"})

    assert '<option value="Ewok">Ewok</option>' in page  # no longer "(enter limits)"
    draft.refresh_from_db()
    assert draft.data["species"]["move"] == 7


def test_a_builtin_species_without_numbers_still_asks_for_them(client, campaign, player):
    draft = begin(client, campaign, player)
    page = text(client.get(step_url(draft, "species")))
    assert '<option value="Ewok">Ewok (enter limits)</option>' in page


def test_a_custom_species_is_a_proposal_flagged_for_the_gm(client, player):
    campaign = CampaignFactory(approve_characters=True)
    MembershipFactory(campaign=campaign, user=player)
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    limits = {
        f"{a}_{end}": "2D" if end == "min" else "4D"
        for a in GOOD_ATTRIBUTES
        for end in ("min", "max")
    }
    save(
        client,
        draft,
        "species",
        {"species": "custom", "custom_name": "Sarrian", "move": "8", **limits},
    )
    client.post(reverse("characters:draft_submit", args=[campaign.pk, draft.pk]), {"note": ""})

    client.force_login(campaign.created_by)
    page = text(client.get(reverse("characters:draft_review", args=[campaign.pk, draft.pk])))

    assert "Species Sarrian (a custom species): limits proposed by the player" in page
    assert "custom species" in page


# ---------------------------------------------------------------------------------------------
# Templates
# ---------------------------------------------------------------------------------------------
SMUGGLER = {
    "name": "Smuggler",
    "species": "Ithorian",
    "attributes": ITHORIAN_ATTRIBUTES,
    "skills": [
        {"name": "blaster", "code": "5D"},
        {"name": "Space Transports", "code": "5D"},
        {"name": "dodge", "code": "5D"},
        {"name": "streetwise", "code": "4D"},
        {"name": "con", "code": "3D+2"},
        {"name": "search", "code": "3D+2"},
    ],
    "force": {"sensitive": False},
    "gear": {"weapons": ["Blaster pistol"], "armour": [], "items": "comlink\n2 x medpac"},
    "credits": 750,
    "background": "Owes money to a Hutt.",
    "personality": "Cheerful.",
}


@pytest.fixture
def smuggler(campaign, gm, ithorian):
    return library.save_entry(campaign, "template", SMUGGLER, actor=gm)


def test_the_start_page_offers_the_librarys_templates(client, campaign, player, smuggler):
    client.force_login(player)
    page = text(client.get(start_url(campaign)))
    assert "Start from a template" in page
    assert '<option value="Smuggler">Smuggler (Ithorian)</option>' in page


def test_a_template_fills_every_step_of_the_new_draft(client, campaign, player, smuggler):
    draft = begin(client, campaign, player, kind="pc", template="Smuggler")
    data = draft.data
    assert data["species"]["choice"] == "Ithorian"
    assert data["attributes"]["strength"] == "4D+1"
    skills = {row["name"]: (row["code"], row["attribute"]) for row in data["skills"]}
    assert skills["space transports"] == ("5D", "mechanical")
    assert data["gear"] == {
        "weapons": ["Blaster pistol"],
        "armour": [],
        "items": "comlink\n2 x medpac",
        "credits": 750,
    }
    assert data["background"]["background"] == "Owes money to a Hutt."
    assert data["start"]["owner"] == player.pk
    assert draft.step == "species"
    page = text(client.get(step_url(draft, "attributes")))
    assert 'value="4D+1"' in page


def test_a_draft_from_a_template_is_still_checked_and_can_be_changed(
    client, campaign, player, smuggler
):
    draft = begin(client, campaign, player, kind="pc", template="Smuggler")
    review = text(client.get(step_url(draft, "review")))
    assert "Give the character a name" in review
    assert "Skills: 7D of 7D used" in review
    assert "Owes money to a Hutt." in text(client.get(step_url(draft, "background")))
    save(client, draft, "background", {"name": "Tarn Oyo", "background": "Owes money to a Hutt."})
    save(client, draft, "gear", {"weapons": [], "credits": "100"})

    client.post(step_url(draft, "review"))

    character = Character.objects.get()
    assert (character.name, character.species, character.credits) == ("Tarn Oyo", "Ithorian", 100)
    assert character.background == "Owes money to a Hutt."


def test_an_unknown_template_name_is_refused(client, campaign, player, smuggler):
    client.force_login(player)
    response = client.post(start_url(campaign), {"kind": "pc", "template": "Jedi"})
    assert response.status_code == 200
    assert "Select a valid choice" in text(response)
    assert not CreationDraft.objects.exists()


# ---------------------------------------------------------------------------------------------
# Gear
# ---------------------------------------------------------------------------------------------
VIBROAXE = {
    "name": "Vibro-axe",
    "skill": "melee combat",
    "damage": "3D+1",
    "adds_strength": True,
    "ranges": None,
    "cost": 500,
}
REPEATER = {
    "name": "Light repeater",
    "skill": "blaster",
    "damage": "6D",
    "ranges": {"short": [3, 50], "medium": 120, "long": 300},
    "cost": 2000,
}
PLATE = {
    "name": "Mandalorian plate",
    "physical": "2D",
    "energy": "1D+1",
    "dexterity_penalty": "1D",
    "covers": ["torso", "arms"],
}


def test_the_gear_step_offers_the_librarys_weapons_and_armour(client, campaign, gm, player):
    library.save_entry(campaign, "weapon", VIBROAXE, actor=gm)
    library.save_entry(campaign, "armour", PLATE, actor=gm)
    draft = begin(client, campaign, player)
    page = text(client.get(step_url(draft, "gear")))
    assert "Vibro-axe — STR+3D+1, 500 cr" in page
    assert "Blaster pistol — 4D" in page
    assert "Mandalorian plate — +2D physical, +1D+1 energy" in page


def test_library_weapons_and_armour_become_items_with_their_numbers(client, campaign, gm, player):
    for kind, data in (("weapon", VIBROAXE), ("weapon", REPEATER), ("armour", PLATE)):
        library.save_entry(campaign, kind, data, actor=gm)
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    save(
        client,
        draft,
        "gear",
        {
            "weapons": ["Vibro-axe", "Light repeater", "Blaster pistol"],
            "armour": ["Mandalorian plate"],
            "credits": "0",
        },
    )
    client.post(step_url(draft, "review"))

    items = {i.name: i for i in Character.objects.get().items.all()}
    axe, repeater, pistol = items["Vibro-axe"], items["Light repeater"], items["Blaster pistol"]
    assert (axe.damage, axe.skill, axe.notes) == (None, "melee combat", "Damage STR+3D+1")
    assert (str(repeater.damage), repeater.skill, repeater.ranges) == (
        "6D",
        "blaster",
        "3-50/120/300",
    )
    assert (str(pistol.damage), pistol.skill, pistol.ranges) == ("4D", "blaster", "3-10/30/120")
    plate = items["Mandalorian plate"]
    assert (str(plate.armour_physical), str(plate.armour_energy)) == ("2D", "1D+1")
    assert plate.notes == "Dexterity -1D; covers torso, arms"


def test_a_builtin_blast_weapon_keeps_its_bands_in_the_notes(client, campaign, player):
    draft = begin(client, campaign, player)
    fill_all(client, draft)
    save(client, draft, "gear", {"weapons": ["Grenade"], "credits": "0"})
    client.post(step_url(draft, "review"))
    grenade = Character.objects.get().items.get(kind="weapon")
    assert grenade.damage is None
    assert grenade.notes.startswith("Damage ") and "/" in grenade.notes


# ---------------------------------------------------------------------------------------------
# Imported characters: balances and notes
# ---------------------------------------------------------------------------------------------
def imported(client, campaign, user, balances, **extra):
    draft = begin(client, campaign, user)
    fill_all(client, draft)
    draft.refresh_from_db()
    draft.data["balances"] = balances
    draft.data.update(extra)
    draft.save()
    return draft


def test_imported_balances_are_shown_and_need_the_gm(client, campaign, player):
    draft = imported(client, campaign, player, {"cp": 14, "fp": 2, "dsp": 0})
    review = text(client.get(step_url(draft, "review")))
    client.post(step_url(draft, "review"))

    assert "Imported: Character Points 14; Force Points 2; Dark Side Points 0" in review
    assert "Imported balances: 14 Character Points (the rules give 5)" in review
    assert not Character.objects.exists()


def test_imported_balances_equal_to_the_rules_need_nothing(client, campaign, player):
    draft = imported(client, campaign, player, {"cp": 5, "fp": 1, "dsp": 0})
    client.post(step_url(draft, "review"))
    character = Character.objects.get()
    assert (character.character_points, character.force_points) == (5, 1)
    reasons = set(LedgerEntry.objects.values_list("currency", "reason"))
    assert (Currency.CP, "Imported Character Points") in reasons


def test_a_gm_creates_an_imported_character_with_its_balances(client, campaign, gm):
    draft = imported(client, campaign, gm, {"cp": 30, "fp": 3, "dsp": 2})
    client.post(step_url(draft, "review"), {"action": "create-anyway", "confirm": "1"})
    character = Character.objects.get()
    assert (character.character_points, character.force_points, character.dark_side_points) == (
        30,
        3,
        2,
    )


def test_approval_keeps_the_imported_balances(client, campaign, gm, player):
    draft = imported(client, campaign, player, {"cp": 9, "fp": 1, "dsp": 0})
    submit = reverse("characters:draft_submit", args=[campaign.pk, draft.pk])
    client.post(submit, {"note": "My CP from the last campaign"})
    assert "9 Character Points (the rules give 5)" in " ".join(approval.differences(draft))
    approval.approve(draft, actor=gm)
    assert Character.objects.get().character_points == 9


def test_the_review_shows_the_import_notes(client, campaign, player):
    notes = {"format": "1bln21", "file": "kessa.json", "unmapped": ["Languages: Huttese"]}
    draft = imported(client, campaign, player, {"cp": 5, "fp": 1, "dsp": 0}, **{"import": notes})
    review = text(client.get(step_url(draft, "review")))
    assert "Languages: Huttese" in review


def test_the_start_page_links_to_the_importer_when_there_is_one(client, campaign, player):
    client.force_login(player)
    page = text(client.get(start_url(campaign)))
    try:
        url = reverse("characters:import_character", args=[campaign.pk])
    except Exception:
        assert "Import a character" not in page
    else:
        assert "Import a character from another tool" in page
        assert url in page
