"""Repairs of a craft's damage (issue 18; droids-and-equipment.md §5): the quote from the
campaign's repair tables before anyone commits (E23-E28 through the quote service the sheet
uses), a request by the owner's player or the GM, and the engineer's roll that settles it:
success removes the damage and debits the payer's credits through the ledger in the same
transaction; failure keeps the damage and costs nothing."""

import pytest
from django.urls import reverse

from campaigns.tests.factories import MembershipFactory
from characters.craft_damage import (
    cancel_repair,
    repair_quote,
    request_repair,
    resolve_repair,
)
from characters.craft_models import Craft, RepairRequest
from characters.craft_services import CraftRefused, create_craft, crew_station
from characters.models import Character, DiceRoll, LedgerEntry
from characters.tests.factories import CharacterFactory, SkillFactory
from rules import RuleSet
from rules.craft import CraftState, CraftStats, CraftWeapon
from rules.dice import DieCode, FixedDice
from rules.difficulty import DIFFICULT, MODERATE, VERY_DIFFICULT
from rules.scale import Scale

UPG = RuleSet()
HOUSE = UPG.replace(repair_tables="house")
SHIP = CraftStats(
    name="Stellar Envoy",
    kind="starship",
    scale=Scale.STARFIGHTER,
    maneuverability=DieCode(4),
    space=4,
    hull=DieCode(4),
    shields=DieCode(4),
    hyperdrive=2.0,
    piloting_skill="space transports",
    weapons=(CraftWeapon("Laser cannon", fire_control=DieCode(2), damage=DieCode(4)),),
)


@pytest.fixture
def crew(db):
    """A party freighter worth 100,000 credits; Han (a player's) at the engineer station,
    with space transports repair 5D and 20,000 credits."""
    han = CharacterFactory(name="Han", credits=20_000)
    SkillFactory(character=han, name="space transports repair", attribute="technical", code="5D")
    ship = create_craft(han.campaign, SHIP, party=True, value=100_000)
    engineer = ship.stations.get(role="engineer")
    crew_station(_gm(han.campaign), engineer, han)
    return ship, han


def _gm(campaign):
    return campaign.memberships.get(user=campaign.created_by)


def _member(character):
    return character.campaign.memberships.get(user=character.owner)


def _damage(craft, **fields):
    state = CraftState(damage=fields.pop("damage", "lightly"), **fields)
    Craft.objects.filter(pk=craft.pk).update(damage=state.to_json())
    craft.refresh_from_db()


def _campaign_rules(craft, ruleset):
    campaign = craft.campaign
    campaign.set_ruleset(ruleset)
    campaign.save()


# --- the quote: E23-E28 -----------------------------------------------------------------------
def test_e23_repairing_minus_2d_maneuverability_on_a_100000_credit_ship(crew):
    ship, _ = crew
    _damage(ship, maneuverability_lost=2)
    quote = repair_quote(ship, "maneuverability", ruleset=UPG)
    assert (quote.need.difficulty, quote.cost) == (MODERATE, 15_000)


@pytest.mark.parametrize(("hired", "cost"), [(2, 30_000), (3, 45_000)])
def test_e23_hired_work_costs_double_or_triple(crew, hired, cost):
    ship, _ = crew
    _damage(ship, maneuverability_lost=2)
    assert repair_quote(ship, "maneuverability", ruleset=UPG, hired=hired).cost == cost


@pytest.mark.parametrize(
    ("ruleset", "difficulty", "percent"),
    [(UPG, DIFFICULT, 20), (HOUSE, VERY_DIFFICULT, 30)],
    ids=["E24-upg", "E24-house"],
)
def test_e24_repairing_minus_4d_maneuverability_by_the_campaigns_tables(
    crew, ruleset, difficulty, percent
):
    ship, _ = crew
    _damage(ship, maneuverability_lost=4)
    quote = repair_quote(ship, "maneuverability", ruleset=ruleset)
    assert (quote.need.difficulty, quote.need.percent) == (difficulty, percent)


def test_e24_the_house_table_is_the_campaigns_option_on_a_request(crew):
    ship, han = crew
    _campaign_rules(ship, HOUSE)
    _damage(ship, maneuverability_lost=4)
    han.credits = 50_000
    han.save()
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    assert (repair.difficulty, repair.cost) == ("Very Difficult", 30_000)


def test_e25_repairing_minus_4d_shields_is_very_difficult_at_10_percent(crew):
    ship, _ = crew
    _damage(ship, shield_dice_lost=4)
    quote = repair_quote(ship, "shields", ruleset=UPG)
    assert (quote.need.difficulty, quote.cost) == (VERY_DIFFICULT, 10_000)


def test_e26_a_heavily_damaged_laser_cannon_costs_25_percent_of_the_weapon(crew):
    ship, _ = crew
    _damage(ship, damage="heavily", weapon_damage=("arc_disabled",))
    quote = repair_quote(ship, "weapon:0", ruleset=UPG, weapon_value=2_000)
    assert (quote.need.difficulty, quote.cost) == (MODERATE, 500)


def test_e27_replacing_a_destroyed_drive_is_difficult_at_35_percent(crew):
    ship, _ = crew
    _campaign_rules(ship, UPG.replace(lost_moves_5="drive_destroyed"))
    _damage(ship, damage="heavily", moves_lost=5)
    quote = repair_quote(ship, "moves", ruleset=ship.campaign.ruleset)
    assert (quote.need.difficulty, quote.need.percent, quote.cost) == (DIFFICULT, 35, 35_000)


def test_e28_the_first_repair_roll_comes_after_15_minutes_of_work(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=1)
    assert repair_quote(ship, "maneuverability", ruleset=UPG).need.first_roll_minutes == 15
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    assert repair.minutes == 15


def test_a_hyperdrive_repair_takes_an_hour_at_the_gms_cost(crew):
    ship, _ = crew
    _damage(ship, hyperdrive="damaged")
    repair = request_repair(_gm(ship.campaign), ship, "hyperdrive", payer=None, gm_cost=0)
    assert (repair.difficulty, repair.minutes, repair.cost) == ("Moderate", 60, 0)


def test_the_sheet_shows_the_quote_before_anyone_commits(client, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=2)
    client.force_login(han.owner)
    page = client.get(ship.get_absolute_url()).content.decode()
    assert "Repair: Moderate, 15% of the craft's value = 15000 credits" in page
    assert "first roll after 15 minutes of work" in page
    assert RepairRequest.objects.count() == 0


# --- asking for a repair ------------------------------------------------------------------------
def test_a_player_asks_for_a_repair_of_the_party_ship(client, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=1)
    client.force_login(han.owner)
    url = reverse("characters:craft_repair", args=[ship.campaign.pk, ship.pk])
    response = client.post(url, {"entry": "maneuverability", "hired": "1", "payer": han.pk})
    assert response.status_code == 302
    repair = RepairRequest.objects.get()
    assert (repair.status, repair.difficulty, repair.cost, repair.payer) == (
        "open",
        "Easy",
        10_000,
        han,
    )


def test_asking_without_enough_credits_is_refused_and_nothing_is_stored(client, crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=3)  # Difficult, 20%: 20,000
    Character.objects.filter(pk=han.pk).update(credits=19_999)
    client.force_login(han.owner)
    url = reverse("characters:craft_repair", args=[ship.campaign.pk, ship.pk])
    response = client.post(url, {"entry": "maneuverability", "hired": "1", "payer": han.pk})
    assert response.status_code == 400
    assert "not enough Credits" in response.content.decode()
    assert RepairRequest.objects.count() == 0


def test_nothing_to_repair_is_refused(crew):
    ship, han = crew
    with pytest.raises(CraftRefused, match="no such damage"):
        request_repair(_member(han), ship, "maneuverability", payer=han)


def test_a_player_cannot_ask_for_repairs_of_another_players_ship(crew):
    ship, han = crew
    other = CharacterFactory(campaign=ship.campaign, name="Lando")
    own = create_craft(ship.campaign, SHIP, owner_character=other, value=1_000)
    _damage(own, maneuverability_lost=1)
    with pytest.raises(CraftRefused, match="not yours"):
        request_repair(_member(han), own, "maneuverability", payer=han)
    assert RepairRequest.objects.count() == 0


def test_a_player_pays_only_with_his_own_character(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=1)
    lando = CharacterFactory(campaign=ship.campaign, credits=99_999)
    with pytest.raises(CraftRefused, match="your own character"):
        request_repair(_member(han), ship, "maneuverability", payer=lando)


def test_a_destroyed_weapon_is_not_repaired_but_replaced(crew):
    ship, han = crew
    _damage(ship, weapon_damage=("one_destroyed",))
    with pytest.raises(CraftRefused, match="replace it"):
        request_repair(_member(han), ship, "weapon:0", payer=han, weapon_value=2_000)


def test_a_weapon_repair_needs_the_weapons_cost(crew):
    ship, han = crew
    _damage(ship, weapon_damage=("one_lightly_damaged",))
    with pytest.raises(CraftRefused, match="weapon's original cost"):
        request_repair(_member(han), ship, "weapon:0", payer=han)


def test_without_the_crafts_value_the_gm_must_set_it_first(crew):
    ship, han = crew
    Craft.objects.filter(pk=ship.pk).update(value=None)
    ship.refresh_from_db()
    _damage(ship, maneuverability_lost=1)
    with pytest.raises(CraftRefused, match="original value is not known"):
        request_repair(_member(han), ship, "maneuverability", payer=han)


def test_one_open_request_per_damage(crew):
    ship, han = crew
    _damage(ship, maneuverability_lost=1)
    request_repair(_member(han), ship, "maneuverability", payer=han)
    with pytest.raises(CraftRefused, match="already has an open repair"):
        request_repair(_member(han), ship, "maneuverability", payer=han)


# --- resolving it -----------------------------------------------------------------------------
def _open(ship, han, entry="maneuverability", **state):
    _damage(ship, **state)
    return request_repair(_member(han), ship, entry, payer=han)


def test_a_successful_repair_removes_the_damage_and_debits_the_credits(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=2)  # Moderate, 15,000
    done = resolve_repair(_member(han), repair, rng=FixedDice([4, 4, 4, 4, 4]))
    assert done.status == "done" and done.roll.total == 20 and done.roll.difficulty == 15
    assert Craft.objects.get(pk=ship.pk).damage is None
    han.refresh_from_db()
    assert han.credits == 5_000
    entry = LedgerEntry.objects.get(character=han, currency="credits")
    assert (entry.delta, entry.roll) == (-15_000, done.roll)
    assert done.roll.label == "Stellar Envoy: repair maneuverability -2D (4D → 2D)"
    assert done.roll.dice["skill"] == "space transports repair"


def test_a_failed_repair_keeps_the_damage_and_costs_nothing(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=2)
    done = resolve_repair(_member(han), repair, rng=FixedDice([1, 1, 1, 1, 2]))
    assert done.status == "failed" and "15 more minutes" in done.note
    assert Craft.objects.get(pk=ship.pk).damage_state.maneuverability_lost == 2
    han.refresh_from_db()
    assert han.credits == 20_000
    assert DiceRoll.objects.count() == 1  # the roll is kept


def test_only_the_repaired_result_goes(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1, moves_lost=1)
    resolve_repair(_member(han), repair, rng=FixedDice([6, 6, 6, 6, 3]))
    state = Craft.objects.get(pk=ship.pk).damage_state
    assert (state.damage, state.maneuverability_lost, state.moves_lost) == ("lightly", 0, 1)


def test_the_gm_sets_a_difficulty_number_within_the_level(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)  # Easy: 6-10
    with pytest.raises(CraftRefused, match="from 6 to 10"):
        resolve_repair(_gm(ship.campaign), repair, difficulty=15, rng=FixedDice([6] * 5))
    done = resolve_repair(_gm(ship.campaign), repair, difficulty=6, rng=FixedDice([1, 1, 1, 1, 2]))
    assert done.roll.difficulty == 6 and done.status == "done"


def test_credits_spent_since_the_request_refuse_the_roll_and_change_nothing(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=2)
    Character.objects.filter(pk=han.pk).update(credits=100)
    with pytest.raises(CraftRefused, match="not enough Credits"):
        resolve_repair(_member(han), repair, rng=FixedDice([6] * 5))
    assert DiceRoll.objects.count() == 0
    assert RepairRequest.objects.get().status == "open"
    assert Craft.objects.get(pk=ship.pk).damage_state.maneuverability_lost == 2


def test_a_player_who_is_not_the_engineer_cannot_resolve(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)
    leia = CharacterFactory(campaign=ship.campaign, name="Leia")
    with pytest.raises(CraftRefused, match="engineer's player"):
        resolve_repair(_member(leia), repair, rng=FixedDice([6] * 5))
    assert DiceRoll.objects.count() == 0


def test_without_an_engineer_the_repair_waits(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)
    ship.stations.filter(role="engineer").update(character=None)
    with pytest.raises(CraftRefused, match="engineer station"):
        resolve_repair(_gm(ship.campaign), repair, rng=FixedDice([6] * 5))


def test_damage_changed_since_the_request_is_refused(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)
    _damage(ship, maneuverability_lost=2)
    with pytest.raises(CraftRefused, match="changed since"):
        resolve_repair(_member(han), repair, rng=FixedDice([6] * 5))


def test_without_the_repair_skill_the_engineer_rolls_technical(crew):
    ship, han = crew
    han.skills.all().delete()
    repair = _open(ship, han, maneuverability_lost=1)
    done = resolve_repair(_member(han), repair, rng=FixedDice([3, 3, 3]))
    assert done.roll.code == "2D+2"


def test_a_resolved_repair_is_not_rolled_twice(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)
    resolve_repair(_member(han), repair, rng=FixedDice([1, 1, 1, 1, 2]))
    with pytest.raises(CraftRefused, match="failed already"):
        resolve_repair(_member(han), repair, rng=FixedDice([6] * 5))


def test_the_asker_cancels_an_open_repair(crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)
    leia = CharacterFactory(campaign=ship.campaign)
    with pytest.raises(CraftRefused):
        cancel_repair(_member(leia), repair)
    cancel_repair(_member(han), repair)
    assert RepairRequest.objects.get().status == "cancelled"


def test_the_engineers_player_rolls_from_the_sheet(client, crew, monkeypatch):
    from characters import craft_views

    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)
    monkeypatch.setattr(craft_views, "dice", lambda: FixedDice([4] * 5))
    client.force_login(han.owner)
    url = reverse("characters:craft_repair_resolve", args=[ship.campaign.pk, ship.pk, repair.pk])
    page = client.post(url, {"difficulty": ""}, follow=True).content.decode()
    assert "Repair roll 20 vs 10" in page and "repaired" in page
    assert "No damage." in page


def test_another_player_cannot_roll_the_repair_from_the_sheet(client, crew):
    ship, han = crew
    repair = _open(ship, han, maneuverability_lost=1)
    stranger = MembershipFactory(campaign=ship.campaign).user
    client.force_login(stranger)
    url = reverse("characters:craft_repair_resolve", args=[ship.campaign.pk, ship.pk, repair.pk])
    assert client.post(url, {}).status_code == 403
    assert RepairRequest.objects.get().status == "open"


def test_e29_a_rushed_hyperdrive_repair_takes_half_the_hour_and_rolls_half_the_skill(crew):
    """E29: Danik, starship repair 6D, a Moderate repair of an hour, rushed: half an hour at
    3D (here space transports repair 6D on the hyperdrive)."""
    ship, han = crew
    han.skills.filter(name="space transports repair").update(code=DieCode(6))
    _damage(ship, hyperdrive="damaged")
    repair = request_repair(_gm(ship.campaign), ship, "hyperdrive", payer=None, gm_cost=0)
    assert (repair.difficulty, repair.minutes) == ("Moderate", 60)
    done = resolve_repair(_member(han), repair, pace="rushed", rng=FixedDice([4, 4, 4]))
    roll = done.roll
    assert roll.code == "3D" and roll.total == 12
    assert (roll.dice["pace"], roll.dice["minutes"]) == ("rushed", 30)
    assert roll.label.endswith("(rushed)")


def test_a_prepared_repair_is_refused_under_the_rules_companion(crew):
    ship, han = crew
    _campaign_rules(ship, RuleSet.preset("rc"))
    _damage(ship, maneuverability_lost=1)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    with pytest.raises(CraftRefused, match="repairs cannot be prepared for"):
        resolve_repair(_member(han), repair, pace="prepared", rng=FixedDice([4] * 6))
    assert RepairRequest.objects.get(pk=repair.pk).status == RepairRequest.Status.OPEN


def test_e34_five_at_3d_under_time_pressure_three_may_combine_for_3d_plus_6(crew):
    """E34 [RC]: Erisson and four companions (repair 3D each) on one repair: at most 3 may
    combine (the highest skill's dice); with two helpers the engineer rolls 3D + 2 × 3 pips."""
    ship, han = crew
    _campaign_rules(ship, RuleSet.preset("rc"))
    han.skills.filter(name="space transports repair").update(code=DieCode(3))
    friends = [CharacterFactory(campaign=ship.campaign, name=f"Friend {n}") for n in range(4)]
    for friend in friends:
        SkillFactory(
            character=friend, name="space transports repair", attribute="technical", code="3D"
        )
    _damage(ship, maneuverability_lost=1)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    with pytest.raises(CraftRefused, match="at most 3 may combine on this work"):
        resolve_repair(_gm(ship.campaign), repair, helpers=friends, rng=FixedDice([4] * 9))
    assert RepairRequest.objects.get(pk=repair.pk).status == RepairRequest.Status.OPEN
    done = resolve_repair(_gm(ship.campaign), repair, helpers=friends[:2], rng=FixedDice([4] * 3))
    assert done.roll.code == "3D+6" and done.roll.total == 18


def test_second_edition_combined_repairs_need_a_command_roll(crew):
    ship, han = crew
    helper = CharacterFactory(campaign=ship.campaign, name="Helper")
    _damage(ship, maneuverability_lost=1)
    repair = request_repair(_member(han), ship, "maneuverability", payer=han)
    with pytest.raises(CraftRefused, match="needs a command roll"):
        resolve_repair(_gm(ship.campaign), repair, helpers=[helper], rng=FixedDice([4] * 9))


def test_e34_the_crew_helps_from_the_sheet_and_e29_the_work_is_rushed(client, crew, monkeypatch):
    from characters import craft_views

    ship, han = crew
    _campaign_rules(ship, RuleSet.preset("rc"))
    han.skills.filter(name="space transports repair").update(code=DieCode(3))
    pilot = CharacterFactory(campaign=ship.campaign, name="Pilot")
    SkillFactory(character=pilot, name="space transports repair", attribute="technical", code="3D")
    crew_station(_gm(ship.campaign), ship.stations.get(role="pilot"), pilot)
    repair = _open(ship, han, maneuverability_lost=1)
    client.force_login(ship.campaign.created_by)
    page = client.get(ship.get_absolute_url()).content.decode()
    assert f'name="helpers" value="{pilot.pk}"' in page
    assert 'value="prepared"' not in page  # the Rules Companion forbids preparing for repairs
    monkeypatch.setattr(craft_views, "dice", lambda: FixedDice([4] * 3))
    url = reverse("characters:craft_repair_resolve", args=[ship.campaign.pk, ship.pk, repair.pk])
    client.post(url, {"difficulty": "", "pace": "rushed", "helpers": [str(pilot.pk)]})
    roll = RepairRequest.objects.get(pk=repair.pk).roll
    assert roll.code == "2D"  # 3D + 1 helper's 3 pips = 3D+3 (12 pips), rushed: halved
    assert roll.dice["helpers"] == [pilot.pk]
