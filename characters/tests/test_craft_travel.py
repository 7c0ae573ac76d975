"""A craft's travel and movement page (issue 18): the vehicle digest's worked examples V4, V5,
V11-V21 (vehicles-and-starships.md §15) through the services and the page, with seeded dice,
and bad input refused with a message and nothing stored."""

import dataclasses
from html import unescape

import pytest
from django.urls import reverse

from characters.craft_models import Craft
from characters.craft_services import catalogue, create_craft, crew_station
from characters.craft_travel import (
    TravelRefused,
    craft_speeds,
    craft_state,
    plan_astrogation,
    plan_craft_movement,
    plan_on_foot,
    roll_astrogation,
    roll_movement,
    star_warriors,
    weapon_ranges,
)
from characters.models import DiceRoll
from characters.tests.factories import CharacterFactory, SkillFactory
from rules import RuleSet
from rules.craft import CraftState, CraftStats
from rules.dice import DieCode, FixedDice
from rules.scale import Scale

UPG = RuleSet()
RC = RuleSet.preset("rc", uncertainty_dice=True)

FREIGHTER = CraftStats(
    name="Stellar Envoy",
    kind="starship",
    scale=Scale.STARFIGHTER,
    hyperdrive=2.0,
    nav_computer=True,
    maneuverability=DieCode(1, 1),
    sublight=DieCode(3, 0),
    space=4,
    hull=DieCode(4, 0),
    piloting_skill="space transports",
)


def _gm(campaign):
    return campaign.memberships.get(user=campaign.created_by)


def _member(character):
    return character.campaign.memberships.get(user=character.owner)


def _crew(craft, role, character):
    station = craft.stations.get(role=role)
    crew_station(_gm(craft.campaign), station, character)
    station.refresh_from_db()
    station.craft = craft
    return station


@pytest.fixture
def erisson(db):
    erisson = CharacterFactory(name="Erisson", dexterity="3D+2", mechanical="3D")
    SkillFactory(character=erisson, name="repulsorlift operation", code="4D+2")
    SkillFactory(character=erisson, name="dodge", code="5D+2")
    SkillFactory(character=erisson, name="astrogation", code="5D", attribute="mechanical")
    return erisson


def _catalogue_craft(character, name, **changes):
    stats = catalogue()[name]
    if changes:
        stats = dataclasses.replace(stats, **changes)
    return create_craft(character.campaign, stats, catalogue_name=name, party=True)


# --- speeds --------------------------------------------------------------------------------------
def test_v5_a_vehicles_speeds_in_kmh_come_from_its_listing(erisson):
    stats = CraftStats("Skiff", "vehicle", Scale.SPEEDER, move=70, kmh=200)
    craft = create_craft(erisson.campaign, stats, party=True)
    speeds = craft_speeds(craft.stat_block, craft_state(craft), ruleset=UPG)
    assert [(r.speed, r.kmh) for r in speeds.rows] == [
        ("all-out", 200),
        ("high", 100),
        ("cruising", 50),
        ("cautious", 25),
    ]
    assert all(r.allowed for r in speeds.rows) and speeds.limit == ""


def test_v4_lost_moves_limit_the_speeds_shown(erisson, client):
    stats = CraftStats("Skiff", "vehicle", Scale.SPEEDER, move=70, kmh=200)
    craft = create_craft(erisson.campaign, stats, party=True)
    Craft.objects.filter(pk=craft.pk).update(damage=CraftState(moves_lost=3).to_json())
    client.force_login(erisson.owner)
    response = client.get(reverse("characters:craft_travel", args=[craft.campaign_id, craft.pk]))
    speeds = response.context["speeds"]
    assert [r.speed for r in speeds.rows if r.allowed] == ["cautious"]
    assert "3 Moves lost: limited to cautious speed" in response.content.decode()


def test_v14_a_space_craft_in_atmosphere_moves_250_m_per_speed_action(erisson):
    craft = _catalogue_craft(erisson, "TIE/rc starfighter")
    speeds = craft_speeds(craft.stat_block, None, ruleset=RC)
    assert speeds.per_action == 10_000
    assert speeds.per_action_atmosphere == 250
    pilot = _crew(craft, "pilot", erisson)
    plan = plan_craft_movement(
        craft, pilot.character, ruleset=RC, speed_actions=1, difficulty=5, atmosphere=True
    )
    assert plan.per_action == 250 and plan.distance[1] == 250


def test_v15_an_at_ats_full_move_action_covers_at_least_10_m(erisson):
    craft = _catalogue_craft(erisson, "AT-AT (scale example)", speed_code=DieCode(1, 0))
    assert craft_speeds(craft.stat_block, None, ruleset=RC).least_full_action == 10


# --- [RC] speed actions ---------------------------------------------------------------------------
def test_v16_a_base_speed_code_of_2d_plus_1_allows_3_speed_actions(erisson):
    craft = _catalogue_craft(erisson, "Erisson's landspeeder", speed_code=DieCode(2, 1))
    _crew(craft, "pilot", erisson)
    plan = plan_craft_movement(craft, erisson, ruleset=RC, speed_actions=3, difficulty=5)
    assert plan.max_speed_actions == 3
    with pytest.raises(TravelRefused, match="allows 3 speed actions"):
        plan_craft_movement(craft, erisson, ruleset=RC, speed_actions=4, difficulty=5)


def test_v11_the_speeder_bike_rolls_5d_plus_2_against_3_and_stores_it(erisson):
    craft = _catalogue_craft(erisson, "Erisson's speeder bike")
    station = _crew(craft, "pilot", erisson)
    plan = plan_craft_movement(craft, erisson, ruleset=RC, speed_actions=4, difficulty=3)
    assert plan.pool == DieCode(5, 2)  # 4D speed + 4D+2 skill - 3D for four actions
    assert plan.difficulty == 3
    assert 0.99 < plan.chance <= 1
    outcome = roll_movement(station, erisson.owner, plan, ruleset=RC, rng=FixedDice([3] * 5))
    record = DiceRoll.objects.get()
    assert (record.pool, record.total, record.difficulty) == ("5D+2", 17, 3)
    assert record.character == erisson and record.label == "Erisson's speeder bike: 4 speed actions"
    assert outcome.succeeded and outcome.distance[1] == 1_000  # M-30


def test_v12_erisson_on_foot_rolls_dodge_3d_plus_2_for_three_speed_actions(erisson):
    plan = plan_on_foot(erisson, ruleset=RC, speed_actions=3, difficulty=3)
    assert plan.max_speed_actions == 4  # Dexterity 3D+2 rounds up
    assert plan.pool == DieCode(3, 2)  # dodge 5D+2 - 2D, no speed code added
    assert plan.distance[1] == 30  # M-29


def test_v13_missing_by_3_loses_control_in_the_second_speed_action(erisson):
    craft = _catalogue_craft(erisson, "Erisson's landspeeder")
    station = _crew(craft, "pilot", erisson)
    plan = plan_craft_movement(
        craft,
        erisson,
        ruleset=RC,
        speed_actions=2,
        overspeed=1,
        other_actions=1,  # evading
        difficulty=11,
    )
    assert plan.pool == DieCode(3, 2)  # 4D+2 - 3D + speed 2D
    assert plan.difficulty == 14  # +3 for the overspeed action
    outcome = roll_movement(station, erisson.owner, plan, ruleset=RC, rng=FixedDice([3, 3, 3]))
    assert outcome.roll.total == 11 and not outcome.succeeded
    assert outcome.lost.actions_not_taken == 1
    assert outcome.lost.lost_in_action == 2  # as printed (ambiguity 19, "as_example")
    assert outcome.lost.distance == (250, 500)


def test_v13_as_the_rule_text_reads_control_goes_at_the_third_action(erisson):
    craft = _catalogue_craft(erisson, "Erisson's landspeeder")
    station = _crew(craft, "pilot", erisson)
    text = RC.replace(rc_loss_of_control_point="as_text")
    plan = plan_craft_movement(
        craft, erisson, ruleset=text, speed_actions=2, overspeed=1, other_actions=1, difficulty=11
    )
    outcome = roll_movement(station, erisson.owner, plan, ruleset=text, rng=FixedDice([3, 3, 3]))
    assert outcome.lost.lost_in_action == 3


def test_the_pilot_rolls_movement_from_the_page_and_sees_the_outcome(erisson, client, monkeypatch):
    from characters import services

    monkeypatch.setattr(services, "SystemDice", lambda: FixedDice([3, 3, 3]))
    campaign = erisson.campaign
    campaign.set_ruleset(RC)
    campaign.save()
    craft = _catalogue_craft(erisson, "Erisson's landspeeder")
    _crew(craft, "pilot", erisson)
    client.force_login(erisson.owner)
    url = reverse("characters:craft_travel_move", args=[campaign.pk, craft.pk])
    data = {
        "move-speed_actions": 2,
        "move-overspeed": 1,
        "move-other_actions": 1,
        "move-difficulty": 11,
    }
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="movement-result"' in page and "<html" not in page
    assert "control lost in speed action 2" in page
    assert DiceRoll.objects.get().total == 11


def test_the_page_shows_the_pool_and_the_exact_odds(erisson, client):
    campaign = erisson.campaign
    craft = _catalogue_craft(erisson, "Erisson's speeder bike")
    _crew(craft, "pilot", erisson)
    client.force_login(erisson.owner)
    url = reverse("characters:craft_travel", args=[campaign.pk, craft.pk])
    response = client.get(url, {"move-speed_actions": 4, "move-difficulty": 3})
    plan = response.context["plan"]
    assert plan.pool == DieCode(5, 2)
    page = response.content.decode()
    assert 'id="movement-pool">5D+2<' in page and 'id="movement-chance"' in page


# --- astrogation ----------------------------------------------------------------------------------
def test_v17_the_gms_uncertainty_dice_decide_and_only_the_gm_sees_them(erisson, client):
    campaign = erisson.campaign
    campaign.set_ruleset(RC)
    campaign.save()
    craft = create_craft(campaign, FREIGHTER, party=True)
    station = _crew(craft, "copilot", erisson)
    plan = plan_astrogation(
        craft.stat_block,
        None,
        DieCode(5),
        situation="known_systems",
        difficulty=13,
        uncertainty=3,
        ruleset=RC,
    )
    assert plan.pool == DieCode(8) and plan.difficulty == 13
    dice = FixedDice([6, 6, 5, 4, 2, 2, 1, 1, 4, 4, 5])  # the player's 8D: 27; the GM's 3D: 13
    outcome = roll_astrogation(station, erisson.owner, plan, ruleset=RC, rng=dice)
    assert outcome.roll.total == 27 and outcome.roll.difficulty is None
    assert outcome.gm_roll.total == 13 and outcome.gm_roll.hidden
    assert outcome.effective_total == 14 and outcome.succeeded
    url = reverse("characters:craft_travel", args=[campaign.pk, craft.pk])
    client.force_login(erisson.owner)
    player_page = client.get(url).content.decode()
    assert 'id="astrogation-total">27<' in player_page
    assert "uncertainty-result" not in player_page and "14 vs 13" not in player_page
    client.force_login(campaign.created_by)
    gm_page = client.get(url).content.decode()
    assert 'id="uncertainty-result"' in gm_page
    assert "<strong>14</strong> vs 13" in gm_page


def test_v17_the_player_who_rolls_does_not_see_the_gms_dice_in_the_answer(erisson, client):
    campaign = erisson.campaign
    campaign.set_ruleset(RC)
    campaign.save()
    craft = create_craft(campaign, FREIGHTER, party=True)
    station = _crew(craft, "copilot", erisson)
    client.force_login(erisson.owner)
    url = reverse("characters:craft_travel_astrogate", args=[campaign.pk, craft.pk])
    data = {
        "astro-navigator": station.pk,
        "astro-situation": "known_systems",
        "astro-difficulty": 13,
        "astro-uncertainty": 3,
    }
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200 and 'id="astrogation-total"' in page
    assert "uncertainty-result" not in page and "GM only" not in page
    assert DiceRoll.objects.filter(hidden=True).count() == 1


def test_astrogation_with_a_heavily_damaged_hyperdrive_and_a_faster_trip(erisson):
    craft = create_craft(erisson.campaign, FREIGHTER, party=True)
    state = CraftState(damage="heavy", hyperdrive="heavily_damaged")
    plan = plan_astrogation(
        craft.stat_block,
        state,
        DieCode(5),
        situation="known_systems",
        difficulty=15,
        listed_hours=10,
        planned_hours=8,
        ruleset=UPG,
    )
    assert plan.difficulty == 15 + 2 + 10  # two hours saved [RC], heavy damage +10 [UPG]
    assert plan.trip_hours == 16  # 8 hours x2 hyperdrive (ambiguity 12)
    assert plan.minutes == 30


def test_astrogation_is_stored_as_the_navigators_roll_against_the_difficulty(erisson):
    craft = create_craft(erisson.campaign, FREIGHTER, party=True)
    station = _crew(craft, "sensors", erisson)
    plan = plan_astrogation(
        craft.stat_block, None, DieCode(5), situation="known_route", difficulty=10, ruleset=UPG
    )
    outcome = roll_astrogation(station, erisson.owner, plan, ruleset=UPG, rng=FixedDice([2] * 5))
    record = DiceRoll.objects.get()
    assert (record.code, record.total, record.difficulty) == ("5D", 10, 10)
    assert outcome.succeeded and outcome.gm_roll is None


# --- Star Warriors, weapon ranges and stat blocks ----------------------------------------------
def test_v18_the_silver_bolts_star_warriors_speeds(erisson, client):
    craft = _catalogue_craft(erisson, "Silver Bolt")
    assert [v for _, v in star_warriors(craft)] == [7, 4, 2, 7, 3, 8]
    client.force_login(erisson.owner)
    page = client.get(reverse("characters:craft_travel", args=[craft.campaign_id, craft.pk]))
    assert 'id="star-warriors"' in page.content.decode()


def test_v19_the_long_shot_at_3d_plus_2_adds_its_offsets(erisson):
    craft = _catalogue_craft(erisson, "The Long Shot", sublight=DieCode(3, 2))
    assert [v for _, v in star_warriors(craft)] == [8, 7, 5, 7, 7, 13]


def test_v20_the_standard_y_wing_has_shields_3d_plus_2_and_hull_2d_plus_2(erisson, client):
    craft = _catalogue_craft(erisson, "Y-wing (standard)")
    client.force_login(erisson.owner)
    page = client.get(reverse("characters:craft_travel", args=[craft.campaign_id, craft.pk]))
    text = page.content.decode()
    assert 'id="shields-code">3D+2<' in text and 'id="hull-code">2D+2<' in text


def test_v21_the_cloud_cars_cannon_is_a_light_speeder_weapon(erisson, client):
    craft = _catalogue_craft(erisson, "Storm IV Twin-Pod Cloud Car")
    (cannon,) = weapon_ranges(craft.stat_block)
    assert cannon.weapon_class == "light"
    assert (cannon.bands.short, cannon.bands.medium, cannon.bands.long) == (
        (50, 300),
        (301, 500),
        (501, 1000),
    )
    client.force_login(erisson.owner)
    page = client.get(reverse("characters:craft_travel", args=[craft.campaign_id, craft.pk]))
    assert "Short 50–300 m · medium 301–500 m · long 501–1000 m" in page.content.decode()


# --- bad input ---------------------------------------------------------------------------------
@pytest.fixture
def bike(erisson):
    craft = _catalogue_craft(erisson, "Erisson's speeder bike")
    _crew(craft, "pilot", erisson)
    return craft


def _move(client, craft, htmx=False, **data):
    url = reverse("characters:craft_travel_move", args=[craft.campaign_id, craft.pk])
    headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
    return client.post(url, data, **headers)


@pytest.mark.parametrize(
    "data, message",
    [
        ({"move-speed_actions": 0, "move-difficulty": 5}, "greater than or equal to 1"),
        ({"move-speed_actions": 5, "move-difficulty": 5}, "allows 4 speed actions"),
        ({"move-speed_actions": 2, "move-difficulty": 0}, "greater than or equal to 1"),
        ({"move-speed_actions": 2, "move-difficulty": 101}, "less than or equal to 100"),
        ({"move-speed_actions": "2\x00", "move-difficulty": 5}, "whole number"),
        ({"move-speed_actions": 2, "move-overspeed": 1, "move-difficulty": 5}, "declare all 4"),
    ],
)
def test_bad_speed_actions_are_refused_with_a_message_and_nothing_is_rolled(
    bike, erisson, client, data, message
):
    client.force_login(erisson.owner)
    response = _move(client, bike, **data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert DiceRoll.objects.count() == 0


def test_an_htmx_refusal_renders_in_place(bike, erisson, client):
    client.force_login(erisson.owner)
    response = _move(client, bike, htmx=True, **{"move-speed_actions": 9, "move-difficulty": 5})
    page = response.content.decode()
    assert response.status_code == 400
    assert page.lstrip().startswith('<section class="card" id="movement">')
    assert "allows 4 speed actions" in page


def test_another_players_pilot_is_not_yours_to_roll(bike, client):
    other = CharacterFactory(campaign=bike.campaign, name="Kyle")
    client.force_login(other.owner)
    response = _move(client, bike, htmx=True, **{"move-speed_actions": 1, "move-difficulty": 5})
    assert response.status_code == 403
    assert "Only Erisson's player or the GM rolls for him" in unescape(response.content.decode())
    assert DiceRoll.objects.count() == 0


def test_the_gm_rolls_for_the_pilot(bike, client):
    client.force_login(bike.campaign.created_by)
    response = _move(client, bike, **{"move-speed_actions": 1, "move-difficulty": 5})
    assert response.status_code == 200
    assert DiceRoll.objects.get().actor == bike.campaign.created_by


def test_astrogation_for_someone_elses_character_is_refused(erisson, client):
    craft = create_craft(erisson.campaign, FREIGHTER, party=True)
    station = _crew(craft, "copilot", erisson)
    other = CharacterFactory(campaign=craft.campaign, name="Kyle")
    client.force_login(other.owner)
    url = reverse("characters:craft_travel_astrogate", args=[craft.campaign_id, craft.pk])
    data = {"astro-navigator": station.pk, "astro-situation": "known_route", "astro-difficulty": 10}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 403
    assert "Only Erisson's player or the GM rolls for him" in unescape(response.content.decode())
    assert DiceRoll.objects.count() == 0


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"astro-difficulty": 0}, "greater than or equal to 1"),
        ({"astro-difficulty": "1\x00"}, "whole number"),
        ({"astro-situation": "hyperspace\x00"}, "Select a valid choice"),
        ({"astro-planned_hours": 3}, "give the listed duration"),
    ],
)
def test_bad_astrogation_is_refused_with_a_message_and_nothing_is_rolled(
    erisson, client, changes, message
):
    craft = create_craft(erisson.campaign, FREIGHTER, party=True)
    station = _crew(craft, "copilot", erisson)
    client.force_login(erisson.owner)
    url = reverse("characters:craft_travel_astrogate", args=[craft.campaign_id, craft.pk])
    data = {"astro-navigator": station.pk, "astro-situation": "known_route", "astro-difficulty": 10}
    response = client.post(url, {**data, **changes})
    assert response.status_code == 400
    assert message in response.content.decode()
    assert DiceRoll.objects.count() == 0
