"""The real stack: PostgreSQL, a Redis broker and a Celery worker process."""

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from campaigns.models import Invitation
from campaigns.tasks import purge_stale_invitations
from campaigns.tests.factories import InvitationFactory
from conftest import needs_services

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.services, needs_services()]


@pytest.fixture
def celery_worker_process(transactional_db):
    """A real worker, as `celery -A config worker`, on the test database."""
    db = connection.settings_dict
    database_url = (
        f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    )
    env = {**os.environ, "DATABASE_URL": database_url, "CELERY_TASK_ALWAYS_EAGER": "false"}
    log = open(ROOT / "var-celery-worker.log", "w")  # noqa: SIM115 - closed below
    worker = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool=solo",
            "--concurrency=1",
            "-l",
            "info",
            "--without-gossip",
            "--without-mingle",
            "--hostname",
            f"test-{os.getpid()}@localhost",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    from config.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if worker.poll() is not None:
            raise RuntimeError(
                f"celery worker exited: {(ROOT / 'var-celery-worker.log').read_text()}"
            )
        if app.control.ping(timeout=1.0):
            break
    else:
        worker.terminate()
        raise RuntimeError("celery worker did not answer a ping within 60 s")
    yield worker
    worker.terminate()
    worker.wait(timeout=30)
    log.close()
    (ROOT / "var-celery-worker.log").unlink(missing_ok=True)


def test_the_database_is_postgresql():
    assert connection.vendor == "postgresql"


def test_a_task_runs_on_a_real_worker_through_redis(celery_worker_process, settings):
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    stale = InvitationFactory(expires_at=timezone.now() - timedelta(days=40))
    fresh = InvitationFactory()

    result = purge_stale_invitations.delay()

    assert result.get(timeout=60) == 1
    assert not Invitation.objects.filter(pk=stale.pk).exists()
    assert Invitation.objects.filter(pk=fresh.pk).exists()


def test_healthz_checks_the_broker(client, db):
    body = client.get("/healthz").json()
    assert body["checks"] == {"database": "ok", "broker": "ok"}
