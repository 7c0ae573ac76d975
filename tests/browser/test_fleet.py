"""A fleet action in Chromium (issue 18, [RC] capital ship combat): the GM starts a battle,
brings in two of the campaign's capital ships and fires a battery with fixed dice; the Ship
Damage pips show on the target's template, and a player watching the battle sees them arrive
through the live poll. Screenshots at phone and desktop widths go to
/work/notes/shots/issue18/ (looked at by hand)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns.tests.factories import MembershipFactory
from characters.craft_models import Craft
from encounters import fleet_views
from rules import RuleSet
from rules.craft import capital_ships
from rules.dice import FixedDice
from tests.browser.helpers import PASSWORD, WIDTHS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/work/notes/shots/issue18")


def test_gm_fires_a_battery_and_a_player_sees_the_damage_pips(browser, live_server, monkeypatch):
    membership = MembershipFactory()
    campaign, player = membership.campaign, membership.user
    campaign.set_ruleset(RuleSet.preset("rc"))
    campaign.save()
    stats = {s.name: s for s in capital_ships()}
    for name, catalogue in (
        ("Home One", "Mon Cal Cruiser"),
        ("Devastator", "Imperial Star Destroyer I"),
    ):
        Craft.objects.create(campaign=campaign, name=name, stats=stats[catalogue].to_json())
    for user in (player, campaign.created_by):
        user.set_password(PASSWORD)
        user.save()
    # The Devastator's evasion 5D+2 (ones: 7), to hit 8D+3 (sixes), damage 6D+1 (sixes: 37),
    # hull 7D (ones: 7): 37 is five times 7, five pips of Ship Damage.
    faces = [1] * 5 + [6] * 8 + [6] * 6 + [1] * 7
    monkeypatch.setattr(fleet_views, "dice", lambda: FixedDice(faces))
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)

    gm = log_in(browser, base, campaign.created_by, WIDTHS["desktop"])
    gm.goto(f"{base}/campaigns/{campaign.pk}/encounters/fleet/")
    gm.get_by_label("Name").fill("Battle of Endor")
    gm.get_by_role("button", name="Start").click()
    expect(gm.get_by_role("heading", name="Battle of Endor")).to_be_visible()
    for name, side in (("Home One", "Rebel"), ("Devastator", "Imperial")):
        gm.get_by_label("Capital ship").select_option(label=name)
        gm.get_by_label("Side").fill(side)
        gm.get_by_label("Crew code").fill("4D+2")
        gm.get_by_role("button", name="Add to the battle").click()
        expect(gm.locator(".ship-template", has_text=name)).to_be_visible()

    watchers = {
        width: log_in(browser, base, player, viewport) for width, viewport in WIDTHS.items()
    }
    for page in watchers.values():
        page.goto(gm.url)
        expect(page.get_by_text("Devastator").first).to_be_visible()
        expect(page.get_by_role("heading", name="GM controls")).to_have_count(0)

    gm.get_by_label("Ship", exact=True).first.select_option(label="Home One (Rebel)")
    gm.get_by_label("Battery", exact=True).fill("1")
    gm.get_by_label("Guns firing").fill("12")
    gm.get_by_label("Target", exact=True).select_option(label="Devastator (Imperial)")
    gm.get_by_role("button", name="Fire", exact=True).click()
    devastator = gm.locator(".ship-template", has_text="Devastator")
    expect(devastator.get_by_label("5 of 9 pips of Ship Damage")).to_be_visible()
    expect(devastator).to_contain_text("heavily damaged")
    expect(gm.locator(".pip.hit")).to_have_count(5)
    gm.screenshot(path=str(SHOTS / "fleet-gm-desktop.png"), full_page=True)

    for width, page in watchers.items():  # no reload: the poll brings the new templates
        target = page.locator(".ship-template", has_text="Devastator")
        expect(target.get_by_label("5 of 9 pips of Ship Damage")).to_be_visible(timeout=10_000)
        expect(page.locator("#fleet-log")).to_contain_text("5 pip(s) of damage")
        page.screenshot(path=str(SHOTS / f"fleet-player-{width}.png"), full_page=True)
