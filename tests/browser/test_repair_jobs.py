"""A craft repair worked in downtime, in Chromium (issue 19): the GM records a hit on the party's
freighter (seeded: the damage table shows 1, -1D maneuverability); the player, on his phone,
asks for the repair and starts it as a downtime job; the GM advances a day on the calendar
(the job's dice seeded: a failed roll, then 20 against Easy 10); the ship sheet shows
"Repaired on day 11 (2 rolls)", the damage gone and Han's credits debited through the ledger.
Pictures in test-artifacts/repair-jobs/."""

import pytest
from playwright.sync_api import expect

from campaigns.models import Campaign
from characters import craft_views, repair_jobs
from characters.craft_models import Craft, RepairRequest
from characters.craft_services import create_craft
from characters.models import LedgerEntry
from characters.tests.factories import CharacterFactory, SkillFactory
from rules.dice import FixedDice
from tests.browser.conftest import ARTIFACTS
from tests.browser.helpers import DESKTOP, PASSWORD, PHONE, log_in
from tests.browser.test_craft_repairs import FREIGHTER

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SHOTS = ARTIFACTS / "repair-jobs"


def test_a_player_starts_a_repair_as_a_downtime_job_and_an_advance_finishes_it(
    browser, live_server, monkeypatch, eager
):
    han = CharacterFactory(name="Han", credits=50_000)
    SkillFactory(character=han, name="space transports repair", attribute="technical", code="5D")
    campaign = han.campaign
    Campaign.objects.filter(pk=campaign.pk).update(game_day=10)
    for user in (han.owner, campaign.created_by):
        user.set_password(PASSWORD)
        user.save()
    ship = create_craft(campaign, FREIGHTER, party=True, value=100_000)
    ship.stations.filter(role="engineer").update(character=han)
    base = live_server.url
    SHOTS.mkdir(parents=True, exist_ok=True)

    # The GM records a hit: damage 14 against hull 8: lightly damaged; the 1D table shows 1.
    monkeypatch.setattr(craft_views, "dice", lambda: FixedDice([1]))
    gm = log_in(browser, base, campaign.created_by, DESKTOP)
    gm.goto(f"{base}{ship.get_absolute_url()}")
    gm.get_by_text("Record a hit").click()
    gm.get_by_label("Damage roll total").fill("14")
    gm.get_by_label("Hull roll total").fill("8")
    gm.get_by_role("button", name="Record the hit").click()
    expect(gm.locator("#damage")).to_contain_text("Maneuverability -1D")

    # The player, on his phone, asks for the repair and has it worked in downtime.
    player = log_in(browser, base, han.owner, PHONE)
    player.goto(f"{base}{ship.get_absolute_url()}")
    player.get_by_label("Repair", exact=True).select_option("maneuverability")
    player.get_by_label("Paid by").select_option(str(han.pk))
    player.get_by_role("button", name="Ask for the repair").click()
    expect(player.get_by_text("Repair asked for: maneuverability -1D")).to_be_visible()
    repair = RepairRequest.objects.get()
    job_box = player.locator(f"#repair-job-{repair.pk}")
    job_box.get_by_label("Pace").select_option("normal")
    job_box.get_by_role("button", name="Work on it in downtime (Han)").click()
    expect(player.get_by_text("Under way since day 10: Han rolls 5D against 10")).to_be_visible()
    expect(player.locator(f"#repair-job-{repair.pk}")).to_contain_text(
        "every 15 minutes of work, 8 hours a day"
    )
    player.screenshot(path=str(SHOTS / "under-way-phone.png"), full_page=True)

    # The GM advances a day: the job's dice are seeded (6 fails, then 20 against Easy 10).
    monkeypatch.setattr(
        repair_jobs, "job_dice", lambda seed, key: FixedDice([1, 1, 1, 1, 2, *[4] * 5])
    )
    gm.goto(f"{base}/campaigns/{campaign.pk}/calendar/")
    gm.get_by_label("Advance by (days)").fill("1")
    gm.get_by_role("button", name="Advance", exact=True).click()
    expect(gm.locator("#advance")).to_contain_text("Done: day 11 reached")
    expect(gm.locator("#advance")).to_contain_text("Repaired on day 11 (2 rolls)")

    # The ship sheet shows it repaired, and the credits went through the ledger.
    player.goto(f"{base}{ship.get_absolute_url()}")
    expect(player.locator(f"#repair-job-{repair.pk}")).to_contain_text(
        "Repaired on day 11 (2 rolls)"
    )
    expect(player.locator(f"#repair-job-{repair.pk}")).to_contain_text("Day 11: 2 rolls (6, 20)")
    expect(player.locator("#damage-status")).to_contain_text("Undamaged")
    player.screenshot(path=str(SHOTS / "repaired-phone.png"), full_page=True)
    player.goto(f"{base}{han.get_absolute_url()}")
    expect(player.locator("dd").filter(has_text="40000")).to_be_visible()
    assert Craft.objects.get(pk=ship.pk).damage is None
    entry = LedgerEntry.objects.get(character=han, currency="credits")
    assert entry.delta == -10_000 and entry.roll.total == 20
