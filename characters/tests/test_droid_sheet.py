"""A built droid's sheet says it is a droid, shows its building dice, speed, armour and
equipment, and rolls like any character's: the odds first, then the roll (dice seeded), the
Force Point spent through the ledger."""

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import services
from characters.droid_builder import build_droid
from characters.models import DiceRoll, LedgerEntry
from characters.tests.factories import CharacterFactory
from rules import DieCode, SeededDice, roll
from rules.droids import DroidDesign, DroidItem, DroidSkill, load_droid_templates

pytestmark = pytest.mark.django_db


@pytest.fixture
def k9():
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    design = DroidDesign(
        "K-9X",
        player_character=True,
        dexterity=DieCode(3),
        speed=DieCode(4),
        armor=DieCode(1),
        skills=(DroidSkill("blaster", "dexterity", "5D"),),
        items=(DroidItem("photoreceptors", vision=True), DroidItem("arm", quantity=2)),
    )
    return build_droid(campaign, player, design, owner_id=player.pk, model="K-series scout")


def sheet(client, character) -> str:
    client.force_login(character.owner or character.campaign.created_by)
    return client.get(character.get_absolute_url()).content.decode()


def test_the_sheet_says_it_is_a_droid_and_shows_its_building_dice(client, k9):
    page = sheet(client, k9)
    assert '<span class="pill droid-badge">Droid</span> K-series scout' in page
    assert "Building dice: <strong>21D of 65D</strong>" in page
    assert "(Attributes 10D · Speed 3D · Armour 3D · Skills 2D · Equipment 3D)" in page
    assert 'speed code <span class="code">4D</span>' in page
    assert 'armour <span class="code">+1D</span>' in page
    assert "Move 13" in page


def test_the_sheet_lists_the_droids_equipment_and_armour(client, k9):
    page = sheet(client, k9)
    assert "arm ×2" in page
    assert "built in, 1D · gives vision" in page
    assert "Armour plating" in page and "+1D physical +1D energy" in page


def test_r2s_sheet_shows_34d_of_35d(client):
    campaign = CampaignFactory()
    r2 = load_droid_templates()["r2"]
    design = DroidDesign(**{**{n: getattr(r2, n) for n in r2.__slots__}, "name": "R2-D2"})
    droid = build_droid(campaign, campaign.created_by, design, owner_id=None)
    assert "Building dice: <strong>34D of 35D</strong>" in sheet(client, droid)


def test_an_organic_characters_sheet_has_no_droid_badge(client):
    human = CharacterFactory()
    page = sheet(client, human)
    assert "droid-badge" not in page
    assert "Building dice" not in page


def test_a_droid_whose_record_is_damaged_still_shows_its_sheet(client, k9):
    type(k9).objects.filter(pk=k9.pk).update(droid_design={"name": 3})
    page = sheet(client, k9)
    assert "its building record cannot be read" in page


def test_a_droids_skill_rolls_with_the_odds_shown_first(client, k9, monkeypatch):
    client.force_login(k9.owner)
    blaster = k9.skills.get(name="blaster")
    url = reverse("characters:roll", args=[k9.campaign_id, k9.pk])
    panel = client.get(url, {"trait": f"skill:{blaster.pk}"}).content.decode()
    assert "Roll blaster" in panel and "Moderate" in panel
    monkeypatch.setattr(services, "SystemDice", lambda: SeededDice(1138))
    data = {"trait": f"skill:{blaster.pk}", "actions": 1, "modifier": 0, "cp": 0}
    client.post(url, {**data, "force_point": "on"})
    rolled = DiceRoll.objects.get(character=k9)
    expected = roll(DieCode(5), ruleset=k9.campaign.ruleset, rng=SeededDice(1138), force_point=True)
    assert (rolled.label, rolled.code, rolled.total) == ("blaster", "5D", expected.total)
    k9.refresh_from_db()
    assert k9.force_points == 0
    assert LedgerEntry.objects.filter(character=k9, currency="fp").count() == 2  # given, spent
