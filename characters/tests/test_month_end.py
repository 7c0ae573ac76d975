"""[HOUSE] CP posted at the month's end (characters-and-advancement.md §3.4): in a House campaign
the CP awarded at the end of an adventure wait in the character's pending slot, and advancing
the calendar past a month's end (day 35, 70, ...) posts them to his Character Points, both
moves through the ledger. Run on PostgreSQL too:
``scripts/test.sh --no-cov characters/tests/test_month_end.py``."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from characters import downtime
from characters.advancement import Award, award_all
from characters.downtime import run_advance, start_advance
from characters.models import Character, LedgerEntry, TimeAdvance
from characters.month_end import next_posting_day, post_pending_cp
from characters.tasks import advance_time
from characters.tests.advancement_fixtures import campaign_for, character_with

pytestmark = pytest.mark.django_db
celery_app = advance_time.app


@pytest.fixture
def eager():
    """Celery as ``make run`` has it without Redis: the advance runs at once."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


def _house(game_day=30, cp=4):
    campaign = campaign_for("house", game_day=game_day, era="8 BBY")
    kira = character_with(campaign, cp=cp, name="Kira")
    tomas = character_with(campaign, cp=0, name="Tomas")
    return campaign, kira, tomas


def _balances(*characters):
    return [
        tuple(Character.objects.values_list("character_points", "pending_cp").get(pk=c.pk))
        for c in characters
    ]


def _ledger(character):
    return list(
        LedgerEntry.objects.filter(character=character)
        .order_by("pk")
        .values_list("currency", "delta", "balance_after", "reason")
    )


def _text(response) -> str:
    return re.sub(r"\s+", " ", response.content.decode()).strip()


def _words(response) -> str:
    """The page's text as read, without its tags."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())).strip()


def test_in_a_house_campaign_awarded_cp_wait_in_the_pending_slot():
    campaign, kira, tomas = _house()
    lines = award_all(
        campaign,
        [
            Award(kira.pk, "Ord Mantell", cp=5, kill_bonus=2, fp=1),
            Award(tomas.pk, "Ord Mantell", cp=3),
        ],
        actor=campaign.created_by,
    )
    assert _balances(kira, tomas) == [(4, 7), (0, 3)]
    assert Character.objects.get(pk=kira.pk).force_points == 1  # FP are not held back
    assert [(line["currency"], line["delta"], line["balance_after"]) for line in lines] == [
        ("pcp", 5, 5),
        ("pcp", 2, 7),
        ("fp", 1, 1),
        ("pcp", 3, 3),
    ]
    assert _ledger(kira)[1:] == [
        ("pcp", 5, 5, "Ord Mantell"),
        ("pcp", 2, 7, "Kill bonus: Ord Mantell"),
        ("fp", 1, 1, "Ord Mantell"),
    ]


def test_outside_the_house_rules_awarded_cp_are_there_at_once():
    campaign = campaign_for("2e", game_day=30)
    kira = character_with(campaign, cp=4, name="Kira")
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=campaign.created_by)
    assert _balances(kira) == [(9, 0)]
    assert [e[0] for e in _ledger(kira)] == ["cp", "cp"]


def test_the_house_slot_cap_note_counts_the_points_pending():
    campaign, kira, _ = _house(cp=18)
    (line,) = award_all(campaign, [Award(kira.pk, "Kessel", cp=15)], actor=campaign.created_by)
    assert line["balance_after"] == 15
    assert "33 CP once the pending points are posted" in line["note"]
    assert "above the 20 CP slot cap" in line["note"]


def test_advancing_past_day_35_posts_every_pending_slot_through_the_ledger(eager):
    campaign, kira, tomas = _house(game_day=30)
    gm = campaign.created_by
    award_all(
        campaign,
        [Award(kira.pk, "Ord Mantell", cp=5), Award(tomas.pk, "Ord Mantell", cp=3)],
        actor=gm,
    )
    advance = start_advance(campaign, 4, actor=gm)  # to day 34: the month has not ended
    assert (advance.status, _balances(kira, tomas)) == ("done", [(4, 5), (0, 3)])
    advance = start_advance(campaign, 10, actor=gm)  # day 35 passes
    assert advance.status == "done"
    assert _balances(kira, tomas) == [(9, 0), (3, 0)]
    reason = "Posted at the end of the month (day 35)"
    assert _ledger(kira)[-2:] == [("pcp", -5, 0, reason), ("cp", 5, 9, reason)]
    assert _ledger(tomas)[-2:] == [("pcp", -3, 0, reason), ("cp", 3, 3, reason)]
    posted = [
        (line["day"], line["character"], line["posted"], line["to"]) for line in advance.report
    ]
    assert posted == [(35, "Kira", 5, 9), (35, "Tomas", 3, 3)]


def test_posting_twice_for_the_same_day_posts_once():
    campaign, kira, _ = _house(game_day=34)
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=campaign.created_by)
    first = post_pending_cp(campaign.pk, 35, seed=1)
    again = post_pending_cp(campaign.pk, 35, seed=1)
    assert (len(first), again) == (1, [])
    assert _balances(kira) == [(9, 0)]
    assert [e[:2] for e in _ledger(kira)] == [("cp", 4), ("pcp", 5), ("pcp", -5), ("cp", 5)]


@pytest.mark.parametrize("day", [0, 1, 34, 36, 69])
def test_nothing_is_posted_before_a_months_end(day):
    campaign, kira, _ = _house(game_day=0)
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=campaign.created_by)
    assert post_pending_cp(campaign.pk, day, seed=1) == []
    assert _balances(kira) == [(4, 5)]


def test_only_the_campaigns_own_pending_slots_are_posted():
    campaign, kira, _ = _house(game_day=34)
    other, stranger, _ = _house(game_day=34)
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=campaign.created_by)
    award_all(other, [Award(stranger.pk, "Elsewhere", cp=6)], actor=other.created_by)
    post_pending_cp(campaign.pk, 70, seed=1)
    assert _balances(kira, stranger) == [(9, 0), (4, 6)]


def test_a_retried_day_after_a_crash_posts_once():
    """The day's transaction rolls back whole when a later handler fails; the redone day
    posts the points once."""
    campaign, kira, _ = _house(game_day=34)
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=campaign.created_by)

    def boom(campaign_id, day, *, seed):
        raise RuntimeError("the holonet is down")

    advance = TimeAdvance.objects.create(
        campaign=campaign, from_day=34, to_day=35, day_reached=34, status="queued", seed=7
    )
    failed = run_advance(advance.pk, handlers=(*downtime.HANDLERS, boom))
    assert failed.status == "failed"
    assert _balances(kira) == [(4, 5)]  # the day rolled back, posting with it
    advance.refresh_from_db()
    advance.status = "running"
    advance.save(update_fields=["status"])
    assert run_advance(advance.pk).status == "done"
    assert run_advance(advance.pk).status == "done"
    assert _balances(kira) == [(9, 0)]
    assert [e[:2] for e in _ledger(kira)][-2:] == [("pcp", -5), ("cp", 5)]


def test_posting_is_a_downtime_handler():
    assert post_pending_cp in downtime.HANDLERS


@pytest.mark.parametrize(("today", "posted_on"), [(0, 35), (30, 35), (34, 35), (35, 70), (71, 105)])
def test_pending_points_are_posted_on_the_next_months_end(today, posted_on):
    assert next_posting_day(today) == posted_on


def test_the_sheet_shows_the_pending_points_and_the_day_they_are_posted(client):
    campaign, kira, tomas = _house(game_day=30)
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=campaign.created_by)
    client.force_login(kira.owner)
    sheet = reverse("characters:sheet", args=[campaign.pk, kira.pk])
    assert "Pending CP: 5 (posted at the end of the month, day 35)" in _words(client.get(sheet))
    client.force_login(tomas.owner)
    other = reverse("characters:sheet", args=[campaign.pk, tomas.pk])
    assert "Pending CP" not in _words(client.get(other))


def test_the_report_says_what_was_posted(client, eager):
    campaign, kira, _ = _house(game_day=34)
    gm = campaign.created_by
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=gm)
    start_advance(campaign, 1, actor=gm)
    client.force_login(gm)
    page = _text(client.get(reverse("characters:calendar", args=[campaign.pk])))
    # Under Kira's heading (the report groups its lines by character).
    assert "Day 35</strong> · 5 pending CP posted at the end of the month: 4 → 9 CP" in page
    assert page.index("Kira") < page.index("5 pending CP posted")


def test_the_sheets_live_balances_show_the_pending_points(client):
    """The live poll swaps the sheet's balances in: the pending line comes with them."""
    campaign, kira, _ = _house(game_day=36)
    award_all(campaign, [Award(kira.pk, "Ord Mantell", cp=5)], actor=campaign.created_by)
    client.force_login(kira.owner)
    live = reverse("characters:live", args=[campaign.pk])
    response = client.get(live, {"v": "0", "sheet": kira.pk})
    assert response.status_code == 200
    assert "Pending CP: 5 (posted at the end of the month, day 70)" in _words(response)
