"""Celery tasks of the characters app: advancing a campaign's game time."""

from __future__ import annotations

import contextlib
from typing import Any

from celery import shared_task

from characters.downtime import TRANSIENT_DB_ERRORS, AdvanceNotFound, mark_failed, run_advance

NOT_FOUND_RETRIES = 10
"""Seconds (one retry a second) the task waits for the click's transaction to commit."""


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=NOT_FOUND_RETRIES)
def advance_time(self, advance_id: int, campaign_id: int | None = None) -> dict[str, Any]:
    """Advance a campaign's time: :func:`characters.downtime.run_advance` of the advance.

    Acknowledged late: a worker killed mid-advance leaves the message unacknowledged and the
    broker delivers it again; ``run_advance`` resumes after the last day applied. Published
    inside the transaction that records the advance, it may arrive before that commits: it
    then waits for the campaign's row, which that transaction holds (``campaign_id``), and
    if the advance is still missing (the click rolled back) retries a second later. A
    database error that may pass (a lost connection, a deadlock) is retried too, with
    backoff; the days already applied stay applied.

    Its result is not stored: the TimeAdvance row is what pages read (status, progress,
    report), and publishing without a result also keeps the web process off the result
    backend, whose reconnection failures are not the broker's clear error."""
    try:
        advance = run_advance(advance_id, campaign_id=campaign_id)
    except AdvanceNotFound as exc:
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=1) from None
    except TRANSIENT_DB_ERRORS as exc:
        if self.request.is_eager or self.request.retries >= self.max_retries:
            with contextlib.suppress(TRANSIENT_DB_ERRORS):  # the database is away: say it if we can
                mark_failed(advance_id, exc)
            raise
        raise self.retry(exc=exc, countdown=min(60, 2**self.request.retries)) from None
    return {"advance": advance.pk, "status": advance.status, "day_reached": advance.day_reached}
