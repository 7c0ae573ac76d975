"""One school at a time under concurrency, on PostgreSQL (SQLite serialises whole-database
writes, which proves nothing): two requests enrol the same character in two schools at once;
one is enrolled, the other refused with the reason, and only the first one's CP moved."""

from __future__ import annotations

import threading

import pytest
from django.db import connections

from characters.models import LedgerEntry
from characters.school_models import Enrolment
from characters.schools import SchoolError, enrol_character
from characters.tests.test_schools import house_campaign, nco, student
from conftest import needs_services

pytestmark = [pytest.mark.django_db(transaction=True), needs_services()]


def test_two_schools_at_once_from_two_requests_enrol_one():
    campaign = house_campaign()
    hero = student(campaign, cp=20)
    schools = [nco(campaign), nco(campaign, name="Pilot School", cp_cost=3)]
    start = threading.Barrier(2)
    outcomes: list[object] = [None, None]

    def body(i):
        try:
            start.wait(10)
            school = schools[i]
            outcomes[i] = enrol_character(
                campaign.pk, school.pk, hero.pk, actor=hero.owner, pay=school.cp_cost
            )
        except Exception as exc:  # reported by the assertions
            outcomes[i] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    refused = [o for o in outcomes if isinstance(o, SchoolError)]
    enrolled = [o for o in outcomes if isinstance(o, Enrolment)]
    assert len(refused) == 1 and len(enrolled) == 1, outcomes
    assert "one school at a time" in str(refused[0])
    assert Enrolment.objects.filter(character=hero).count() == 1
    hero.refresh_from_db()
    assert hero.character_points == 20 - enrolled[0].cp_paid
    assert LedgerEntry.objects.filter(character=hero, reason__startswith="Paid for").count() == 1
