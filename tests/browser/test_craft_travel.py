"""A craft's travel page in Chromium (issue 18), in a Rules Companion campaign with uncertainty
dice: a player whose character pilots the party ship opens the page from the ship sheet, sees
the odds of his movement roll, declares 2 speed actions and rolls (dice seeded), and sees how
far he got; he rolls astrogation with the GM's uncertainty dice and sees only his own total;
the GM sees the hidden dice and the outcome. Screenshots at phone and desktop widths go to
/work/notes/shots/issue18/ (looked at by hand)."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from characters import craft_travel, services
from characters.craft_services import create_craft
from characters.models import DiceRoll
from characters.tests.factories import CharacterFactory, SkillFactory
from rules import RuleSet, SeededDice, roll
from rules.craft import CraftStats
from rules.dice import DieCode
from rules.scale import Scale
from tests.browser.helpers import PASSWORD, WIDTHS, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/work/notes/shots/issue18")
SEED = 1138
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
    shields=DieCode(1, 0),
    piloting_skill="space transports",
)


def test_pilot_rolls_speed_actions_and_only_the_gm_sees_the_uncertainty_dice(
    browser, live_server, monkeypatch
):
    monkeypatch.setattr(services, "SystemDice", lambda: SeededDice(SEED))
    monkeypatch.setattr(craft_travel, "SystemDice", lambda: SeededDice(SEED))
    han = CharacterFactory(name="Han")
    SkillFactory(character=han, name="space transports", attribute="mechanical", code="4D+2")
    SkillFactory(character=han, name="astrogation", attribute="mechanical", code="5D")
    campaign = han.campaign
    campaign.set_ruleset(RC)
    campaign.save()
    ship = create_craft(campaign, FREIGHTER, party=True)
    ship.stations.filter(role="pilot").update(character=han)
    for user in (han.owner, campaign.created_by):
        user.set_password(PASSWORD)
        user.save()
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)
    # 4D+2 + sublight 3D, two speed actions: 1D off -> 6D+2, no Wild Die in this campaign.
    expected = roll("7D+2", ruleset=RC, rng=SeededDice(SEED), actions=2).total

    for width, viewport in WIDTHS.items():
        page = log_in(browser, base, han.owner, viewport)
        page.goto(f"{base}/campaigns/{campaign.pk}/craft/{ship.pk}/")
        page.get_by_role("link", name="Travel and movement").click()
        expect(
            page.get_by_role("heading", name="Stellar Envoy: travel and movement")
        ).to_be_visible()
        expect(page.locator("#max-speed-actions")).to_have_text("3")
        page.get_by_label("Speed actions", exact=True).fill("2")
        page.get_by_label("Movement difficulty").fill("10")
        expect(page.locator("#movement-pool")).to_have_text("6D+2")  # the odds follow the form
        expect(page.locator("#movement-chance")).to_contain_text("%")
        page.screenshot(path=str(SHOTS / f"travel-{width}.png"), full_page=True)
        page.get_by_role("button", name="Roll movement").click()
        expect(page.locator("#movement-result .roll-total")).to_have_text(str(expected))
        outcome = "covers" if expected >= 10 else "not taken"
        expect(page.locator("#movement-result")).to_contain_text(outcome)
        page.screenshot(path=str(SHOTS / f"travel-moved-{width}.png"), full_page=True)

    page.get_by_label("Astrogation difficulty").fill("13")
    page.get_by_label("GM's uncertainty dice").select_option("3")
    page.get_by_role("button", name="Roll astrogation").click()
    expect(page.locator("#astrogation-total")).to_be_visible()
    expect(page.locator("#astrogation-result")).to_contain_text("the GM knows how it went")
    expect(page.locator("#uncertainty-result")).to_have_count(0)
    page.screenshot(path=str(SHOTS / "travel-astrogation-player-desktop.png"), full_page=True)

    gm = log_in(browser, base, campaign.created_by, WIDTHS["desktop"])
    gm.goto(f"{base}/campaigns/{campaign.pk}/craft/{ship.pk}/travel/")
    expect(gm.locator("#uncertainty-result")).to_contain_text("GM only")
    gm.locator("#astrogation").screenshot(path=str(SHOTS / "travel-astrogation-gm-desktop.png"))
    hidden = DiceRoll.objects.get(hidden=True)
    assert hidden.dice["travel"] == "uncertainty" and len(hidden.dice["normal"]) == 3
    assert DiceRoll.objects.filter(character=han, hidden=False).count() == 3
