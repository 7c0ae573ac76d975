"""A campaign's backup on the site and on the command line: the GM downloads it (players 403,
outsiders 404), anyone restores one as a new campaign of theirs, and a refused file lists its
problems with their places and creates nothing."""

import io
import json

import pytest
from django.apps import apps
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from campaigns.backup import FORMAT
from campaigns.models import Campaign, Membership
from campaigns.tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign():
    campaign = CampaignFactory(name="Shadows over Tatooine", era="0 ABY")
    MembershipFactory(campaign=campaign, user=UserFactory(username="leia"))
    return campaign


def every_row() -> dict[str, int]:
    """Rows of every model of the project's apps and of the users (not the log-in log)."""
    models = [
        m
        for a in ("campaigns", "characters", "encounters", "auth")
        for m in apps.get_app_config(a).get_models()
    ]
    return {m._meta.label: m._default_manager.count() for m in models}


def download(client, campaign):
    client.force_login(campaign.created_by)
    response = client.get(reverse("campaigns:backup", args=[campaign.pk]))
    assert response.status_code == 200
    return b"".join(response.streaming_content)


def upload(client, user, content: bytes, name=""):
    client.force_login(user)
    file = SimpleUploadedFile("backup.json", content, content_type="application/json")
    return client.post(reverse("campaigns:restore"), {"file": file, "name": name})


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
    restored = Campaign.objects.get(name="Tatooine, again")
    assert response.status_code == 302
    assert response.url == restored.get_absolute_url()
    assert restored.pk != campaign.pk and restored.era == "0 ABY"
    roles = dict(restored.memberships.values_list("user__username", "role"))
    assert roles == {campaign.created_by.username: "gm", "leia": "player", "wedge": "gm"}
    page = client.get(response.url).text
    assert "was restored from the backup" in page


def test_users_with_no_account_here_are_reported_after_the_upload(client, campaign):
    content = download(client, campaign).replace(b'"leia"', b'"nobody-here"')
    response = upload(client, campaign.created_by, content)
    assert response.status_code == 302
    page = client.get(response.url).text
    assert "&#x27;nobody-here&#x27; has no account here: 1 membership left out." in page


def test_a_damaged_upload_lists_its_problems_and_creates_nothing(client, campaign):
    document = json.loads(download(client, campaign))
    document["parts"]["members"][1]["role"] = "emperor"
    document["campaign"]["name"] = "N" * 121
    before = every_row()
    response = upload(client, campaign.created_by, json.dumps(document).encode())
    assert response.status_code == 400
    assert "nothing was created" in response.text
    assert "parts.members[1].role: &#x27;emperor&#x27; is not one of gm, co_gm, player" in (
        response.text
    )
    assert "campaign.name: is 121 characters long; at most 120" in response.text
    assert every_row() == before


def test_an_upload_of_another_version_names_it(client, campaign):
    document = json.loads(download(client, campaign))
    document["version"] = 7
    response = upload(client, campaign.created_by, json.dumps(document).encode())
    assert response.status_code == 400
    assert "the file is version 7 of the format; this server reads version 1" in response.text


def test_an_upload_that_is_not_json_is_refused(client, campaign):
    response = upload(client, campaign.created_by, b"\xff\xfe not json")
    assert response.status_code == 400
    assert "the file is not UTF-8 text" in response.text


def test_restoring_needs_a_file(client):
    client.force_login(UserFactory())
    response = client.post(reverse("campaigns:restore"), {})
    assert response.status_code == 400
    assert "This field is required" in response.text


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
