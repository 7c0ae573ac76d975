"""Advancement under concurrency, on PostgreSQL (SQLite serialises whole-database writes, which
proves nothing): two time advances completing the same training, the GM approving and refusing
the same request at once, two requests for the same skill at once. Each is applied once."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from characters.advancement import approve, complete_due, refuse, request_advancement
from characters.models import Advancement, LedgerEntry, Skill
from characters.tests.advancement_fixtures import campaign_for, character_with
from conftest import needs_services
from rules import FixedDice
from rules.advancement import AdvancementError

pytestmark = [pytest.mark.django_db(transaction=True), needs_services()]

Status = Advancement.Status


def _run(*targets):
    outcomes: list[object] = [None] * len(targets)

    def body(i, target):
        try:
            outcomes[i] = target()
        except AdvancementError as exc:
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i, t)) for i, t in enumerate(targets)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return outcomes


def test_a_second_advance_waiting_on_the_lock_finds_the_training_done():
    assert connection.vendor == "postgresql"
    campaign = campaign_for("2e")
    character = character_with(campaign, dexterity="3D+2")
    advancement = request_advancement(character, "attribute", "dexterity", actor=character.owner)
    locked, release = threading.Event(), threading.Event()

    def slow_dice(seed, pk):  # called with the row locked, inside the first advance's transaction
        locked.set()
        assert release.wait(30)
        return FixedDice([5, 5, 3, 4, 4, 4, 4, 3])  # 17 against 15: half back

    def first():
        return complete_due(campaign.pk, 210, seed=1, rng_for=slow_dice)

    def second():
        assert locked.wait(30)
        # lists the training (not committed yet), then waits on its lock
        threading.Timer(1.0, release.set).start()
        return complete_due(campaign.pk, 210, seed=1, rng_for=lambda s, p: FixedDice([1] * 8))

    one, two = _run(first, second)
    assert [line["cp_back"] for line in one] == [15]
    assert two == []
    advancement.refresh_from_db()
    character.refresh_from_db()
    assert advancement.status == Status.FAILED
    assert character.character_points == 85
    assert LedgerEntry.objects.filter(character=character, delta=15).count() == 1


def test_approving_and_refusing_at_once_applies_exactly_one():
    campaign = campaign_for("2e", approve_advancement=True)
    character = character_with(campaign, cp=10, skills=[("blaster", "4D+2")])
    advancement = request_advancement(character, "skill", "blaster", actor=character.owner)
    gm = campaign.created_by
    start = threading.Barrier(2)

    def approving():
        start.wait()
        return approve(advancement, actor=gm)

    def refusing():
        start.wait()
        return refuse(advancement, actor=gm, reason="No")

    outcomes = _run(approving, refusing)
    errors = [o for o in outcomes if isinstance(o, AdvancementError)]
    assert len(errors) == 1
    assert "already" in str(errors[0])
    advancement.refresh_from_db()
    character.refresh_from_db()
    if advancement.status == Status.REFUSED:
        assert character.character_points == 10
    else:
        assert advancement.status == Status.TRAINING
        assert character.character_points == 6


def test_two_requests_for_the_same_skill_at_once_hold_the_cp_once():
    campaign = campaign_for("2e")
    character = character_with(campaign, cp=10, skills=[("blaster", "4D+2")])
    start = threading.Barrier(2)

    def asking():
        start.wait()
        return request_advancement(character, "skill", "blaster", actor=character.owner)

    outcomes = _run(asking, asking)
    assert sum(isinstance(o, AdvancementError) for o in outcomes) == 1
    character.refresh_from_db()
    assert character.character_points == 6
    assert Advancement.objects.filter(character=character).count() == 1
    assert str(Skill.objects.get(character=character).code) == "4D+2"
