"""Restoring a backup on the real stack: PostgreSQL, a Redis broker and cache, and Celery
worker processes started here. The uploader's page follows a worker's restore (the progress
goes through the cache: the campaign's transaction hides it from the database) to the new
campaign, which exports to the same file; a worker killed (SIGKILL) while writing leaves
nothing, and the restarted one restores the file once; two workers running the same job at
once make one campaign; with the broker down the uploader is told and nothing is saved."""

import os
import re
import signal
import subprocess
import sys
import textwrap
import time
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile

from campaigns.backup_jobs import start_restore
from campaigns.models import Campaign, RestoreJob, RestoreUpload
from campaigns.tasks import restore_backup
from characters.models import DiceRoll
from characters.tests.test_advance_services import ROOT, Workers, database_url, wait_until
from conftest import needs_services
from tests.backups import differences, export_text, normalised, rich_campaign

pytestmark = [pytest.mark.services, needs_services(), pytest.mark.django_db(transaction=True)]
APP = "tests.restore_worker"
ROLLS = 1500


@pytest.fixture
def workers(tmp_path):
    started = Workers(tmp_path)
    yield started
    started.stop()


def campaign_with_a_long_dice_log():
    """The round trip's campaign (one of everything) with 1,500 more rolls: written 50 to a
    statement by the test worker, 30 pauses."""
    original = rich_campaign()
    roll = DiceRoll.objects.filter(campaign=original).order_by("pk").first()
    data = {f.attname: getattr(roll, f.attname) for f in DiceRoll._meta.concrete_fields}
    del data["id"]
    DiceRoll.objects.bulk_create([DiceRoll(**data) for _ in range(ROLLS)])
    return original


def upload(text: str):
    gm = get_user_model().objects.get(username="gm")
    file = SimpleUploadedFile("tatooine.datapad.json", text.encode(), "application/json")
    return start_restore(gm, file, key=uuid.uuid4(), name="Restored")


def progress(job) -> dict:
    return cache.get(f"datapad:restore-job:{job.pk}:progress") or {}


def finished(job: RestoreJob, timeout: float = 120) -> RestoreJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job.refresh_from_db()
        if not job.under_way:
            return job
        time.sleep(0.05)
    raise AssertionError(f"restore job {job.pk} still {job.status}")


def test_the_page_follows_a_workers_restore_to_the_new_campaign(workers, client, settings):
    assert not settings.CELERY_TASK_ALWAYS_EAGER
    worker = workers.start(APP, "restorer")
    original = campaign_with_a_long_dice_log()
    text = export_text(original)

    job = upload(text)

    assert job.status == "queued"  # the worker has it, not this process
    client.force_login(job.user)
    url = job.get_absolute_url()
    seen = []
    while job.under_way:
        # Asked before the page: a page that still shows the writing was read before the
        # restore's commit, so the campaign cannot have been there before it (asked after,
        # a worker committing in between would make the check race the worker).
        there_before = Campaign.objects.filter(name="Restored").exists()
        page = client.get(url).text
        found = re.search(r"Creating the campaign: ([0-9,]+) of ([0-9,]+) records… (\d+)%", page)
        if found:
            # The page sees the writing, which the database does not show yet.
            seen.append(int(found.group(3)))
            assert not there_before
        time.sleep(0.1)
        job.refresh_from_db()
    assert job.status == "done", (job.problems, job.error)
    assert len(seen) >= 3 and seen == sorted(seen) and 40 <= seen[0] < seen[-1] <= 99, seen
    wait_until(lambda: f"restore_backup[{job.task_id}] succeeded" in worker.log.read_text())
    page = client.get(url).text
    assert "“Restored” was restored from the backup." in page
    assert f'href="{job.campaign.get_absolute_url()}"' in page
    assert differences(normalised(text), normalised(export_text(job.campaign))) == [
        ".campaign.name: 'Shadows over Tatooine' != 'Restored'"
    ]
    assert not RestoreUpload.objects.exists()


def test_a_worker_killed_while_writing_leaves_nothing_and_the_next_restores_once(
    workers, monkeypatch
):
    monkeypatch.setenv("RESTORE_TEST_WRITE_SECONDS", "0.3")
    doomed = workers.start(APP, "doomed")
    original = campaign_with_a_long_dice_log()
    text = export_text(original)
    campaigns, rolls = Campaign.objects.count(), DiceRoll.objects.count()

    job = upload(text)
    wait_until(lambda: progress(job).get("stage") == "writing" and progress(job)["done"] >= 500, 60)
    os.kill(doomed.pid, signal.SIGKILL)
    doomed.wait(timeout=10)

    job.refresh_from_db()
    assert job.status == "running"
    # The half-written campaign went with the killed worker's transaction.
    wait_until(lambda: DiceRoll.objects.count() == rolls and Campaign.objects.count() == campaigns)
    assert RestoreUpload.objects.filter(job=job).exists()  # the file waits for the next run

    workers.start(APP, "restarted")
    job = finished(job)

    assert job.status == "done", (job.problems, job.error)
    assert Campaign.objects.count() == campaigns + 1
    assert DiceRoll.objects.count() == 2 * rolls
    found = differences(normalised(text), normalised(export_text(job.campaign)))
    assert found == [".campaign.name: 'Shadows over Tatooine' != 'Restored'"], found


def test_the_same_job_run_by_two_workers_at_once_makes_one_campaign(workers, monkeypatch):
    """A redelivery while the first run is alive (Redis's visibility timeout passed): two
    workers restore the same job at the same time, three times over. The job's lock makes the
    later runs wait, then find it done."""
    monkeypatch.setenv("RESTORE_TEST_WRITE_SECONDS", "0.02")
    one = workers.start(APP, "twin")
    two = workers.start(APP, "twin")
    original = campaign_with_a_long_dice_log()
    campaigns = Campaign.objects.count()

    job = upload(export_text(original))
    for _ in range(2):
        restore_backup.apply_async((job.pk,), {"user_id": job.user_id})

    def runs() -> int:
        logs = (one.log.read_text() + two.log.read_text()).splitlines()
        return sum("restore_backup[" in line and "succeeded" in line for line in logs)

    wait_until(lambda: runs() == 3, timeout=120)
    for worker in (one, two):  # both ran it
        assert re.search(r"restore_backup\[[-0-9a-f]+\] succeeded", worker.log.read_text())
    job.refresh_from_db()
    assert job.status == "done", (job.problems, job.error)
    assert Campaign.objects.count() == campaigns + 1


def test_without_a_broker_answering_the_uploader_is_told_and_nothing_is_saved():
    """A web process whose Redis is down (nothing listens on its port): the upload answers in
    a few seconds with a message, and neither the job nor its file is kept."""
    user = get_user_model().objects.create_user("wedge", password="a-long-test-password-42")
    script = textwrap.dedent(
        f"""
        import django, time, uuid
        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.files.uploadedfile import SimpleUploadedFile
        from campaigns.backup_jobs import RestoreRefused, start_restore
        user = get_user_model().objects.get(pk={user.pk})
        started = time.monotonic()
        try:
            start_restore(user, SimpleUploadedFile("b.json", b"{{}}"), key=uuid.uuid4())
        except RestoreRefused as exc:
            print("refused:", exc, "after", round(time.monotonic() - started, 1), "s")
        """
    )
    env = {
        **os.environ,
        "DATABASE_URL": database_url(),
        "REDIS_URL": "redis://127.0.0.1:9/0",  # the discard port: nothing answers
        "CELERY_TASK_ALWAYS_EAGER": "false",
        "DJANGO_ENV": "test",
    }

    out = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert "refused: The job queue cannot be reached" in out.stdout, out.stdout + out.stderr
    assert "nothing was saved" in out.stdout
    assert float(out.stdout.split(" after ")[1].split()[0]) < 10
    assert not RestoreJob.objects.exists()
    assert not RestoreUpload.objects.exists()
