"""The roll panel in Chromium (issue 12): "Roll again" keeps the settings (1), a refused roll
shows its message in place and the sheet stays (3), the printed sheet has every code (4),
and the panel works from the keyboard alone with focus where it should be (22)."""

import io
import re

import pytest
from playwright.sync_api import expect
from pypdf import PdfReader

from characters.models import Currency, DiceRoll, Skill
from characters.services import change_balance
from characters.tests.factories import CharacterFactory, ItemFactory, SkillFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "a-long-test-password-42"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


@pytest.fixture
def hero(db):
    character = CharacterFactory(name="Tala Voss")
    SkillFactory(character=character, name="blaster", code="4D+1")
    SkillFactory(
        character=character,
        name="blaster pistol",
        kind=Skill.Kind.SPECIALIZATION,
        base_skill="blaster",
        code="5D+1",
    )
    SkillFactory(character=character, name="dodge", code="4D")
    SkillFactory(character=character, name="search", attribute="perception", code="4D+2")
    change_balance(character, Currency.CP, 5, "start")
    change_balance(character, Currency.FP, 1, "start")
    for user in (character.owner, character.campaign.created_by):
        user.set_password(PASSWORD)
        user.save()
    return character


def open_sheet(browser, base, user, character, viewport):
    page = browser.new_context(viewport=viewport).new_page()
    page.goto(f"{base}/accounts/login/")
    page.get_by_label("Username").fill(user.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    page.goto(f"{base}/campaigns/{character.campaign_id}/characters/{character.pk}/")
    expect(page.get_by_role("heading", name=character.name, level=1)).to_be_visible()
    return page


def focused(page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return (e.id || e.className) + '|' + (e.textContent || '').trim().slice(0, 40); }"
    )


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_roll_again_repeats_a_gms_hidden_roll_with_its_cp(live_server, browser, hero, viewport):
    page = open_sheet(browser, live_server.url, hero.campaign.created_by, hero, viewport)
    page.get_by_role("button", name=re.compile(r"^blaster 4D\+1")).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Character Points").fill("2")
    dialog.get_by_label("Hidden from players").check()
    dialog.get_by_role("button", name="Roll", exact=True).click()
    expect(dialog.get_by_role("button", name="Roll again")).to_be_visible()
    # The settings are still there, visibly, and "Roll again" uses them.
    expect(dialog.get_by_label("Character Points")).to_have_value("2")
    expect(dialog.get_by_label("Hidden from players")).to_be_checked()
    dialog.get_by_role("button", name="Roll again").click()
    expect(page.locator("#roll-result")).to_be_focused()
    page.wait_for_function("() => document.querySelectorAll('#roll-result').length === 1")
    rolls = list(DiceRoll.objects.order_by("pk"))
    assert len(rolls) == 2
    assert [(r.hidden, r.cp_spent) for r in rolls] == [(True, 2), (True, 2)]
    hero.refresh_from_db()
    assert hero.character_points == 1
    expect(page.locator("#balances")).to_contain_text("1")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_refused_roll_shows_its_message_in_place(live_server, browser, hero, viewport):
    page = open_sheet(browser, live_server.url, hero.owner, hero, viewport)
    page.get_by_role("button", name=re.compile(r"^Dexterity 3D\+1")).click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_label("Character Points").fill("1")
    dialog.get_by_label(re.compile("Spend a Force Point")).check()
    dialog.get_by_role("button", name="Roll", exact=True).click()
    alert = dialog.get_by_role("alert")
    expect(alert).to_contain_text("Not rolled")
    expect(alert).to_contain_text("Force Point")
    expect(alert).to_be_focused()
    # The sheet is still there behind the dialog, and the panel still offers the roll.
    expect(page.get_by_role("heading", name="Tala Voss", level=1)).to_be_attached()
    expect(page.locator("#balances")).to_be_attached()
    expect(dialog.get_by_label("Character Points")).to_have_value("1")
    assert page.evaluate("document.querySelectorAll('main h1').length") == 1
    assert not DiceRoll.objects.exists()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_the_printed_sheet_has_every_trait_and_code(live_server, browser, hero):
    page = open_sheet(browser, live_server.url, hero.owner, hero, DESKTOP)
    page.emulate_media(media="print")
    expect(page.get_by_role("button", name=re.compile(r"^blaster 4D\+1"))).to_be_visible()
    pdf = page.pdf(format="A4")
    text = " ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
    text = re.sub(r"\s+", " ", text)
    for trait, code in [
        ("Dexterity", "3D+1"),
        ("Knowledge", "2D+1"),
        ("Mechanical", "3D"),
        ("Perception", "3D+2"),
        ("Strength", "3D"),
        ("Technical", "2D+2"),
        ("blaster", "4D+1"),
        ("blaster pistol", "5D+1"),
        ("dodge", "4D"),
        ("search", "4D+2"),
    ]:
        assert re.search(rf"{trait} {re.escape(code)}", text, re.IGNORECASE), (trait, text)
    assert "Roll again" not in text and "Print" not in text


def test_the_roll_panel_works_from_the_keyboard_alone(live_server, browser, hero):
    page = open_sheet(browser, live_server.url, hero.owner, hero, PHONE)
    # Tab to the blaster skill, as a keyboard user would.
    for _ in range(60):
        page.keyboard.press("Tab")
        if focused(page).startswith("trait|blaster 4D+1"):
            break
    assert focused(page).startswith("trait|blaster 4D+1")

    page.keyboard.press("Enter")  # open
    expect(page.get_by_role("dialog")).to_be_visible()
    expect(page.locator("#id_actions")).to_be_focused()

    page.keyboard.press("Tab")  # modifier
    page.keyboard.press("Tab")  # Character Points
    expect(page.locator("#id_cp")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("1")
    expect(page.locator("#roll-odds")).to_contain_text("Rolling")

    page.keyboard.press("Enter")  # roll: Enter in a field submits the form
    expect(page.locator("#roll-result")).to_be_focused()
    assert DiceRoll.objects.get().cp_spent == 1

    page.keyboard.press("Escape")  # close: focus goes back to the skill that opened it
    expect(page.get_by_role("dialog")).to_be_hidden()
    assert focused(page).startswith("trait|blaster 4D+1")

    page.keyboard.press("Enter")  # and it opens again from there
    expect(page.get_by_role("dialog")).to_be_visible()
    page.get_by_role("link", name="Close roll panel").press("Enter")
    expect(page.get_by_role("dialog")).to_be_hidden()
    assert focused(page).startswith("trait|blaster 4D+1")


@pytest.mark.parametrize("path", ["", "ledger/"], ids=["sheet", "ledger"])
def test_the_sheet_and_ledger_fit_a_phone(live_server, browser, hero, path):
    # What the demo sheets carry: weapons with ranges and notes, armour, a long name.
    ItemFactory(character=hero, name="Blaster pistol", ranges="3-10/30/120", skill="blaster")
    ItemFactory(character=hero, kind="gear", name="Macrobinoculars", damage=None, skill="")
    ItemFactory(
        character=hero,
        kind="armour",
        name="Blast vest and helmet",
        damage=None,
        armour_physical="1D",
        armour_energy="0D+1",
        notes="Dexterity -1; covers torso, head",
    )
    SkillFactory(character=hero, name="repulsorlift operation: swoop racing", code="5D+2")
    page = open_sheet(browser, live_server.url, hero.owner, hero, PHONE)
    for i in range(3):
        change_balance(hero, Currency.CREDITS, 1000 + i, "Sold a landspeeder to a Jawa trader")
    page.goto(f"{live_server.url}/campaigns/{hero.campaign_id}/characters/{hero.pk}/{path}")
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
