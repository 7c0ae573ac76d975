"""A player creates a character through the wizard (fixing a validation error on the way),
rolls a skill from the sheet spending 1 CP, and the GM's dice log shows the roll without a
reload."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.models import Character, LedgerEntry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-password-42"
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def log_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def save_and_continue(page):
    page.get_by_role("button", name="Save and continue").click()


def test_player_creates_a_character_rolls_with_a_cp_and_the_gm_sees_it(live_server, browser):
    campaign = CampaignFactory(name="Outer Rim Run")
    player = MembershipFactory(campaign=campaign).user
    base = live_server.url

    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    log_in(gm, base, campaign.created_by.username)
    gm.goto(f"{base}/campaigns/{campaign.pk}/rolls/")
    expect(gm.get_by_text("No rolls yet")).to_be_visible()

    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    log_in(page, base, player.username)
    page.goto(f"{base}/campaigns/{campaign.pk}/characters/new/")
    page.get_by_role("button", name="Start").click()

    expect(page.get_by_role("heading", name=re.compile("Species"))).to_be_visible()
    page.get_by_label("Species", exact=True).select_option("Human")
    save_and_continue(page)

    expect(page.get_by_role("heading", name=re.compile("Attributes"))).to_be_visible()
    codes = {
        "Dexterity": "3D+2",
        "Knowledge": "3D",
        "Mechanical": "3D",
        "Perception": "3D",
        "Strength": "3D",
        "Technical": "9D+7",
    }
    for label, code in codes.items():
        page.get_by_label(label, exact=True).fill(code)
    save_and_continue(page)
    expect(page.get_by_text("has 7 pips").first).to_be_visible()  # the error is shown ...
    page.get_by_label("Technical", exact=True).fill("2D+1")  # ... and fixed
    expect(page.locator("#budget")).to_contain_text("18D")
    save_and_continue(page)

    expect(page.get_by_role("heading", name=re.compile("Skills"))).to_be_visible()
    skills = [
        ("blaster", "dexterity", "5D+2"),
        ("dodge", "dexterity", "5D+2"),
        ("search", "perception", "4D"),
        ("space transports", "mechanical", "5D"),
    ]
    for row, (name, attribute, code) in enumerate(skills, start=1):  # 7D in all
        if row > 1:  # the first row is there already; wait for each new row to arrive
            page.get_by_role("button", name="Add skill").click()
            expect(page.get_by_label(f"Skill {row}", exact=True)).to_be_visible()
        page.get_by_label(f"Skill {row}", exact=True).fill(name)
        page.get_by_label(f"Attribute {row}", exact=True).select_option(attribute)
        page.get_by_label(f"Code {row}", exact=True).fill(code)
    expect(page.locator("#budget")).to_contain_text("7D of 7D")
    save_and_continue(page)

    expect(page.get_by_role("heading", name=re.compile("Force"))).to_be_visible()
    save_and_continue(page)
    expect(page.get_by_role("heading", name=re.compile("Gear|Equipment"))).to_be_visible()
    save_and_continue(page)
    expect(page.get_by_role("heading", name=re.compile("Background"))).to_be_visible()
    page.get_by_label("Name", exact=True).fill("Jyn Tavik")
    save_and_continue(page)
    expect(page.get_by_role("heading", name=re.compile("Review"))).to_be_visible()
    page.get_by_role("button", name="Create character").click()

    expect(page.get_by_role("heading", name="Jyn Tavik")).to_be_visible()
    character = Character.objects.get(name="Jyn Tavik")
    cp_before = character.character_points
    assert cp_before >= 1

    page.get_by_role("button", name=re.compile(r"blaster\s+5D\+2")).click()
    panel = page.locator("#roll-area")
    expect(panel.get_by_text("Moderate")).to_be_visible()
    panel.get_by_label("Character Points").fill("1")
    panel.get_by_role("button", name="Roll", exact=True).click()
    expect(panel.locator(".roll-total")).to_be_visible()
    assert panel.locator(".die.cp").count() >= 1
    assert panel.locator(".die.wild").count() >= 1
    total = panel.locator(".roll-total").inner_text()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "sheet-roll-phone.png"), full_page=False)

    entry = gm.locator(".roll-entry").first
    expect(entry).to_contain_text("Jyn Tavik", timeout=4000)
    expect(entry).to_contain_text("blaster")
    # The log's total carries a visually hidden "total" for screen readers.
    expect(entry.locator(".roll-total")).to_have_text(re.compile(rf"(^|\s){total}$"))
    gm.wait_for_timeout(2500)  # one more poll: an unchanged log must not nest the page
    expect(gm.get_by_role("heading", name="Dice log")).to_have_count(1)
    expect(gm.locator(".roll-entry")).to_have_count(1)
    gm.screenshot(path=str(SHOTS / "dice-log-desktop.png"), full_page=False)

    character.refresh_from_db()
    assert character.character_points == cp_before - 1
    assert LedgerEntry.objects.filter(character=character, delta=-1, currency="cp").count() == 1
