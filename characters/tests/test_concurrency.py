"""Twenty simultaneous 1-CP spends on a character holding 10 CP, from separate database
connections: exactly ten succeed, ten are refused, the balance ends at 0 with 10 spends in the
ledger. Needs PostgreSQL (SQLite serialises whole-database writes, which proves nothing)."""

import threading

import pytest
from django.db import connection, connections

from characters.models import Currency, LedgerEntry
from characters.services import LedgerError, change_balance
from characters.tests.factories import CharacterFactory
from conftest import needs_services

pytestmark = [pytest.mark.django_db(transaction=True), needs_services()]


def test_twenty_simultaneous_spends_of_ten_cp_leave_exactly_ten_refused():
    assert connection.vendor == "postgresql"
    character = CharacterFactory()
    change_balance(character, Currency.CP, 10, "starting points")
    start = threading.Barrier(20)
    outcomes: list[str] = []
    lock = threading.Lock()

    def spend():
        try:
            start.wait()
            try:
                change_balance(character.pk, Currency.CP, -1, "simultaneous roll")
                result = "ok"
            except LedgerError as exc:
                result = f"refused: {exc}"
            with lock:
                outcomes.append(result)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=spend) for _ in range(20)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    character.refresh_from_db()
    refused = [o for o in outcomes if o.startswith("refused")]
    assert outcomes.count("ok") == 10
    assert len(refused) == 10
    assert all("not enough Character Points" in o for o in refused)
    assert character.character_points == 0
    spends = LedgerEntry.objects.filter(character=character, delta=-1)
    assert spends.count() == 10
    assert sorted(spends.values_list("balance_after", flat=True)) == list(range(10))
