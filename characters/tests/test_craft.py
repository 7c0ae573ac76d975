"""Ships and vehicles (issue 18): making craft with their crew stations, the list and the ship
sheet, crewing stations, and rolling a crew member's skill plus the craft's code."""

import pytest
from django.urls import reverse

from campaigns.tests.factories import MembershipFactory
from characters.craft_models import Craft, CrewStation
from characters.craft_services import (
    CraftRefused,
    catalogue,
    create_craft,
    crew_station,
    roll_station,
)
from characters.models import DiceRoll
from characters.tests.factories import CharacterFactory, NPCFactory, SkillFactory
from rules import RuleSet
from rules.craft import CraftStats, CraftWeapon
from rules.dice import DieCode, FixedDice
from rules.scale import Scale

FREIGHTER = CraftStats(
    name="Stellar Envoy",
    kind="starship",
    scale=Scale.STARFIGHTER,
    craft_type="Light freighter",
    crew=2,
    passengers=6,
    cargo="100 metric tons",
    consumables="2 months",
    hyperdrive=2.0,
    backup_hyperdrive=12.0,
    nav_computer=True,
    maneuverability=DieCode(1, 1),
    space=4,
    hull=DieCode(4, 0),
    shields=DieCode(1, 0),
    sensors="Passive 10/0D",
    piloting_skill="space transports",
    weapons=(
        CraftWeapon("Double laser cannon", fire_control=DieCode(2, 0), damage=DieCode(4, 0)),
        CraftWeapon("Concussion missiles", fire_control=DieCode(1, 0), damage=DieCode(7, 0)),
    ),
)


@pytest.fixture
def party(db):
    """A campaign with a party freighter, two players' characters and the GM."""
    han = CharacterFactory(name="Han")
    campaign = han.campaign
    chewie = CharacterFactory(campaign=campaign, name="Chewie")
    ship = create_craft(campaign, FREIGHTER, party=True)
    return campaign, ship, han, chewie


def _station(ship, role, index=None):
    return ship.stations.get(role=role, weapon_index=index)


def _member(character):
    return character.campaign.memberships.get(user=character.owner)


def _gm(campaign):
    return campaign.memberships.get(user=campaign.created_by)


# --- making a craft ----------------------------------------------------------------------------
def test_a_craft_gets_a_station_per_role_and_a_gunner_per_weapon(party):
    _, ship, _, _ = party
    stations = [(s.role, s.weapon_index) for s in ship.stations.order_by("pk")]
    assert stations == [
        ("pilot", None),
        ("copilot", None),
        ("gunner", 0),
        ("gunner", 1),
        ("shields", None),
        ("sensors", None),
        ("engineer", None),
    ]


def test_the_stored_stat_block_reads_back_as_the_engine_value(party):
    _, ship, _, _ = party
    assert Craft.objects.get(pk=ship.pk).stat_block == FREIGHTER


def test_a_craft_cannot_belong_to_a_character_and_the_party(party):
    campaign, _, han, _ = party
    with pytest.raises(CraftRefused):
        create_craft(campaign, FREIGHTER, owner_character=han, party=True)
    assert Craft.objects.count() == 1


# --- crewing -----------------------------------------------------------------------------------
def test_a_player_puts_his_own_character_on_a_party_ship_station(party):
    _, ship, han, _ = party
    crew_station(_member(han), _station(ship, "pilot"), han)
    assert _station(ship, "pilot").character == han


def test_a_player_cannot_put_another_players_character_on_a_party_ship(party):
    _, ship, han, chewie = party
    with pytest.raises(CraftRefused, match="only with your own character"):
        crew_station(_member(han), _station(ship, "pilot"), chewie)
    assert _station(ship, "pilot").character is None


def test_a_player_cannot_take_another_players_character_off_a_station(party):
    campaign, ship, han, chewie = party
    crew_station(_gm(campaign), _station(ship, "copilot"), chewie)
    with pytest.raises(CraftRefused, match="holds that station"):
        crew_station(_member(han), _station(ship, "copilot"), han)
    assert _station(ship, "copilot").character == chewie


def test_one_character_may_hold_several_stations(party):
    campaign, ship, han, _ = party
    crew_station(_gm(campaign), _station(ship, "pilot"), han)
    crew_station(_gm(campaign), _station(ship, "gunner", 0), han)
    assert CrewStation.objects.filter(character=han).count() == 2


def test_the_owner_of_a_ship_crews_it_with_any_character(party):
    campaign, _, han, chewie = party
    own = create_craft(campaign, FREIGHTER, owner_character=han)
    crew_station(_member(han), _station(own, "pilot"), chewie)
    assert _station(own, "pilot").character == chewie


def test_crewing_a_ship_you_cannot_edit_is_refused_with_a_message(client, party):
    campaign, _, han, chewie = party
    theirs = create_craft(campaign, FREIGHTER, owner_character=chewie)
    client.force_login(han.owner)
    url = reverse("characters:craft_crew", args=[campaign.pk, theirs.pk])
    station = _station(theirs, "pilot")
    response = client.post(url, {"station": station.pk, "character": han.pk})
    assert response.status_code == 403
    assert b"not yours" in response.content
    assert _station(theirs, "pilot").character is None


def test_a_secret_npc_is_not_a_choice_for_players(client, party):
    campaign, ship, han, _ = party
    spy = NPCFactory(campaign=campaign, secret=True)
    client.force_login(han.owner)
    url = reverse("characters:craft_crew", args=[campaign.pk, ship.pk])
    response = client.post(url, {"station": _station(ship, "pilot").pk, "character": spy.pk})
    assert response.status_code == 400
    assert _station(ship, "pilot").character is None


def test_a_station_of_another_craft_is_a_404(client, party):
    campaign, ship, han, _ = party
    other = create_craft(campaign, FREIGHTER, party=True)
    client.force_login(campaign.created_by)
    url = reverse("characters:craft_crew", args=[campaign.pk, ship.pk])
    response = client.post(url, {"station": _station(other, "pilot").pk, "character": han.pk})
    assert response.status_code == 404


# --- rolling -----------------------------------------------------------------------------------
def test_piloting_rolls_the_skill_plus_maneuverability_with_the_wild_die(party):
    campaign, ship, han, _ = party
    SkillFactory(character=han, name="space transports", attribute="mechanical", code="4D+2")
    crew_station(_gm(campaign), _station(ship, "pilot"), han)
    record = roll_station(
        _station(ship, "pilot"), han.owner, ruleset=RuleSet(), rng=FixedDice([2, 3, 4, 5, 4])
    )
    # 4D+2 + 1D+1 = 5D+3 (pips do not carry in play): four dice and the Wild Die, plus 3.
    assert record.code == "5D+3"
    assert record.total == 2 + 3 + 4 + 5 + 4 + 3
    assert sorted(record.dice["normal"] + record.dice["wild"]) == [2, 3, 4, 4, 5]
    assert record.label == "Stellar Envoy: piloting"
    assert record.character == han
    assert DiceRoll.objects.count() == 1


def test_without_the_skill_the_crew_member_rolls_mechanical(party):
    campaign, ship, han, _ = party
    crew_station(_gm(campaign), _station(ship, "gunner", 0), han)
    record = roll_station(
        _station(ship, "gunner", 0), han.owner, ruleset=RuleSet(), rng=FixedDice([3] * 5)
    )
    assert record.code == "5D"  # Mechanical 3D + fire control 2D
    assert record.label == "Stellar Envoy: Double laser cannon"


def test_spending_cp_on_a_station_roll_debits_them(party):
    campaign, ship, han, _ = party
    han.character_points = 3
    han.save()
    crew_station(_gm(campaign), _station(ship, "shields"), han)
    roll_station(
        _station(ship, "shields"), han.owner, ruleset=RuleSet(), cp=2, rng=FixedDice([3] * 6)
    )
    han.refresh_from_db()
    assert han.character_points == 1


def test_spending_more_cp_than_held_is_refused_and_nothing_is_stored(party):
    campaign, ship, han, _ = party
    crew_station(_gm(campaign), _station(ship, "pilot"), han)
    with pytest.raises(CraftRefused, match="not enough Character Points"):
        roll_station(_station(ship, "pilot"), han.owner, ruleset=RuleSet(), cp=2)
    assert DiceRoll.objects.count() == 0


def test_the_roll_page_shows_the_combined_code_and_the_odds(client, party):
    campaign, ship, han, _ = party
    crew_station(_gm(campaign), _station(ship, "pilot"), han)
    client.force_login(han.owner)
    url = reverse("characters:craft_roll", args=[campaign.pk, ship.pk, _station(ship, "pilot").pk])
    response = client.get(url)
    assert response.status_code == 200
    assert response.context["trait"].code == DieCode(4, 1)  # Mechanical 3D + 1D+1
    assert "Very Easy" in response.content.decode()
    assert len(response.context["odds"]) >= 5


def test_a_player_cannot_roll_for_another_players_crew_member(client, party):
    campaign, ship, han, chewie = party
    crew_station(_gm(campaign), _station(ship, "pilot"), chewie)
    client.force_login(han.owner)
    url = reverse("characters:craft_roll", args=[campaign.pk, ship.pk, _station(ship, "pilot").pk])
    assert client.post(url, {"actions": 1, "modifier": 0, "cp": 0}).status_code == 403
    assert DiceRoll.objects.count() == 0


def test_the_gm_rolls_for_any_crew_member(client, party):
    campaign, ship, _, chewie = party
    crew_station(_gm(campaign), _station(ship, "pilot"), chewie)
    client.force_login(campaign.created_by)
    url = reverse("characters:craft_roll", args=[campaign.pk, ship.pk, _station(ship, "pilot").pk])
    response = client.post(url, {"actions": 1, "modifier": 0, "cp": 0})
    assert response.status_code == 200
    assert DiceRoll.objects.get().character == chewie


def test_sensors_station_has_no_craft_roll(client, party):
    campaign, ship, han, _ = party
    crew_station(_gm(campaign), _station(ship, "sensors"), han)
    client.force_login(han.owner)
    url = reverse(
        "characters:craft_roll", args=[campaign.pk, ship.pk, _station(ship, "sensors").pk]
    )
    assert client.get(url).status_code == 400


# --- pages -------------------------------------------------------------------------------------
def test_every_member_reads_the_list_and_the_sheet(client, party):
    campaign, ship, han, _ = party
    client.force_login(han.owner)
    listing = client.get(reverse("characters:craft_list", args=[campaign.pk]))
    assert "Stellar Envoy" in listing.content.decode()
    assert "Add from the catalogue" not in listing.content.decode()
    sheet = client.get(ship.get_absolute_url()).content.decode()
    for text in ("Double laser cannon", "100 metric tons", "2 months", "x2", "backup x12"):
        assert text in sheet


def test_the_gm_filters_the_catalogue(client, party):
    campaign, _, _, _ = party
    client.force_login(campaign.created_by)
    url = reverse("characters:craft_list", args=[campaign.pk])
    response = client.get(url, {"q": "destroyer", "kind": "capital"})
    names = [c.name for c in response.context["catalogue_rows"]]
    assert names and all("Star Destroyer" in n for n in names)


def test_the_gm_adds_a_catalogue_craft_for_a_character(client, party):
    campaign, _, han, _ = party
    client.force_login(campaign.created_by)
    url = reverse("characters:craft_add", args=[campaign.pk])
    response = client.post(url, {"catalogue": "Corellian Corvette", "owner": f"c{han.pk}"})
    craft = Craft.objects.get(name="Corellian Corvette")
    assert response.status_code == 302
    assert (craft.owner_character, craft.catalogue_name) == (han, "Corellian Corvette")
    assert craft.stat_block == catalogue()["Corellian Corvette"]


def test_a_player_cannot_add_a_craft(client, party):
    campaign, _, han, _ = party
    client.force_login(han.owner)
    url = reverse("characters:craft_add", args=[campaign.pk])
    response = client.post(url, {"catalogue": "Corellian Corvette", "owner": "party"})
    assert response.status_code == 403
    assert Craft.objects.count() == 1


def test_the_gm_types_his_own_stat_block(client, party):
    campaign, _, _, _ = party
    client.force_login(campaign.created_by)
    data = {
        "name": "Outrider",
        "kind": "starship",
        "scale": "starfighter",
        "maneuverability": "2D",
        "hull": "4D+2",
        "hyperdrive": "1",
        "weapons": "Laser cannon | 3D | 5D | turret | 1-3/12/25 | 1\nMissiles | 2D | 7D | front",
    }
    response = client.post(reverse("characters:craft_new", args=[campaign.pk]), data)
    assert response.status_code == 302
    craft = Craft.objects.get(name="Outrider")
    assert [w.name for w in craft.stat_block.weapons] == ["Laser cannon", "Missiles"]
    assert craft.stat_block.weapons[0].arc == "turret"
    assert craft.stations.filter(role="gunner").count() == 2


BAD_STAT_BLOCKS = [
    ({"hull": "-2D"}, "negative"),
    ({"name": "Bad\x00name"}, "Null characters"),
    ({"name": "x" * 101}, "at most 100"),
    ({"crew": "-1"}, "greater than or equal to 0"),
    ({"weapons": "Laser | lots | 5D"}, "Weapon line 1"),
    ({"weapons": "Laser"}, "Weapon line 1"),
    ({"scale": "enormous"}, "Select a valid choice"),
]


@pytest.mark.parametrize(("bad", "message"), BAD_STAT_BLOCKS)
def test_a_bad_stat_block_is_refused_with_a_message(client, party, bad, message):
    campaign, _, _, _ = party
    client.force_login(campaign.created_by)
    data = {"name": "Outrider", "kind": "starship", "scale": "starfighter", **bad}
    response = client.post(reverse("characters:craft_new", args=[campaign.pk]), data)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert Craft.objects.count() == 1


def test_a_gunner_on_a_weapon_that_does_not_exist_is_refused(party):
    _, ship, han, _ = party
    station = CrewStation(craft=ship, role="gunner", weapon_index=7, character=han)
    with pytest.raises(CraftRefused, match="no such weapon"):
        roll_station(station, han.owner, ruleset=RuleSet(), rng=FixedDice([3] * 5))
    assert DiceRoll.objects.count() == 0


def test_a_nul_in_the_catalogue_name_is_refused(client, party):
    campaign, _, _, _ = party
    client.force_login(campaign.created_by)
    url = reverse("characters:craft_add", args=[campaign.pk])
    response = client.post(url, {"catalogue": "Corellian Corvette", "name": "A\x00B"})
    assert response.status_code == 400
    assert Craft.objects.count() == 1


def test_the_ship_sheet_costs_a_bounded_number_of_queries(
    client, party, django_assert_max_num_queries
):
    campaign, ship, han, chewie = party
    for station in ship.stations.all():
        crew_station(_gm(campaign), station, han if station.pk % 2 else chewie)
    client.force_login(campaign.created_by)
    with django_assert_max_num_queries(7):  # 6 + the repairs (issue 18, damage and repairs)
        response = client.get(ship.get_absolute_url())
    assert response.status_code == 200


def test_players_outside_the_campaign_see_nothing(client, party):
    _, ship, _, _ = party
    outsider = MembershipFactory().user
    client.force_login(outsider)
    assert client.get(ship.get_absolute_url()).status_code == 404


def test_crew_station_refuses_a_character_of_another_campaign(party):
    campaign, ship, _, _ = party
    stranger = CharacterFactory()
    with pytest.raises(CraftRefused, match="not in this campaign"):
        crew_station(_gm(campaign), _station(ship, "pilot"), stranger)


def test_the_gm_deletes_a_craft_after_typing_its_name(client, party):
    campaign, ship, _, _ = party
    client.force_login(campaign.created_by)
    url = reverse("characters:craft_delete", args=[campaign.pk, ship.pk])
    assert client.post(url, {"confirm_name": "Stellar"}).status_code == 400
    assert Craft.objects.filter(pk=ship.pk).exists()
    assert client.post(url, {"confirm_name": "Stellar Envoy"}).status_code == 302
    assert not Craft.objects.filter(pk=ship.pk).exists()
    assert not CrewStation.objects.filter(craft_id=ship.pk).exists()


def test_the_odds_follow_the_modifier(client, party):
    campaign, ship, han, _ = party
    crew_station(_gm(campaign), _station(ship, "pilot"), han)
    client.force_login(han.owner)
    url = reverse("characters:craft_roll", args=[campaign.pk, ship.pk, _station(ship, "pilot").pk])
    plain = client.get(url).context["odds"]
    helped = client.get(url, {"actions": 1, "modifier": 10, "cp": 0}).context["odds"]
    assert helped[3].chance > plain[3].chance
