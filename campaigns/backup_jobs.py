"""Restoring a backup on the site, as a job: the upload is stored with a
:class:`~campaigns.models.RestoreJob` and restored by the Celery task
:func:`campaigns.tasks.restore_backup`, while the uploader's page shows its progress and then
what came of it (the problems with their places, or the new campaign with its notes). A big
campaign takes longer to restore than a web worker may take to answer (gunicorn's timeout),
hence the job; ``manage.py import_campaign`` stays synchronous.

:func:`start_restore` stores the file (in :class:`~campaigns.models.RestoreUpload` pieces, in
the database: the worker may not share the web process's disk) and publishes the task, both in
one transaction: a broker that is down rolls the job back with its file, and the uploader is
told that nothing was saved. The job is keyed by the upload form's ``key``, so the same form
sent twice finds the same job; a user has one restore under way at a time.

:func:`run_restore` (the task) is idempotent. It marks the job running, reads and checks the
whole file (nothing written), then writes the campaign and marks the job done, with its file
deleted, in one transaction that begins by locking the job's row. A worker killed in the middle
leaves nothing of the campaign behind; the broker hands the task out again (``acks_late``) and
the next run does it all again. A second run of the same job (a redelivery while the first is
alive) waits for that lock and finds the job done: never two campaigns from one job. Progress
inside that transaction is invisible to other connections, so it goes through the cache
(:func:`progress_of` reads it).

Without a broker (``make run``: Celery eager) the task runs at once, inside the upload's
transaction.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import IntegrityError, InterfaceError, OperationalError, transaction
from django.utils import timezone
from kombu.exceptions import KombuError

from campaigns.backup import BackupRefused, check_backup, read_backup
from campaigns.models import RestoreJob, RestoreUpload

logger = logging.getLogger(__name__)

UNDER_WAY = (RestoreJob.Status.QUEUED, RestoreJob.Status.RUNNING)
PIECE_BYTES = 1024 * 1024
"""The size of a :class:`RestoreUpload` piece: the upload is stored without ever being held
whole in the web process's memory."""

STALE_AFTER = timedelta(hours=1)
"""A job still queued or running this long after it was queued was lost (its message gone
with a broker that restarted empty): it is marked failed when its uploader restores another
backup, so it does not block them for ever. A restore of the largest file takes minutes."""

PUBLISH_RETRY = {"max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 1}
"""How long the upload waits for a broker that does not answer: about two seconds."""

TRANSIENT_DB_ERRORS = (OperationalError, InterfaceError)
"""Database errors that may pass (a lost connection, a deadlock): the task retries on them."""

PROGRESS_SECONDS = 24 * 3600
"""How long the cache keeps a job's progress (the job row has the outcome)."""

CHECKED = 40
"""Per cent of the job done once the file is read and checked; writing takes the rest."""

BROKER_DOWN = (
    "The job queue cannot be reached, so the backup was not restored: nothing was saved. "
    "Try again in a moment."
)


class RestoreRefused(ValueError):
    """An upload that was not queued; the message says why and nothing was saved. ``job``:
    the restore of the user's that is under way, when that is the reason."""

    def __init__(self, message: str, job: RestoreJob | None = None) -> None:
        super().__init__(message)
        self.job = job


class RestoreJobNotFound(LookupError):
    """The task's job is not (or not yet) in the database."""


# ---------------------------------------------------------------------------------------------
# Queueing
# ---------------------------------------------------------------------------------------------
def start_restore(user, upload, *, key: uuid.UUID, name: str = "") -> RestoreJob:
    """Store ``upload`` (a Django ``UploadedFile``) and queue its restore as a new campaign of
    ``user``'s, named ``name`` (empty: the file's). The same ``key`` again (the same form sent
    twice) returns that form's job and queues nothing. :class:`RestoreRefused`, nothing
    saved, when another restore of the user's is under way or the broker cannot take the job.

    The task is published inside the transaction that stores the job, which holds the user's
    row until it commits: a worker that gets the task first waits for that. Without a broker
    (Celery eager) the restore runs here and now, in this transaction."""
    found = RestoreJob.objects.filter(user=user, key=key).first()
    if found is not None:
        return found
    try:
        with transaction.atomic():
            # Two uploads of the same user take turns (and a quick worker waits on this row).
            list(get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk))
            found = RestoreJob.objects.filter(user=user, key=key).first()
            if found is not None:
                return found
            _give_up_stale(user)
            busy = RestoreJob.objects.filter(user=user, status__in=UNDER_WAY).first()
            if busy is not None:
                raise RestoreRefused(
                    f"Your restore of “{busy.filename or 'a backup'}” is still under way: wait "
                    "for it to finish before you restore another backup. Nothing was saved.",
                    job=busy,
                )
            job = RestoreJob.objects.create(
                user=user,
                key=key,
                filename=(upload.name or "")[: RestoreJob._meta.get_field("filename").max_length],
                size=upload.size or 0,
                name=name,
                task_id=str(uuid.uuid4()),
            )
            upload.seek(0)
            number = 0
            while piece := upload.read(PIECE_BYTES):
                RestoreUpload.objects.create(job=job, number=number, data=piece)
                number += 1
            _enqueue(job)
    except IntegrityError:
        # The same form, or another upload of the user's, got in between (PostgreSQL's
        # unique constraints say so): nothing of this one was saved.
        found = RestoreJob.objects.filter(user=user, key=key).first()
        if found is not None:
            return found
        raise RestoreRefused(
            "Another restore of yours is under way: wait for it to finish. Nothing was saved."
        ) from None
    job.refresh_from_db()
    return job


def _give_up_stale(user) -> None:
    cutoff = timezone.now() - STALE_AFTER
    for job in RestoreJob.objects.filter(user=user, status__in=UNDER_WAY, created_at__lt=cutoff):
        logger.warning("restore job %s lost: no worker finished it", job.pk)
        _end(
            job.pk,
            status=RestoreJob.Status.FAILED,
            error="No worker finished this restore; nothing was created. Upload the file again.",
        )


def _enqueue(job: RestoreJob) -> None:
    """Publish the task inside the caller's transaction; the broker down is RestoreRefused
    (and the transaction, the job and its file with it, rolls back)."""
    from campaigns.tasks import restore_backup  # here: the tasks module imports this one

    try:
        restore_backup.apply_async(
            (job.pk,),
            {"user_id": job.user_id},
            task_id=job.task_id,
            retry=True,
            retry_policy=PUBLISH_RETRY,
        )
    except (KombuError, OSError) as exc:
        logger.warning("restore job %s not queued: the broker is unreachable (%s)", job.pk, exc)
        raise RestoreRefused(BROKER_DOWN) from None


# ---------------------------------------------------------------------------------------------
# The job
# ---------------------------------------------------------------------------------------------
def run_restore(job_id: int, *, user_id: int | None = None) -> RestoreJob | None:
    """Restore the job's file as a new campaign and return the job. Idempotent: a done or
    failed job is left as it is; a queued or running one is (re)done from the start, its
    campaign written in one transaction that first locks the job and makes sure nobody
    finished it meanwhile.

    A refused file ends the job failed with its problems; anything unexpected ends it failed
    with a short reason (the details go to the log). None: the job was deleted meanwhile
    (with its uploader's account). Database errors that may pass (a lost connection, a
    deadlock) are raised instead, for the task to retry. ``user_id`` (the task gets it): the
    uploader, whose row the upload's transaction holds until it commits; when the job is not
    there yet, waiting for that row waits for the commit. :class:`RestoreJobNotFound` when
    there is no such job even so."""
    job = _claim(job_id, user_id)
    if job.status != RestoreJob.Status.RUNNING:
        return job
    try:
        _progress(job_id, "reading", 0, 0)
        loader = check_backup(
            read_backup(_file_of(job_id)),
            importer=job.user,
            name=job.name,
            progress=lambda stage, done, total: _progress(job_id, stage, done, total),
        )
    except BackupRefused as refused:
        return _end(job_id, status=RestoreJob.Status.FAILED, problems=refused.lines())
    except TRANSIENT_DB_ERRORS:
        raise
    except Exception as exc:
        logger.exception("restore job %s failed while checking", job_id)
        return mark_failed(job_id, exc)
    RestoreJob.objects.filter(pk=job_id, status=RestoreJob.Status.RUNNING).update(progress=CHECKED)
    try:
        with transaction.atomic():
            job = RestoreJob.objects.select_for_update().get(pk=job_id)
            if job.status != RestoreJob.Status.RUNNING:
                return job  # another run of the same job finished it while this one checked
            restored = loader.restore()
            job.status = RestoreJob.Status.DONE
            job.campaign = restored.campaign
            job.notes = restored.notes
            job.counts = restored.counts
            job.progress = 100
            job.finished_at = timezone.now()
            job.save(
                update_fields=["status", "campaign", "notes", "counts", "progress", "finished_at"]
            )
            RestoreUpload.objects.filter(job_id=job_id).delete()
    except TRANSIENT_DB_ERRORS:
        raise
    except Exception as exc:
        logger.exception("restore job %s failed while writing", job_id)
        return mark_failed(job_id, exc)
    _forget_progress(job_id)
    return job


def _claim(job_id: int, user_id: int | None) -> RestoreJob:
    with transaction.atomic():
        job = RestoreJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None and user_id is not None:
            list(get_user_model().objects.select_for_update(no_key=True).filter(pk=user_id))
            job = RestoreJob.objects.select_for_update().filter(pk=job_id).first()
        if job is None:
            raise RestoreJobNotFound(f"no restore job {job_id}")
        if job.status == RestoreJob.Status.QUEUED:
            job.status = RestoreJob.Status.RUNNING
            job.started_at = timezone.now()
            job.save(update_fields=["status", "started_at"])
    return job


def _file_of(job_id: int) -> bytes:
    pieces = (
        RestoreUpload.objects.filter(job_id=job_id)
        .order_by("number")
        .values_list("data", flat=True)
    )
    return b"".join(pieces.iterator(chunk_size=16))  # bytes, or memoryviews on PostgreSQL


def _end(job_id: int, *, status: str, problems=(), error: str = "") -> RestoreJob | None:
    """End a job still under way as ``status`` (with what went wrong) and delete its file;
    the job as it is now (None: deleted meanwhile, with its uploader)."""
    with transaction.atomic():
        RestoreJob.objects.filter(pk=job_id, status__in=UNDER_WAY).update(
            status=status, problems=list(problems), error=error, finished_at=timezone.now()
        )
        RestoreUpload.objects.filter(job_id=job_id).delete()
    _forget_progress(job_id)
    return RestoreJob.objects.filter(pk=job_id).first()


def mark_failed(job_id: int, exc: BaseException) -> RestoreJob | None:
    """End the job failed on an unexpected ``exc``: nothing of the campaign was written."""
    limit = RestoreJob._meta.get_field("error").max_length
    reason = (
        f"The server failed while restoring ({type(exc).__name__}); nothing was created. "
        "Try again later, or restore the file with manage.py import_campaign."
    )
    return _end(job_id, status=RestoreJob.Status.FAILED, error=reason[:limit])


# ---------------------------------------------------------------------------------------------
# Progress, through the cache (the restore's transaction hides it from the database)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Progress:
    """How far a job is, as its page shows it."""

    percent: int
    words: str


def _key(job_id: int) -> str:
    return f"datapad:restore-job:{job_id}:progress"


def _progress(job_id: int, stage: str, done: int, total: int) -> None:
    value = {"stage": stage, "done": done, "total": total}
    try:
        cache.set(_key(job_id), value, PROGRESS_SECONDS)
    except Exception:  # the cache away: the page shows less, the restore goes on
        logger.warning("restore job %s: progress not recorded", job_id, exc_info=True)


def _forget_progress(job_id: int) -> None:
    try:
        cache.delete(_key(job_id))
    except Exception:
        logger.warning("restore job %s: progress not forgotten", job_id, exc_info=True)


def progress_of(job: RestoreJob) -> Progress:
    """The job's progress: the outcome from its row once it ended, else the stage the task
    last reported through the cache."""
    if job.status == RestoreJob.Status.DONE:
        return Progress(100, "Done.")
    if job.status == RestoreJob.Status.FAILED:
        return Progress(job.progress, "Stopped.")
    if job.status == RestoreJob.Status.QUEUED:
        return Progress(0, "Waiting for a worker to start…")
    try:
        seen: Any = cache.get(_key(job.pk))
    except Exception:
        logger.warning("restore job %s: progress not read", job.pk, exc_info=True)
        seen = None
    if not isinstance(seen, dict):
        return Progress(job.progress, "Restoring…")
    stage, done, total = seen.get("stage"), seen.get("done") or 0, seen.get("total") or 0
    share = done / total if total else 0.0
    if stage == "checking":
        percent = 2 + round((CHECKED - 2) * share)
        words = f"Checking the file: {done:,} of {total:,} records…"
    elif stage == "writing":
        percent = CHECKED + round((99 - CHECKED) * share)
        words = f"Creating the campaign: {done:,} of {total:,} records…"
    else:
        percent, words = 1, "Reading the file…"
    return Progress(max(percent, job.progress), words)
