"""The GM's page of the skills and attributes used in an adventure (characters/trait_views.py):
each player character with what was recorded so far, a form to tick one more by hand and a
button to untick each; players are turned away; bad input gets its reason and changes nothing
(run on PostgreSQL too: ``scripts/test.sh --no-cov characters/tests/test_trait_ticks.py``)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from campaigns.models import Adventure
from characters.advancement import quote
from characters.models import TraitUse
from characters.tests.advancement_fixtures import (
    PRESETS,
    campaign_for,
    character_with,
    ended_adventure,
    used_in,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    """A 2e campaign running "Escape from Kessel": Kira (blaster, dodge; she rolled dodge) and
    Tomas (nothing used yet)."""
    campaign = campaign_for("2e", game_day=10)
    kira = character_with(
        campaign, cp=10, name="Kira", skills=[("Blaster", "4D+1"), ("Dodge", "3D")]
    )
    tomas = character_with(campaign, cp=0, name="Tomas", skills=[("Bargain", "3D")])
    adventure = Adventure.objects.create(campaign=campaign, name="Escape from Kessel", start_day=8)
    used_in(adventure, kira, "dodge")
    return campaign, kira, tomas, adventure


def url(campaign):
    return reverse("characters:trait_uses", args=[campaign.pk])


def text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode()).strip()


def uses():
    return sorted(
        TraitUse.objects.values_list("adventure_id", "character__name", "trait", "by_hand")
    )


def tick(adventure, character, trait, used="1"):
    return {"adventure": adventure.pk, "character": character.pk, "trait": trait, "used": used}


def test_the_gm_sees_each_character_with_the_traits_recorded_so_far(client, table):
    campaign, kira, _, _ = table
    client.force_login(campaign.created_by)
    response = client.get(url(campaign))
    assert response.status_code == 200
    page = text(response)
    assert "In <strong>Escape from Kessel</strong>, running since day 8" in page
    assert "Kira" in page and "Tomas" in page
    assert 'Dodge <span class="small muted">rolled</span>' in page
    assert "Nothing recorded yet." in page  # Tomas
    # Kira's select offers her attributes and skills, less what is already ticked.
    kira_form = page[page.index(f'id="id_{kira.pk}_trait"') :]
    kira_form = kira_form[: kira_form.index("</select>")]
    assert '<option value="dexterity">Dexterity</option>' in kira_form
    assert '<option value="blaster">Blaster</option>' in kira_form
    assert 'value="dodge"' not in kira_form
    assert 'value="bargain"' not in kira_form  # Tomas's skill


def test_the_calendar_links_the_gm_to_the_page(client, table):
    campaign, kira, *_ = table
    client.force_login(campaign.created_by)
    calendar = text(client.get(reverse("characters:calendar", args=[campaign.pk])))
    assert f'href="{url(campaign)}"' in calendar
    client.force_login(kira.owner)
    calendar = text(client.get(reverse("characters:calendar", args=[campaign.pk])))
    assert f'href="{url(campaign)}"' not in calendar


@pytest.mark.parametrize(("trait", "shown"), [("blaster", "Blaster"), ("knowledge", "Knowledge")])
def test_the_gm_ticks_a_skill_or_an_attribute_by_hand(client, table, trait, shown):
    campaign, kira, _, adventure = table
    client.force_login(campaign.created_by)
    response = client.post(url(campaign), tick(adventure, kira, trait), follow=True)
    assert response.redirect_chain[-1][0] == url(campaign)
    assert f"Kira: {shown} ticked as used in Escape from Kessel." in text(response)
    assert uses() == sorted(
        [(adventure.pk, "Kira", "dodge", False), (adventure.pk, "Kira", trait, True)]
    )


def test_a_ticked_skill_needs_no_training_afterwards(client, table):
    campaign, kira, _, adventure = table
    client.force_login(campaign.created_by)
    client.post(url(campaign), tick(adventure, kira, "blaster"))
    adventure.end_day = 12
    adventure.save()
    assert quote(kira, "skill", "Blaster", ruleset=PRESETS["2e"]).used_last_adventure


def test_the_gm_unticks_a_trait(client, table):
    campaign, kira, _, adventure = table
    client.force_login(campaign.created_by)
    response = client.post(url(campaign), tick(adventure, kira, "dodge", used="0"), follow=True)
    assert "Kira: Dodge no longer counts as used in Escape from Kessel." in text(response)
    assert uses() == []


def test_after_the_adventure_ends_the_gm_ticks_in_the_last_one(client, table):
    campaign, kira, _, adventure = table
    adventure.end_day = 12
    adventure.save()
    client.force_login(campaign.created_by)
    page = text(client.get(url(campaign)))
    assert "the last adventure (day 8 to day 12)" in page
    assert client.post(url(campaign), tick(adventure, kira, "blaster")).status_code == 302
    assert (adventure.pk, "Kira", "blaster", True) in uses()


def test_a_player_is_turned_away_and_nothing_changes(client, table):
    campaign, kira, _, adventure = table
    before = uses()
    client.force_login(kira.owner)
    assert client.get(url(campaign)).status_code == 403
    assert client.post(url(campaign), tick(adventure, kira, "blaster")).status_code == 403
    assert client.post(url(campaign), tick(adventure, kira, "dodge", "0")).status_code == 403
    assert uses() == before


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (
            {"trait": "lightsaber"},
            "Nothing changed: Kira has no skill or attribute called lightsaber.",
        ),
        ({"trait": "bargain"}, "Nothing changed: Kira has no skill or attribute called bargain."),
        ({"trait": ""}, "Nothing changed: Choose a skill or attribute."),
        ({"trait": "x" * 81}, "Nothing changed: Ensure this value has at most 80 characters"),
        ({"trait": "blas\x00ter"}, "Nothing changed: Null characters are not allowed."),
        ({"used": "maybe"}, "This page is out of date: reload it and try again."),
        ({"adventure": "abc"}, "This page is out of date: reload it and try again."),
        ({"character": "-1"}, "This page is out of date: reload it and try again."),
    ],
)
def test_bad_input_gets_a_message_and_changes_nothing(client, table, change, message):
    campaign, kira, _, adventure = table
    before = uses()
    client.force_login(campaign.created_by)
    response = client.post(url(campaign), {**tick(adventure, kira, "blaster"), **change})
    assert response.status_code == 400
    assert message in text(response)
    assert uses() == before


def test_a_page_left_open_from_another_adventure_is_out_of_date(client, table):
    campaign, kira, *_ = table
    old = ended_adventure(campaign, start=0, end=5)
    client.force_login(campaign.created_by)
    response = client.post(url(campaign), tick(old, kira, "blaster"))
    assert response.status_code == 400
    assert "This page is out of date" in text(response)
    assert (old.pk, "Kira", "blaster", True) not in uses()
    assert not TraitUse.objects.filter(trait="blaster").exists()


def test_a_character_of_another_campaign_is_refused(client, table):
    campaign, _, _, adventure = table
    stranger = character_with(campaign_for("2e"), cp=0, skills=[("Blaster", "4D")])
    client.force_login(campaign.created_by)
    response = client.post(url(campaign), tick(adventure, stranger, "blaster"))
    assert response.status_code == 400
    assert "not a player character of this campaign" in text(response)
    assert not TraitUse.objects.filter(character=stranger).exists()


def test_without_any_adventure_the_page_says_so_and_ticks_nothing(client):
    campaign = campaign_for("2e")
    kira = character_with(campaign, cp=0, name="Kira", skills=[("Blaster", "4D")])
    client.force_login(campaign.created_by)
    assert "No adventure has begun yet" in text(client.get(url(campaign)))
    response = client.post(
        url(campaign), {"adventure": 1, "character": kira.pk, "trait": "blaster", "used": "1"}
    )
    assert response.status_code == 400
    assert "No adventure has begun yet" in text(response)
    assert not TraitUse.objects.exists()
