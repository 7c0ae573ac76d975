"""The "Plan an improvement" pages (issue 18): reached from the sheet's equipment and the craft
sheet, the quote shown before anything is committed, and bad input refused with the reason.
The worked examples through the service: test_projects_quote.py."""

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.craft_services import create_craft
from characters.models import Item, LedgerEntry
from characters.tests.factories import CharacterFactory, ItemFactory
from rules import DieCode
from rules.craft import CraftStats
from rules.scale import Scale

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def table():
    """An RC campaign; a player with a character carrying Erisson's blaster (now 5D)."""
    campaign = CampaignFactory(rule_options={"equipment_improvement": "rc_skill_points"})
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(campaign=campaign, owner=player, name="Erisson", credits=500)
    blaster = ItemFactory(character=hero, name="blaster pistol", damage="5D")
    return campaign, player, hero, blaster


def login(client, user):
    client.force_login(user)


def item_url(campaign, character) -> str:
    return reverse("characters:item_quote", args=[campaign.pk, character.pk])


def craft_url(campaign, craft) -> str:
    return reverse("characters:craft_quote", args=[campaign.pk, craft.pk])


def ship(campaign, *, owner=None, party=False, maneuverability="1D"):
    block = CraftStats(
        name="Stellar Envoy",
        kind="starship",
        scale=Scale.STARFIGHTER,
        maneuverability=DieCode.parse(maneuverability),
        hull=DieCode(4),
    )
    return create_craft(campaign, block, owner_character=owner, party=party)


def test_the_sheet_links_its_weapons_and_armour_to_the_plan(client, table):
    campaign, player, hero, _ = table
    login(client, player)
    page = client.get(hero.get_absolute_url()).content.decode()
    assert item_url(campaign, hero) in page


def test_the_plan_page_shows_the_form_and_commits_nothing(client, table):
    campaign, player, hero, blaster = table
    login(client, player)
    page = client.get(item_url(campaign, hero), {"item": blaster.pk})
    assert page.status_code == 200
    assert "Plan an improvement" in page.content.decode()
    assert "nothing is spent here" in page.content.decode()


def test_e1_through_the_page_the_blaster_quote_is_a_difficult_4th_pip(client, table):
    campaign, player, hero, blaster = table
    login(client, player)
    before = LedgerEntry.objects.count()
    query = {"item": blaster.pk, "stat": "damage", "target": "5D+1", "original": "4D"}
    page = client.get(item_url(campaign, hero), query, **HX)
    text = page.content.decode()
    assert page.status_code == 200
    assert '<strong class="quote-sp">5</strong>' in text
    assert '<strong class="quote-credits">50</strong>' in text
    assert "Difficult technology" in text
    assert "1 day of work" in text
    assert "Show this quote to your GM" in text
    assert "<html" not in text  # the quote fragment alone
    hero.refresh_from_db()
    assert (hero.character_points, hero.credits, LedgerEntry.objects.count()) == (0, 500, before)


def test_e19_through_the_craft_page_maneuverability_costs_15000_in_two_monthly_rolls(client):
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    craft = ship(campaign, party=True)
    login(client, player)
    query = {"stat": "maneuverability", "target": "1D+2", "item_value": 100000, "labour": "self"}
    text = client.get(craft_url(campaign, craft), query).content.decode()
    assert '<strong class="quote-credits">15,000</strong>' in text
    assert "2 monthly rolls" in text
    assert "Moderate repair" in text


def test_the_craft_sheet_links_to_the_plan(client):
    campaign = CampaignFactory()
    craft = ship(campaign, party=True)
    login(client, campaign.created_by)
    assert craft_url(campaign, craft) in client.get(craft.get_absolute_url()).content.decode()


# --- bad input and other people's gear ---------------------------------------------------------
def test_e20_improving_past_the_cap_is_refused_with_the_reason(client):
    campaign = CampaignFactory()
    craft = ship(campaign, party=True, maneuverability="2D+2")
    login(client, campaign.created_by)
    query = {
        "stat": "maneuverability",
        "original": "1D",
        "add": "0D+1",
        "item_value": 100000,
        "labour": "self",
    }
    page = client.get(craft_url(campaign, craft), query)
    assert page.status_code == 400
    assert "Not possible: No system may be improved more than +1D+2" in page.content.decode()


def test_e22_a_fifth_move_is_refused_on_the_page(client):
    campaign = CampaignFactory()
    block = CraftStats(name="Skyhopper", kind="vehicle", scale=Scale.SPEEDER, move=70)
    craft = create_craft(campaign, block, party=True)
    login(client, campaign.created_by)
    query = {"stat": "move", "original": "50", "add": "5", "item_value": 1000, "labour": "self"}
    page = client.get(craft_url(campaign, craft), query)
    assert page.status_code == 400
    assert "more than +20 above stock" in page.content.decode()


def test_a_code_that_is_not_a_die_code_is_named(client, table):
    campaign, player, hero, blaster = table
    login(client, player)
    query = {"item": blaster.pk, "stat": "damage", "target": "lots", "labour": "self"}
    page = client.get(item_url(campaign, hero), query)
    assert page.status_code == 400
    assert "is not a die code like 4D+1" in page.content.decode()


def test_another_characters_item_cannot_be_chosen(client, table):
    campaign, player, hero, _ = table
    theirs = ItemFactory(character=CharacterFactory(campaign=campaign), damage="4D")
    login(client, player)
    query = {"item": theirs.pk, "stat": "damage", "target": "4D+1", "labour": "self"}
    page = client.get(item_url(campaign, hero), query)
    assert page.status_code == 400
    assert "Select a valid choice" in page.content.decode()


def test_a_player_cannot_plan_on_another_players_character(client, table):
    campaign, player, _, _ = table
    other = CharacterFactory(campaign=campaign)
    login(client, player)
    assert client.get(item_url(campaign, other)).status_code == 403


def test_a_player_cannot_plan_on_another_players_ship(client, table):
    campaign, player, _, _ = table
    craft = ship(campaign, owner=CharacterFactory(campaign=campaign))
    login(client, player)
    assert client.get(craft_url(campaign, craft)).status_code == 403


def test_the_player_plans_on_his_characters_own_ship(client, table):
    campaign, player, hero, _ = table
    craft = ship(campaign, owner=hero)
    login(client, player)
    query = {"stat": "hull", "target": "4D+1", "labour": "self"}
    text = client.get(craft_url(campaign, craft), query).content.decode()
    assert '<strong class="quote-sp">4</strong>' in text  # hull stands alone: 4 sp


def test_a_character_without_weapons_or_armour_is_told_so(client, table):
    campaign, player, hero, blaster = table
    Item.objects.filter(pk=blaster.pk).delete()
    login(client, player)
    assert "has no weapon or armour" in client.get(item_url(campaign, hero)).content.decode()
