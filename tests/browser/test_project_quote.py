"""Issue 18's improvement quote: a player on his phone opens "Plan an improvement" from his
character's equipment, asks for Erisson's blaster (originally 4D, now 5D) at 5D+1 and sees the
Rules Companion's price as he types (5 skill points, 50 credits, a Difficult technology roll);
the GM, on a desktop, prices a party ship's maneuverability by the Rules Upgrade and asking
past its +1D+2 cap shows the reason."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.craft_services import create_craft
from characters.tests.factories import CharacterFactory, ItemFactory
from rules import DieCode
from rules.craft import CraftStats
from rules.scale import Scale
from tests.browser.helpers import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_a_player_plans_a_blaster_improvement_and_sees_the_quote_as_he_types(live_server, browser):
    campaign = CampaignFactory(
        name="Erisson's Run", rule_options={"equipment_improvement": "rc_skill_points"}
    )
    player = MembershipFactory(campaign=campaign).user
    hero = CharacterFactory(campaign=campaign, owner=player, name="Erisson")
    ItemFactory(character=hero, name="blaster pistol", damage="5D")
    base = live_server.url
    SHOTS.mkdir(exist_ok=True)

    page = log_in(browser, base, player, PHONE)
    page.goto(f"{base}{hero.get_absolute_url()}")
    page.get_by_role("link", name="Plan an improvement of a weapon or armour").click()
    expect(page.get_by_role("heading", name="Plan an improvement")).to_be_visible()
    page.get_by_label("Stock value").fill("4D")
    page.get_by_label("New value").fill("5D+1")
    quote = page.locator("#quote")
    expect(quote.locator(".quote-sp")).to_have_text("5")
    expect(quote.locator(".quote-credits")).to_have_text("50")
    expect(quote).to_contain_text("Difficult technology")
    expect(quote).to_contain_text("Show this quote to your GM")
    page.screenshot(path=str(SHOTS / "project-quote-phone.png"), full_page=True)


def test_the_gm_asks_past_the_cap_on_a_party_ship_and_is_told_why(live_server, browser):
    campaign = CampaignFactory(name="Stellar Envoy")
    block = CraftStats(
        name="Stellar Envoy",
        kind="starship",
        scale=Scale.STARFIGHTER,
        maneuverability=DieCode(1, 1),
        hull=DieCode(4),
    )
    craft = create_craft(campaign, block, party=True)
    base = live_server.url
    SHOTS.mkdir(exist_ok=True)

    page = log_in(browser, base, campaign.created_by, DESKTOP)
    page.goto(f"{base}{craft.get_absolute_url()}")
    page.get_by_role("link", name="Plan an improvement").click()
    page.get_by_label("Improve").select_option("maneuverability")
    page.get_by_label("Original value in credits").fill("100000")
    page.get_by_label("Stock value").fill("1D")
    page.get_by_label("New value").fill("2D")
    quote = page.locator("#quote")
    expect(quote.locator(".quote-credits")).to_have_text("25,000")  # +2: 10%, +1D: 15%
    page.get_by_label("New value").fill("3D")
    expect(quote).to_contain_text("No system may be improved more than +1D+2 above stock")
    page.screenshot(path=str(SHOTS / "project-quote-desktop-refused.png"), full_page=True)
    page.get_by_label("New value").fill("2D")
    expect(quote.locator(".quote-credits")).to_have_text("25,000")
    page.screenshot(path=str(SHOTS / "project-quote-desktop.png"), full_page=True)
