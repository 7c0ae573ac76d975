"""The demo that ``manage.py load_demo`` loads: characters of every kind, and a few rolls that show
a new user what a roll looks like."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from campaigns.demo import DEMO_CAMPAIGN
from characters.demo import load_demo
from characters.models import DiceRoll, LedgerEntry

pytestmark = pytest.mark.django_db


def test_the_demo_dice_log_has_a_few_rolls():
    campaign = load_demo()
    assert 3 <= campaign.rolls.count() <= 8


def test_a_demo_roll_shows_a_wild_die_explosion():
    campaign = load_demo()
    assert any(len(r.dice["wild"]) > 1 for r in campaign.rolls.all())


def test_a_demo_roll_spends_a_character_point_through_the_ledger():
    campaign = load_demo()
    roll = campaign.rolls.filter(cp_spent__gt=0).first()
    assert roll is not None
    assert roll.dice["cp"]  # the CP dice were rolled and kept
    entry = LedgerEntry.objects.get(roll=roll)
    assert entry.delta == -roll.cp_spent


def test_demo_rolls_are_made_by_the_characters_players():
    campaign = load_demo()
    for roll in campaign.rolls.select_related("character__owner", "actor"):
        assert roll.character.campaign_id == campaign.pk
        if roll.character.owner is not None:
            assert roll.actor == roll.character.owner


def test_loading_the_demo_again_adds_no_rolls():
    load_demo()
    first = list(DiceRoll.objects.values_list("label", "total"))
    call_command("load_demo")
    assert list(DiceRoll.objects.values_list("label", "total")) == first


def test_a_demo_player_sees_the_demo_rolls_in_the_dice_log(client):
    campaign = load_demo()
    assert campaign.name == DEMO_CAMPAIGN
    client.force_login(get_user_model().objects.get(username="leia"))
    response = client.get(reverse("characters:dice_log", args=[campaign.pk]))
    assert response.status_code == 200
    assert "blaster pistol (the squad leader)" in response.text
    assert "Inquisitor Vael" not in response.text  # the GM's hidden roll stays hidden


def test_the_demo_has_three_pcs_one_force_sensitive_and_two_npcs_once():
    load_demo()
    campaign = load_demo()
    pcs = campaign.characters.filter(kind="pc")
    assert pcs.count() == 3 and pcs.filter(force_sensitive=True).exists()
    assert campaign.characters.filter(kind="npc").count() == 2
