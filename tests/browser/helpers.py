"""What the browser journeys share: the test password, the phone and desktop viewports,
logging a user in through the login page, and the GM typing a starship's stat block and
seating its crew (issue 18's journeys)."""

from playwright.sync_api import expect

PASSWORD = "a-long-test-password-42"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
WIDTHS = {"phone": PHONE, "desktop": DESKTOP}


def log_in(browser, base, user, viewport):
    """A new browser context at ``viewport`` with ``user`` logged in (his password set to
    :data:`PASSWORD` by the test), on his campaigns page."""
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    return page


def new_stat_block(gm, base, campaign, *, name, hull, shields, weapons, owner, piloting):
    """The GM types a starfighter-scale starship on the New stat block form."""
    gm.goto(f"{base}/campaigns/{campaign.pk}/craft/")
    gm.get_by_role("link", name="New stat block").click()
    gm.get_by_label("Name", exact=True).fill(name)
    gm.get_by_label("Kind", exact=True).select_option("starship")
    gm.get_by_label("Scale", exact=True).select_option("starfighter")
    gm.get_by_label("Piloting skill").select_option(piloting)
    gm.get_by_label("Maneuverability").fill("2D")
    gm.get_by_label("Hull / body strength").fill(hull)
    if shields:
        gm.get_by_label("Shields", exact=True).fill(shields)
    gm.get_by_label("Weapons").fill(weapons)
    gm.get_by_label("Owned by").select_option(owner)
    gm.get_by_role("button", name="Add").click()
    expect(gm.get_by_role("heading", name=name)).to_be_visible()


def seat(gm, title, character):
    """On the ship sheet open in ``gm``, put ``character`` on the station ``title``."""
    gm.get_by_label(f"Crew member for {title}").select_option(str(character.pk))
    gm.locator("tr", has=gm.get_by_label(f"Crew member for {title}")).get_by_role(
        "button", name="Set"
    ).click()
    expect(gm.get_by_text("Crew station updated.")).to_be_visible()
