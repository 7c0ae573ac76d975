"""Two GM tabs (or a double click) sending the same step on the same version at the same
moment, from separate database connections: exactly one applies, the other is refused as stale
and nothing is applied twice. Needs PostgreSQL (SQLite serialises whole-database writes, which
proves nothing)."""

import threading

import pytest
from django.db import connection, connections

from campaigns.tests.factories import CampaignFactory
from conftest import needs_services
from encounters.models import Encounter
from encounters.services import StaleEncounter, apply_step
from encounters.tests.helpers import ready_to_choose, started
from rules.dice import SeededDice
from rules.encounter import ChooseOrder, DeclareActions

pytestmark = [pytest.mark.django_db(transaction=True), needs_services()]


def test_the_same_step_sent_twice_at_once_applies_once():
    assert connection.vendor == "postgresql"
    encounter = started(CampaignFactory(), ready_to_choose())
    encounter, _ = apply_step(
        encounter.pk,
        ChooseOrder("rebels").to_json(),
        expected_version=0,
        actor=None,
        rng=SeededDice(1),
    )
    step = DeclareActions("kira", 2).to_json()
    start = threading.Barrier(2)
    outcomes: list[str] = []
    lock = threading.Lock()

    def press_next(seed: int) -> None:
        try:
            start.wait()
            try:
                apply_step(
                    encounter.pk,
                    step,
                    expected_version=1,
                    actor=encounter.created_by,
                    rng=SeededDice(seed),
                )
                result = "applied"
            except StaleEncounter as exc:
                result = f"stale: {exc} at {exc.encounter.version}"
            with lock:
                outcomes.append(result)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press_next, args=(seed,)) for seed in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert sorted(o.split(":")[0] for o in outcomes) == ["applied", "stale"]
    stale = next(o for o in outcomes if o.startswith("stale"))
    assert "someone else moved the encounter on; here is the new state" in stale
    assert stale.endswith("at 2")
    stored = Encounter.objects.get(pk=encounter.pk)
    assert stored.version == 2
    assert [s.command["type"] for s in stored.steps.all()] == ["choose_order", "declare_actions"]
    assert stored.current_state().combatant("kira").actions.total == 2


def test_two_gm_tabs_pressing_next_at_once_apply_the_step_once(client):
    """The same through the dashboard: two tabs of the GM post "End the round" for the same
    version at the same moment; one answers with the new round, the other (409) with the fight
    as it is now and the message, and the round ends once."""
    from django.test import Client
    from django.urls import reverse

    assert connection.vendor == "postgresql"
    encounter = started(CampaignFactory(), ready_to_choose())
    gm = encounter.created_by
    apply_step(
        encounter.pk,
        ChooseOrder("rebels").to_json(),
        expected_version=0,
        actor=gm,
        rng=SeededDice(1),
    )
    url = reverse("encounters:step", args=[encounter.campaign_id, encounter.pk])
    start = threading.Barrier(2)
    answers: list[tuple[int, str]] = []
    lock = threading.Lock()

    def press_next() -> None:
        try:
            tab = Client()
            tab.force_login(gm)
            start.wait()
            response = tab.post(url, {"seen": 1, "type": "end_round"}, HTTP_HX_REQUEST="true")
            with lock:
                answers.append((response.status_code, response.content.decode()))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=press_next) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)

    assert sorted(status for status, _ in answers) == [200, 409]
    stale = next(body for status, body in answers if status == 409)
    assert "Someone else moved the encounter on" in stale and "Round 2" in stale
    stored = Encounter.objects.get(pk=encounter.pk)
    assert stored.current_state().round == 2
    assert [s.command["type"] for s in stored.steps.all()] == ["choose_order", "end_round"]
