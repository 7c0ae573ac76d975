"""Restoring a backup as a job (campaigns.backup_jobs, campaigns.tasks): the upload stored and
queued in one transaction, the same form twice, one restore at a time, a broker that is down,
a lost job given up, and the task run once, twice, or failing half-way. The real worker, killed
in the middle: tests/test_restore_worker.py."""

import json
import uuid
from datetime import timedelta

import pytest
from celery.exceptions import Retry
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerDown

from campaigns import backup, backup_jobs, tasks
from campaigns.backup import export_campaign
from campaigns.backup_jobs import RestoreJobNotFound, RestoreRefused, run_restore, start_restore
from campaigns.models import Campaign, Membership, RestoreJob, RestoreUpload
from campaigns.tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


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
    monkeypatch.setattr(tasks.restore_backup, "apply_async", publisher)
    return publisher


@pytest.fixture
def campaign():
    campaign = CampaignFactory(name="Shadows over Tatooine", era="0 ABY")
    MembershipFactory(campaign=campaign, user=UserFactory(username="leia"))
    return campaign


@pytest.fixture
def content(campaign) -> bytes:
    return "".join(export_campaign(campaign)).encode()


def uploaded(content: bytes, name="backup.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/json")


def every_row() -> dict[str, int]:
    models = [
        m
        for a in ("campaigns", "characters", "encounters", "auth")
        for m in apps.get_app_config(a).get_models()
        if m not in (RestoreJob, RestoreUpload)
    ]
    return {m._meta.label: m._default_manager.count() for m in models}


# --- Queueing -----------------------------------------------------------------------------------
def test_the_upload_is_stored_in_pieces_and_queued_with_its_task_id(
    campaign, content, broker, monkeypatch
):
    monkeypatch.setattr(backup_jobs, "PIECE_BYTES", 100)
    user = campaign.created_by

    job = start_restore(user, uploaded(content), key=uuid.uuid4(), name="Copy")

    assert (job.status, job.filename, job.size, job.name) == (
        "queued",
        "backup.json",
        len(content),
        "Copy",
    )
    pieces = list(RestoreUpload.objects.filter(job=job).order_by("number"))
    assert len(pieces) == -(-len(content) // 100) > 1
    assert b"".join(bytes(p.data) for p in pieces) == content
    assert broker.published == [((job.pk,), {"user_id": user.pk}, job.task_id)]


def test_the_same_form_twice_finds_the_same_job_and_queues_it_once(campaign, content, broker):
    key = uuid.uuid4()
    first = start_restore(campaign.created_by, uploaded(content), key=key)
    again = start_restore(campaign.created_by, uploaded(content), key=key)
    assert again.pk == first.pk
    assert len(broker.published) == 1
    assert RestoreJob.objects.count() == 1


def test_a_second_restore_while_one_is_under_way_is_refused_and_saves_nothing(
    campaign, content, broker
):
    first = start_restore(campaign.created_by, uploaded(content), key=uuid.uuid4())
    pieces = RestoreUpload.objects.count()

    with pytest.raises(RestoreRefused, match="still under way") as refused:
        start_restore(campaign.created_by, uploaded(content, "other.json"), key=uuid.uuid4())

    assert refused.value.job == first
    assert RestoreJob.objects.count() == 1
    assert RestoreUpload.objects.count() == pieces
    assert len(broker.published) == 1


def test_another_user_may_restore_at_the_same_time(campaign, content, broker):
    start_restore(campaign.created_by, uploaded(content), key=uuid.uuid4())
    leia = Membership.objects.get(user__username="leia").user
    assert start_restore(leia, uploaded(content), key=uuid.uuid4()).status == "queued"
    assert len(broker.published) == 2


def test_a_job_lost_for_an_hour_is_given_up_when_its_uploader_restores_again(
    campaign, content, broker
):
    lost = start_restore(campaign.created_by, uploaded(content), key=uuid.uuid4())
    RestoreJob.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(hours=2))

    fresh = start_restore(campaign.created_by, uploaded(content), key=uuid.uuid4())

    lost.refresh_from_db()
    assert lost.status == "failed"
    assert "No worker finished this restore" in lost.error
    assert not RestoreUpload.objects.filter(job=lost).exists()
    assert fresh.status == "queued"


def test_when_the_broker_is_down_the_uploader_is_told_and_nothing_is_saved(
    monkeypatch, campaign, content
):
    monkeypatch.setattr(
        tasks.restore_backup,
        "apply_async",
        Publisher(fail=BrokerDown("Error 111 connecting to 127.0.0.1:6379. Connection refused.")),
    )
    before = every_row()

    with pytest.raises(RestoreRefused, match=r"job queue cannot be reached.*nothing was saved"):
        start_restore(campaign.created_by, uploaded(content), key=uuid.uuid4())

    assert not RestoreJob.objects.exists()
    assert not RestoreUpload.objects.exists()
    assert every_row() == before


def test_the_broker_down_on_the_site_is_the_form_with_the_reason(monkeypatch, client, content):
    monkeypatch.setattr(
        tasks.restore_backup, "apply_async", Publisher(fail=BrokerDown("Connection refused."))
    )
    client.force_login(UserFactory())
    response = client.post(
        "/campaigns/restore/",
        {"file": uploaded(content), "name": "", "key": str(uuid.uuid4())},
    )
    assert response.status_code == 400
    assert "The job queue cannot be reached, so the backup was not restored" in response.text
    assert not RestoreJob.objects.exists()


# --- The job ------------------------------------------------------------------------------------
def queued_job(user, content: bytes, **fields) -> RestoreJob:
    job = RestoreJob.objects.create(user=user, key=uuid.uuid4(), filename="b.json", **fields)
    RestoreUpload.objects.create(job=job, number=0, data=content[:50])
    RestoreUpload.objects.create(job=job, number=1, data=content[50:])
    return job


def test_the_job_restores_the_file_as_a_new_campaign_and_deletes_it(campaign, content):
    job = queued_job(campaign.created_by, content, name="Copy")

    job = run_restore(job.pk)

    assert job.status == "done", (job.problems, job.error)
    copy = Campaign.objects.get(name="Copy")
    assert job.campaign == copy and job.progress == 100 and job.finished_at
    assert job.counts["members"] == 2
    assert not RestoreUpload.objects.exists()


def test_running_a_finished_job_again_makes_no_second_campaign(campaign, content):
    job = queued_job(campaign.created_by, content)
    run_restore(job.pk)
    campaigns = Campaign.objects.count()

    again = run_restore(job.pk)

    assert again.status == "done"
    assert Campaign.objects.count() == campaigns


def test_a_job_left_running_by_a_killed_worker_is_done_by_the_next_run(campaign, content):
    job = queued_job(campaign.created_by, content, status="running", started_at=timezone.now())
    assert run_restore(job.pk).status == "done"
    assert Campaign.objects.count() == 2


def test_a_refused_file_ends_the_job_with_its_problems_and_creates_nothing(campaign, content):
    document = json.loads(content)
    document["parts"]["members"][1]["role"] = "emperor"
    job = queued_job(campaign.created_by, json.dumps(document).encode())
    before = every_row()

    job = run_restore(job.pk)

    assert job.status == "failed"
    assert job.problems == ["parts.members[1].role: 'emperor' is not one of gm, co_gm, player"]
    assert every_row() == before
    assert not RestoreUpload.objects.exists()


def test_a_failure_half_way_through_the_writing_leaves_nothing_of_the_campaign(
    campaign, content, monkeypatch
):
    real = backup.Loader._restore

    def restore_then_fail(loader):
        real(loader)  # everything written, then the worker's database goes away
        raise RuntimeError("the holonet is down")

    monkeypatch.setattr(backup.Loader, "_restore", restore_then_fail)
    job = queued_job(campaign.created_by, content)
    before = every_row()

    job = run_restore(job.pk)

    assert job.status == "failed"
    assert "The server failed while restoring (RuntimeError); nothing was created." in job.error
    assert every_row() == before
    assert not RestoreUpload.objects.exists()


def test_the_writing_reports_its_progress_through_the_cache(campaign, content, monkeypatch):
    seen = []
    monkeypatch.setattr(backup_jobs, "_progress", lambda job_id, *stage: seen.append(stage))
    job = queued_job(campaign.created_by, content)

    run_restore(job.pk)

    stages = [stage for stage, _, _ in seen]
    assert stages[0] == "reading"
    assert "checking" in stages and stages[-1] == "writing"
    assert seen[-1][1] == seen[-1][2] == 2  # the two members written


def test_the_task_retries_a_second_later_while_its_job_is_not_there_yet(monkeypatch):
    asked = {}

    def retry(exc=None, countdown=None, **kwargs):
        asked.update(exc=exc, countdown=countdown)
        return Retry("again", exc=exc)

    monkeypatch.setattr(tasks.restore_backup, "retry", retry)
    tasks.restore_backup.push_request(is_eager=False, retries=0)
    try:
        with pytest.raises(Retry):
            tasks.restore_backup.run(987654)
    finally:
        tasks.restore_backup.pop_request()

    assert isinstance(asked["exc"], RestoreJobNotFound)
    assert asked["countdown"] == 1


def test_the_eager_site_restores_at_once(campaign, content, eager):
    job = start_restore(campaign.created_by, uploaded(content), key=uuid.uuid4())
    assert job.status == "done"
    assert job.campaign.memberships.count() == 2
