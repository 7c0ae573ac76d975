"""Ships in Chromium (issue 18): the GM adds a freighter for the party from the catalogue and
seats a player's character as pilot; the player opens the ship sheet and rolls piloting with
the odds shown first. Screenshots of the list and the sheet at phone and desktop widths go to
/tmp/ship-shots/ (looked at by hand)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from characters.models import DiceRoll
from characters.tests.factories import CharacterFactory, SkillFactory
from tests.browser.helpers import PASSWORD, WIDTHS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/tmp/ship-shots")


def test_gm_adds_a_party_ship_and_a_player_rolls_piloting(browser, live_server):
    han = CharacterFactory(name="Han")
    SkillFactory(character=han, name="capital ship piloting", attribute="mechanical", code="4D")
    campaign = han.campaign
    for user in (han.owner, campaign.created_by):
        user.set_password(PASSWORD)
        user.save()
    base = live_server.url
    SHOTS.mkdir(exist_ok=True)

    gm = log_in(browser, base, campaign.created_by, WIDTHS["desktop"])
    gm.goto(f"{base}/campaigns/{campaign.pk}/")
    gm.get_by_role("link", name="Ships and vehicles").click()
    gm.get_by_label("Search").fill("corvette")
    gm.get_by_role("button", name="Filter").click()
    gm.get_by_label("From the catalogue").select_option("Corellian Corvette")
    gm.get_by_label("Name", exact=True).fill("Tantive IV")
    gm.get_by_label("Owned by").select_option("party")
    gm.get_by_role("button", name="Add").click()
    expect(gm.get_by_role("heading", name="Tantive IV")).to_be_visible()
    gm.get_by_label("Crew member for Pilot").select_option(str(han.pk))
    gm.locator("tr", has=gm.get_by_label("Crew member for Pilot")).get_by_role(
        "button", name="Set"
    ).click()
    expect(gm.get_by_text("Crew station updated.")).to_be_visible()

    for width, viewport in WIDTHS.items():
        page = log_in(browser, base, han.owner, viewport)
        page.goto(f"{base}/campaigns/{campaign.pk}/craft/")
        expect(page.get_by_role("link", name="Tantive IV")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"list-{width}.png"), full_page=True)
        page.get_by_role("link", name="Tantive IV").click()
        expect(page.get_by_text("Turbolaser", exact=False).first).to_be_visible()
        page.screenshot(path=str(SHOTS / f"sheet-{width}.png"), full_page=True)
        page.get_by_role("link", name="Roll for Pilot").click()
        expect(page.locator("#combined-code")).to_have_text("6D")  # 4D + maneuverability 2D
        expect(page.locator(".odds-table")).to_contain_text("Moderate")
        page.get_by_label("Modifier").fill("30")  # the odds follow as the player types
        expect(page.locator(".odds-table tr").last).to_contain_text(">99%")
        page.get_by_label("Modifier").fill("0")
        expect(page.locator(".odds-table tr").last).to_contain_text("<1%")
        page.get_by_role("button", name="Roll").click()
        expect(page.locator(".roll-total")).to_be_visible()
        page.screenshot(path=str(SHOTS / f"roll-{width}.png"), full_page=True)
    gm.goto(f"{base}/campaigns/{campaign.pk}/craft/")
    gm.screenshot(path=str(SHOTS / "list-gm-desktop.png"), full_page=True)
    gm.get_by_role("link", name="New stat block").click()
    gm.screenshot(path=str(SHOTS / "new-gm-desktop.png"), full_page=True)
    assert DiceRoll.objects.filter(character=han, label="Tantive IV: piloting").count() == 2
