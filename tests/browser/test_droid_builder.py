"""Issue 18's droid journey: a player on his phone builds a droid that goes over its building
dice budget (the error shown as he types), fixes it, saves it, and rolls one of its skills from
the droid's sheet (dice seeded). The GM, on a desktop, starts an NPC droid from the R2 template
and sees the source's 34D of 35D."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import services
from characters.models import Character, DiceRoll
from rules import DieCode, SeededDice, roll
from tests.browser.helpers import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SEED = 2187


def test_a_player_builds_a_droid_over_budget_fixes_it_saves_it_and_rolls_a_skill(
    live_server, browser, monkeypatch
):
    monkeypatch.setattr(services, "SystemDice", lambda: SeededDice(SEED))
    campaign = CampaignFactory(name="Droid Works")
    player = MembershipFactory(campaign=campaign).user
    base = live_server.url
    SHOTS.mkdir(exist_ok=True)

    page = log_in(browser, base, player, PHONE)
    page.goto(f"{base}/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Build a droid").click()
    expect(page.get_by_role("heading", name="Build a droid")).to_be_visible()
    budget = page.locator("#budget")
    expect(budget).to_contain_text("0D of 65D, 65D left")

    page.get_by_label("Name", exact=True).fill("K-9X")
    page.get_by_label("Model", exact=True).fill("K-series scout")
    page.get_by_label("Dexterity", exact=True).fill("3D")
    page.get_by_label("Strength", exact=True).fill("14D")  # 10D + 65D: over the 65D
    expect(budget).to_contain_text("75D of 65D, 10D over")
    expect(budget).to_contain_text("K-9X uses 75D of building dice; the budget is 65D (10D over)")
    page.screenshot(path=str(SHOTS / "droid-builder-over-phone.png"), full_page=True)

    page.get_by_label("Strength", exact=True).fill("2D")  # fixed: 15D of attributes
    expect(budget).to_contain_text("15D of 65D, 50D left")
    expect(budget).to_contain_text("No problems.")

    page.get_by_label("Skill 1", exact=True).fill("blaster")
    page.get_by_label("Attribute 1", exact=True).select_option("dexterity")
    page.get_by_label("Code 1", exact=True).fill("5D")
    page.get_by_label("Item 1", exact=True).fill("photoreceptors")
    page.get_by_label("Gives vision 1").check()
    page.get_by_role("button", name="Add item").click()
    expect(page.get_by_label("Item 2", exact=True)).to_be_focused()
    page.get_by_label("Item 2", exact=True).fill("macrobinoculars")
    expect(budget).to_contain_text(
        "Attributes 15D · Speed 0D · Armour 0D · Skills 2D · Equipment 2D — 19D of 65D, 46D left"
    )
    page.screenshot(path=str(SHOTS / "droid-builder-phone.png"), full_page=True)

    page.get_by_role("button", name="Build the droid").click()
    expect(page.get_by_role("heading", name="K-9X")).to_be_visible()
    expect(page.locator(".droid-badge")).to_have_text("Droid")
    expect(page.locator("#droid-build")).to_contain_text("Building dice: 19D of 65D")
    expect(page.locator("table.gear")).to_contain_text("macrobinoculars")
    droid = Character.objects.get(name="K-9X")
    assert (droid.nature, droid.owner, droid.force_points) == ("droid", player, 1)

    page.get_by_role("button", name=re.compile(r"blaster\s+5D")).click()
    panel = page.locator("#roll-area")
    expect(panel.get_by_text("Moderate")).to_be_visible()
    panel.get_by_role("button", name="Roll", exact=True).click()
    expect(panel.locator(".roll-total")).to_be_visible()
    expected = roll(DieCode(5), ruleset=campaign.ruleset, rng=SeededDice(SEED))
    expect(panel.locator(".roll-total")).to_have_text(str(expected.total))
    page.screenshot(path=str(SHOTS / "droid-sheet-roll-phone.png"), full_page=False)
    rolled = DiceRoll.objects.get(character=droid)
    assert (rolled.label, rolled.total) == ("blaster", expected.total)


def test_the_gm_starts_an_npc_droid_from_the_r2_template(live_server, browser):
    campaign = CampaignFactory(name="Droid Works")
    base = live_server.url
    SHOTS.mkdir(exist_ok=True)
    gm = log_in(browser, base, campaign.created_by, DESKTOP)
    gm.goto(f"{base}/campaigns/{campaign.pk}/characters/droids/new/")
    gm.get_by_label("Start from").select_option("r2")
    gm.get_by_role("button", name="Load").click()
    budget = gm.locator("#budget")
    expect(budget).to_contain_text("34D of 35D, 1D left")
    expect(budget).to_contain_text("1D of building dice unspent")
    gm.screenshot(path=str(SHOTS / "droid-builder-r2-desktop.png"), full_page=True)
    gm.get_by_label("Name", exact=True).fill("R2-D2")
    gm.get_by_role("button", name="Build the droid").click()
    expect(gm.get_by_role("heading", name="R2-D2")).to_be_visible()
    expect(gm.locator("#droid-build")).to_contain_text("Building dice: 34D of 35D")
    gm.screenshot(path=str(SHOTS / "droid-sheet-desktop.png"), full_page=True)
