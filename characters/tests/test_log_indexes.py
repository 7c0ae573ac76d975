"""The dice log's queries use the index that matches them (issue 14): with a big table of
another campaign's rolls, PostgreSQL's plans walk roll_campaign_newest in order, without a
sequential scan of the rolls or a sort."""

from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.live import time_of, visible_rolls
from characters.models import DiceRoll
from conftest import needs_services

pytestmark = [pytest.mark.django_db, needs_services(), pytest.mark.services]


@pytest.fixture
def big_log():
    other, ours = CampaignFactory(), CampaignFactory()
    now = timezone.now()

    def rolls(campaign, n):
        return [
            DiceRoll(
                campaign=campaign,
                label="Blaster",
                code="4D",
                pool="4D",
                dice={"normal": [1, 2, 3], "wild": [4]},
                total=10,
                hidden=i % 3 == 0,
                created_at=now - timedelta(seconds=i),
            )
            for i in range(n)
        ]

    DiceRoll.objects.bulk_create(rolls(other, 50_000), batch_size=5000)
    DiceRoll.objects.bulk_create(rolls(ours, 300))
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {DiceRoll._meta.db_table}")
    return ours


def plan(queryset) -> str:
    return queryset.explain()


def test_the_logs_queries_walk_the_index_in_order(big_log):
    # One table, every query the log makes: page, newer than a cursor (the live poll), older
    # than a cursor (paging), as a player (hidden rolls filtered) and as a GM.
    plans = {}
    for viewer in ("player", "gm"):
        rolls = visible_rolls(MembershipFactory(campaign=big_log, role=viewer))
        plans[viewer, "page"] = plan(rolls[:21])
        plans[viewer, "newer"] = plan(rolls.filter(created_at__gt=time_of(1))[:50])
        older = timezone.now() - timedelta(seconds=100)
        plans[viewer, "older"] = plan(rolls.filter(created_at__lt=older)[:21])
    for case, text in plans.items():
        assert "roll_campaign_newest" in text, (case, text)
        assert "Seq Scan" not in text and "Sort" not in text, (case, text)
