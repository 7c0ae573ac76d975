"""Healing between adventures in Chromium (issue 19): a wounded character's sheet says when his
next natural healing roll comes; his player puts him in a bacta tank from his phone and the
panel says until which day. Screenshots go to /work/notes/shots/issue19/ (looked at by hand)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from characters.healing_models import HealingCourse
from characters.tests.factories import CharacterFactory
from tests.browser.helpers import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/work/notes/shots/issue19")


def test_a_wounded_hero_rests_then_goes_into_a_bacta_tank(live_server, browser):
    hero = CharacterFactory(name="Kira", wound_level="wounded")
    campaign = hero.campaign
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url

    page = log_in(browser, base, hero.owner, PHONE)
    page.goto(f"{base}{hero.get_absolute_url()}")
    panel = page.locator("#healing")
    expect(panel).to_contain_text(re.compile(r"Resting: next healing roll on day \d+"))
    page.screenshot(path=str(SHOTS / "healing-resting-phone.png"), full_page=True)

    panel.get_by_label("Treatment roll").fill("4D")
    panel.get_by_role("button", name="Put Kira in a bacta tank").click()
    expect(page.locator("#healing")).to_contain_text(re.compile(r"In a bacta tank until day \d+"))
    page.screenshot(path=str(SHOTS / "healing-bacta-phone.png"), full_page=True)
    course = HealingCourse.objects.get(character=hero)
    assert course.bacta_until is not None

    gm = log_in(browser, base, campaign.created_by, DESKTOP)
    gm.goto(f"{base}{hero.get_absolute_url()}")
    expect(gm.locator("#healing")).to_contain_text(f"until day {course.bacta_until}")
    gm.screenshot(path=str(SHOTS / "healing-bacta-gm-desktop.png"), full_page=True)
