"""A fight at the table (issue 15), in Chromium with two people: the GM on a desktop starts an
encounter with Kira and four stormtroopers from a quick stat block, rolls initiative; the
player, on a phone, declares two actions and dodges; the GM fires the four troopers' combined
fire at Kira and she is wounded: her phone shows the wound and the −1D without a reload. The
GM undoes the last step and both pages agree again. The dice are fixed, never luck."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.tests.factories import CharacterFactory, SkillFactory
from encounters import views
from rules.dice import FixedDice

from .test_live_sheet import PASSWORD, logged_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
WITHIN = 2500  # ms: one 2 s poll, and the request itself
SHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "encounter"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


@pytest.fixture
def table():
    campaign = CampaignFactory(name="Outer Rim")
    gm = campaign.created_by
    player = MembershipFactory(campaign=campaign).user
    kira = CharacterFactory(
        campaign=campaign,
        owner=player,
        name="Kira",
        perception="3D",
        dexterity="3D",
        strength="2D",
        character_points=5,
    )
    SkillFactory(character=kira, name="blaster", attribute="dexterity", code="5D")
    SkillFactory(character=kira, name="dodge", attribute="dexterity", code="4D")
    for user in (gm, player):
        user.set_password(PASSWORD)
        user.save()
    return campaign, gm, player, kira


def test_a_combined_volley_wounds_kira_on_her_phone_and_undo_takes_it_back(
    live_server, browser, table, monkeypatch
):
    campaign, gm_user, player_user, kira = table
    faces = FixedDice(
        [
            5,
            5,
            5,  # initiative: Kira (Perception 3D) rolls 15 for the rebels
            2,
            2,  # the troopers' roller (Perception 2D): 4; the rebels win
            4,
            4,  # Stormtrooper 1 commands the volley: 3D less 1D (two actions): 8 against 5
            3,
            3,  # Kira's dodge: 4D less 2D (three actions) = 2D: 6
            4,
            4,
            4,
            4,  # the volley: blaster 4D less 1D (two actions) + 1D+1 = 4D+1: 17 vs 6
            3,
            3,
            3,
            2,
            2,  # damage: blaster rifle 5D: 13
            3,
            3,  # Kira's Strength 2D: 6; 13 - 6 = 7: wounded
        ]
    )
    monkeypatch.setattr(views, "dice", lambda: faces)
    base = live_server.url

    gm = logged_in(browser, base, gm_user, DESKTOP)
    gm.goto(f"{base}/campaigns/{campaign.pk}/")
    gm.get_by_role("link", name="Encounters").click()
    gm.get_by_label("Name").fill("Ambush at the docks")
    gm.get_by_role("button", name="Start").click()
    expect(gm.get_by_role("heading", name="Add combatants")).to_be_visible()
    gm.get_by_label(re.compile("Kira")).check()
    gm.locator("form:has(input[value=characters])").get_by_role(
        "button", name="Add to the fight"
    ).click()
    expect(gm.get_by_text("Kira joined the fight")).to_be_visible()
    block = gm.locator("form.statblock")
    block.get_by_label("Name").fill("Stormtrooper")
    block.get_by_label("Count").fill("4")
    block.get_by_label("Side").fill("empire")
    block.get_by_label("Skills").fill("blaster 4D, dodge 3D, command 3D")
    block.get_by_label("Weapon", exact=True).fill("blaster rifle")
    block.get_by_label("Damage").fill("5D")
    block.get_by_label("Ranges").fill("3-30/100/300")
    block.get_by_label("Armour").fill("+1D")
    _shot(gm, "01-add-combatants-desktop")
    block.get_by_role("button", name="Add to the fight").click()
    expect(gm.get_by_text("4 × Stormtrooper joined the fight")).to_be_visible()
    gm.get_by_role("link", name="Go to the fight").click()
    expect(gm.locator("#enc-rows > li")).to_have_count(5)

    player = logged_in(browser, base, player_user, PHONE)
    player.goto(gm.url)
    you = player.locator(".you")
    expect(you).to_contain_text("Kira")
    expect(you).to_contain_text("You have not declared this round.")

    gm.get_by_role("button", name="Roll initiative").click()
    expect(gm.locator("#enc-status")).to_contain_text("Side rebels won the initiative")
    gm.get_by_role("button", name="rebels act first").click()
    expect(gm.locator("#enc-status")).to_contain_text("Due: Kira")
    # Stormtrooper 1 leads the volley: he commands and fires (two actions, §8); the others
    # each combine their one shot.
    for n in range(1, 5):
        row = gm.locator(f"#row-sb-stormtrooper-{n}")
        row.get_by_label("Actions for").fill("2" if n == 1 else "1")
        row.get_by_role("button", name="Declare").click()
        expect(row).to_contain_text("2 left" if n == 1 else "1 left")

    # The player declares two actions on her phone; the GM's dashboard follows.
    you.get_by_label("Actions this round").fill("2")
    you.get_by_role("button", name="Declare").click()
    expect(you).to_contain_text("2 of 2 actions left")
    expect(gm.locator(f"#row-pc-{kira.pk}")).to_contain_text("2 left", timeout=WITHIN)

    # The GM announces the troopers' combined fire at Kira.
    attack = gm.locator("form.attack-form")
    attack.get_by_label("Attacker").select_option(label="Stormtrooper 1")
    attack.get_by_label("Target").select_option(label="Kira")
    attack.get_by_label("Difficulty", exact=True).fill("10")
    attack.get_by_text("Group or combined fire").click()
    combining = attack.locator("fieldset", has_text="Combining with the attacker")
    for n in (2, 3, 4):
        combining.get_by_label(f"Stormtrooper {n}").check()
    attack.get_by_label("Command difficulty").fill("5")
    attack.get_by_role("button", name="Announce the attack").click()
    expect(gm.locator("#enc-status")).to_contain_text("attack")

    # Kira sees it coming, with her odds, and dodges as an extra action.
    expect(you).to_contain_text("You are under attack", timeout=WITHIN)
    expect(you).to_contain_text("chance to beat the base difficulty 10")
    _shot(player, "02-player-under-attack-phone")
    you.get_by_role("button", name="Dodge").click()
    expect(you).to_contain_text("your dodge of 6 stands this round")

    expect(gm.locator(f"#row-pc-{kira.pk}")).to_contain_text("dodge 6 stands", timeout=WITHIN)
    gm.get_by_role("button", name="Roll the attack and damage").click()
    row = gm.locator(f"#row-pc-{kira.pk}")
    expect(row).to_contain_text("Wounded")
    expect(row).to_contain_text("−1D")
    _shot(gm, "03-gm-dashboard-after-volley-desktop")

    # Her phone shows the wound and the penalty without a reload.
    expect(you.locator("[data-wound]")).to_have_text("Wounded", timeout=WITHIN)
    expect(you).to_contain_text("−1D on every roll")
    _shot(player, "04-player-wounded-phone")

    # The GM undoes the volley: both pages agree again.
    gm.get_by_role("button", name="Undo last step").click()
    expect(row).not_to_contain_text("Wounded")
    expect(you.locator("[data-wound]")).to_have_text("None", timeout=WITHIN)
    expect(you).not_to_contain_text("−1D on every roll")
    gm_row = gm.locator(f"#row-pc-{kira.pk} .fighter-state").inner_text()
    player_row = player.locator(f"#row-pc-{kira.pk} .fighter-state").inner_text()
    assert gm_row == player_row
    assert gm.locator("#enc-seen").input_value() == player.locator("#enc-seen").input_value()
    _shot(player, "05-player-after-undo-phone")
