"""A GM signs up, creates a campaign and invites a player, who joins from another browser."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery-staple-7"


def sign_up(page, base, username, next_url=""):
    page.goto(f"{base}/accounts/signup/{next_url}")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create account").click()


def test_gm_invites_a_player_who_joins(live_server, browser):
    base = live_server.url
    gm = browser.new_context(viewport={"width": 1200, "height": 900}).new_page()
    sign_up(gm, base, "obiwan")
    expect(gm.get_by_text("not in any campaign yet")).to_be_visible()

    gm.get_by_role("link", name="New campaign").click()
    gm.get_by_role("button", name="Create campaign").click()  # blank name first
    expect(gm.get_by_text("This field is required")).to_be_visible()
    gm.get_by_label("Name").fill("The Kessel Job")
    gm.get_by_role("button", name="Create campaign").click()
    expect(gm.get_by_role("heading", name="The Kessel Job")).to_be_visible()

    gm.get_by_role("button", name="Create invitation link").click()
    link = gm.locator("input.invite-link").first.input_value()
    assert re.search(r"/campaigns/join/[\w-]+/$", link)

    player = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    player.goto(link)
    # Logged out, the link names the campaign and who invites, then offers to sign up.
    expect(player.get_by_role("heading", name="Join “The Kessel Job”?")).to_be_visible()
    expect(player.locator("#main")).to_contain_text("obiwan invited you")
    player.locator("#main").get_by_role("link", name="Sign up").click()
    player.get_by_label("Username").fill("luke")
    player.get_by_label("Password", exact=True).fill(PASSWORD)
    player.get_by_label("Password confirmation").fill(PASSWORD)
    player.get_by_role("button", name="Create account").click()
    expect(player.get_by_role("heading", name="Join “The Kessel Job”?")).to_be_visible()
    player.get_by_role("button", name="Join as a player").click()
    expect(player.get_by_role("heading", name="The Kessel Job")).to_be_visible()
    expect(player.locator("#members")).to_contain_text("obiwan")

    gm.reload()
    expect(gm.locator("#members")).to_contain_text("luke")
