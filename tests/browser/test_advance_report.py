"""One report per advance in Chromium (issue 19): after the GM advanced time, a player on his
phone goes from the calendar to the list of advances and to the report, and reads his own
character's lines only, with the dice, on a page that fits the phone's width; the GM reads
every character's. Pictures in test-artifacts/advance-report/."""

import pytest
from playwright.sync_api import expect

from characters.advancement import request_advancement
from characters.downtime import start_advance
from characters.models import Skill
from characters.services import change_balance
from characters.tests.advancement_fixtures import campaign_for, character_with
from characters.tests.factories import NPCFactory
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "advance-report"


def test_a_player_on_a_phone_reads_only_his_characters_report(live_server, browser, eager):
    campaign = campaign_for("2e", name="Outer Rim Run", game_day=35, era="8 BBY")
    gm_user = campaign.created_by
    kira = character_with(campaign, cp=30, name="Kira Dane", skills=[("dodge", "3D")])
    tomas = character_with(campaign, cp=30, name="Tomas Reeve", skills=[("sneak", "2D")])
    vex = NPCFactory(campaign=campaign, name="Inquisitor Vex", secret=True)
    change_balance(vex, "cp", 10, "seed", gm_user)
    Skill.objects.create(character=vex, name="lightsaber", code="5D", attribute="dexterity")
    request_advancement(kira, "skill", "dodge", actor=gm_user)
    request_advancement(kira, "attribute", "knowledge", actor=gm_user, species_maximum="3D")
    request_advancement(tomas, "skill", "sneak", actor=gm_user)
    request_advancement(vex, "skill", "lightsaber", actor=gm_user)
    start_advance(campaign, 200, actor=gm_user)
    for user in (kira.owner, gm_user):
        user.set_password(PASSWORD)
        user.save()

    player = log_in(browser, live_server.url, kira.owner, PHONE)
    player.goto(f"{live_server.url}{campaign.get_absolute_url()}calendar/")
    player.get_by_role("link", name="Every advance").click()
    expect(player.get_by_role("heading", name="Advances of time")).to_be_visible()
    player.get_by_role("link", name="Day 35 to day 235").click()
    report = player.locator(".advance-report-groups")
    expect(player.get_by_role("heading", name="Kira Dane", exact=False)).to_be_visible()
    expect(report).to_contain_text("dodge 3D → 3D+1")
    expect(report.locator(".attribute-roll")).to_contain_text("rolled the new code 2D+2")
    assert report.locator(".die").count() >= 5  # the attribute roll's dice, both rolls
    expect(player.locator(".report-summary")).to_contain_text("rolls: 2")
    for hidden in ("Tomas Reeve", "sneak", "Inquisitor Vex", "lightsaber"):
        expect(player.locator("main")).not_to_contain_text(hidden)
    width = player.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the report is {width}px wide on a {PHONE['width']}px phone"
    SHOTS.mkdir(parents=True, exist_ok=True)
    player.screenshot(path=str(SHOTS / "player-phone.png"), full_page=True)

    gm = log_in(browser, live_server.url, gm_user, DESKTOP)
    gm.goto(player.url)
    for name in ("Inquisitor Vex", "Kira Dane", "Tomas Reeve"):
        expect(gm.locator(".report-summary")).to_contain_text(name)
    expect(gm.locator(".advance-report-groups")).to_contain_text("sneak 2D → 2D+1")
    gm.screenshot(path=str(SHOTS / "gm-desktop.png"), full_page=True)
    player.context.close()
    gm.context.close()
