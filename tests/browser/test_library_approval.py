"""Issue 17's journey: the GM adds a species with its limits to the campaign's library and makes
new characters wait for approval; a player on a phone builds a character of that species (a
Strength above the species' maximum is shown as he types and keeps the character from being
sent without a word to the GM), fixes it and sends it; the GM returns it with a reason; the
player sees the reason, fixes it and sends it again; the GM approves it. Only then does the
character exist, and the player rolls a skill from its sheet (dice seeded)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import services
from characters.models import Character, CreationDraft, DiceRoll
from rules.dice import SeededDice
from tests.browser.helpers import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts"

ITHORIAN_LIMITS = {
    "Dexterity": ("1D", "4D"),
    "Knowledge": ("2D", "4D+2"),
    "Mechanical": ("1D", "4D"),
    "Perception": ("1D", "4D"),
    "Strength": ("2D", "5D"),
    "Technical": ("1D", "4D"),
}
ATTRIBUTES = {  # 18D within the Ithorian limits
    "Dexterity": "4D",
    "Knowledge": "3D",
    "Mechanical": "3D",
    "Perception": "2D+2",
    "Strength": "4D+1",
    "Technical": "1D",
}


def save_and_continue(page, heading):
    page.get_by_role("button", name="Save and continue").click()
    expect(page.get_by_role("heading", name=re.compile(heading))).to_be_visible()


def fill_skills(page, skills):
    for row, (name, attribute, code) in enumerate(skills, start=1):
        if page.get_by_label(f"Skill {row}", exact=True).count() == 0:
            page.get_by_role("button", name="Add skill").click()
            expect(page.get_by_label(f"Skill {row}", exact=True)).to_be_visible()
        page.get_by_label(f"Skill {row}", exact=True).fill(name)
        page.get_by_label(f"Attribute {row}", exact=True).select_option(attribute)
        page.get_by_label(f"Code {row}", exact=True).fill(code)


def test_a_library_species_character_is_returned_fixed_approved_and_then_rolls(
    live_server, browser, monkeypatch
):
    monkeypatch.setattr(services, "SystemDice", lambda: SeededDice(1977))
    campaign = CampaignFactory(name="Ithor Expedition")
    player = MembershipFactory(campaign=campaign).user
    base = live_server.url
    SHOTS.mkdir(exist_ok=True)

    # The GM makes new characters wait for approval and adds the Ithorian to the library.
    gm = log_in(browser, base, campaign.created_by, DESKTOP)
    gm.goto(f"{base}/campaigns/{campaign.pk}/")
    gm.get_by_role("link", name="Edit campaign").click()
    gm.get_by_label("New characters need the GM's approval").check()
    gm.get_by_role("button", name="Save").click()
    expect(gm.get_by_text("Campaign saved.")).to_be_visible()
    gm.get_by_role("link", name="Library", exact=True).click()
    gm.get_by_role("link", name="Add a species").click()
    gm.get_by_label("Name", exact=True).fill("Ithorian")
    for label, (low, high) in ITHORIAN_LIMITS.items():
        gm.get_by_label(f"{label} minimum").fill(low)
        gm.get_by_label(f"{label} maximum").fill(high)
    gm.get_by_label("Move", exact=True).fill("9")
    gm.get_by_label("Maximum Move").fill("11")
    gm.get_by_label("Special abilities").fill("Bellow: a deafening roar (3D stun, 10 metres).")
    gm.get_by_role("button", name="Add to the library").click()
    expect(gm.get_by_text("added to the library")).to_be_visible()

    # The player, on his phone, builds an Ithorian.
    page = log_in(browser, base, player, PHONE)
    page.goto(f"{base}/campaigns/{campaign.pk}/characters/new/")
    page.get_by_role("button", name="Start").click()
    expect(page.get_by_role("heading", name=re.compile("Species"))).to_be_visible()
    page.get_by_label("Species", exact=True).select_option("Ithorian")
    expect(page.locator("#species-details")).to_contain_text("Move 9 (at most 11)")
    expect(page.locator("#species-details")).to_contain_text("Bellow: a deafening roar")
    page.screenshot(path=str(SHOTS / "wizard-library-species-phone.png"), full_page=True)
    save_and_continue(page, "Attributes")

    expect(page.get_by_text("Ithorian: 2D to 5D")).to_be_visible()  # Strength's limits
    for label, code in {**ATTRIBUTES, "Strength": "5D+1"}.items():
        page.get_by_label(label, exact=True).fill(code)
    budget = page.locator("#budget")
    expect(budget).to_contain_text("Strength 5D+1 is above the species maximum 5D")
    save_and_continue(page, "Skills")
    fill_skills(
        page,
        [
            ("blaster", "dexterity", "6D"),
            ("dodge", "dexterity", "5D"),
            ("search", "perception", "4D+2"),
            ("space transports", "mechanical", "5D"),
        ],
    )
    expect(budget).to_contain_text("7D of 7D")
    save_and_continue(page, "Force")
    save_and_continue(page, "Gear")
    save_and_continue(page, "Background")
    page.get_by_label("Name", exact=True).fill("Oolo Thrann")
    save_and_continue(page, "Review")

    # Above the species' maximum: not sent without a word to the GM.
    expect(budget).to_contain_text("Strength 5D+1 is above the species maximum 5D")
    page.get_by_role("button", name="Send to the GM for approval").click()
    expect(page.get_by_text(re.compile("Not sent: the creation rules refuse"))).to_be_visible()
    page.get_by_role("link", name="Change attributes").click()
    page.get_by_label("Strength", exact=True).fill("4D+1")
    expect(budget).not_to_contain_text("above the species maximum")
    save_and_continue(page, "Skills")
    page.get_by_role("link", name="Review").click()
    expect(budget).to_contain_text("No problems.")
    page.get_by_role("button", name="Send to the GM for approval").click()
    expect(page.get_by_role("heading", name="Awaiting the GM's approval")).to_be_visible()
    page.screenshot(path=str(SHOTS / "wizard-awaiting-phone.png"), full_page=True)
    assert not Character.objects.exists()  # nothing to roll with yet

    # The GM returns it with a reason.
    gm.goto(f"{base}/campaigns/{campaign.pk}/")
    gm.get_by_role("link", name="Characters awaiting approval (1)").click()
    gm.get_by_role("link", name="Oolo Thrann").click()
    expect(gm.get_by_text("Nothing: it keeps to the campaign's creation rules.")).to_be_visible()
    gm.get_by_label("Reason").fill("Ithorians are peaceful: blaster 5D at most, please.")
    gm.screenshot(path=str(SHOTS / "draft-review-desktop.png"), full_page=True)
    gm.get_by_role("button", name="Return with a reason").click()
    expect(gm.get_by_text("was returned to its player")).to_be_visible()

    # The player sees the reason on every step, fixes the skills and sends it again.
    page.goto(f"{base}/campaigns/{campaign.pk}/")
    expect(page.locator("#sent-drafts")).to_contain_text("blaster 5D at most")
    page.get_by_role("link", name="Oolo Thrann").click()
    reason = page.locator("#returned-reason")
    expect(reason).to_contain_text("Ithorians are peaceful: blaster 5D at most, please.")
    page.get_by_role("link", name="Change skills").click()
    expect(reason).to_contain_text("blaster 5D at most")
    page.get_by_label("Code 1", exact=True).fill("5D")
    page.get_by_role("button", name="Add skill").click()
    page.get_by_label("Skill 5", exact=True).fill("scholar")
    page.get_by_label("Attribute 5", exact=True).select_option("knowledge")
    page.get_by_label("Code 5", exact=True).fill("4D")
    expect(budget).to_contain_text("7D of 7D")
    save_and_continue(page, "Force")
    page.get_by_role("link", name="Review").click()
    page.get_by_label("Note to the GM").fill("Blaster down to 5D, scholar 4D instead.")
    page.get_by_role("button", name="Send to the GM for approval").click()
    expect(page.get_by_role("heading", name="Awaiting the GM's approval")).to_be_visible()
    expect(page.locator("#returned-reason")).to_have_count(0)
    assert not Character.objects.exists()

    # The GM approves: only now the character exists.
    gm.goto(f"{base}/campaigns/{campaign.pk}/characters/drafts/")
    gm.get_by_role("link", name="Oolo Thrann").click()
    expect(gm.get_by_text("Blaster down to 5D, scholar 4D instead.")).to_be_visible()
    gm.get_by_role("button", name="Approve").click()
    expect(gm.get_by_role("heading", name="Oolo Thrann", level=1)).to_be_visible()
    character = Character.objects.get()
    assert (character.owner, character.species, character.move) == (player, "Ithorian", 9)
    assert not CreationDraft.objects.exists()

    # The player rolls blaster from the sheet.
    page.goto(f"{base}/campaigns/{campaign.pk}/")
    page.get_by_role("link", name="Oolo Thrann").click()
    expect(page.get_by_role("heading", name="Oolo Thrann", level=1)).to_be_visible()
    page.get_by_role("button", name=re.compile(r"blaster\s+5D")).click()
    panel = page.locator("#roll-area")
    panel.get_by_role("button", name="Roll", exact=True).click()
    expect(panel.locator(".roll-total")).to_be_visible()
    roll = DiceRoll.objects.get()
    assert (roll.character_id, roll.code) == (character.pk, "5D")
    expect(panel.locator(".roll-total")).to_contain_text(str(roll.total))
    page.screenshot(path=str(SHOTS / "approved-roll-phone.png"), full_page=False)
