"""What the browser journeys share: the test password, the phone and desktop viewports, and
logging a user in through the login page."""

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
