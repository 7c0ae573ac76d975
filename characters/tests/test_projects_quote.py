"""Improvement quotes (issue 18, groundwork for issue 19's projects): the worked examples of
droids-and-equipment.md §10 (E1-E10, E19-E22, E36, E37) through the quote service the "Plan an
improvement" pages use, and what it refuses with the reason. The pages: test_project_views.py.
"""

import pytest

from campaigns.tests.factories import CampaignFactory
from characters.craft_models import Craft
from characters.craft_services import catalogue, create_craft
from characters.models import Item
from characters.projects_quote import QuoteRefused, quote_craft, quote_item
from characters.tests.factories import ItemFactory
from rules import DieCode
from rules.craft import CraftStats, CraftWeapon
from rules.difficulty import DIFFICULT, EASY, HEROIC, MODERATE, VERY_DIFFICULT, VERY_EASY
from rules.ruleset import RuleSet
from rules.scale import Scale

pytestmark = pytest.mark.django_db

RC = RuleSet(equipment_improvement="rc_skill_points")
UPG = RuleSet()  # the default: the Rules Upgrade's percentages


def weapon(damage="4D", **extra):
    return ItemFactory(name="blaster pistol", damage=damage, **extra)


def armour(physical="1D", energy=None):
    return ItemFactory(
        name="blast vest",
        kind=Item.Kind.ARMOUR,
        damage=None,
        skill="",
        ranges="",
        armour_physical=physical,
        armour_energy=energy,
    )


def craft(campaign=None, *, scale=Scale.STARFIGHTER, kind="starship", **stats):
    campaign = campaign or CampaignFactory()
    codes = {k: DieCode.parse(v) if isinstance(v, str) else v for k, v in stats.items()}
    block = CraftStats(name="Test craft", kind=kind, scale=scale, **codes)
    return create_craft(campaign, block, party=True)


def steps(quote):
    return [
        (s.before, s.after, s.difficulty, s.skill_points, s.credits)
        for part in quote.parts
        for s in part.steps
    ]


# --- [RC] skill points (E1-E10, E37) -----------------------------------------------------------
def test_e1_erissons_blaster_originally_4d_now_5d_to_5d1_is_a_difficult_4th_pip():
    quote = quote_item(weapon("5D"), "damage", target="5D+1", original="4D", ruleset=RC)
    assert steps(quote) == [("5D", "5D+1", DIFFICULT, 5, 50)]
    assert (quote.skill_points, quote.credits, quote.days) == (5, 50, 1)


def test_e2_blaster_damage_4d_to_4d1_costs_4_skill_points_40_credits_a_day():
    quote = quote_item(weapon("4D"), "damage", target="4D+1", ruleset=RC)
    assert steps(quote) == [("4D", "4D+1", VERY_EASY, 4, 40)]
    assert quote.days == 1


def test_e3_armour_1d_to_1d1_costs_4_skill_points_an_additive_code():
    quote = quote_item(armour("1D"), "armour_physical", target="1D+1", ruleset=RC)
    assert quote.skill_points == 4


def test_e4_armour_1d_to_1d2_with_the_dexterity_penalty_erased_costs_16_skill_points():
    quote = quote_item(
        armour("1D"), "armour_physical", target="1D+2", erase_dexterity=True, ruleset=RC
    )
    assert [s[2:4] for s in steps(quote)] == [
        (VERY_EASY, 4),
        (EASY, 4),  # armour
        (VERY_EASY, 4),
        (EASY, 4),  # Dexterity enhancement
    ]
    assert (quote.skill_points, quote.credits, quote.days) == (16, 160, 4)
    assert [p.label for p in quote.parts] == ["Armour (physical)", "Dexterity enhancement"]


@pytest.mark.parametrize(
    ("now", "goal", "skill_points"),
    [("x4", "x3", 5), ("x3", "x2", 10), ("x2", "x1", 20), ("x1", "x1/2", 40)],
)
def test_e5_hyperdrive_changes_cost_5_10_20_40_skill_points(now, goal, skill_points):
    hyperdrive = {"x4": 4.0, "x3": 3.0, "x2": 2.0, "x1": 1.0}[now]
    ship = craft(hyperdrive=hyperdrive)
    assert quote_craft(ship, "hyperdrive", target=goal, ruleset=RC).skill_points == skill_points


def test_e6_an_npc_takes_a_starfighters_hyperdrive_from_x2_to_x1_for_20000_credits():
    ship = craft(hyperdrive=2.0)
    quote = quote_craft(ship, "hyperdrive", target="x1", labour="hired", ruleset=RC)
    assert (quote.skill_points, quote.credits) == (20, 20_000)


def test_e7_a_new_weapon_with_1d_fire_control_and_1d_damage_costs_9_skill_points():
    quote = quote_craft(craft(), "add_weapon", ruleset=RC)
    assert quote.skill_points == 9


@pytest.mark.parametrize(
    ("scale", "fee"),
    [(Scale.STARFIGHTER, 6_000), (Scale.SPEEDER, 1_500), (Scale.CAPITAL, 10_000_000)],
)
def test_e8_installing_a_bought_weapon_in_a_craft_costs_price_fee_and_9_skill_points(scale, fee):
    kind = "vehicle" if scale == Scale.SPEEDER else "starship"
    ship = craft(scale=scale, kind=kind)
    quote = quote_craft(ship, "add_weapon", purchased_price=2_000, ruleset=RC)
    assert (quote.credits, quote.skill_points) == (2_000 + fee, 9)


def test_e8_installing_a_bought_weapon_on_armour_costs_price_150_and_9_skill_points():
    quote = quote_item(armour(), "add_weapon", purchased_price=500, ruleset=RC)
    assert (quote.credits, quote.skill_points) == (650, 9)


def test_e9_pips_carry_into_dice_3d_improved_three_times_is_4d():
    quote = quote_item(weapon("3D"), "damage", target="4D", ruleset=RC)
    assert [s[1] for s in steps(quote)] == ["3D+1", "3D+2", "4D"]


def test_e9_adding_2d1_to_1d2_gives_4d():
    quote = quote_item(weapon("1D+2"), "damage", add="2D+1", ruleset=RC)
    assert steps(quote)[-1][1] == "4D"


def test_e10_a_stand_alone_0d_code_costs_1_skill_point_for_a_pip():
    quote = quote_item(weapon("0D"), "damage", target="0D+1", ruleset=RC)
    assert quote.skill_points == 1


def test_e10_an_additive_0d_code_costs_4_skill_points_for_a_pip():
    gun = CraftWeapon(name="Laser cannon", fire_control=DieCode(), damage=DieCode(4))
    ship = craft(weapons=(gun,))
    quote = quote_craft(ship, "fire_control", weapon=0, target="0D+1", ruleset=RC)
    assert quote.skill_points == 4


def test_e37_with_fee_or_sp_a_bought_weapon_costs_the_fee_or_9_skill_points():
    ruleset = RuleSet(equipment_improvement="rc_skill_points", rc_weapon_install="fee_or_sp")
    ship = craft()
    by_fee = quote_craft(ship, "add_weapon", purchased_price=2_000, ruleset=ruleset)
    assert (by_fee.credits, by_fee.skill_points) == (8_000, 0)
    assert by_fee.notes == ("Or install it yourself: 2,000 credits and 9 skill points.",)
    by_hand = quote_craft(
        ship, "add_weapon", purchased_price=2_000, install_method="skill_points", ruleset=ruleset
    )
    assert (by_hand.credits, by_hand.skill_points) == (2_000, 9)


# --- [UPG] percentages (E19-E22, E36) ----------------------------------------------------------
def test_e19_maneuverability_1d_to_1d2_on_a_100000_credit_craft_costs_15000_in_two_rolls():
    ship = craft(maneuverability="1D")
    quote = quote_craft(ship, "maneuverability", target="1D+2", item_value=100_000, ruleset=UPG)
    assert steps(quote) == [("1D", "1D+1", EASY, 0, 5_000), ("1D+1", "1D+2", MODERATE, 0, 10_000)]
    assert (quote.credits, quote.rolls) == (15_000, 2)
    assert quote.days == 70  # a roll a month (35 days), two rolls


@pytest.mark.parametrize(("multiplier", "credits"), [(2, 30_000), (3, 45_000)])
def test_e19_hired_labour_doubles_or_triples_it(multiplier, credits):
    ship = craft(maneuverability="1D")
    quote = quote_craft(
        ship,
        "maneuverability",
        target="1D+2",
        item_value=100_000,
        labour="hired",
        hired_multiplier=multiplier,
        ruleset=UPG,
    )
    assert quote.credits == credits


def test_e20_maneuverability_stock_1d_already_2d2_is_refused_another_pip_with_the_cap():
    ship = craft(maneuverability="2D+2")
    with pytest.raises(QuoteRefused, match=r"more than \+1D\+2 above stock"):
        quote_craft(
            ship, "maneuverability", original="1D", add="0D+1", item_value=100_000, ruleset=UPG
        )


def test_e21_hyperdrive_x2_to_x1_is_very_difficult_at_25_percent_and_may_be_damaged():
    ship = craft(hyperdrive=2.0)
    quote = quote_craft(ship, "hyperdrive", target="x1", item_value=100_000, ruleset=UPG)
    assert steps(quote) == [("x2", "x1", VERY_DIFFICULT, 0, 25_000)]
    assert any("damage it permanently" in w for w in quote.warnings)


def test_e22_vehicle_move_50_to_70_takes_four_steps_totalling_70_percent():
    speeder = craft(scale=Scale.SPEEDER, kind="vehicle", move=50)
    quote = quote_craft(speeder, "move", target=70, item_value=10_000, ruleset=UPG)
    assert [(s.after, s.difficulty, s.percent) for p in quote.parts for s in p.steps] == [
        ("55", MODERATE, 10),
        ("60", DIFFICULT, 15),
        ("65", VERY_DIFFICULT, 20),
        ("70", HEROIC, 25),
    ]
    assert quote.credits == 7_000


def test_e22_move_beyond_four_moves_is_refused():
    speeder = craft(scale=Scale.SPEEDER, kind="vehicle", move=70)
    with pytest.raises(QuoteRefused, match=r"more than \+20 above stock"):
        quote_craft(speeder, "move", original=50, add=5, item_value=10_000, ruleset=UPG)


def test_e36_read_cumulatively_the_same_upgrade_costs_10000():
    ruleset = RuleSet(upg_improve_cost="cumulative_total")
    ship = craft(maneuverability="1D")
    quote = quote_craft(ship, "maneuverability", target="1D+2", item_value=100_000, ruleset=ruleset)
    assert [s[4] for s in steps(quote)] == [5_000, 5_000]
    assert quote.credits == 10_000


def test_a_catalogue_craft_counts_its_cap_from_the_catalogues_stock_value():
    campaign = CampaignFactory()
    tie = catalogue()["TIE/rc starfighter"]  # maneuverability 2D+2 in the catalogue
    ship = create_craft(campaign, tie, catalogue_name=tie.name, party=True)
    quote = quote_craft(ship, "maneuverability", target="3D", item_value=60_000, ruleset=UPG)
    assert steps(quote)[0][2] == EASY  # the 1st step above stock
    # improved once already (stored at 3D+1): +2 above the catalogue's 2D+2
    ship.stats = {**ship.stats, "maneuverability": "3D+1"}
    ship.save()
    ship = Craft.objects.get(pk=ship.pk)
    quote = quote_craft(ship, "maneuverability", target="3D+2", item_value=60_000, ruleset=UPG)
    assert steps(quote)[0][2] == DIFFICULT


def test_the_quote_keeps_the_requests_a_project_starts_from():
    quote = quote_item(weapon("4D"), "damage", target="4D+1", ruleset=RC)
    assert quote.requests[0]["kind"] == "improve"
    assert quote.requests[0]["target"] == {"die_code": "4D+1"}


# --- refusals ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"target": "lots"}, "is not a die code"),
        ({"target": "4D"}, "not an improvement"),
        ({"target": "4D+1", "original": "5D"}, "below its original"),
        ({"target": "-1D"}, "negative"),
        ({"target": "99D"}, "30D at most"),
        ({}, "should become"),
        ({"add": "x"}, "is not a die code"),
        ({"target": "4D+1", "original": "nonsense"}, "is not a die code"),
    ],
)
def test_what_is_not_a_sensible_code_is_refused_with_the_reason(kwargs, message):
    with pytest.raises(QuoteRefused, match=message):
        quote_item(weapon("4D"), "damage", ruleset=RC, **kwargs)


def test_the_rules_upgrade_needs_the_items_value():
    with pytest.raises(QuoteRefused, match="original value"):
        quote_item(weapon("4D"), "damage", target="4D+1", ruleset=UPG)


def test_the_rules_upgrade_has_no_table_for_armour():
    with pytest.raises(QuoteRefused, match="no table for improving armour"):
        quote_item(armour(), "armour_physical", target="1D+1", item_value=100, ruleset=UPG)


def test_the_rules_companion_improves_no_move():
    speeder = craft(scale=Scale.SPEEDER, kind="vehicle", move=50)
    with pytest.raises(QuoteRefused, match="not a die code"):
        quote_craft(speeder, "move", target=55, ruleset=RC)


def test_a_craft_without_shields_has_none_to_improve():
    with pytest.raises(QuoteRefused, match="no shields to improve"):
        quote_craft(craft(), "shields", target="1D", ruleset=RC)


def test_a_weapon_the_craft_lacks_is_refused():
    with pytest.raises(QuoteRefused, match="no such weapon"):
        quote_craft(craft(), "damage", weapon=3, target="5D", ruleset=RC)


def test_a_weapon_cannot_be_added_to_a_blaster():
    with pytest.raises(QuoteRefused, match="added to armour"):
        quote_item(weapon(), "add_weapon", ruleset=RC)


def test_a_blasters_armour_is_not_improved():
    with pytest.raises(QuoteRefused, match="not armour"):
        quote_item(weapon(), "armour_physical", target="1D", ruleset=RC)


def test_hired_labour_at_four_times_the_price_is_refused():
    ship = craft(maneuverability="1D")
    with pytest.raises(QuoteRefused, match="double or triple"):
        quote_craft(
            ship,
            "maneuverability",
            target="1D+1",
            item_value=1,
            labour="hired",
            hired_multiplier=4,
            ruleset=UPG,
        )
