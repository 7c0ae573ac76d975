"""Healing between adventures in Chromium (issue 19): a wounded character's sheet says when his
next natural healing roll comes; his player puts him in a bacta tank from his phone and the
panel says until which day; his player has his medic use a medpac on him from his phone.
Screenshots go to /work/notes/shots/issue19/ (looked at by hand)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from characters.healing_models import HealingCourse, HealingEvent
from characters.models import DiceRoll, Item
from characters.tests.factories import CharacterFactory, SkillFactory
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


def test_a_player_uses_his_medics_medpac_on_his_wounded_hero_from_a_phone(live_server, browser):
    hero = CharacterFactory(name="Kira", wound_level="wounded")
    medic = CharacterFactory(name="Doc", campaign=hero.campaign, owner=hero.owner)
    SkillFactory(character=medic, name="first aid", attribute="technical", code="4D")
    Item.objects.create(character=medic, kind=Item.Kind.GEAR, name="Medpac", quantity=2)
    SHOTS.mkdir(parents=True, exist_ok=True)
    base = live_server.url

    page = log_in(browser, base, hero.owner, PHONE)
    page.goto(f"{base}{hero.get_absolute_url()}")
    panel = page.locator("#healing")
    aider = panel.get_by_label("Used by")
    expect(aider).to_contain_text(re.compile(r"Doc: first aid 4D, \d+%"))
    aider.select_option(value=str(medic.pk))
    panel.get_by_role("button", name="Use a medpac on Kira").click()

    expect(page.locator("#healing")).to_contain_text(re.compile(r"The medpac (worked|failed)"))
    roll = DiceRoll.objects.get(character=medic)
    event = HealingEvent.objects.get(character=hero, kind="medpac")
    assert (event.total, event.day) == (roll.total, 0)
    expect(page.locator("#healing")).to_contain_text(f"{roll.total} against")
    expect(page.locator("#healing .healing-events")).to_contain_text("Medpac")
    assert Item.objects.get(character=medic).quantity == 1
    hero.refresh_from_db()
    assert hero.wound_level == ("none" if roll.total >= roll.difficulty else "wounded")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.screenshot(path=str(SHOTS / "healing-medpac-phone.png"), full_page=True)
