"""The Celery app a test worker runs to be killed in the middle of a restore:

    celery -A tests.restore_worker worker --pool=solo ...

It is the project's app (config.celery's) with two changes, for tests/test_restore_worker.py
only:

* the restore writes 50 records per statement (``campaigns.backup.WRITE_BATCH``) and pauses
  ``RESTORE_TEST_WRITE_SECONDS`` (0.2 s by default) after each, inside the restore's
  transaction, so the test can watch the progress and kill the worker while the campaign is
  half written (and must vanish with it);
* Redis hands an unacknowledged message to another worker after 2 s instead of ten minutes
  (``visibility_timeout``), so the restarted worker gets the killed one's task at once.
"""

import os
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from campaigns import backup, backup_jobs  # noqa: E402
from campaigns.tasks import restore_backup  # noqa: E402

app = restore_backup.app  # config.celery's, without importing config

WRITE_SECONDS = float(os.environ.get("RESTORE_TEST_WRITE_SECONDS", "0.2"))
report = backup_jobs._progress


def slow_progress(job_id: int, stage: str, done: int, total: int) -> None:
    report(job_id, stage, done, total)
    if stage == "writing" and done:
        time.sleep(WRITE_SECONDS)


backup.WRITE_BATCH = 50
backup_jobs._progress = slow_progress
app.conf.broker_transport_options = {
    "visibility_timeout": 2,
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}

__all__ = ["app"]
