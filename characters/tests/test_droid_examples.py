"""Droid worked examples of droids-and-equipment.md §10 not named elsewhere: E11 (Dexterity
1D -> 3D costs 10D) through the builder's live budget, and E16 (a new PC droid: 65D, one Force
Point, no Force skills, no skill above 13D) through the builder page and build_droid. E12-E14
are in test_droid_builder.py, E15 in test_droid_advancement.py."""

import html

import pytest

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.droid_builder import DroidRefused, build_droid
from characters.models import Character, LedgerEntry
from characters.tests.test_droid_builder import HX, builder_url, droid_post
from rules import DieCode
from rules.droids import DroidDesign, DroidSkill

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    campaign = CampaignFactory(name="Outer Rim Run")
    player = MembershipFactory(campaign=campaign).user
    return campaign, campaign.created_by, player


def test_e11_dexterity_1d_to_3d_costs_10d_of_building_dice(client, table):
    campaign, _, player = table
    client.force_login(player)
    data = droid_post(attributes={"dexterity": "3D"}, _live="1")
    text = client.post(builder_url(campaign), data, **HX).content.decode()
    assert "Attributes 10D · Speed 0D · Armour 0D · Skills 0D · Equipment 0D" in text
    assert "10D of 65D, 55D left" in text


def test_e16_a_new_player_droid_has_65d_of_building_dice(client, table):
    campaign, _, player = table
    client.force_login(player)
    assert "0D of 65D, 65D left" in client.get(builder_url(campaign)).content.decode()


def test_e16_a_new_player_droid_starts_with_one_force_point_through_the_ledger(client, table):
    campaign, _, player = table
    client.force_login(player)
    assert client.post(builder_url(campaign), droid_post(name="Q-7")).status_code == 302
    droid = Character.objects.get(name="Q-7")
    assert (droid.nature, droid.kind, droid.force_points) == ("droid", "pc", 1)
    assert LedgerEntry.objects.get(character=droid).delta == 1


@pytest.mark.parametrize(
    ("skill", "message"),
    [
        (("sense", "perception", "2D"), "droids may never have Force skills (sense)"),
        (("languages", "knowledge", "14D"), "languages 14D is above 13D"),
    ],
    ids=["E16-force-skill", "E16-14D"],
)
def test_e16_no_force_skill_and_no_skill_above_13d_on_the_page(client, table, skill, message):
    campaign, _, player = table
    client.force_login(player)
    response = client.post(builder_url(campaign), droid_post(name="Q-7", skills=[skill]))
    assert response.status_code == 400
    assert message in html.unescape(response.content.decode())
    assert not Character.objects.filter(name="Q-7").exists()


def test_e16_build_droid_refuses_a_force_skill_without_the_page(table):
    campaign, gm, player = table
    design = DroidDesign(
        "Q-7", player_character=True, skills=(DroidSkill("alter", "strength", DieCode(2)),)
    )
    with pytest.raises(DroidRefused, match="Force"):
        build_droid(campaign, gm, design, owner_id=player.pk)
    assert not Character.objects.filter(name="Q-7").exists()
