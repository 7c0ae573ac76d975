"""Advancing a campaign's game time: the GM's "advance N days" as a job.

:func:`start_advance` checks the request, records a :class:`~characters.models.TimeAdvance`
keyed by (campaign, target day) and hands it to the Celery task
:func:`characters.tasks.advance_time`, which calls :func:`run_advance`. That moves the
campaign's date one day at a time: for each day it runs every downtime handler in
:data:`HANDLERS` (today the advancement service's ``complete_due``; improvement projects,
healing and schools plug in the same way), then moves ``Campaign.game_day`` and
``TimeAdvance.day_reached`` and appends the day's report lines.

One day is one transaction, handlers included. A worker killed in the middle of a day
(SIGKILL) loses that day's transaction whole; the broker redelivers the task (``acks_late``)
and the next run carries on from ``day_reached``, so nothing is applied twice and the report
has every line once. Each day's transaction first locks the advance's row and applies only
the day after ``day_reached``, so two runs of the same advance (a redelivery while the first
is still alive) take turns instead of doubling anything. Rolls are seeded from the advance's
``seed`` and each advancement (the handler's business), so a resumed run makes the same rolls
as a clean one.

Why a day per transaction: the day is the game's unit (what falls due on day 12 lands before
day 13 begins), the progress bar moves by days, a crash costs at most one day's work, and the
locks a day takes on characters are held only for that day. Its own cost is three statements a
day (lock the row, move the date, record the day) and the commit, small beside what the
handlers do (bench/advance.py counts them).

The task is published inside the transaction that records the advance, so a broker that is
down rolls the row back with it: the GM gets :class:`AdvanceError` and nothing is saved.
Without a broker (``make run``: Celery eager) the same code runs at once, in that transaction.
"""

from __future__ import annotations

import logging
import re
import secrets
import uuid
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from kombu.exceptions import KombuError

from campaigns.models import Campaign, Membership
from characters import live
from characters.advancement import complete_due
from characters.healing import heal_due
from characters.models import TimeAdvance
from characters.month_end import post_pending_cp
from characters.projects import projects_due
from characters.repair_jobs import repairs_due
from characters.schools import schools_due

logger = logging.getLogger(__name__)

MAX_DAYS = 3650
"""The longest advance at once: ten years of 365 days."""

Handler = Callable[..., list[dict[str, Any]]]
"""A downtime handler: ``handler(campaign_id, day, *, seed) -> list[dict]``. It does what
falls due on ``day`` for the campaign and returns JSON-safe report lines. It runs inside the
day's transaction and must be idempotent per day (a day is redone whole after a crash, and a
handler that finds its work already done returns nothing for it)."""


HANDLERS: tuple[Handler, ...] = (
    complete_due,
    schools_due,
    heal_due,
    projects_due,
    repairs_due,
    post_pending_cp,
)
"""Every downtime handler, run in this order for each day of an advance: the trainings that
end (:func:`characters.advancement.complete_due`), the [HOUSE] schools that are over
(:func:`characters.schools.schools_due`), healing over the day that ended
(:func:`characters.healing.heal_due`), the improvement projects' work
(:func:`characters.projects.projects_due`), the repairs of craft and droids
(:func:`characters.repair_jobs.repairs_due`), then, on a month's end, the [HOUSE] pending CP posted
(:func:`characters.month_end.post_pending_cp`)."""

PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
"""How long the GM's click waits for a broker that does not answer: about two seconds."""


TRANSIENT_DB_ERRORS = (OperationalError, InterfaceError)
"""Database errors that may pass (a lost connection, a deadlock): the task retries on them."""


class AdvanceError(ValueError):
    """An advance that was refused; the message says why. Nothing was changed."""


class AdvanceNotFound(LookupError):
    """The task's advance is not (or not yet) in the database."""


def new_seed() -> int:
    """A fresh seed for an advance's rolls (fits the BigIntegerField)."""
    return secrets.randbits(63)


_WHOLE = re.compile(r"\+?\d{1,7}")


def parse_days(value: object) -> int:
    """The number of days to advance: a whole number from 1 to :data:`MAX_DAYS`, given as a
    number or as text (a form field). :class:`AdvanceError` otherwise."""
    message = f"Advance by a whole number of days from 1 to {MAX_DAYS:,}."
    if isinstance(value, bool):
        raise AdvanceError(message)
    if isinstance(value, str):
        text = value.strip()
        if not _WHOLE.fullmatch(text):
            raise AdvanceError(message)
        value = int(text)
    if not isinstance(value, int) or not 1 <= value <= MAX_DAYS:
        raise AdvanceError(message)
    return value


def start_advance(
    campaign: Campaign, days: object, *, actor, from_day: int | None = None
) -> TimeAdvance:
    """Advance ``campaign`` by ``days`` game days, as a job; returns its :class:`TimeAdvance`.

    ``from_day`` is the date the GM saw when clicking (the form sends it); by default the
    ``campaign`` object's ``game_day``. The advance is keyed by (campaign, ``from_day`` +
    ``days``): a double click, or a click on a page that did not see its first click finish,
    finds the same row and enqueues nothing; a failed advance asked for again resumes where it
    stopped. Refused with :class:`AdvanceError`, nothing saved, when ``actor`` is not a GM of
    the campaign, when ``days`` is not a whole number from 1 to :data:`MAX_DAYS`, when
    another advance of the campaign is under way, when the date moved since the GM's page
    showed it, or when the broker cannot take the job.

    The job is published inside the transaction that records it: if the broker is down the
    row is rolled back with it. A worker that gets the task before the commit waits for it on
    the campaign's row, which this transaction holds. Without a broker (``make run``: Celery
    eager) the advance runs here and now, in this transaction."""
    days = parse_days(days)
    if not _is_gm(campaign, actor):
        raise AdvanceError("Only the campaign's GM can advance its time.")
    base = campaign.game_day if from_day is None else from_day
    if isinstance(base, bool) or not isinstance(base, int) or base < 0:
        raise AdvanceError("The day to advance from must be a whole number, 0 or more.")
    to_day = base + days
    try:
        with transaction.atomic():
            locked = Campaign.objects.select_for_update().get(pk=campaign.pk)
            existing = TimeAdvance.objects.filter(campaign=locked, to_day=to_day).first()
            if existing is not None:
                advance = _same_advance(locked, existing)
            else:
                if locked.game_day != base:
                    raise AdvanceError(
                        f"The campaign's date is now day {locked.game_day}, not day {base}: "
                        "nothing was advanced. Look at the date again and advance from there."
                    )
                _refuse_if_under_way(locked)
                advance = TimeAdvance.objects.create(
                    campaign=locked,
                    from_day=base,
                    to_day=to_day,
                    day_reached=base,
                    status=TimeAdvance.Status.QUEUED,
                    seed=new_seed(),
                    task_id=str(uuid.uuid4()),
                    requested_by=actor,
                )
                _enqueue(advance)
    except IntegrityError:
        # Another click got in between (PostgreSQL's unique constraints say so): nothing of
        # this one was saved.
        raise AdvanceError(
            "Another advance of this campaign is already under way: wait for it to finish."
        ) from None
    campaign.game_day = Campaign.objects.values_list("game_day", flat=True).get(pk=campaign.pk)
    advance.refresh_from_db()
    return advance


def _is_gm(campaign: Campaign, actor) -> bool:
    if actor is None or getattr(actor, "pk", None) is None:
        return False
    membership = Membership.objects.filter(campaign_id=campaign.pk, user_id=actor.pk).first()
    return membership is not None and membership.is_gm


def _same_advance(campaign: Campaign, advance: TimeAdvance) -> TimeAdvance:
    """The advance to the same day asked for again: the same row; a failed one is resumed."""
    if advance.status != TimeAdvance.Status.FAILED:
        return advance
    if advance.day_reached != campaign.game_day:
        raise AdvanceError(
            f"The advance to day {advance.to_day} failed at day {advance.day_reached}, and the "
            f"campaign's date is now day {campaign.game_day}: it cannot be resumed."
        )
    _refuse_if_under_way(campaign)
    advance.status = TimeAdvance.Status.QUEUED
    advance.error = ""
    advance.finished_at = None
    advance.task_id = str(uuid.uuid4())
    advance.save(update_fields=["status", "error", "finished_at", "task_id"])
    _enqueue(advance)
    return advance


def _refuse_if_under_way(campaign: Campaign) -> None:
    busy = (
        TimeAdvance.objects.filter(
            campaign=campaign, status__in=[TimeAdvance.Status.QUEUED, TimeAdvance.Status.RUNNING]
        )
        .order_by()
        .first()
    )
    if busy is not None:
        raise AdvanceError(
            f"An advance to day {busy.to_day} is already under way ({busy.progress}% done): "
            "wait for it to finish."
        )


def _enqueue(advance: TimeAdvance) -> None:
    """Publish the task, inside the caller's transaction; the broker down is an AdvanceError
    (and the transaction, the row with it, rolls back)."""
    from characters.tasks import advance_time  # here: the tasks module imports this one

    try:
        advance_time.apply_async(
            (advance.pk,),
            {"campaign_id": advance.campaign_id},
            task_id=advance.task_id,
            retry=True,
            retry_policy=PUBLISH_RETRY,
        )
    except (KombuError, OSError) as exc:
        logger.warning("advance %s not queued: the broker is unreachable (%s)", advance.pk, exc)
        raise AdvanceError(
            "The job queue cannot be reached, so time was not advanced: nothing changed. "
            "Try again in a moment."
        ) from None


# ---------------------------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------------------------
def run_advance(
    advance_id: int, *, campaign_id: int | None = None, handlers: tuple[Handler, ...] | None = None
) -> TimeAdvance:
    """Apply the advance ``advance_id`` from the day after ``day_reached`` to ``to_day``, one
    transaction per day, and return it. Idempotent and resumable: a done or failed advance is
    left as it is; a queued or running one carries on from ``day_reached``.

    An exception from a handler (or anything else unexpected) marks the advance failed with
    the reason; the day it happened in is rolled back and the days after it are not applied.
    Database errors that may pass (a lost connection, a deadlock) are raised instead, for the
    task to retry.

    ``campaign_id`` (the task gets it): the advance's campaign. The click publishes the task
    before its transaction commits, holding the campaign's row until then; when the advance
    is not there yet, waiting for that row lock waits for the click's commit.
    :class:`AdvanceNotFound` when there is no such advance even so."""
    handlers = HANDLERS if handlers is None else handlers
    with transaction.atomic():
        advance = TimeAdvance.objects.select_for_update().filter(pk=advance_id).first()
        if advance is None and campaign_id is not None:
            list(Campaign.objects.select_for_update(no_key=True).filter(pk=campaign_id))
            advance = TimeAdvance.objects.select_for_update().filter(pk=advance_id).first()
        if advance is None:
            raise AdvanceNotFound(f"no time advance {advance_id}")
        if advance.status in (TimeAdvance.Status.DONE, TimeAdvance.Status.FAILED):
            return advance
        if advance.status == TimeAdvance.Status.QUEUED:
            advance.status = TimeAdvance.Status.RUNNING
            advance.save(update_fields=["status"])
    try:
        while _advance_one_day(advance_id, handlers):
            pass
    except TRANSIENT_DB_ERRORS:
        raise
    except Exception as exc:
        logger.exception("time advance %s failed", advance_id)
        mark_failed(advance_id, exc)
    return TimeAdvance.objects.get(pk=advance_id)


def _advance_one_day(advance_id: int, handlers: tuple[Handler, ...]) -> bool:
    """Apply the day after ``day_reached``, whole, in one transaction. False when there is
    nothing left to do (done, failed, or another run finished it)."""
    with transaction.atomic():
        advance = TimeAdvance.objects.select_for_update().get(pk=advance_id)
        if advance.status != TimeAdvance.Status.RUNNING or advance.day_reached >= advance.to_day:
            return False
        day = advance.day_reached + 1
        lines: list[dict[str, Any]] = []
        for handler in handlers:
            lines.extend(
                {"day": day, **line}
                for line in handler(advance.campaign_id, day, seed=advance.seed)
            )
        # The date never goes back (if the GM set it by hand meanwhile, it stays).
        Campaign.objects.filter(pk=advance.campaign_id, game_day__lt=day).update(game_day=day)
        advance.day_reached = day
        fields = ["day_reached"]
        if lines:
            advance.report = [*advance.report, *lines]
            fields.append("report")
        if day >= advance.to_day:
            advance.status = TimeAdvance.Status.DONE
            advance.finished_at = timezone.now()
            fields += ["status", "finished_at"]
        advance.save(update_fields=fields)
        live.bump(advance.campaign_id, public=True)
        return advance.status == TimeAdvance.Status.RUNNING


def mark_failed(advance_id: int, exc: BaseException) -> None:
    """Record that the advance stopped on ``exc``; the days applied so far stay applied."""
    reason = f"{type(exc).__name__}: {exc}"
    error_field = TimeAdvance._meta.get_field("error")
    with transaction.atomic():
        TimeAdvance.objects.filter(
            pk=advance_id, status__in=[TimeAdvance.Status.QUEUED, TimeAdvance.Status.RUNNING]
        ).update(
            status=TimeAdvance.Status.FAILED,
            error=reason[: error_field.max_length],
            finished_at=timezone.now(),
        )
