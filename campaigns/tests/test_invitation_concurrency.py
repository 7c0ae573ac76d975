"""Ten people joining through one link at the same moment, from separate database connections:
the link's use counter says 10 (an update computed in Python from a stale read said 3).
Needs PostgreSQL (SQLite serialises whole-database writes, which proves nothing)."""

import threading

import pytest
from django.db import connection, connections
from django.test import Client

from campaigns.models import Membership
from campaigns.tests.factories import InvitationFactory, UserFactory
from conftest import needs_services

pytestmark = [pytest.mark.django_db(transaction=True), needs_services()]


def test_ten_simultaneous_joins_count_ten_uses():
    assert connection.vendor == "postgresql"
    invitation = InvitationFactory()
    users = [UserFactory() for _ in range(10)]
    start = threading.Barrier(10)
    statuses: list[int] = []
    lock = threading.Lock()

    def join(user):
        try:
            client = Client()
            client.force_login(user)
            start.wait()
            response = client.post(invitation.get_absolute_url())
            with lock:
                statuses.append(response.status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=join, args=(u,)) for u in users]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert statuses == [302] * 10
    assert Membership.objects.filter(campaign=invitation.campaign, role="player").count() == 10
    invitation.refresh_from_db()
    assert invitation.uses == 10
