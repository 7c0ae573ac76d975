from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from campaigns.backup_jobs import TRANSIENT_DB_ERRORS, RestoreJobNotFound, mark_failed, run_restore
from campaigns.models import Invitation

STALE_AFTER = timedelta(days=30)
NOT_FOUND_RETRIES = 10
"""Seconds (one retry a second) the restore waits for the upload's transaction to commit."""


@shared_task
def purge_stale_invitations() -> int:
    """Delete invitations that expired or were revoked more than 30 days ago (run daily by
    beat). Returns how many were deleted."""
    cutoff = timezone.now() - STALE_AFTER
    deleted, _ = Invitation.objects.filter(
        Q(expires_at__lt=cutoff) | Q(revoked_at__lt=cutoff)
    ).delete()
    return deleted


@shared_task(bind=True, acks_late=True, ignore_result=True, max_retries=NOT_FOUND_RETRIES)
def restore_backup(self, job_id: int, user_id: int | None = None) -> dict[str, Any]:
    """Restore an uploaded backup as a new campaign: :func:`campaigns.backup_jobs.run_restore`
    of the job.

    Acknowledged late: a worker killed mid-restore leaves the message unacknowledged and the
    broker delivers it again; the killed run's transaction wrote nothing that stays, and the
    next run restores the file from the start (a job already done is left as it is). Published
    inside the transaction that stores the upload, it may arrive before that commits: it then
    waits for the uploader's row, which that transaction holds (``user_id``), and if the job
    is still missing (the upload rolled back) retries a second later. A database error that
    may pass is retried too, with backoff. Its result is not stored: the RestoreJob row is
    what the page reads."""
    try:
        job = run_restore(job_id, user_id=user_id)
    except RestoreJobNotFound as exc:
        if self.request.is_eager:
            raise
        raise self.retry(exc=exc, countdown=1) from None
    except TRANSIENT_DB_ERRORS as exc:
        if self.request.is_eager or self.request.retries >= self.max_retries:
            with contextlib.suppress(TRANSIENT_DB_ERRORS):  # the database is away: say it if we can
                mark_failed(job_id, exc)
            raise
        raise self.retry(exc=exc, countdown=min(60, 2**self.request.retries)) from None
    return {"job": job_id, "status": job.status if job is not None else "deleted"}
