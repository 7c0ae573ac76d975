"""Fleet actions (capital ship combat, [RC]) through the services and pages the GM and the
players use: the worked examples CS-1 … CS-21 of capital-ships.md §14, each a test named after
its vector, with fixed dice; bad input refused with a reason and nothing changed; the option
off; the live poll."""

from __future__ import annotations

import pytest
from django.urls import reverse

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.craft_models import Craft
from encounters import fleet_present, fleet_views
from encounters.fleet_models import FleetAction, FleetStep
from encounters.fleet_services import (
    StaleFleetAction,
    add_craft,
    apply_step,
    start_fleet_action,
    undo_last_step,
)
from rules import RuleSet
from rules.craft import capital_ships, load_craft
from rules.dice import FixedDice
from rules.fleet import FleetError

pytestmark = pytest.mark.django_db
STATS = {s.name: s for s in capital_ships()}


@pytest.fixture
def campaign():
    campaign = CampaignFactory()
    campaign.set_ruleset(RuleSet.preset("rc"))
    campaign.save()
    return campaign


def _craft(campaign, catalogue: str, name: str | None = None) -> Craft:
    stats = STATS[catalogue]
    return Craft.objects.create(
        campaign=campaign, name=name or stats.name, catalogue_name=stats.name, stats=stats.to_json()
    )


def _version(fleet) -> int:
    return FleetAction.objects.get(pk=fleet.pk).version


def _join(fleet, craft, side, crew="4D+2", command=None) -> str:
    fleet, events = add_craft(
        fleet.pk,
        craft.pk,
        side=side,
        crew=crew,
        command=command,
        expected_version=_version(fleet),
        actor=None,
    )
    return events[0].ship


def _step(fleet, faces=(), **command):
    return apply_step(
        fleet.pk,
        command,
        expected_version=_version(fleet),
        actor=None,
        rng=FixedDice(list(faces)),
    )


def _ship(fleet, ship_id):
    return FleetAction.objects.get(pk=fleet.pk).current_state().ship(ship_id)


def _numbers(events, kind="attack"):
    return dict(next(e for e in events if e.kind == kind).numbers)


@pytest.fixture
def battle(campaign):
    """A Mon Cal cruiser (crew 4D+2) against a strike cruiser (crew 4D); each has rolled its
    evasion this round with ones, so attacks hit on anything."""
    fleet = start_fleet_action(campaign, "Battle of Endor", campaign.created_by)
    mon_cal = _join(fleet, _craft(campaign, "Mon Cal Cruiser", "Home One"), "Rebel")
    strike = _join(fleet, _craft(campaign, "Strike Cruiser", "Vengeance"), "Imperial", "4D")
    _step(fleet, [1] * 10, type="evade", ship=mon_cal)
    _step(fleet, [1] * 10, type="evade", ship=strike)
    return fleet, mon_cal, strike


def _fire(fleet, faces, ship, battery, guns, target, **more):
    data = {"type": "fire", "ship": ship, "battery": battery, "guns": guns, "target": target}
    data.update(more)
    return _step(fleet, faces, **data)


# --- worked examples ----------------------------------------------------------------------------
def test_cs_1_mon_cal_fires_12_turbolasers_at_a_strike_cruiser(battle):
    fleet, mon_cal, strike = battle
    # to hit 8D+3: eight 3s (27); damage 6D+1: six 2s (13); hull 6D: six 1s (6) -> 2 pips
    _, events = _fire(fleet, [3] * 8 + [2] * 6 + [1] * 6, mon_cal, 0, 12, strike)
    numbers = _numbers(events)
    assert numbers["guns_modifier"] == "2D+1"
    assert numbers["to_hit_pool"] == "8D+3"
    assert numbers["to_hit"] == 27
    assert numbers["damage_pool"] == "6D+1"
    assert _ship(fleet, strike).damage.ship_damage == 2


def test_cs_2_guns_modifier_chart_lookups(battle):
    chart = dict(fleet_present.guns_chart())
    assert [chart[n] for n in (1, 2, 3, 8, 12, 250)] == ["0D", "0D+2", "1D", "2D", "2D+1", "5D+1"]
    fleet, mon_cal, strike = battle
    _, events = _fire(fleet, [6] * 20, mon_cal, 0, 2, strike)
    assert _numbers(events)["guns_modifier"] == "0D+2"


def test_cs_3_fire_control_2d_plus_2_leaves_8_of_12_boxes_open(campaign):
    fleet = start_fleet_action(campaign, "Boxes", None)
    isd = _join(fleet, _craft(campaign, "Imperial Star Destroyer I"), "Imperial")
    row = fleet_present.ship_row(_ship(fleet, isd))
    ion = next(b for b in row["batteries"] if b["ion"])
    assert ion["fire_control"]["code"] == "2D+2"
    assert (ion["fire_control"]["open"], ion["fire_control"]["blacked"]) == (8, 4)


def test_cs_4_turning_to_the_opposite_facing_takes_two_reserved_speed_actions(battle):
    fleet, mon_cal, _ = battle
    _step(fleet, type="facing", ship=mon_cal, facing="top", reserved_actions=1)
    with pytest.raises(FleetError, match="takes 2 reserved speed action"):
        _step(fleet, type="facing", ship=mon_cal, facing="bottom", reserved_actions=1)
    _, events = _step(fleet, type="facing", ship=mon_cal, facing="bottom", reserved_actions=2)
    assert _numbers(events, "facing")["cost"] == 2
    _, events = _step(fleet, type="facing", ship=mon_cal, facing="left", reserved_actions=1)
    assert _numbers(events, "facing")["cost"] == 1


def test_cs_5_two_haste_orders_cost_the_commander_2d(campaign):
    fleet = start_fleet_action(campaign, "Haste", None)
    ship = _join(fleet, _craft(campaign, "Mon Cal Cruiser"), "Rebel", command="5D")
    _, events = _step(fleet, type="orders", ship=ship, haste_orders=2)
    numbers = _numbers(events, "orders")
    assert (numbers["command"], numbers["after_uses"]) == ("5D", "3D")
    assert numbers["uncommanded"] == ""


def test_cs_6_triple_vital_location_attack(battle):
    fleet, mon_cal, strike = battle
    _, events = _fire(fleet, [6] * 40, strike, 0, 20, mon_cal, vital_locations=3)
    numbers = _numbers(events)
    # 2D + 2D+2 (20 guns) + 4D = 8D+2, less 6D to hit; hull 6D less 3D
    assert numbers["to_hit_pool"] == "2D+2"
    assert numbers["hull_pool"] == "3D"


def test_cs_7_vital_location_on_the_sublight_engines(battle):
    fleet, mon_cal, strike = battle
    # to hit 8D+3 - 4D = 4D+3 (four 6s); damage 6D+1 (six 6s = 37); hull 6D - 1D = 5D (five 1s)
    _, events = _fire(
        fleet,
        [6] * 4 + [6] * 6 + [1] * 5,
        mon_cal,
        0,
        12,
        strike,
        aim="sublight",
        vital_locations=1,
    )
    numbers = _numbers(events)
    assert (numbers["to_hit_pool"], numbers["hull_pool"]) == ("4D+3", "5D")
    damaged = _ship(fleet, strike).damage
    assert damaged.sublight == 7 and damaged.ship_damage == 0


@pytest.mark.parametrize(
    ("pips", "words", "penalty"),
    [(3, "heavily damaged", "1D"), (6, "severely damaged", "2D"), (9, "destroyed", "3D")],
)
def test_cs_8_ship_damage_row_at_3_6_9_pips(battle, pips, words, penalty):
    fleet, mon_cal, strike = battle
    _step(fleet, type="adjust", ship=strike, row="ship_damage", pips=pips)
    row = fleet_present.ship_row(_ship(fleet, strike))
    assert row["level_words"] == words
    if pips < 9:
        assert row["penalty"] == penalty
    else:
        with pytest.raises(FleetError, match="Vengeance is destroyed"):
            _fire(fleet, [6] * 30, strike, 0, 1, mon_cal)


def _corvette_battle(campaign, attacker="Imperial Star Destroyer I", crew="6D"):
    fleet = start_fleet_action(campaign, "Damage chart", None)
    shooter = _join(fleet, _craft(campaign, attacker), "Imperial", crew)
    corvette = _join(fleet, _craft(campaign, "Corellian Corvette", "Tantive IV"), "Rebel")
    _step(fleet, [1] * 10, type="evade", ship=corvette)
    return fleet, shooter, corvette


def test_cs_9_beam_damage_40_against_hull_10_is_4_pips(campaign):
    fleet, isd, corvette = _corvette_battle(campaign)
    # TLB: to hit 4D + 4D (60 guns) + 6D = 14D; damage 5D + 4D = 9D -> 40; hull 4D -> 10
    faces = [6] * 14 + [6, 6, 6, 6, 4, 4, 4, 2, 2] + [1, 3, 3, 3]
    _, events = _fire(fleet, faces, isd, 0, 60, corvette)
    numbers = _numbers(events)
    assert (numbers["damage"], numbers["hull"], numbers["pips"]) == (40, 10, 4)
    assert _ship(fleet, corvette).damage.ship_damage == 4


def test_cs_10_ion_damage_40_against_hull_10_is_4d_ionization(campaign):
    fleet, isd, corvette = _corvette_battle(campaign)
    # ION (battery 2): to hit 2D+2 + 4D + 6D; damage 3D + 4D = 7D -> 40; hull 10
    faces = [6] * 12 + [6, 6, 6, 6, 6, 6, 4] + [1, 3, 3, 3]
    _, events = _fire(fleet, faces, isd, 1, 60, corvette)
    assert _numbers(events)["ion_dice"] == 4
    damage = _ship(fleet, corvette).damage
    assert (damage.ionization, damage.ship_damage) == (4, 0)
    _step(fleet, type="end_round")
    assert _ship(fleet, corvette).ionized == 4


def test_cs_11_beam_damage_8_against_hull_12_is_one_shield_pip(campaign):
    fleet, frigate, corvette = _corvette_battle(campaign, "Escort Frigate", "4D")
    # LC (battery 2), 12 guns: damage 2D + 2D+1 = 4D+1 -> 1+1+2+3+1 = 8; hull 4D -> 12
    faces = [6] * 8 + [1, 1, 2, 3] + [3, 3, 3, 3]
    _, events = _fire(fleet, faces, frigate, 1, 12, corvette)
    numbers = _numbers(events)
    assert (numbers["damage"], numbers["hull"], numbers["shield_pips"]) == (8, 12, 1)
    damage = _ship(fleet, corvette).damage
    assert (damage.shield_pips_lost, damage.ship_damage) == (1, 0)


def test_cs_12_beam_damage_5_against_hull_12_has_no_effect(campaign):
    fleet, frigate, corvette = _corvette_battle(campaign, "Escort Frigate", "4D")
    faces = [6] * 8 + [1, 1, 1, 1] + [3, 3, 3, 3]
    _, events = _fire(fleet, faces, frigate, 1, 12, corvette)
    numbers = _numbers(events)
    assert (numbers["damage"], numbers["hull"]) == (5, 12)
    assert _ship(fleet, corvette).damage.shield_pips_lost == 0
    assert _ship(fleet, corvette).damage.ship_damage == 0


def test_cs_13_a_swarm_of_8_starfighters_uses_guns_modifier_2d():
    assert dict(fleet_present.swarm_reference()["swarms"])[8] == "2D"


def test_cs_14_a_starfighter_in_a_swarm_takes_1_2_3_damage_points():
    assert fleet_present.swarm_reference()["points"] == [
        (1, "heavily"),
        (2, "severely"),
        (3, "destroyed"),
    ]


def test_cs_15_counter_battery_one_pip_from_12_guns_destroys_4_targeted_guns(battle):
    fleet, mon_cal, strike = battle
    # to hit 8D+3 - 3D = 5D+3; damage 6D+1 -> 4*6+1 = 25; hull 6D -> 18: DR >= HR -> 1 pip
    faces = [6] * 5 + [4] * 6 + [3] * 6
    _, events = _fire(
        fleet, faces, mon_cal, 0, 12, strike, aim="weapon_beam", target_battery=0, target_guns=4
    )
    assert _numbers(events)["pips"] == 1
    assert _numbers(events)["gun_points"] == "3,3,3,3"
    battery = _ship(fleet, strike).batteries[0]
    assert (battery.count(3), battery.usable) == (4, 16)
    assert _ship(fleet, strike).damage.ship_damage == 0


def test_cs_16_capital_dice_against_starfighters_are_capped_at_5():
    reference = fleet_present.swarm_reference()
    assert (reference["maneuver_cap"], reference["shields_cap"]) == (5, 5)


def test_cs_17_two_mon_cals_coordinate_12_turbolasers_each(campaign):
    fleet = start_fleet_action(campaign, "Coordination", None)
    first = _join(fleet, _craft(campaign, "Mon Cal Cruiser", "Home One"), "Rebel")
    second = _join(fleet, _craft(campaign, "Mon Cal Cruiser", "Liberty"), "Rebel")
    isd = _join(fleet, _craft(campaign, "Imperial Star Destroyer I"), "Imperial")
    _step(fleet, [1] * 10, type="evade", ship=isd)
    for ship, other in ((first, second), (second, first)):
        _, events = _fire(fleet, [1] * 40, ship, 0, 12, isd, coordinate=[[other, 0, 12]])
        numbers = _numbers(events)
        assert numbers["guns_modifier"] == "3D"
        assert numbers["to_hit_pool"] == "9D+2"
        assert numbers["to_hit"] == 11
    with pytest.raises(FleetError, match="ion and non-ion"):
        _fire(fleet, [6] * 40, first, 1, 12, isd, coordinate=[[second, 0, 12]])


def test_cs_17_coordinated_damage_modifier_stays_2d_plus_1(campaign):
    fleet = start_fleet_action(campaign, "Coordination", None)
    first = _join(fleet, _craft(campaign, "Mon Cal Cruiser", "Home One"), "Rebel")
    second = _join(fleet, _craft(campaign, "Mon Cal Cruiser", "Liberty"), "Rebel")
    isd = _join(fleet, _craft(campaign, "Imperial Star Destroyer I"), "Imperial")
    _step(fleet, [1] * 10, type="evade", ship=isd)
    _, events = _fire(fleet, [6] * 40, first, 0, 12, isd, coordinate=[[second, 0, 12]])
    assert _numbers(events)["damage_pool"] == "6D+1"


def test_cs_18_power_rerouted_from_rear_to_right_shield(battle):
    fleet, mon_cal, _ = battle
    # the shields officer (4D+2) rolls four 6s = 26 against Difficult (20)
    _, events = _step(fleet, [6] * 4, type="reroute", ship=mon_cal, donor="rear", receiver="right")
    assert _numbers(events, "reroute")["receiver_code"] == "6D"
    ship = _ship(fleet, mon_cal)
    assert ship.facing_shields("right").dice == 6
    assert "rear" in ship.burnt
    # the forward shielding roll: crew 4D+2 + shields 3D, less 1D
    _, events = _step(fleet, [1] * 10, type="shields", ship=mon_cal)
    assert _numbers(events, "shields")["code"] == "6D+2"
    _step(fleet, type="end_round")
    assert _ship(fleet, mon_cal).facing_shields("right").dice == 3
    assert _ship(fleet, mon_cal).facing_shields("rear").dice == 0


def test_cs_19_vital_location_attack_on_fire_control(battle):
    fleet, mon_cal, strike = battle
    # shields not raised -> penetrated: +2D damage; to hit 8D+3 - 6D = 2D+3; hull 6D - 1D
    faces = [6] * 2 + [6] * 8 + [1] * 5
    _, events = _fire(fleet, faces, mon_cal, 0, 12, strike, aim="fire_control", vital_locations=1)
    numbers = _numbers(events)
    assert (numbers["to_hit_pool"], numbers["hull_pool"]) == ("2D+3", "5D")
    assert numbers["damage_pool"] == "8D+1"
    pips = numbers["pips"]
    assert pips == 9
    target = _ship(fleet, strike)
    assert target.damage.fire_control == 9 and target.damage.ship_damage == 0
    row = fleet_present.ship_row(target)
    assert [b["fire_control"]["code"] for b in row["batteries"]] == ["0D", "0D", "1D"]


def test_cs_19_no_bonus_damage_when_the_shields_hold(battle):
    fleet, mon_cal, strike = battle
    _step(fleet, [6] * 10, type="shields", ship=strike)  # shield number 6 + 38
    # to hit 2D+3: two 6s = 15, above evasion 6, below the shield number 44
    _, events = _fire(
        fleet, [6, 6] + [1] * 40, mon_cal, 0, 12, strike, aim="fire_control", vital_locations=1
    )
    numbers = _numbers(events)
    assert numbers["shields_held"] is True
    assert numbers["damage_pool"] == "6D+1"
    # the shields' dice add to the hull roll, less the vital location's 1D
    assert numbers["hull_pool"] == "7D+2"


def test_cs_20_four_pips_of_ship_damage_take_1d_plus_1_off_the_attack(battle):
    fleet, mon_cal, strike = battle
    _step(fleet, type="adjust", ship=mon_cal, row="ship_damage", pips=4)
    assert fleet_present.ship_row(_ship(fleet, mon_cal))["penalty"] == "1D+1"
    _, events = _fire(fleet, [1] * 40, mon_cal, 0, 12, strike)
    assert _numbers(events)["to_hit_pool"] == "7D+2"
    _, events = _fire(fleet, [6] * 60, strike, 0, 20, mon_cal)
    assert _numbers(events)["hull_pool"] == "6D"  # the hull roll is never reduced


def test_cs_20_the_ninth_pip_destroys_the_ship(battle):
    fleet, mon_cal, strike = battle
    _step(fleet, type="adjust", ship=strike, row="ship_damage", pips=8)
    # damage 6D+1: six 3s = 19; hull 6D: six 3s = 18 -> 1 pip
    _, events = _fire(fleet, [6] * 8 + [3] * 6 + [3] * 6, mon_cal, 0, 12, strike)
    assert any(e.kind == "destroyed" and e.ship == strike for e in events)
    assert _ship(fleet, strike).destroyed


def test_cs_21_carrack_rams_a_corvette(campaign):
    fleet = start_fleet_action(campaign, "Ram", None)
    carrack = _join(fleet, _craft(campaign, "Carrack"), "Imperial", "4D")
    corvette = _join(fleet, _craft(campaign, "Corellian Corvette"), "Rebel", "4D")
    _step(fleet, [1] * 10, type="evade", ship=corvette)
    # piloting 4D + sublight 4D = 8D (all 6s) > evasion 6; 7D vs 4D; 5D vs 5D
    faces = [6] * 8 + [4] * 7 + [2] * 4 + [3] * 5 + [3] * 5
    _, events = _step(
        fleet,
        faces,
        type="ram",
        ship=carrack,
        target=corvette,
        speed_actions=2,
        target_speed_actions=1,
    )
    numbers = _numbers(events, "ram")
    assert numbers["hit"] is True
    assert numbers[f"{carrack}_damage_pool"] == "7D"
    assert numbers[f"{corvette}_hull_pool"] == "4D"
    assert numbers[f"{corvette}_damage_pool"] == "5D"
    assert numbers[f"{carrack}_hull_pool"] == "5D"
    # 28 against 8 -> 3 pips on the corvette; 15 against 15 -> 1 pip on the carrack
    assert _ship(fleet, corvette).damage.ship_damage == 3
    assert _ship(fleet, carrack).damage.ship_damage == 1


# --- undo, bad input, the option, the pages -----------------------------------------------------
def test_undo_replays_the_recorded_dice(battle):
    fleet, mon_cal, strike = battle
    _fire(fleet, [3] * 8 + [2] * 6 + [1] * 6, mon_cal, 0, 12, strike)
    before = FleetAction.objects.get(pk=fleet.pk).state
    _fire(fleet, [6] * 40, strike, 0, 20, mon_cal)
    undone = undo_last_step(fleet.pk, expected_version=_version(fleet), actor=None)
    assert undone.state == before
    assert undone.steps.count() == undone.step_count


def _unchanged(fleet, call):
    row = FleetAction.objects.get(pk=fleet.pk)
    with pytest.raises(FleetError) as refused:
        call()
    after = FleetAction.objects.get(pk=fleet.pk)
    assert (after.state, after.version, after.steps.count()) == (
        row.state,
        row.version,
        row.steps.count(),
    )
    return str(refused.value)


def test_firing_more_guns_than_the_battery_has_is_refused_and_changes_nothing(battle):
    fleet, mon_cal, strike = battle
    message = _unchanged(fleet, lambda: _fire(fleet, [6] * 80, mon_cal, 0, 49, strike))
    assert "has 48 gun(s) that can fire, not 49" in message


def test_a_target_not_in_the_fleet_action_is_refused_and_changes_nothing(battle):
    fleet, mon_cal, _ = battle
    message = _unchanged(fleet, lambda: _fire(fleet, [6] * 80, mon_cal, 0, 12, "s99"))
    assert "no ship 's99' in this fleet action" in message


def test_a_stale_version_is_refused_and_changes_nothing(battle):
    fleet, _, _ = battle
    row = FleetAction.objects.get(pk=fleet.pk)
    with pytest.raises(StaleFleetAction):
        apply_step(
            fleet.pk,
            {"type": "end_round"},
            expected_version=row.version - 1,
            actor=None,
            rng=FixedDice([]),
        )
    assert FleetAction.objects.get(pk=fleet.pk).version == row.version


def test_a_craft_that_is_not_a_capital_ship_cannot_join(campaign):
    fleet = start_fleet_action(campaign, "Freighters", None)
    freighter = next(c for c in load_craft("starships") if c.kind == "starship")
    craft = Craft.objects.create(campaign=campaign, name="Falcon", stats=freighter.to_json())
    message = _unchanged(
        fleet,
        lambda: add_craft(
            fleet.pk, craft.pk, side="Rebel", crew="4D", expected_version=0, actor=None
        ),
    )
    assert "not a capital ship" in message


def test_another_campaigns_craft_cannot_join(campaign):
    fleet = start_fleet_action(campaign, "Theft", None)
    elsewhere = _craft(CampaignFactory(), "Carrack")
    message = _unchanged(
        fleet,
        lambda: add_craft(
            fleet.pk, elsewhere.pk, side="Rebel", crew="4D", expected_version=0, actor=None
        ),
    )
    assert "this campaign's capital ships" in message


def test_without_the_option_no_fleet_action_starts_and_the_page_says_how_to_turn_it_on(client):
    campaign = CampaignFactory()
    with pytest.raises(FleetError, match="turns on “Fleet actions”"):
        start_fleet_action(campaign, "Nope", None)
    client.force_login(campaign.created_by)
    page = client.get(reverse("encounters:fleet_list", args=[campaign.pk]))
    assert "Fleet actions are off in this campaign" in page.content.decode()
    assert reverse("campaigns:rules", args=[campaign.pk]) in page.content.decode()
    made = client.post(reverse("encounters:fleet_list", args=[campaign.pk]), {"name": "X"})
    assert made.status_code == 400 and not FleetAction.objects.exists()


def test_gm_fires_through_the_page_and_a_player_sees_the_damage(client, battle, monkeypatch):
    fleet, mon_cal, strike = battle
    gm = fleet.campaign.created_by
    player = MembershipFactory(campaign=fleet.campaign).user
    client.force_login(gm)
    monkeypatch.setattr(fleet_views, "dice", lambda: FixedDice([3] * 8 + [2] * 6 + [1] * 6))
    url = reverse("encounters:fleet_step", args=[fleet.campaign_id, fleet.pk])
    fields = {"version": _version(fleet), "type": "fire", "ship": mon_cal, "battery": "1"}
    answer = client.post(url, {**fields, "guns": "12", "target": strike}, follow=True)
    assert "2 pip(s) of damage" in answer.content.decode()
    client.force_login(player)
    page = client.get(reverse("encounters:fleet_page", args=[fleet.campaign_id, fleet.pk]))
    assert 'aria-label="2 of 9 pips of Ship Damage"' in page.content.decode()
    assert "GM controls" not in page.content.decode()
    refused = client.post(url, {**fields, "guns": "1", "target": strike})
    assert refused.status_code == 403


def test_the_page_refuses_bad_input_with_a_reason(client, battle):
    fleet, mon_cal, strike = battle
    client.force_login(fleet.campaign.created_by)
    url = reverse("encounters:fleet_step", args=[fleet.campaign_id, fleet.pk])
    version = _version(fleet)
    base = {"version": version, "type": "fire", "ship": mon_cal, "battery": "1", "target": strike}
    for guns, reason in (("49", "not 49"), ("x", "guns must be a whole number")):
        answer = client.post(url, {**base, "guns": guns})
        assert answer.status_code == 400
        assert reason in answer.content.decode()
    stale = client.post(url, {**base, "guns": "1", "version": version - 1})
    assert stale.status_code == 409
    assert _version(fleet) == version and not FleetStep.objects.filter(number__gt=4).exists()


def test_the_live_poll_answers_204_until_the_battle_moves_on(client, battle):
    fleet, _, _ = battle
    player = MembershipFactory(campaign=fleet.campaign).user
    client.force_login(player)
    url = reverse("encounters:fleet_live", args=[fleet.campaign_id, fleet.pk])
    version = _version(fleet)
    assert client.get(url, {"v": version}).status_code == 204
    _step(fleet, type="end_round")
    moved = client.get(url, {"v": version})
    assert moved.status_code == 200
    assert "Round 2" in moved.content.decode()
    assert f"v={version + 1}" in moved.content.decode()
