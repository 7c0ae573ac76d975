"""A craft's long run at speed (V25 of vehicles-and-starships.md) through the travel page's
service and view: body strength every 10 minutes at all-out, Very Easy then a level harder;
a miss by 11 or more is a mechanical failure that goes onto the craft's damage."""

import pytest
from django.urls import reverse

from characters.craft_long_run import MECHANICAL_FAILURE, LongRunRefused, long_run
from characters.craft_models import Craft
from characters.craft_services import create_craft
from characters.models import DiceRoll
from characters.tests.factories import CharacterFactory
from rules.craft import CraftState, CraftStats
from rules.dice import DieCode, FixedDice
from rules.scale import Scale

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}

SPEEDER = CraftStats(
    name="Erisson's landspeeder",
    kind="vehicle",
    scale=Scale.SPEEDER,
    maneuverability=DieCode(1),
    hull=DieCode(2),
    move=70,
    kmh=200,
)


@pytest.fixture
def speeder(db):
    campaign = CharacterFactory().campaign
    return create_craft(campaign, SPEEDER, party=True)


def test_v25_a_body_roll_missed_by_12_is_a_mechanical_failure(speeder):
    """V25: all-out for 30 minutes: Very Easy (5) made with 7, Easy (10) made with 11, Moderate
    (15) missed with 3: by 12, a mechanical failure, a Moderate repair and an hour of work."""
    campaign = speeder.campaign
    result = long_run(
        speeder,
        campaign.created_by,
        speed="all_out",
        minutes=30,
        ruleset=campaign.ruleset,
        rng=FixedDice([3, 4, 5, 5, 1, 2]),  # body 2D: 7, 10, 3
    )
    assert [(r.level, r.difficulty, r.total, r.made) for r in result.rolls] == [
        ("Very Easy", 5, 7, True),
        ("Easy", 10, 10, True),
        ("Moderate", 15, 3, False),
    ]
    assert result.mechanical_failure
    assert "failed roll 3 (Moderate) by 12 after 30 minutes: mechanical failure" in result.text
    speeder.refresh_from_db()
    assert CraftState.from_json(speeder.damage).events == (MECHANICAL_FAILURE,)
    assert DiceRoll.objects.filter(campaign=campaign, character=None).count() == 3


def test_a_small_miss_strains_the_craft_to_rest_twice_as_long(speeder):
    campaign = speeder.campaign
    result = long_run(
        speeder,
        campaign.created_by,
        speed="all_out",
        minutes=20,
        ruleset=campaign.ruleset,
        rng=FixedDice([3, 4, 2, 3]),  # 7 makes Very Easy; 5 misses Easy (10) by 5
    )
    assert not result.mechanical_failure and result.rest_minutes == 40
    assert "strained; it must rest 40 minutes" in result.text
    speeder.refresh_from_db()
    assert speeder.damage is None


def test_less_than_one_interval_calls_for_no_roll(speeder):
    campaign = speeder.campaign
    result = long_run(
        speeder, campaign.created_by, speed="all_out", minutes=9, ruleset=campaign.ruleset
    )
    assert result.rolls == () and "every 10 minutes" in result.text


@pytest.mark.parametrize(
    "speed, minutes, words",
    [
        ("cruising", 30, "only high speed and all-out"),
        ("all_out", 0, "give the minutes run"),
        ("all_out", 10_000, "give the minutes run"),
    ],
)
def test_bad_runs_are_refused_and_store_nothing(speeder, speed, minutes, words):
    campaign = speeder.campaign
    with pytest.raises(LongRunRefused, match=words):
        long_run(
            speeder, campaign.created_by, speed=speed, minutes=minutes, ruleset=campaign.ruleset
        )
    assert not DiceRoll.objects.exists()


def test_the_gm_runs_it_from_the_travel_page_in_place(client, speeder, monkeypatch):
    from characters import craft_long_run

    monkeypatch.setattr(craft_long_run, "SystemDice", lambda: FixedDice([3, 4, 5, 5, 1, 2]))
    campaign = speeder.campaign
    client.force_login(campaign.created_by)
    page = client.get(reverse("characters:craft_travel", args=[campaign.pk, speeder.pk]))
    assert "A long run" in page.content.decode()
    url = reverse("characters:craft_long_run", args=[campaign.pk, speeder.pk])
    response = client.post(url, {"speed": "all_out", "minutes": "30"}, **HX)
    assert response.status_code == 200
    assert "mechanical failure" in response.content.decode()
    refused = client.post(url, {"speed": "all_out", "minutes": "ten"}, **HX)
    assert refused.status_code == 400
    assert "give the minutes run as a whole number" in refused.content.decode()
    assert Craft.objects.get(pk=speeder.pk).damage["events"] == [MECHANICAL_FAILURE]


def test_a_player_cannot_run_the_gms_roll(client, speeder):
    campaign = speeder.campaign
    player = campaign.memberships.exclude(user=campaign.created_by).first().user
    client.force_login(player)
    url = reverse("characters:craft_long_run", args=[campaign.pk, speeder.pk])
    assert client.post(url, {"speed": "all_out", "minutes": "30"}).status_code == 403
    assert not DiceRoll.objects.exists()
