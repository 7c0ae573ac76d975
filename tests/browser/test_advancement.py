"""Between adventures in Chromium (issue 16): the GM ends an adventure awarding CP to three
characters at once; a player asks for a skill pip with a teacher, seeing the cost and days
before confirming; the GM approves it and advances time with the progress bar on screen; and
the player's open sheet, never navigated by hand, comes to show the new code and the CP spent.

Celery runs eagerly here (as in ``make run`` without Redis), so the advance ends within the
GM's click; the page's polling of a running advance is tested in
characters/tests/test_calendar_views.py. Each page is photographed at a phone's width and a
desktop's into test-artifacts/calendar/."""

import re

import pytest
from django.conf import settings
from django.test import Client
from playwright.sync_api import expect

from campaigns.models import Adventure
from characters.models import Advancement, LedgerEntry, Skill
from characters.tests.advancement_fixtures import campaign_for, character_with
from tests.browser.conftest import ARTIFACTS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
SHOTS = ARTIFACTS / "calendar"
LIVE = 8000  # ms: a live poll (2 s), the sheet's piece reloading, then the page itself


@pytest.fixture
def contexts(browser):
    opened = []
    yield opened
    for context in opened:
        context.close()


def open_as(browser, contexts, live_server, user, viewport):
    """A page logged in as ``user`` (by session cookie)."""
    context = browser.new_context(viewport=viewport, base_url=live_server.url)
    contexts.append(context)
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": live_server.url}]
    )
    return context.new_page()


def shoot(page, name):
    """A full-page picture at a phone's width and a desktop's; the page keeps its own."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    own = page.viewport_size
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar stays on top of the picture
    for width, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{name}-{width}.png"), full_page=True)
    page.set_viewport_size(own)


def test_an_adventure_ends_in_awards_and_a_skill_trains_to_its_new_code(
    live_server, browser, contexts, eager
):
    campaign = campaign_for("2e", name="Outer Rim Run", game_day=35, era="8 BBY")
    kira = character_with(campaign, cp=0, name="Kira Dane", skills=[("blaster", "4D+1")])
    tomas = character_with(campaign, cp=0, name="Tomas Reel")
    vell = character_with(campaign, cp=0, name="Vell Oro")
    Adventure.objects.create(campaign=campaign, name="The Tocarra Job", start_day=30)

    # --- The GM ends the adventure and awards three characters at once ----------------------
    gm = open_as(browser, contexts, live_server, campaign.created_by, DESKTOP)
    gm.goto(campaign.get_absolute_url())
    gm.get_by_role("link", name="Calendar").click()
    expect(gm.locator("#game-date")).to_contain_text("Day 35, 8 BBY")
    expect(gm.locator(".running-adventure")).to_contain_text("The Tocarra Job")
    gm.get_by_label("Players' improvements need my approval").check()
    gm.get_by_role("button", name="Save settings").click()
    expect(gm.get_by_text("Calendar settings saved.")).to_be_visible()
    gm.get_by_role("button", name="End The Tocarra Job and award points").click()

    expect(gm.get_by_role("heading", name="Award points")).to_be_visible()
    expect(gm.get_by_label("Reason", exact=True)).to_have_value("End of The Tocarra Job")
    for who, cp in ((kira, 5), (tomas, 4), (vell, 3)):
        row = gm.locator("fieldset.award-row", has_text=who.name)
        row.get_by_label("CP", exact=True).fill(str(cp))
    shoot(gm, "awards")
    gm.get_by_role("button", name="Award to everyone").click()
    expect(
        gm.get_by_text("Awarded: Kira Dane +5 CP; Tomas Reel +4 CP; Vell Oro +3 CP.")
    ).to_be_visible()
    awarded = LedgerEntry.objects.filter(reason="End of The Tocarra Job")
    assert sorted(awarded.values_list("delta", flat=True)) == [3, 4, 5]
    assert len({e.created_at for e in awarded}) <= 3  # one transaction, one row each

    # --- The player asks for a blaster pip with a teacher, seeing the cost first -------------
    player = open_as(browser, contexts, live_server, kira.owner, PHONE)
    player.goto(kira.get_absolute_url())
    cp_held = player.locator("#balances div", has_text="CP").locator("dd")
    expect(cp_held).to_have_text("5")
    player.get_by_role("link", name="Improve", exact=True).click()
    player.get_by_label("Improve").select_option(label="blaster 4D+1 (skill)")
    expect(player.get_by_label("With a teacher")).to_be_checked()
    quote = player.locator("#quote")
    expect(quote).to_contain_text("blaster 4D+1 → 4D+2")
    expect(quote).to_contain_text("4 Character Points")
    expect(quote).to_contain_text("4 days with a teacher")
    expect(quote).to_contain_text("The GM approves it before training starts")
    assert not Advancement.objects.exists()  # seen before anything is asked for
    shoot(player, "improve-quote")
    player.get_by_role("button", name="Ask for it: 4 Character Points").click()
    expect(player.get_by_text("it waits for the GM")).to_be_visible()
    requests = player.locator("#advancements")
    expect(requests).to_contain_text("blaster 4D+1 → 4D+2")
    expect(requests).to_contain_text("awaiting the GM")
    expect(cp_held).to_have_text("1")  # 5 − 4
    shoot(player, "sheet-awaiting")
    loaded_at = player.evaluate("performance.timeOrigin")

    # --- The GM approves it and advances time, with the progress bar ------------------------
    gm.goto(campaign.get_absolute_url())
    gm.get_by_role("link", name="Improvement requests").click()
    expect(gm.get_by_role("heading", name="Kira Dane: blaster 4D+1 → 4D+2")).to_be_visible()
    shoot(gm, "approvals")
    gm.get_by_role("button", name=re.compile("^Approve")).click()
    expect(gm.get_by_text("Kira Dane's blaster: approved.")).to_be_visible()
    expect(requests).to_contain_text("until day 39", timeout=LIVE)  # the player's piece follows

    gm.goto(f"{campaign.get_absolute_url()}calendar/")
    gm.get_by_label("Advance by (days)").fill("5")
    gm.get_by_role("button", name="Advance", exact=True).click()
    bar = gm.locator("#advance-bar")
    expect(bar).to_be_visible()
    expect(bar).to_have_attribute("value", "5")
    expect(gm.locator("#advance")).to_contain_text("Done: day 40 reached")
    expect(gm.locator(".advance-report")).to_contain_text("blaster 4D+1 → 4D+2")
    expect(gm.locator("#game-date")).to_contain_text("Day 40, 8 BBY")
    shoot(gm, "calendar-gm")

    # --- The player's open sheet shows the new code and the CP spent ------------------------
    blaster = player.get_by_role("button", name=re.compile(r"^blaster"))
    expect(blaster).to_contain_text("4D+2", timeout=LIVE)
    expect(cp_held).to_have_text("1")
    expect(player.locator("#advancements")).to_contain_text("done")
    assert player.url.endswith(kira.get_absolute_url())  # nobody navigated: the page followed
    assert player.evaluate("performance.timeOrigin") != loaded_at  # (by reloading itself)
    assert str(Skill.objects.get(character=kira, name="blaster").code) == "4D+2"
    kira.refresh_from_db()
    assert kira.character_points == 1
    shoot(player, "sheet-done")
    player.goto(f"{campaign.get_absolute_url()}calendar/")
    shoot(player, "calendar-player")


def test_the_gm_edits_skills_and_confirms_a_removal(live_server, browser, contexts):
    campaign = campaign_for("2e", name="Outer Rim Run")
    kira = character_with(campaign, cp=0, name="Kira Dane", skills=[("blaster", "4D+1")])
    gm = open_as(browser, contexts, live_server, campaign.created_by, DESKTOP)
    gm.goto(kira.get_absolute_url())
    gm.get_by_role("link", name="Edit skills").click()
    gm.get_by_label("Name").fill("sneak")
    gm.get_by_label("Code").fill("3D+2")
    gm.get_by_label("Attribute").select_option("perception")
    gm.get_by_role("button", name="Add to the sheet").click()
    expect(gm.get_by_text("sneak 3D+2 added on the sheet.")).to_be_visible()
    gm.get_by_label("Code").fill("4Q")
    gm.get_by_label("Name").fill("dodge")
    gm.get_by_role("button", name="Add to the sheet").click()
    expect(gm.locator(".errorlist").first).to_contain_text("4Q")
    shoot(gm, "skills-error")
    gm.get_by_role("link", name="Remove sneak").click()
    expect(gm.get_by_role("heading", name="Remove sneak 3D+2 from Kira Dane?")).to_be_visible()
    shoot(gm, "skill-remove")
    assert Skill.objects.filter(character=kira, name="sneak").exists()
    gm.get_by_role("button", name="Remove sneak").click()
    expect(gm.get_by_text("sneak removed from Kira Dane's sheet.")).to_be_visible()
    assert not Skill.objects.filter(character=kira, name="sneak").exists()
    shoot(gm, "skills")


def test_the_report_shows_an_attribute_roll_with_every_die(live_server, browser, contexts, eager):
    from characters.advancement import request_advancement

    campaign = campaign_for("2e", name="Outer Rim Run", game_day=35, era="8 BBY")
    kira = character_with(campaign, cp=30, name="Kira Dane")
    gm_user = campaign.created_by
    request_advancement(kira, "attribute", "knowledge", actor=gm_user, species_maximum="3D")
    gm = open_as(browser, contexts, live_server, gm_user, PHONE)
    gm.goto(f"{campaign.get_absolute_url()}calendar/")
    expect(gm.locator("#trainings")).to_contain_text("Knowledge 2D+1 → 2D+2")
    gm.get_by_label("Advance by (days)").fill("0")
    gm.get_by_role("button", name="Advance", exact=True).click()
    expect(gm.locator("#advance-form .errorlist")).to_contain_text("from 1 to 3,650")
    shoot(gm, "calendar-refused")
    gm.get_by_label("Advance by (days)").fill("200")
    gm.get_by_role("button", name="Advance", exact=True).click()
    roll = gm.locator(".attribute-roll")
    expect(roll).to_contain_text("rolled the new code 2D+2")
    expect(roll).to_contain_text("The GM rolled the species maximum 3D")
    assert roll.locator(".die").count() >= 5  # 2D+2 and 3D: every die, Wild Dice included
    expect(gm.locator("#trainings")).to_contain_text("Nothing is training")
    shoot(gm, "calendar-attribute-roll")
