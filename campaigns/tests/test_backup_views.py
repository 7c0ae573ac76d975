"""A campaign's backup on the site and on the command line: the GM downloads it (players 403,
outsiders 404), anyone restores one as a new campaign of theirs through a job whose page only
they see, and a refused file lists its problems with their places and creates nothing. The job
itself (queueing, the broker down, a second run): test_restore_jobs.py; with a real worker:
tests/test_restore_worker.py."""

import io
import json
import re
import uuid

import pytest
from django.apps import apps
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from campaigns import tasks
from campaigns.backup import FORMAT
from campaigns.models import Campaign, Membership, RestoreJob, RestoreUpload
from campaigns.tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db
JOB_MODELS = ("campaigns.RestoreJob", "campaigns.RestoreUpload")


@pytest.fixture(autouse=True)
def eager():
    """Celery as ``make run`` has it without Redis: the restore runs at once, in the upload's
    request (the real worker: tests/test_restore_worker.py)."""
    app = tasks.restore_backup.app
    before = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = before


@pytest.fixture
def campaign():
    campaign = CampaignFactory(name="Shadows over Tatooine", era="0 ABY")
    MembershipFactory(campaign=campaign, user=UserFactory(username="leia"))
    return campaign


def every_row() -> dict[str, int]:
    """Rows of every model of the project's apps and of the users (not the log-in log), but
    the restore jobs themselves."""
    models = [
        m
        for a in ("campaigns", "characters", "encounters", "auth")
        for m in apps.get_app_config(a).get_models()
        if m._meta.label not in JOB_MODELS
    ]
    return {m._meta.label: m._default_manager.count() for m in models}


def download(client, campaign):
    client.force_login(campaign.created_by)
    response = client.get(reverse("campaigns:backup", args=[campaign.pk]))
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def upload(client, user, content: bytes, name="", key=None):
    client.force_login(user)
    file = SimpleUploadedFile("backup.json", content, content_type="application/json")
    data = {"file": file, "name": name, "key": str(key or uuid.uuid4())}
    return client.post(reverse("campaigns:restore"), data)


def job_page(client, response):
    """The job page the upload sent the browser to."""
    assert response.status_code == 302, response.content[:2000]
    assert re.fullmatch(r"/campaigns/restore/\d+/", response.url), response.url
    page = client.get(response.url)
    assert page.status_code == 200
    return page.text


def test_the_gm_downloads_the_campaign_as_a_streamed_attachment(client, campaign):
    client.force_login(campaign.created_by)
    response = client.get(reverse("campaigns:backup", args=[campaign.pk]))
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="shadows-over-tatooine-')
    assert disposition.endswith('.datapad.json"')
    document = json.loads(b"".join(response.streaming_content))
    assert document["format"] == FORMAT
    assert document["campaign"]["era"] == "0 ABY"
    assert {m["user"] for m in document["parts"]["members"]} == {
        campaign.created_by.username,
        "leia",
    }


def test_a_player_may_not_download_the_backup(client, campaign):
    client.force_login(Membership.objects.get(campaign=campaign, user__username="leia").user)
    assert client.get(reverse("campaigns:backup", args=[campaign.pk])).status_code == 403


def test_an_outsider_does_not_learn_the_campaign_exists(client, campaign):
    client.force_login(UserFactory())
    assert client.get(reverse("campaigns:backup", args=[campaign.pk])).status_code == 404


def test_only_game_masters_see_the_download_link(client, campaign):
    url = reverse("campaigns:backup", args=[campaign.pk])
    client.force_login(campaign.created_by)
    assert url in client.get(campaign.get_absolute_url()).text
    client.force_login(Membership.objects.get(campaign=campaign, user__username="leia").user)
    assert url not in client.get(campaign.get_absolute_url()).text


def test_the_home_page_offers_to_restore_a_backup(client):
    client.force_login(UserFactory())
    page = client.get(reverse("home")).text
    assert reverse("campaigns:restore") in page
    assert "Restore a campaign from a backup" in page


def test_an_uploaded_backup_becomes_a_new_campaign_run_by_the_uploader(client, campaign):
    content = download(client, campaign)
    uploader = UserFactory(username="wedge")
    response = upload(client, uploader, content, name="Tatooine, again")
    page = job_page(client, response)
    restored = Campaign.objects.get(name="Tatooine, again")
    assert restored.pk != campaign.pk and restored.era == "0 ABY"
    roles = dict(restored.memberships.values_list("user__username", "role"))
    assert roles == {campaign.created_by.username: "gm", "leia": "player", "wedge": "gm"}
    assert "“Tatooine, again” was restored from the backup." in page
    assert f'href="{restored.get_absolute_url()}"' in page
    assert "Restored: 2 memberships." in page
    job = RestoreJob.objects.get(user=uploader)
    assert (job.status, job.campaign, job.filename) == ("done", restored, "backup.json")
    assert not RestoreUpload.objects.exists()  # the file goes with the job's end


def test_users_with_no_account_here_are_reported_on_the_job_page(client, campaign):
    content = download(client, campaign).replace(b'"leia"', b'"nobody-here"')
    page = job_page(client, upload(client, campaign.created_by, content))
    assert "&#x27;nobody-here&#x27; has no account here: 1 membership left out." in page


def test_a_damaged_upload_lists_its_problems_and_creates_nothing(client, campaign):
    document = json.loads(download(client, campaign))
    document["parts"]["members"][1]["role"] = "emperor"
    document["campaign"]["name"] = "N" * 121
    before = every_row()
    page = job_page(client, upload(client, campaign.created_by, json.dumps(document).encode()))
    assert "The backup was refused; nothing was created." in page
    assert "parts.members[1].role: &#x27;emperor&#x27; is not one of gm, co_gm, player" in page
    assert "campaign.name: is 121 characters long; at most 120" in page
    assert every_row() == before
    assert RestoreJob.objects.get().status == "failed"
    assert not RestoreUpload.objects.exists()


def test_an_upload_of_another_version_names_it(client, campaign):
    document = json.loads(download(client, campaign))
    document["version"] = 7
    page = job_page(client, upload(client, campaign.created_by, json.dumps(document).encode()))
    assert "the file is version 7 of the format; this server reads version 1" in page


def test_an_upload_that_is_not_json_is_refused(client, campaign):
    page = job_page(client, upload(client, campaign.created_by, b"\xff\xfe not json"))
    assert "the file is not UTF-8 text" in page


def test_restoring_needs_a_file(client):
    client.force_login(UserFactory())
    response = client.post(reverse("campaigns:restore"), {"key": str(uuid.uuid4())})
    assert response.status_code == 400
    assert "This field is required" in response.text
    assert not RestoreJob.objects.exists()


def test_a_form_without_its_key_is_out_of_date(client, campaign):
    content = download(client, campaign)
    client.force_login(campaign.created_by)
    file = SimpleUploadedFile("backup.json", content, content_type="application/json")
    response = client.post(reverse("campaigns:restore"), {"file": file, "key": "not-a-key"})
    assert response.status_code == 400
    assert "This page is out of date: reload it and choose the file again." in response.text
    assert not RestoreJob.objects.exists()


def test_the_same_form_sent_twice_restores_one_campaign(client, campaign):
    content = download(client, campaign)
    key = uuid.uuid4()
    first = upload(client, campaign.created_by, content, key=key)
    second = upload(client, campaign.created_by, content, key=key)
    assert first.url == second.url
    assert Campaign.objects.count() == 2  # the original and one copy
    assert RestoreJob.objects.count() == 1


def test_the_form_page_gives_each_visit_a_new_key_and_is_not_kept(client):
    client.force_login(UserFactory())
    keys = []
    for _ in range(2):
        response = client.get(reverse("campaigns:restore"))
        assert "no-store" in response["Cache-Control"]
        keys.append(re.search(r'name="key" value="([-0-9a-f]+)"', response.text).group(1))
    assert keys[0] != keys[1]


def test_the_form_page_lists_the_users_latest_restores(client, campaign):
    content = download(client, campaign)
    job_page(client, upload(client, campaign.created_by, content, name="Copy one"))
    stranger = UserFactory()
    RestoreJob.objects.create(user=stranger, key=uuid.uuid4(), filename="theirs.json")
    page = client.get(reverse("campaigns:restore")).text
    job = RestoreJob.objects.get(user=campaign.created_by)
    assert f'href="{job.get_absolute_url()}"' in page
    assert "restored" in page
    assert "theirs.json" not in page


def test_only_the_uploader_sees_the_job(client, campaign):
    job = RestoreJob.objects.create(user=campaign.created_by, key=uuid.uuid4())
    url = reverse("campaigns:restore_job", args=[job.pk])
    for someone in (UserFactory(), Membership.objects.get(user__username="leia").user):
        client.force_login(someone)
        assert client.get(url).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the log-in page
    client.force_login(campaign.created_by)
    assert client.get(url).status_code == 200


def test_a_running_job_shows_its_progress_and_a_poll_that_sees_nothing_new_is_a_204(
    client, campaign
):
    job = RestoreJob.objects.create(
        user=campaign.created_by, key=uuid.uuid4(), filename="big.json", status="running"
    )
    cache.set(
        f"datapad:restore-job:{job.pk}:progress",
        {"stage": "writing", "done": 50_000, "total": 100_000},
    )
    client.force_login(campaign.created_by)
    url = reverse("campaigns:restore_job", args=[job.pk])
    page = client.get(url).text
    assert "Creating the campaign: 50,000 of 100,000 records… 70%." in page
    assert 'value="70"' in page
    poll = re.search(r'hx-get="([^"]+)" hx-trigger="every 1s"', page).group(1).replace("&amp;", "&")
    assert client.get(poll, headers={"HX-Request": "true"}).status_code == 204
    cache.set(
        f"datapad:restore-job:{job.pk}:progress",
        {"stage": "writing", "done": 100_000, "total": 100_000},
    )
    piece = client.get(poll, headers={"HX-Request": "true"})
    assert piece.status_code == 200
    assert piece.text.lstrip().startswith('<div id="restore-job"')
    assert "100,000 of 100,000 records… 99%" in piece.text


def test_a_finished_job_stops_the_polling(client, campaign):
    content = download(client, campaign)
    page = job_page(client, upload(client, campaign.created_by, content))
    assert "hx-trigger" not in page


def test_the_export_command_writes_the_backup_to_stdout(campaign):
    out = io.StringIO()
    call_command("export_campaign", str(campaign.pk), stdout=out)
    document = json.loads(out.getvalue())
    assert document["campaign"]["name"] == "Shadows over Tatooine"


def test_the_export_command_refuses_an_unknown_campaign():
    with pytest.raises(CommandError, match="there is no campaign 999999"):
        call_command("export_campaign", "999999")


def test_the_import_command_restores_a_file_for_the_files_game_master(campaign, tmp_path):
    path = tmp_path / "backup.json"
    call_command("export_campaign", str(campaign.pk), "--output", str(path))
    out = io.StringIO()
    call_command("import_campaign", str(path), stdout=out)
    restored = Campaign.objects.exclude(pk=campaign.pk).get()
    assert f"as campaign {restored.pk}" in out.getvalue()
    assert restored.memberships.get(role="gm").user == campaign.created_by


def test_the_import_command_needs_an_owner_when_the_files_gm_is_not_here(campaign, tmp_path):
    path = tmp_path / "backup.json"
    call_command("export_campaign", str(campaign.pk), "--output", str(path))
    path.write_text(path.read_text().replace(campaign.created_by.username, "somebody-else"))
    with pytest.raises(CommandError, match="--owner USERNAME"):
        call_command("import_campaign", str(path))
    with pytest.raises(CommandError, match="there is no user 'ghost'"):
        call_command("import_campaign", str(path), "--owner", "ghost")
    call_command("import_campaign", str(path), "--owner", "leia", stdout=io.StringIO())
    restored = Campaign.objects.exclude(pk=campaign.pk).get()
    assert restored.memberships.get(user__username="leia").role == "gm"


@pytest.mark.django_db(transaction=True)
def test_an_export_outside_any_transaction_reads_one_snapshot():
    """The command's export is its own transaction (on PostgreSQL a REPEATABLE READ, READ ONLY
    one): it runs, and leaves no transaction open behind it."""
    from django.db import connection

    campaign = CampaignFactory(name="Snapshot")
    out = io.StringIO()
    call_command("export_campaign", str(campaign.pk), stdout=out)
    assert json.loads(out.getvalue())["campaign"]["name"] == "Snapshot"
    assert not connection.in_atomic_block
