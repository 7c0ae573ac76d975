"""Numbers typed with digits that are not 0-9 ("²", a superscript two, is a digit to Python's
``str.isdigit`` but ``int()`` refuses it): every page that reads a number from the request is
refused with a message or ignores it, never a 500 (found by the issue 18 play-test)."""

import pytest
from django.urls import reverse

from characters.craft_services import create_craft
from characters.tests.factories import CharacterFactory
from rules.craft import CraftStats
from rules.dice import DieCode
from rules.scale import Scale

pytestmark = pytest.mark.django_db


@pytest.fixture
def gm_client(client):
    character = CharacterFactory()
    client.force_login(character.campaign.created_by)
    return client, character


def test_a_long_run_of_superscript_minutes_is_refused_not_a_crash(gm_client):
    client, character = gm_client
    speeder = create_craft(
        character.campaign,
        CraftStats(name="Speeder", kind="vehicle", scale=Scale.SPEEDER, hull=DieCode(2)),
        party=True,
    )
    url = reverse("characters:craft_long_run", args=[character.campaign_id, speeder.pk])
    response = client.post(url, {"speed": "all_out", "minutes": "²"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400


def test_a_droid_draft_number_in_superscript_is_not_a_crash(gm_client):
    client, character = gm_client
    url = reverse("characters:droid_builder", args=[character.campaign_id])
    assert client.get(url, {"draft": "²"}).status_code in (200, 400, 404)
