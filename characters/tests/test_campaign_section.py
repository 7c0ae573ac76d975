"""The campaign page's Characters section, which the characters app supplies (campaigns imports
no other app): what each member sees there, and what it costs."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.tests.factories import CharacterFactory, NPCFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def hero(client):
    character = CharacterFactory(name="Kyle Katarn")
    NPCFactory(campaign=character.campaign, name="Inquisitor Vael", secret=True)
    NPCFactory(campaign=character.campaign, name="Stormtrooper squad leader")
    client.force_login(character.owner)
    return character


def campaign_page(client, character):
    return client.get(reverse("campaigns:detail", args=[character.campaign_id])).text


def test_a_player_sees_the_campaigns_characters_but_not_a_secret_npc(client, hero):
    text = campaign_page(client, hero)
    assert "Kyle Katarn" in text and "Stormtrooper squad leader" in text
    assert "Inquisitor Vael" not in text


def test_the_gm_sees_every_character_a_secret_npc_marked_secret(client, hero):
    client.force_login(hero.campaign.created_by)
    text = campaign_page(client, hero)
    assert "Inquisitor Vael" in text and "secret" in text


def test_the_section_links_to_the_dice_log_and_the_creation_wizard(client, hero):
    text = campaign_page(client, hero)
    assert reverse("characters:dice_log", args=[hero.campaign_id]) in text
    assert reverse("characters:wizard_start", args=[hero.campaign_id]) in text


def test_the_campaign_page_costs_the_same_queries_for_many_characters(client, hero):
    url = reverse("campaigns:detail", args=[hero.campaign_id])
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for n in range(20):
        CharacterFactory(campaign=hero.campaign, name=f"Rebel {n}")
    with CaptureQueriesContext(connection) as many:
        assert "Rebel 19" in client.get(url).text
    assert len(many) == len(few)
