"""Advancing a campaign's time as a job (characters.downtime, characters.tasks): the day loop
with a stand-in downtime handler, bad input, a double click, a broker that is down, and the
eager path of ``make run``. The real worker and the real handlers: test_advance_services.py."""

import pytest
from celery.exceptions import Retry
from kombu.exceptions import OperationalError as BrokerDown

from campaigns.models import Membership
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters import downtime, tasks
from characters.advancement import complete_due, request_advancement
from characters.downtime import AdvanceError, AdvanceNotFound, run_advance, start_advance
from characters.models import Currency, LedgerEntry, Skill, TimeAdvance
from characters.services import change_balance
from characters.tests.factories import CharacterFactory, SkillFactory

pytestmark = pytest.mark.django_db
celery_app = tasks.advance_time.app


class DayPay:
    """A stand-in downtime handler: each day it gives the character 1 CP through the ledger
    (so a day applied twice shows in the balance) and says so in a report line."""

    def __init__(self, character, fail_on: int | None = None):
        self.character = character
        self.fail_on = fail_on
        self.calls: list[tuple[int, int, int]] = []

    def __call__(self, campaign_id, day, *, seed):
        self.calls.append((campaign_id, day, seed))
        change_balance(self.character.pk, Currency.CP, 1, f"day {day}")
        if day == self.fail_on:
            raise RuntimeError(f"the holonet is down on day {day}")
        return [{"who": self.character.name, "what": "pay", "outcome": f"+1 CP on day {day}"}]

    @property
    def days(self) -> list[int]:
        return [day for _, day, _ in self.calls]


@pytest.fixture
def eager():
    """Celery as ``make run`` has it without Redis: tasks run at once, in the caller."""
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = before


class Publisher:
    """Stands in for the broker: records what was published and runs nothing."""

    def __init__(self, fail: Exception | None = None):
        self.fail = fail
        self.published: list[tuple] = []

    def __call__(self, args=None, kwargs=None, **options):
        if self.fail is not None:
            raise self.fail
        self.published.append((args, kwargs, options.get("task_id")))


@pytest.fixture
def broker(monkeypatch):
    publisher = Publisher()
    monkeypatch.setattr(tasks.advance_time, "apply_async", publisher)
    return publisher


@pytest.fixture
def campaign():
    return CampaignFactory()


@pytest.fixture
def hero(campaign):
    return CharacterFactory(campaign=campaign, name="Kira")


@pytest.fixture
def pay(monkeypatch, hero):
    handler = DayPay(hero)
    monkeypatch.setattr(downtime, "HANDLERS", (handler,))
    return handler


def cp(character) -> int:
    character.refresh_from_db()
    return character.character_points


# --- Bad input ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "days", [0, -5, "-5", "0", "text", "", "3 days", 2.5, "2.5", True, None, 3651, "3651", "1e3"]
)
def test_advancing_by_anything_but_1_to_3650_whole_days_is_refused_and_changes_nothing(
    campaign, broker, days
):
    with pytest.raises(AdvanceError, match="whole number of days from 1 to 3,650"):
        start_advance(campaign, days, actor=campaign.created_by)

    campaign.refresh_from_db()
    assert campaign.game_day == 0
    assert not TimeAdvance.objects.exists()
    assert broker.published == []


@pytest.mark.parametrize("days", [1, "7", " 30 ", 3650])
def test_whole_days_from_1_to_3650_are_accepted_as_numbers_or_text(campaign, broker, days):
    advance = start_advance(campaign, days, actor=campaign.created_by)

    assert advance.to_day == int(str(days).strip())
    assert advance.status == TimeAdvance.Status.QUEUED


def test_only_the_campaigns_gm_can_advance_its_time(campaign, hero, broker):
    other_gm = CampaignFactory().created_by

    for actor in (hero.owner, other_gm, None):
        with pytest.raises(AdvanceError, match="Only the campaign's GM"):
            start_advance(campaign, 5, actor=actor)

    assert not TimeAdvance.objects.exists()
    assert broker.published == []


def test_a_co_gm_can_advance_time(campaign, broker):
    co_gm = MembershipFactory(campaign=campaign, role=Membership.Role.CO_GM).user

    assert start_advance(campaign, 5, actor=co_gm).requested_by == co_gm


def test_advancing_from_a_date_the_campaign_has_left_is_refused(campaign, broker):
    campaign.game_day = 10
    campaign.save()

    with pytest.raises(AdvanceError, match="now day 10, not day 4"):
        start_advance(campaign, 5, actor=campaign.created_by, from_day=4)

    assert not TimeAdvance.objects.exists()


# --- One advance at a time, keyed by (campaign, target day) ------------------------------------
def test_the_advance_is_recorded_and_queued_with_its_task_id(campaign, broker):
    advance = start_advance(campaign, 30, actor=campaign.created_by)

    assert (advance.from_day, advance.to_day, advance.day_reached) == (0, 30, 0)
    assert advance.requested_by == campaign.created_by
    assert advance.progress == 0
    assert broker.published == [((advance.pk,), {"campaign_id": campaign.pk}, advance.task_id)]


def test_a_double_click_finds_the_same_advance_and_queues_it_once(campaign, broker):
    first = start_advance(campaign, 30, actor=campaign.created_by)
    again = start_advance(campaign, "30", actor=campaign.created_by)

    assert again.pk == first.pk
    assert TimeAdvance.objects.count() == 1
    assert len(broker.published) == 1


def test_a_double_click_while_the_first_has_moved_the_date_finds_the_same_advance(campaign, broker):
    first = start_advance(campaign, 30, actor=campaign.created_by)
    TimeAdvance.objects.filter(pk=first.pk).update(status="running", day_reached=12)
    campaign.game_day = 12
    campaign.save()

    again = start_advance(campaign, 30, actor=campaign.created_by, from_day=0)

    assert again.pk == first.pk
    assert len(broker.published) == 1


def test_a_second_advance_while_one_is_under_way_is_refused(campaign, broker):
    start_advance(campaign, 30, actor=campaign.created_by)

    with pytest.raises(AdvanceError, match="advance to day 30 is already under way"):
        start_advance(campaign, 5, actor=campaign.created_by)

    assert TimeAdvance.objects.count() == 1
    assert len(broker.published) == 1


def test_another_campaign_can_advance_at_the_same_time(campaign, broker):
    start_advance(campaign, 30, actor=campaign.created_by)
    other = CampaignFactory()

    assert start_advance(other, 30, actor=other.created_by).status == "queued"
    assert len(broker.published) == 2


def test_when_the_broker_is_down_the_gm_is_told_and_nothing_is_saved(monkeypatch, campaign):
    monkeypatch.setattr(
        tasks.advance_time,
        "apply_async",
        Publisher(fail=BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")),
    )

    with pytest.raises(AdvanceError, match=r"job queue cannot be reached.*nothing changed"):
        start_advance(campaign, 30, actor=campaign.created_by)

    campaign.refresh_from_db()
    assert campaign.game_day == 0
    assert not TimeAdvance.objects.exists()


# --- The day loop -------------------------------------------------------------------------------
def test_every_day_runs_every_handler_then_moves_the_date(campaign, hero, eager, pay):
    advance = start_advance(campaign, 5, actor=campaign.created_by)

    assert pay.calls == [(campaign.pk, day, advance.seed) for day in range(1, 6)]
    campaign.refresh_from_db()
    assert campaign.game_day == 5
    assert advance.status == TimeAdvance.Status.DONE
    assert advance.day_reached == 5
    assert advance.progress == 100
    assert advance.finished_at is not None
    assert [line["day"] for line in advance.report] == [1, 2, 3, 4, 5]
    assert advance.report[0] == {
        "day": 1,
        "who": "Kira",
        "what": "pay",
        "outcome": "+1 CP on day 1",
    }
    assert cp(hero) == 5


def test_handlers_run_in_registry_order_each_day(campaign, eager, monkeypatch):
    seen = []
    monkeypatch.setattr(
        downtime,
        "HANDLERS",
        (
            lambda c, day, *, seed: seen.append(("training", day)) or [],
            lambda c, day, *, seed: seen.append(("healing", day)) or [{"what": "healed"}],
        ),
    )

    advance = start_advance(campaign, 2, actor=campaign.created_by)

    assert seen == [("training", 1), ("healing", 1), ("training", 2), ("healing", 2)]
    assert advance.report == [{"day": 1, "what": "healed"}, {"day": 2, "what": "healed"}]


def test_the_advance_starts_from_the_campaigns_date(campaign, eager, pay):
    campaign.game_day = 40
    campaign.save()

    advance = start_advance(campaign, 3, actor=campaign.created_by)

    assert (advance.from_day, advance.to_day) == (40, 43)
    assert pay.days == [41, 42, 43]
    assert campaign.game_day == 43  # the caller's object follows the date


def test_a_double_click_in_eager_mode_runs_the_days_once(campaign, hero, eager, pay):
    first = start_advance(campaign, 5, actor=campaign.created_by, from_day=0)
    again = start_advance(campaign, 5, actor=campaign.created_by, from_day=0)

    assert again.pk == first.pk
    assert pay.days == [1, 2, 3, 4, 5]
    assert cp(hero) == 5
    campaign.refresh_from_db()
    assert campaign.game_day == 5


def queued(campaign, *, to_day, day_reached=None, status="queued", seed=7) -> TimeAdvance:
    return TimeAdvance.objects.create(
        campaign=campaign,
        from_day=campaign.game_day,
        to_day=to_day,
        day_reached=campaign.game_day if day_reached is None else day_reached,
        status=status,
        seed=seed,
    )


def test_a_run_resumes_after_the_last_day_applied(campaign, hero):
    """What a restarted worker does with the redelivered task: days 1-3 were applied by the
    killed one; days 4-6 remain."""
    campaign.game_day = 3
    campaign.save()
    advance = queued(campaign, to_day=6, day_reached=3, status="running")
    advance.from_day = 0
    advance.save()
    pay = DayPay(hero)

    advance = run_advance(advance.pk, handlers=(pay,))

    assert pay.days == [4, 5, 6]
    assert advance.status == "done"
    assert cp(hero) == 3


def test_running_a_finished_advance_again_changes_nothing(campaign, hero):
    advance = queued(campaign, to_day=4)
    pay = DayPay(hero)
    run_advance(advance.pk, handlers=(pay,))
    report = TimeAdvance.objects.get(pk=advance.pk).report

    again = run_advance(advance.pk, handlers=(pay,))

    assert pay.days == [1, 2, 3, 4]
    assert again.report == report
    assert cp(hero) == 4
    assert LedgerEntry.objects.filter(character=hero).count() == 4


def test_a_handler_error_fails_the_advance_keeping_the_days_before_it(campaign, hero):
    advance = queued(campaign, to_day=5)
    pay = DayPay(hero, fail_on=3)

    advance = run_advance(advance.pk, handlers=(pay,))

    assert advance.status == TimeAdvance.Status.FAILED
    assert advance.error == "RuntimeError: the holonet is down on day 3"
    assert advance.finished_at is not None
    assert advance.day_reached == 2
    assert pay.days == [1, 2, 3]  # nothing after the failed day
    campaign.refresh_from_db()
    assert campaign.game_day == 2
    # Day 3's own writes went with its transaction: two days paid, two report lines.
    assert cp(hero) == 2
    assert [line["day"] for line in advance.report] == [1, 2]


def test_a_failed_advance_asked_for_again_resumes_where_it_stopped(
    campaign, hero, eager, monkeypatch
):
    failing, pay = DayPay(hero, fail_on=3), DayPay(hero)
    monkeypatch.setattr(downtime, "HANDLERS", (failing,))
    first = start_advance(campaign, 5, actor=campaign.created_by, from_day=0)
    assert first.status == "failed"
    monkeypatch.setattr(downtime, "HANDLERS", (pay,))

    again = start_advance(campaign, 5, actor=campaign.created_by, from_day=0)

    assert again.pk == first.pk
    assert again.status == "done"
    assert again.error == ""
    assert pay.days == [3, 4, 5]
    assert cp(hero) == 5
    assert [line["day"] for line in again.report] == [1, 2, 3, 4, 5]


def test_an_advance_that_another_run_finished_is_left_alone(campaign, hero):
    advance = queued(campaign, to_day=3)
    TimeAdvance.objects.filter(pk=advance.pk).update(status="done", day_reached=3)
    pay = DayPay(hero)

    assert run_advance(advance.pk, handlers=(pay,)).status == "done"
    assert pay.calls == []


def test_running_an_unknown_advance_says_so(db):
    with pytest.raises(AdvanceNotFound):
        run_advance(987654, handlers=())


def test_the_default_handlers_complete_due_advancements():
    # Then the [HOUSE] schools that are over (characters/tests/test_schools.py), healing over
    # days (characters/tests/test_healing_days.py), projects, repairs and the [HOUSE] pending
    # CP posted at the month's end (characters/tests/test_month_end.py).
    assert downtime.HANDLERS[0] is complete_due
    assert [h.__name__ for h in downtime.HANDLERS[1:]] == [
        "schools_due",
        "heal_due",
        "projects_due",
        "repairs_due",
        "post_pending_cp",
    ]


def test_without_a_broker_the_advance_completes_trainings_in_the_clicking_request(campaign, eager):
    """``make run``'s embedded mode: the same code, run eagerly; the real handler completes a
    blaster pip trained with a teacher (4 CP, 4 days: C-19) on day 4."""
    gm = campaign.created_by
    kira = CharacterFactory(campaign=campaign, name="Kira")
    change_balance(kira, Currency.CP, 10, "adventure award", gm)
    SkillFactory(character=kira, name="blaster", code="4D+2", attribute="dexterity")
    blaster = request_advancement(kira, "skill", "blaster", actor=gm)

    advance = start_advance(campaign, 7, actor=gm)

    assert advance.status == "done"
    blaster.refresh_from_db()
    assert (blaster.status, blaster.completed_day) == ("done", 4)
    assert str(Skill.objects.get(character=kira, name="blaster").code) == "5D"
    assert cp(kira) == 6
    assert [(line["day"], line["target"], line["to"]) for line in advance.report] == [
        (4, "blaster", "5D")
    ]


# --- The Celery task ----------------------------------------------------------------------------
def test_the_task_runs_the_advance_and_returns_where_it_got(campaign, eager, pay):
    advance = queued(campaign, to_day=3)

    result = tasks.advance_time.delay(advance.pk).get()

    assert result == {"advance": advance.pk, "status": "done", "day_reached": 3}
    assert tasks.advance_time.name == "characters.tasks.advance_time"


def test_the_task_is_acknowledged_late_so_a_killed_worker_redelivers_it():
    assert tasks.advance_time.acks_late is True
    assert celery_app.conf.worker_prefetch_multiplier == 1


def test_a_task_whose_advance_is_missing_retries_a_second_later(monkeypatch, db):
    """The task waits for the click's commit on the campaign's row (test_advance_services); if
    the advance is still not there (that click rolled back), it tries again a second later
    instead of failing at once."""
    asked = {}

    def retry(exc=None, countdown=None, **kwargs):
        asked.update(exc=exc, countdown=countdown)
        return Retry("again", exc=exc)

    monkeypatch.setattr(tasks.advance_time, "retry", retry)
    tasks.advance_time.push_request(is_eager=False, retries=0)
    try:
        with pytest.raises(Retry):
            tasks.advance_time.run(987654)
    finally:
        tasks.advance_time.pop_request()

    assert isinstance(asked["exc"], AdvanceNotFound)
    assert asked["countdown"] == 1
