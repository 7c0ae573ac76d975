"""The Celery app a test worker runs to be killed in the middle of an advance:

    celery -A characters.tests.advance_worker worker --pool=solo ...

It is the project's app (config.celery's) with two changes, for that test only:

* each game day ends with a pause of ``ADVANCE_TEST_DAY_SECONDS`` (0.4 s by default), a
  downtime handler that runs after the real ones, inside the day's transaction: the test can
  kill the worker in the middle of a day whose trainings were already completed (and must be
  rolled back with it);
* Redis hands an unacknowledged message to another worker after 2 s instead of an hour
  (``visibility_timeout``), so the restarted worker gets the killed one's task at once.
"""

import os
import time

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from characters import downtime  # noqa: E402
from characters.tasks import advance_time  # noqa: E402

app = advance_time.app  # config.celery's, without importing config (import-linter's layers)

DAY_SECONDS = float(os.environ.get("ADVANCE_TEST_DAY_SECONDS", "0.4"))


def slow_day(campaign_id: int, day: int, *, seed: int) -> list[dict]:
    time.sleep(DAY_SECONDS)
    return []


downtime.HANDLERS = (*downtime.HANDLERS, slow_day)
app.conf.broker_transport_options = {
    "visibility_timeout": 2,
    "unacked_restore_interval": 1,
    "unacked_restore_throttle": 1,
}

__all__ = ["app"]
