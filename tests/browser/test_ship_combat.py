"""Issue 18's journey in Chromium, end to end: a player builds a droid that goes over budget
(the error live), fixes it, saves it and rolls one of its skills; the GM types a freighter's
stat block for the party and seats one player's character as pilot and the other's as gunner;
in an encounter a starfighter hits the freighter, the pilot (on his phone) dodges first, the
hit takes a damage result, and the ship sheet shows the result and its limit on the pilot's
next roll. Screenshots go to /work/notes/shots/issue18/ (looked at by hand)."""

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import services
from characters.craft_models import Craft
from characters.models import Character, DiceRoll
from characters.tests.factories import CharacterFactory, SkillFactory
from encounters import views
from rules import roll
from rules.craft import CraftState
from rules.dice import DieCode, FixedDice, SeededDice
from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, log_in, new_stat_block, seat

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = Path("/work/notes/shots/issue18")
SEED = 18

# The fight's dice, in the order the engine draws them (ordinary dice, then the Wild Die).
INITIATIVE = [2, 2, 5, 5, 5, 4]  # the rebels' Perception 2D: 4; the TIE's crew 4D: 19
DODGE = [1, 1, 1, 1, 1, 2]  # Han: 5D + 2D maneuverability less 1D (a second action) = 7
ATTACK = [5, 5, 5, 5, 5, 4]  # the TIE: crew 4D + fire control 2D = 29 against the dodge's 7
DAMAGE = [4, 4, 4, 4, 4]  # laser cannons 5D = 20
HULL = [3, 3, 2, 2]  # hull 4D = 10: a margin of 10, heavily damaged [2E-STD 9-12]
TABLE = [1]  # the heavy table's 1: -2D maneuverability


def test_droid_then_a_crewed_freighter_hit_by_a_starfighter(live_server, browser, monkeypatch):
    monkeypatch.setattr(services, "SystemDice", lambda: SeededDice(SEED))
    campaign = CampaignFactory(name="Outer Rim")
    p1 = MembershipFactory(campaign=campaign).user
    p2 = MembershipFactory(campaign=campaign).user
    han = CharacterFactory(campaign=campaign, owner=p1, name="Han", perception=DieCode(2))
    chewie = CharacterFactory(campaign=campaign, owner=p2, name="Chewie", perception=DieCode(2))
    SkillFactory(character=han, name="Space transports", attribute="mechanical", code="5D")
    SkillFactory(character=chewie, name="Starship gunnery", attribute="mechanical", code="5D")
    for user in (campaign.created_by, p1, p2):
        user.set_password(PASSWORD)
        user.save()
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)

    # --- Player one builds a droid on his phone: over budget, fixed, saved, rolled ----------
    pilot = log_in(browser, base, p1, PHONE)
    pilot.goto(f"{base}/campaigns/{campaign.pk}/")
    pilot.get_by_role("link", name="Build a droid").click()
    budget = pilot.locator("#budget")
    pilot.get_by_label("Name", exact=True).fill("K-9X")
    pilot.get_by_label("Model", exact=True).fill("K-series scout")
    pilot.get_by_label("Dexterity", exact=True).fill("3D")
    pilot.get_by_label("Strength", exact=True).fill("14D")
    expect(budget).to_contain_text("75D of 65D, 10D over")
    pilot.get_by_label("Strength", exact=True).fill("2D")
    expect(budget).to_contain_text("15D of 65D, 50D left")
    pilot.get_by_label("Skill 1", exact=True).fill("blaster")
    pilot.get_by_label("Attribute 1", exact=True).select_option("dexterity")
    pilot.get_by_label("Code 1", exact=True).fill("5D")
    pilot.get_by_role("button", name="Build the droid").click()
    expect(pilot.get_by_role("heading", name="K-9X")).to_be_visible()
    pilot.get_by_role("button", name=re.compile(r"blaster\s+5D")).click()
    panel = pilot.locator("#roll-area")
    panel.get_by_role("button", name="Roll", exact=True).click()
    expected = roll(DieCode(5), ruleset=campaign.ruleset, rng=SeededDice(SEED))
    expect(panel.locator(".roll-total")).to_have_text(str(expected.total))
    droid = Character.objects.get(name="K-9X")
    assert droid.nature == "droid" and DiceRoll.objects.filter(character=droid).count() == 1

    # --- The GM types the party's freighter and a TIE, and crews the freighter ---------------
    gm = log_in(browser, base, campaign.created_by, DESKTOP)
    new_stat_block(
        gm,
        base,
        campaign,
        name="Stellar Envoy",
        hull="4D",
        shields="1D",
        weapons="Quad laser | 2D | 6D | turret",
        owner="party",
        piloting="space transports",
    )
    seat(gm, "Pilot", han)
    seat(gm, "Gunner: Quad laser", chewie)
    gm.screenshot(path=str(SHOTS / "ship-crewed-desktop.png"), full_page=True)
    new_stat_block(
        gm,
        base,
        campaign,
        name="TIE fighter",
        hull="2D",
        shields="",
        weapons="Laser cannons | 2D | 5D | front",
        owner="",
        piloting="",
    )

    # --- The fight: both craft join from the add page ---------------------------------------
    faces = FixedDice([*INITIATIVE, *DODGE, *ATTACK, *DAMAGE, *HULL, *TABLE])
    monkeypatch.setattr(views, "dice", lambda: faces)
    gm.goto(f"{base}/campaigns/{campaign.pk}/encounters/")
    gm.get_by_label("Name").fill("Escape from Mos Eisley")
    gm.get_by_role("button", name="Start").click()
    form = gm.locator("form:has(input[value=craft])")
    form.get_by_label("Vehicle or starship").select_option(label="Stellar Envoy")
    form.get_by_label("Side").fill("rebels")
    form.get_by_role("button", name="Add to the fight").click()
    expect(gm.get_by_text("Stellar Envoy, Han, Chewie joined the fight")).to_be_visible()
    form = gm.locator("form:has(input[value=craft])")
    form.get_by_label("Vehicle or starship").select_option(label="TIE fighter")
    form.get_by_label("Side").fill("empire")
    form.get_by_label("Unnamed crew's skill").fill("4D")
    form.get_by_role("button", name="Add to the fight").click()
    expect(gm.get_by_text("TIE fighter joined the fight")).to_be_visible()
    gm.get_by_role("link", name="Go to the fight").click()
    gm.get_by_role("button", name="Roll initiative").click()
    gm.get_by_role("button", name="empire act first").click()
    ship = Craft.objects.get(name="Stellar Envoy")
    tie = Craft.objects.get(name="TIE fighter")
    for cid in (f"craft-{tie.pk}", f"pc-{han.pk}", f"pc-{chewie.pk}"):
        row = gm.locator(f"#row-{cid}")
        row.get_by_role("button", name="Declare").click()
        expect(row).to_contain_text("Actions 1")
    expect(gm.locator(f"#row-craft-{ship.pk}")).to_contain_text("Maneuverability 2D · hull 4D")
    attack = gm.locator("form.attack-form")
    attack.get_by_label("Attacker", exact=True).select_option(label="TIE fighter")
    attack.get_by_label("Target", exact=True).select_option(label="Stellar Envoy")
    attack.get_by_label("Difficulty", exact=True).fill("10")
    attack.get_by_label("Weapon").select_option(value="0")  # gun 1 of the attacker's craft
    attack.get_by_role("button", name="Announce the attack").click()
    expect(gm.locator("#enc-status")).to_contain_text("TIE fighter fires Laser cannons")

    # --- The pilot dodges from his phone: piloting plus maneuverability ----------------------
    pilot.goto(f"{base}/campaigns/{campaign.pk}/encounters/")
    pilot.get_by_role("link", name="Escape from Mos Eisley").click()
    expect(pilot.get_by_text("Stellar Envoy is under attack: you fly it.")).to_be_visible()
    expect(pilot.locator("section.you")).to_contain_text("Starship dodge 7D")
    pilot.screenshot(path=str(SHOTS / "ship-dodge-phone.png"), full_page=True)
    pilot.get_by_role("button", name="Dodge").click()
    expect(pilot.locator("#enc-log-list")).to_contain_text("Han rolls starship dodge: 7")

    # --- The GM rolls it: a hit, a damage result ----------------------------------------------
    log = gm.locator("#enc-log-list")
    expect(log).to_contain_text("Han rolls starship dodge: 7")  # the GM's page follows (poll)
    gm.get_by_role("button", name="Roll the attack and damage").click()
    expect(log).to_contain_text("TIE fighter rolls 29 against 7 and hits Stellar Envoy")
    expect(log).to_contain_text(
        "Stellar Envoy takes 20 damage against hull 10: heavily damaged (-2D maneuverability)"
    )
    expect(gm.locator(f"#row-craft-{ship.pk}")).to_contain_text("heavily damaged")
    gm.screenshot(path=str(SHOTS / "ship-combat-gm-desktop.png"), full_page=True)
    ship.refresh_from_db()
    assert CraftState.from_json(ship.damage).maneuverability_lost == 2

    # --- The ship sheet shows the result and its limit on the pilot's next roll -------------
    pilot.goto(f"{base}/campaigns/{campaign.pk}/craft/{ship.pk}/")
    expect(pilot.locator("#damage-status")).to_contain_text("Heavily damaged")
    limit = pilot.get_by_role("row", name=re.compile(r"^Pilot Han")).locator(".station-limit")
    expect(limit).to_contain_text("Maneuverability 2D → 0D")
    pilot.screenshot(path=str(SHOTS / "ship-sheet-damaged-phone.png"), full_page=True)
    pilot.get_by_role("link", name="Roll for Pilot").click()
    expect(pilot.locator("#combined-code")).to_have_text("5D")  # 5D + (2D - 2D)
    pilot.get_by_role("button", name="Roll").click()
    expect(pilot.locator(".roll-total")).to_be_visible()
    rolled = DiceRoll.objects.filter(character=han).latest("pk")
    assert rolled.code == "5D"
