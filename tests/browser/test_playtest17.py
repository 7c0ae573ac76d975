"""Defects found play-testing issue 17 (library, approval, importers) in Chromium, that only a
browser shows: where focus goes, what is in view, how wide a page is. Each test failed before
its fix."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns import library
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.tests.test_approval import submitted
from characters.tests.test_wizard import begin
from tests.browser.test_library_approval import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"
LONG = "Q" * 100  # a name as long as the columns allow, with nowhere to break a line
WIDTH = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def test_a_return_without_a_reason_shows_the_error_where_the_gm_is_looking(
    live_server, browser, client
):
    """The GM pressed "Return with a reason" without one: the page came back at its top, the
    error far below, out of sight, so nothing seemed to happen."""
    campaign = CampaignFactory(approve_characters=True)
    player = MembershipFactory(campaign=campaign).user
    draft = submitted(client, campaign, player)
    gm = log_in(browser, live_server.url, campaign.created_by, DESKTOP)
    gm.goto(f"{live_server.url}/campaigns/{campaign.pk}/characters/drafts/{draft.pk}/")

    gm.get_by_role("button", name=re.compile("Return with a reason")).click()

    error = gm.get_by_text("Give the player a reason: what to change.")
    expect(error).to_be_in_viewport()
    expect(gm.get_by_label("Reason")).to_be_in_viewport()


def test_adding_and_removing_a_skill_row_by_keyboard_keeps_focus_in_the_rows(
    live_server, browser, client
):
    """Enter on "Add skill" (or on a row's "Remove") redrew the rows and dropped the focus on
    the page's body: the next Tab jumped past the rows to the skill list."""
    campaign = CampaignFactory()
    player = MembershipFactory(campaign=campaign).user
    draft = begin(client, campaign, player)
    page = log_in(browser, live_server.url, player, DESKTOP)
    page.goto(f"{live_server.url}/campaigns/{campaign.pk}/characters/new/{draft.pk}/skills/")
    page.get_by_label("Skill 1", exact=True).fill("blaster")

    page.get_by_role("button", name="Add skill").focus()
    page.keyboard.press("Enter")

    expect(page.get_by_label("Skill 2", exact=True)).to_be_focused()
    expect(page.get_by_label("Skill 1", exact=True)).to_have_value("blaster")

    page.get_by_role("button", name="Remove skill 1").focus()
    page.keyboard.press("Enter")

    expect(page.get_by_label("Skill 1", exact=True)).to_be_focused()
    expect(page.get_by_label("Skill 2", exact=True)).to_have_count(0)


@pytest.mark.parametrize(
    "where",
    ["library", "wizard gear", "wizard review", "campaign", "approval queue", "GM review"],
)
def test_names_without_spaces_do_not_widen_the_pages_on_a_phone(
    live_server, browser, client, where
):
    """A 100-character name with no space (a weapon in the library, a character's name) made
    the page wider than the phone: the player scrolled sideways to find the buttons."""
    campaign = CampaignFactory(approve_characters=True)
    gm = campaign.created_by
    player = MembershipFactory(campaign=campaign).user
    library.save_entry(
        campaign,
        "weapon",
        {"name": LONG, "skill": "blaster", "damage": "4D"},
        actor=gm,
    )
    draft = submitted(client, campaign, player, name=LONG)
    base = f"{live_server.url}/campaigns/{campaign.pk}"
    user, url = {
        "library": (gm, f"{base}/library/"),
        "wizard gear": (gm, f"{base}/characters/new/{begin(client, campaign, gm).pk}/gear/"),
        "wizard review": (player, f"{base}/characters/new/{draft.pk}/review/"),
        "campaign": (player, f"{base}/"),
        "approval queue": (gm, f"{base}/characters/drafts/"),
        "GM review": (gm, f"{base}/characters/drafts/{draft.pk}/"),
    }[where]
    page = log_in(browser, live_server.url, user, PHONE)

    page.goto(url)

    assert page.evaluate(WIDTH) <= 0, f"{where}: wider than the phone"
