"""Healing over days on the real stack: PostgreSQL, Redis and Celery worker processes. A
worker advances a campaign 60 days with an incapacitated hero resting and a mortally wounded
one in a bacta tank; it is killed (SIGKILL) in the middle and restarted, and the healing rolls,
the bacta treatment and the sheets end exactly as in a clean run with the same seed."""

import os
import signal

import pytest

from campaigns.models import Campaign
from campaigns.tests.factories import CampaignFactory
from characters import downtime
from characters.downtime import start_advance
from characters.healing import start_bacta
from characters.healing_models import HealingCourse, HealingEvent
from characters.models import Character, TimeAdvance
from characters.tests.factories import CharacterFactory
from characters.tests.test_advance_services import Workers, finished, wait_for
from characters.tests.test_downtime import celery_app
from conftest import needs_services
from rules import DieCode

pytestmark = [pytest.mark.services, needs_services(), pytest.mark.django_db(transaction=True)]

SEED = 20260119


@pytest.fixture
def workers(tmp_path):
    started = Workers(tmp_path)
    yield started
    started.stop()


def build(campaign: Campaign) -> dict:
    """Rook incapacitated, resting; Tala mortally wounded, in a bacta tank from day 0 (2E: 1D
    days). Returns what a rerun starts from."""
    CharacterFactory(campaign=campaign, name="Rook", wound_level="incapacitated", strength="3D")
    tala = CharacterFactory(
        campaign=campaign, name="Tala", wound_level="mortally_wounded", strength="3D"
    )
    start_bacta(
        campaign.pk, tala.pk, actor=campaign.created_by, medicine=True, code=DieCode.parse("4D")
    )
    return {
        "courses": list(HealingCourse.objects.filter(character__campaign=campaign).values()),
        "levels": list(
            Character.objects.filter(campaign=campaign).values_list("pk", "wound_level")
        ),
    }


def reset(campaign: Campaign, start: dict) -> None:
    TimeAdvance.objects.filter(campaign=campaign).delete()
    HealingEvent.objects.filter(character__campaign=campaign).exclude(kind="bacta_time").delete()
    kept = [row["id"] for row in start["courses"]]
    HealingCourse.objects.filter(character__campaign=campaign).exclude(pk__in=kept).delete()
    for row in start["courses"]:
        values = {k: v for k, v in row.items() if k not in ("id", "character_id")}
        HealingCourse.objects.filter(pk=row["id"]).update(**values)
    for pk, level in start["levels"]:
        Character.objects.filter(pk=pk).update(wound_level=level)
    Campaign.objects.filter(pk=campaign.pk).update(game_day=0)
    campaign.refresh_from_db()


def final_state(campaign: Campaign) -> tuple:
    return (
        sorted(Character.objects.filter(campaign=campaign).values_list("name", "wound_level")),
        sorted(
            HealingEvent.objects.filter(character__campaign=campaign).values_list(
                "character__name", "kind", "day", "total", "level_after", "dice"
            )
        ),
        Campaign.objects.get(pk=campaign.pk).game_day,
    )


def test_a_worker_killed_mid_advance_heals_like_a_clean_run(workers, monkeypatch):
    campaign = CampaignFactory(name="Healing, killed and restarted")
    start = build(campaign)
    monkeypatch.setattr(downtime, "new_seed", lambda: SEED)
    eager, celery_app.conf.task_always_eager = celery_app.conf.task_always_eager, True
    try:
        clean = start_advance(campaign, 60, actor=campaign.created_by)  # the clean run, at once
    finally:
        celery_app.conf.task_always_eager = eager
    assert clean.status == "done", clean.error
    expected = final_state(campaign)
    kinds = {(name, kind) for name, kind, *_ in expected[1]}
    assert {("Rook", "natural"), ("Tala", "bacta_time"), ("Tala", "bacta")} <= kinds
    reset(campaign, start)

    first = workers.start("characters.tests.advance_worker", "doomed", day_seconds=0.1)
    advance = start_advance(campaign, 60, actor=campaign.created_by)
    wait_for(advance, lambda a: a.day_reached >= 20)
    os.kill(first.pid, signal.SIGKILL)
    first.wait(timeout=10)
    advance.refresh_from_db()
    assert advance.status == "running"
    assert advance.day_reached < 60

    workers.start("characters.tests.advance_worker", "restarted", day_seconds=0.1)
    wait_for(advance, finished)

    assert advance.status == "done", advance.error
    assert final_state(campaign) == expected
    healing_lines = [line for line in advance.report if line.get("kind") == "healing"]
    assert len(healing_lines) == len(expected[1]) - 1  # every roll once (the tank's time: no line)
