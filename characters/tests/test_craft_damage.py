"""Damage to ships and vehicles outside an encounter (issue 18): the GM records a hit, the
campaign's damage chart and the 1D tables decide the result, the ship sheet shows it and the
limit it puts on each crew station's roll. The worked examples of vehicles-and-starships.md
§15 run through the record-hit service the page uses (V25 is not here: no service rolls a
body check after all-out travel; the engine has it, rules.craft.travel)."""

import pytest
from django.urls import reverse

from characters.craft_damage import record_hit
from characters.craft_models import Craft
from characters.craft_services import CraftRefused, create_craft, crew_station, roll_station
from characters.models import DiceRoll
from characters.tests.factories import CharacterFactory, SkillFactory
from rules import RuleSet
from rules.craft import CraftState, CraftStats, CraftWeapon
from rules.dice import DieCode, FixedDice
from rules.scale import Scale

UPG = RuleSet()
RC = UPG.replace(damage_chart="rc_multiples")

FREIGHTER = CraftStats(
    name="Stellar Envoy",
    kind="starship",
    scale=Scale.STARFIGHTER,
    craft_type="Light freighter",
    maneuverability=DieCode(2),
    space=4,
    hull=DieCode(4),
    shields=DieCode(1),
    hyperdrive=2.0,
    piloting_skill="space transports",
    weapons=(CraftWeapon("Double laser cannon", fire_control=DieCode(2), damage=DieCode(4)),),
)
SPEEDER = CraftStats(
    name="Landspeeder",
    kind="vehicle",
    scale=Scale.SPEEDER,
    maneuverability=DieCode(1),
    move=35,
    kmh=100,
    hull=DieCode(2),
)


@pytest.fixture
def han(db):
    return CharacterFactory(name="Han")


def _gm(campaign):
    return campaign.memberships.get(user=campaign.created_by)


def _ship(campaign, stats=FREIGHTER, state=None, **kwargs):
    craft = create_craft(campaign, stats, party=True, **kwargs)
    if state is not None:
        Craft.objects.filter(pk=craft.pk).update(damage=state.to_json())
        craft.refresh_from_db()
    return craft


def _state(craft):
    craft.refresh_from_db()
    return craft.damage_state


def _hit(craft, damage, resist, dice=(), ruleset=UPG, **kwargs):
    return record_hit(
        craft,
        craft.campaign.created_by,
        damage_roll=damage,
        resist_roll=resist,
        ruleset=ruleset,
        rng=FixedDice(dice),
        **kwargs,
    )


# --- the worked examples through the record-hit service --------------------------------------
def test_v4_a_vehicle_losing_1_then_2_moves_is_limited_to_cautious_speed(han):
    speeder = _ship(han.campaign, SPEEDER)
    _hit(speeder, 10, 5, [5])  # margin 5: lightly damaged; 1D = 5: -1 Move
    _hit(speeder, 20, 10, [4])  # margin 10: heavily damaged; 1D = 4: -2 Move
    assert _state(speeder).moves_lost == 3
    sheet = _sheet_text(han, speeder)
    assert "-3 Moves: limited to cautious speed" in sheet
    assert "top speed cautious" in sheet


def test_v24_a_heavily_damaged_starship_lightly_damaged_again_is_severely_damaged(han):
    ship = _ship(han.campaign)
    _hit(ship, 20, 10, [6])  # margin 10: heavily damaged, -2 Move
    hit = _hit(ship, 15, 10, [2])  # margin 5: lightly; escalated: the severe table, 2
    assert hit.after.damage == "severely"
    assert "overloaded generator" in hit.after.events[0]


def test_v26_a_severely_damaged_starship_damaged_again_is_destroyed(han):
    ship = _ship(han.campaign)
    _hit(ship, 24, 10, [2])  # margin 14: severely damaged
    hit = _hit(ship, 15, 10)  # lightly again: destroyed, no table to roll
    assert hit.after.destroyed and hit.roll is None
    with pytest.raises(CraftRefused, match="destroyed already"):
        _hit(ship, 15, 10)


def test_v28_rc_double_strength_severely_damages_the_ship(han):
    ship = _ship(han.campaign)
    hit = _hit(ship, 20, 9, [5], ruleset=RC)
    assert hit.result.level == "severely"
    assert _state(ship).damage == "severely"


def test_v28_rc_an_ion_cannon_at_double_strength_ionizes_2d(han):
    ship = _ship(han.campaign)
    hit = _hit(ship, 20, 9, ruleset=RC, ion=True)
    assert (hit.result.level, _state(ship).controls_ionized) == ("controls_ionized", 2)
    assert hit.roll is None


def test_v29_rc_less_than_half_strength_does_nothing(han):
    ship = _ship(han.campaign)
    hit = _hit(ship, 4, 9, ruleset=RC)
    assert hit.result.level == "none"
    assert Craft.objects.get(pk=ship.pk).damage is None
    assert DiceRoll.objects.count() == 0


def test_v29_rc_below_strength_with_shields_up_loses_a_shield_die(han):
    ship = _ship(han.campaign)
    _hit(ship, 5, 9, ruleset=RC, shields_in_use=True)
    state = _state(ship)
    assert (state.damage, state.shield_dice_lost, state.controls_ionized) == ("lightly", 1, 0)


def test_v29_rc_below_strength_without_shields_ionizes_1d(han):
    ship = _ship(han.campaign)
    _hit(ship, 5, 9, ruleset=RC)
    state = _state(ship)
    assert (state.damage, state.shield_dice_lost, state.controls_ionized) == ("lightly", 0, 1)


def test_v33_a_vehicle_at_minus_3_moves_losing_2_more_is_destroyed(han):
    speeder = _ship(han.campaign, SPEEDER, CraftState(damage="lightly", moves_lost=3))
    hit = _hit(speeder, 20, 10, [4])  # heavily damaged, 1D = 4: -2 Move
    assert hit.after.moves_lost == 5 and hit.after.destroyed


def test_v33_with_the_drive_destroyed_option_the_vehicle_survives(han):
    ruleset = UPG.replace(lost_moves_5="drive_destroyed")
    speeder = _ship(han.campaign, SPEEDER, CraftState(damage="lightly", moves_lost=3))
    hit = _hit(speeder, 20, 10, [4], ruleset=ruleset)
    assert hit.after.moves_lost == 5 and not hit.after.destroyed


# --- recording a hit --------------------------------------------------------------------------
def test_the_damage_table_roll_is_kept_in_the_dice_log(han):
    ship = _ship(han.campaign)
    hit = _hit(ship, 12, 6, [1])  # margin 6: lightly damaged; 1D = 1: -1D maneuverability
    roll = DiceRoll.objects.get()
    assert roll == hit.roll
    assert (roll.label, roll.code, roll.total) == ("Stellar Envoy: damage table", "1D", 1)
    assert roll.dice["result"]["level"] == "lightly"
    assert _state(ship).maneuverability_lost == 1


def test_a_second_edition_small_margin_blows_a_shield_die_then_ionizes(han):
    ship = _ship(han.campaign)
    _hit(ship, 12, 10)
    assert _state(ship).shield_dice_lost == 1
    _hit(ship, 12, 10)
    assert _state(ship).controls_ionized == 1


def test_a_second_edition_ion_hit_is_refused_with_the_reason_and_changes_nothing(han):
    ship = _ship(han.campaign)
    with pytest.raises(CraftRefused, match="ion"):
        _hit(ship, 20, 5, ion=True)
    assert Craft.objects.get(pk=ship.pk).damage is None


@pytest.mark.parametrize("bad", [-1, 1001, True, "12"])
def test_totals_out_of_bounds_are_refused(han, bad):
    ship = _ship(han.campaign)
    with pytest.raises(CraftRefused, match="whole numbers"):
        _hit(ship, bad, 5)
    assert Craft.objects.get(pk=ship.pk).damage is None


def test_the_gm_records_a_hit_from_the_sheet(client, han, monkeypatch):
    from characters import craft_views

    monkeypatch.setattr(craft_views, "dice", lambda: FixedDice([1]))
    ship = _ship(han.campaign)
    client.force_login(han.campaign.created_by)
    url = reverse("characters:craft_hit", args=[han.campaign.pk, ship.pk])
    response = client.post(url, {"damage_roll": 12, "resist_roll": 6}, follow=True)
    page = response.content.decode()
    assert "Hit recorded: lightly damaged." in page
    assert "maneuverability -1D (2D → 1D)" in page


def test_a_player_cannot_record_a_hit(client, han):
    ship = _ship(han.campaign)
    client.force_login(han.owner)
    url = reverse("characters:craft_hit", args=[han.campaign.pk, ship.pk])
    assert client.post(url, {"damage_roll": 30, "resist_roll": 1}).status_code == 403
    assert Craft.objects.get(pk=ship.pk).damage is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"damage_roll": "-3", "resist_roll": "4"}, "greater than or equal to 0"),
        ({"damage_roll": "lots", "resist_roll": "4"}, "Enter a whole number"),
        ({"damage_roll": "12"}, "This field is required"),
        ({"damage_roll": "12", "resist_roll": "4", "ion": "on"}, "ion cannon chart"),
    ],
)
def test_bad_hit_input_is_shown_on_the_sheet_and_changes_nothing(client, han, data, message):
    ship = _ship(han.campaign)
    client.force_login(han.campaign.created_by)
    url = reverse("characters:craft_hit", args=[han.campaign.pk, ship.pk])
    response = client.post(url, data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Craft.objects.get(pk=ship.pk).damage is None
    assert DiceRoll.objects.count() == 0


def test_the_gm_clears_one_result_or_all_of_them(client, han):
    state = CraftState(damage="lightly", maneuverability_lost=1, moves_lost=1)
    ship = _ship(han.campaign, state=state)
    client.force_login(han.campaign.created_by)
    url = reverse("characters:craft_clear", args=[han.campaign.pk, ship.pk])
    assert client.post(url, {"entry": "moves"}).status_code == 302
    assert _state(ship).moves_lost == 0 and _state(ship).maneuverability_lost == 1
    assert client.post(url, {"entry": "hyperdrive"}).status_code == 400
    assert client.post(url).status_code == 302
    assert Craft.objects.get(pk=ship.pk).damage is None


def test_clearing_the_last_result_leaves_the_craft_undamaged(client, han):
    ship = _ship(han.campaign, state=CraftState(damage="lightly", maneuverability_lost=1))
    client.force_login(han.campaign.created_by)
    url = reverse("characters:craft_clear", args=[han.campaign.pk, ship.pk])
    client.post(url, {"entry": "maneuverability"})
    assert Craft.objects.get(pk=ship.pk).damage is None


# --- the sheet and the next roll --------------------------------------------------------------
def _sheet_text(character, craft):
    from django.test import Client

    client = Client()
    client.force_login(character.owner)
    return client.get(craft.get_absolute_url()).content.decode()


def test_the_sheet_shows_the_damage_and_each_stations_limit(han):
    state = CraftState(
        damage="lightly",
        maneuverability_lost=1,
        shield_dice_lost=1,
        hyperdrive="damaged",
        weapon_damage=("one_lightly_damaged",),
    )
    ship = _ship(han.campaign, state=state)
    crew_station(_gm(han.campaign), ship.stations.get(role="pilot"), han)
    sheet = _sheet_text(han, ship)
    for text in (
        "Lightly damaged",
        "maneuverability -1D (2D → 1D)",
        "shields -1D (1D → 0D)",
        "hyperdrive damaged",
        "one weapon lightly damaged",
        "Repair: Easy, 10% of the craft",
    ):
        assert text in sheet, text
    assert "Maneuverability <span" in sheet and "(lightly damaged)" in sheet


def test_the_next_piloting_roll_uses_the_damaged_maneuverability(han):
    ship = _ship(han.campaign, state=CraftState(damage="lightly", maneuverability_lost=1))
    SkillFactory(character=han, name="space transports", attribute="mechanical", code="4D")
    pilot = ship.stations.get(role="pilot")
    crew_station(_gm(han.campaign), pilot, han)
    pilot.refresh_from_db()
    record = roll_station(pilot, han.owner, ruleset=UPG, rng=FixedDice([3] * 5))
    assert record.code == "5D"  # 4D + maneuverability 2D, lightly damaged: 1D
    assert record.label == "Stellar Envoy: piloting (maneuverability 2D → 1D, lightly damaged)"
    assert (record.dice["printed_code"], record.dice["craft_code"]) == ("2D", "1D")


def test_ionized_controls_take_dice_from_the_gunner_too(han):
    ship = _ship(han.campaign, state=CraftState(damage="none", controls_ionized=1))
    gunner = ship.stations.get(role="gunner")
    crew_station(_gm(han.campaign), gunner, han)
    gunner.refresh_from_db()
    record = roll_station(gunner, han.owner, ruleset=UPG, rng=FixedDice([3] * 4))
    assert record.code == "4D"  # Mechanical 3D + fire control 2D - 1D ionized
    assert "1 controls ionized" in record.label


def test_the_roll_page_shows_the_limit_before_the_roll(client, han):
    ship = _ship(han.campaign, state=CraftState(damage="lightly", maneuverability_lost=1))
    pilot = ship.stations.get(role="pilot")
    crew_station(_gm(han.campaign), pilot, han)
    client.force_login(han.owner)
    url = reverse("characters:craft_roll", args=[han.campaign.pk, ship.pk, pilot.pk])
    page = client.get(url).content.decode()
    assert "<s>2D</s>" in page and "lightly damaged" in page
    assert client.get(url).context["trait"].code == DieCode(4)  # Mechanical 3D + 1D


def test_a_destroyed_craft_rolls_nothing(han):
    ship = _ship(han.campaign, state=CraftState(damage="destroyed"))
    pilot = ship.stations.get(role="pilot")
    crew_station(_gm(han.campaign), pilot, han)
    pilot.refresh_from_db()
    with pytest.raises(CraftRefused, match="destroyed"):
        roll_station(pilot, han.owner, ruleset=UPG, rng=FixedDice([3] * 5))
    assert DiceRoll.objects.count() == 0


def test_the_damaged_sheet_costs_a_bounded_number_of_queries(
    client, han, django_assert_max_num_queries
):
    state = CraftState(damage="heavily", maneuverability_lost=2, weapon_damage=("arc_disabled",))
    ship = _ship(han.campaign, state=state, value=100_000)
    for station in ship.stations.all():
        crew_station(_gm(han.campaign), station, han)
    client.force_login(han.campaign.created_by)
    with django_assert_max_num_queries(9):
        response = client.get(ship.get_absolute_url())
    assert response.status_code == 200


# --- one set of roll checks for the sheet and the stations ------------------------------------
def test_a_station_roll_counts_stamina_for_the_rules_companion_stun_knock_out(han):
    """roll_station used to repeat roll_trait's checks without the stamina skill: a Rules
    Companion crew member knocked out at his stamina dice could still fly. Both now share
    characters.services.roll_and_record."""
    from characters.services import roll_trait, with_stun_points

    rc = UPG.replace(stun_knockout="rc_dex_stamina")
    han.strength = DieCode(4)
    SkillFactory(character=han, name="stamina", attribute="strength", code="2D")
    han.set_wound_state(with_stun_points(han.wound_state, 2, ruleset=rc))
    han.save()
    ship = _ship(han.campaign)
    pilot = ship.stations.get(role="pilot")
    crew_station(_gm(han.campaign), pilot, han)
    pilot.refresh_from_db()
    with pytest.raises(ValueError, match="knocked out by stuns"):
        roll_trait(han, han.owner, "attr:mechanical", ruleset=rc, rng=FixedDice([3] * 5))
    with pytest.raises(CraftRefused, match="knocked out by stuns"):
        roll_station(pilot, han.owner, ruleset=rc, rng=FixedDice([3] * 5))
    assert DiceRoll.objects.count() == 0


def test_the_damage_table_roll_shows_in_the_campaigns_dice_log(client, han):
    ship = _ship(han.campaign)
    _hit(ship, 12, 6, [1])
    client.force_login(han.owner)
    response = client.get(reverse("characters:dice_log", args=[han.campaign.pk]))
    assert response.status_code == 200
    assert "Stellar Envoy: damage table" in response.content.decode()


# --- the GM's cheap undo ------------------------------------------------------------------------
def test_the_gm_undoes_the_last_hit(client, han):
    ship = _ship(han.campaign)
    _hit(ship, 12, 6, [1])  # lightly damaged: -1D maneuverability
    _hit(ship, 12, 6, [6])  # lightly damaged again: -1 Move
    client.force_login(han.campaign.created_by)
    assert "Undo the last hit" in client.get(ship.get_absolute_url()).content.decode()
    url = reverse("characters:craft_undo", args=[han.campaign.pk, ship.pk])
    assert client.post(url).status_code == 302
    state = _state(ship)
    assert (state.maneuverability_lost, state.moves_lost) == (1, 0)
    assert client.post(url).status_code == 302
    assert Craft.objects.get(pk=ship.pk).damage is None
    assert client.post(url).status_code == 400  # nothing left to undo
    assert DiceRoll.objects.filter(dice__undone=True).count() == 2  # kept in the log


def test_a_hit_is_not_undone_once_the_damage_changed(client, han):
    ship = _ship(han.campaign)
    _hit(ship, 12, 6, [1])
    client.force_login(han.campaign.created_by)
    client.post(reverse("characters:craft_clear", args=[han.campaign.pk, ship.pk]))
    response = client.post(reverse("characters:craft_undo", args=[han.campaign.pk, ship.pk]))
    assert response.status_code == 400
    assert "changed since the last recorded hit" in response.content.decode()
