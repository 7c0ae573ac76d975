"""Healing over days under concurrency, on PostgreSQL (SQLite serialises whole-database writes,
which proves nothing): two copies of the downtime handler run for the same day at once (a
redelivered task while the first is alive) and the natural-healing roll is made once (H-58)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from campaigns.tests.factories import CampaignFactory
from characters.healing import heal_due
from characters.healing_models import HealingCourse, HealingEvent
from characters.models import Character
from characters.tests.factories import CharacterFactory
from conftest import needs_services
from rules import FixedDice

pytestmark = [pytest.mark.django_db(transaction=True), needs_services()]


def _run(*targets):
    outcomes: list[object] = [None] * len(targets)

    def body(i, target):
        try:
            outcomes[i] = target()
        except Exception as exc:  # reported by the test's assertions
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i, t)) for i, t in enumerate(targets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


def test_H58_two_copies_of_the_same_day_at_once_make_one_event():
    assert connection.vendor == "postgresql"
    campaign = CampaignFactory()
    hero = CharacterFactory(campaign=campaign, wound_level="wounded", strength="3D")
    for day in (1, 2, 3):  # the course opens on day 0; days 0-2 end without a roll
        assert heal_due(campaign.pk, day, seed=1) == []
    locked, release = threading.Event(), threading.Event()

    def slow_dice(seed, key):  # called with the rows locked, inside the first copy's work
        locked.set()
        assert release.wait(30)
        return FixedDice([2, 2, 3])  # 7: healed

    def first():
        return heal_due(campaign.pk, 4, seed=1, rng_for=slow_dice)

    def second():
        assert locked.wait(30)
        # lists the character (the first has not committed), then waits on his row lock
        timer = threading.Timer(0.5, release.set)
        timer.start()
        return heal_due(campaign.pk, 4, seed=1, rng_for=lambda seed, key: FixedDice([1, 1, 2]))

    one, two = _run(first, second)

    assert [line["to"] for line in one] == ["Healthy"]
    assert two == []
    assert list(HealingEvent.objects.values_list("day", "total")) == [(3, 7)]
    assert Character.objects.get(pk=hero.pk).wound_level == "none"
    assert HealingCourse.objects.get(character=hero).processed_through_day == 3


class _SlowDice:
    """Dice that wait (the rows locked) before the first face, then give ``faces``."""

    def __init__(self, faces, locked=None, release=None):
        self.faces, self.locked, self.release = list(faces), locked, release

    def d6(self):
        if self.locked is not None:
            self.locked.set()
            assert self.release.wait(30)
            self.locked = None
        return self.faces.pop(0)


def test_two_medpacs_at_once_are_one_after_the_other_the_second_one_level_harder():
    """Both players' medics reach for a medpac on the same patient at once: the second waits for
    the first and counts it (Easy, then Moderate, H-45), never two Easy ones."""
    from characters.healing import use_medpac
    from characters.models import DiceRoll
    from characters.tests.factories import SkillFactory

    assert connection.vendor == "postgresql"
    campaign = CampaignFactory()
    hero = CharacterFactory(campaign=campaign, wound_level="wounded_twice")
    medic = CharacterFactory(campaign=campaign, owner=hero.owner)
    SkillFactory(character=medic, name="first aid", attribute="technical", code="2D")
    locked, release = threading.Event(), threading.Event()
    ten = [5, 5]  # 2D: 10, short of 12 (no lock-out)

    def first():
        rng = _SlowDice([6, 6, *ten], locked, release)  # Easy 12
        return use_medpac(campaign.pk, hero.pk, actor=hero.owner, aider_id=medic.pk, rng=rng)

    def second():
        assert locked.wait(30)
        threading.Timer(0.5, release.set).start()
        rng = _SlowDice([4, 4, 4, *ten])  # Moderate (3D) 12
        return use_medpac(campaign.pk, hero.pk, actor=hero.owner, aider_id=medic.pk, rng=rng)

    one, two = _run(first, second)

    assert not isinstance(one, Exception) and not isinstance(two, Exception), (one, two)
    labels = [
        r.dice["medpac"]["difficulty"].split(" ")[0]
        for r in DiceRoll.objects.filter(character=medic).order_by("pk")
    ]
    assert labels == ["Easy", "Moderate"]
    assert HealingEvent.objects.filter(character=hero, kind="medpac").count() == 2
