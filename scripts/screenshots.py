"""Screenshots of the demo for the README: python scripts/screenshots.py BASE_URL OUT_DIR
(BASE_URL serves the demo data of `make run`)."""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def log_in(page, base, username):
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("datapad-demo")
    page.get_by_role("button", name="Log in").click()


def main(base: str, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        desktop = browser.new_page(viewport={"width": 1280, "height": 860})
        log_in(desktop, base, "leia")
        desktop.get_by_role("link", name="Shadows over Tatooine").click()
        desktop.get_by_role("link", name="Tala Voss").click()
        desktop.screenshot(path=str(out / "sheet-desktop.png"))
        desktop.get_by_role("button", name="blaster pistol").click()
        desktop.get_by_role("heading", name="Roll blaster pistol").wait_for()
        desktop.screenshot(path=str(out / "roll-panel-desktop.png"))
        phone = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        log_in(phone, base, "leia")
        phone.goto(desktop.url)
        phone.get_by_role("button", name="blaster", exact=False).first.click()
        phone.get_by_role("button", name="Roll", exact=True).click()
        phone.locator(".roll-total").first.wait_for()
        phone.screenshot(path=str(out / "roll-result-phone.png"))
        gm = browser.new_page(viewport={"width": 1280, "height": 860})
        log_in(gm, base, "gm")
        gm.get_by_role("link", name="Shadows over Tatooine").click()
        gm.screenshot(path=str(out / "campaign-gm.png"))
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
