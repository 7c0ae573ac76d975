"""The GM edits a craft's stat block (issue 18): the new-craft form filled in, checked by the
engine (CraftStats.from_json); bad input is a form error and saves nothing; the crew stations
follow the weapons and shields."""

import pytest
from django.urls import reverse

from characters.craft_models import Craft
from characters.craft_services import catalogue, create_craft, crew_station
from characters.tests.factories import CharacterFactory
from rules.dice import DieCode


@pytest.fixture
def corvette(db):
    han = CharacterFactory(name="Han")
    craft = create_craft(han.campaign, catalogue()["Corellian Corvette"], name="Tantive IV")
    return craft, han


def _url(craft):
    return reverse("characters:craft_edit", args=[craft.campaign_id, craft.pk])


def _form(client, craft):
    """What the edit page sends back untouched: its initial values."""
    form = client.get(_url(craft)).context["form"]
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None or value is False:
            continue
        data[name] = "true" if value is True else value
    return data


def test_the_gm_edits_the_hull_and_the_crafts_value(client, corvette):
    craft, _ = corvette
    client.force_login(craft.campaign.created_by)
    data = _form(client, craft) | {"hull": "5D+1", "value": "3500000"}
    response = client.post(_url(craft), data)
    assert response.status_code == 302
    craft.refresh_from_db()
    assert craft.stat_block.hull == DieCode(5, 1)
    assert craft.value == 3_500_000
    assert craft.name == "Tantive IV"


def test_an_untouched_form_keeps_the_catalogues_weapons_whole(client, corvette):
    craft, _ = corvette
    before = craft.stat_block
    client.force_login(craft.campaign.created_by)
    assert client.post(_url(craft), _form(client, craft)).status_code == 302
    craft.refresh_from_db()
    assert craft.stat_block.weapons == before.weapons
    assert craft.stat_block.sublight == before.sublight


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ({"hull": "-2D"}, "negative"),
        ({"maneuverability": "fast"}, "die code"),
        ({"name": ""}, "This field is required"),
        ({"name": "   "}, "This field is required"),
        ({"crew": "-1"}, "greater than or equal to 0"),
        ({"value": "-5"}, "greater than or equal to 0"),
        ({"weapons": "Laser | 3D"}, "Weapon line 1"),
    ],
)
def test_bad_input_is_a_form_error_and_nothing_is_saved(client, corvette, bad, message):
    craft, _ = corvette
    before = Craft.objects.values().get(pk=craft.pk)
    client.force_login(craft.campaign.created_by)
    response = client.post(_url(craft), _form(client, craft) | bad)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Craft.objects.values().get(pk=craft.pk) == before


def test_a_player_cannot_edit_a_craft(client, corvette):
    craft, han = corvette
    client.force_login(han.owner)
    assert client.get(_url(craft)).status_code == 403
    assert client.post(_url(craft), {"name": "Mine"}).status_code == 403


def test_fewer_weapons_remove_their_gunner_stations_and_shields_keep_theirs(client, corvette):
    craft, han = corvette
    gm = craft.campaign.memberships.get(user=craft.campaign.created_by)
    crew_station(gm, craft.stations.get(role="pilot"), han)
    client.force_login(craft.campaign.created_by)
    data = _form(client, craft) | {"weapons": "Turbolaser | 3D | 4D | turret"}
    assert client.post(_url(craft), data).status_code == 302
    craft.refresh_from_db()
    assert [w.name for w in craft.stat_block.weapons] == ["Turbolaser"]
    assert list(craft.stations.filter(role="gunner").values_list("weapon_index", flat=True)) == [0]
    assert craft.stations.get(role="pilot").character == han
    assert craft.stations.filter(role="shields").exists()
