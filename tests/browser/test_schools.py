"""[HOUSE] schools in Chromium (issue 19): the GM defines NCO Leadership I on his desktop; a
player on a 390 px phone enrols his character owing the price; the GM advances time and the
sheet shows the skills the school raised (persuasion gained at Perception +1 pip, C-35) and the
CP owed; then an award repays half of the points earned (C-36's rule). Celery runs eagerly here,
so the advance ends within the GM's click. Screenshots go to test-artifacts/schools/."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Adventure
from characters.models import Enrolment
from characters.tests.advancement_fixtures import campaign_for, character_with
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "schools"
NCO = (
    "PER: command +2\nPER: persuasion +1\nSTR: stamina +1\n"
    "KNO: survival +2\nKNO: tactics +1\nKNO: willpower +1"
)


def shoot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_school_owed_then_finished_and_half_an_award_repays_it(live_server, browser, eager):
    campaign = campaign_for("house", name="Outer Rim Run")
    kira = character_with(
        campaign,
        cp=0,
        name="Kira Dane",
        perception="3D",
        strength="3D",
        knowledge="2D+1",
        skills=[("command", "4D", "perception")],
    )
    for user in (campaign.created_by, kira.owner):
        user.set_password(PASSWORD)
        user.save()
    base = live_server.url

    # --- The GM defines the school on his desktop ----------------------------------------------
    gm = log_in(browser, base, campaign.created_by, DESKTOP)
    gm.goto(f"{base}{campaign.get_absolute_url()}")
    gm.get_by_role("link", name="Schools").click()
    expect(gm.get_by_text("No school yet: define one below.")).to_be_visible()
    form = gm.locator("form.school-form")
    form.get_by_label("Name", exact=True).fill("NCO Leadership I")
    form.get_by_label("Instructor").fill("Lt. Norva")
    form.get_by_label("Length in weeks").fill("3")
    form.get_by_label("Price in CP").fill("5")
    form.get_by_label("Bonuses").fill("PER command +2")  # a line without its colon: refused
    form.get_by_label("Who may attend").fill("Enlisted only")
    form.get_by_role("button", name="Define the school").click()
    expect(gm.locator("#schools")).to_contain_text("Line 1 ('PER command +2'): write it as")
    assert not campaign.schools.exists()
    gm.locator("form.school-form").get_by_label("Bonuses").fill(NCO)
    gm.locator("form.school-form").get_by_role("button", name="Define the school").click()
    expect(gm.get_by_text("NCO Leadership I is defined.")).to_be_visible()
    expect(gm.locator("#schools")).to_contain_text("3 weeks (15 days)")
    shoot(gm, "gm-defined-desktop")

    # --- The player enrols Kira from his phone, owing the price ------------------------------
    player = log_in(browser, base, kira.owner, PHONE)
    player.goto(f"{base}/campaigns/{campaign.pk}/schools/")
    school = player.locator("article.school", has_text="NCO Leadership I")
    expect(school).to_contain_text("Perception: command +2 pips")
    expect(school).to_contain_text("Enlisted only")
    expect(player.locator(".debts")).to_contain_text("Kira Dane: 0 CP, 0 CP owed")
    school.get_by_label("Owe it all").check()
    school.get_by_role("button", name="Enrol").click()
    expect(player.locator("#schools")).to_contain_text(
        "Kira Dane is at NCO Leadership I, owing 5 CP: it finishes on day 15."
    )
    expect(player.locator(".enrolments")).to_contain_text("finishes on day 15")
    assert player.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(player, "player-enrolled-phone")
    player.goto(f"{base}{kira.get_absolute_url()}")
    expect(player.locator("#school-line")).to_contain_text(
        "At school: NCO Leadership I, finishes day 15"
    )
    expect(player.locator(".cp-owed")).to_contain_text("5")

    # --- The GM advances 15 days: the school ends and its pips are on the sheet ----------------
    gm.goto(f"{base}/campaigns/{campaign.pk}/calendar/")
    gm.get_by_label("Advance by (days)").fill("15")
    gm.get_by_role("button", name="Advance", exact=True).click()
    expect(gm.locator("#advance")).to_contain_text("Done: day 15 reached")
    expect(gm.locator(".advance-report")).to_contain_text("NCO Leadership I")
    expect(gm.locator(".advance-report")).to_contain_text("persuasion gained at 3D+1")
    assert Enrolment.objects.get(character=kira).status == "done"

    player.goto(f"{base}{kira.get_absolute_url()}")
    sheet = player.locator("form.attributes")
    expect(sheet).to_contain_text("command")
    expect(sheet.locator("button", has_text="command")).to_contain_text("4D+2")
    expect(sheet.locator("button", has_text="persuasion")).to_contain_text("3D+1")
    expect(player.locator(".cp-owed")).to_contain_text("5")
    expect(player.locator("#school-line")).to_have_text("")
    shoot(player, "sheet-after-school-phone")

    # --- An award: half of the points earned repay the debt -----------------------------------
    Adventure.objects.create(campaign=campaign, name="The Tocarra Job", start_day=0, end_day=15)
    gm.goto(f"{base}/campaigns/{campaign.pk}/calendar/awards/")
    gm.locator("fieldset.award-row", has_text="Kira Dane").get_by_label("CP", exact=True).fill("4")
    gm.get_by_role("button", name="Award to everyone").click()
    expect(gm.get_by_text("Kira Dane repays 2 CP of school debt")).to_be_visible()
    kira.refresh_from_db()
    assert (kira.pending_cp, kira.cp_owed) == (2, 3)
    player.goto(f"{base}{kira.get_absolute_url()}")
    expect(player.locator(".cp-owed dd")).to_contain_text("3")
    expect(player.locator(".pending-cp dd")).to_contain_text("2")
    shoot(player, "sheet-after-award-phone")
