"""Defects found play-testing issue 17's campaign library as a GM; each test failed before its
fix."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns import library
from campaigns.models import LibraryEntry
from campaigns.tests.factories import CampaignFactory

pytestmark = pytest.mark.django_db


def test_a_library_file_with_a_number_too_long_to_read_is_refused_with_a_message(client):
    """Python refuses to read an integer of more than 4,300 digits; that ValueError escaped the
    upload's JSON check and the page answered a server error."""
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    body = (
        b'{"format": "datapad-library", "version": 1, "entries": [{"kind": "gear", '
        b'"entry": {"name": "Medpac", "cost": ' + b"9" * 5000 + b"}}]}"
    )
    upload = SimpleUploadedFile("library.json", body, content_type="application/json")

    response = client.post(
        reverse("campaigns:library_import", args=[campaign.pk]), {"file": upload}
    )

    assert response.status_code == 400
    assert "too long" in response.content.decode()
    assert not LibraryEntry.objects.exists()


def test_a_template_with_gear_but_no_skills_shows_its_gear_in_the_library(client):
    """The listing's "More" opened only for a template with skills or a background: a starting
    package of gear alone (or a Force-sensitive one without skills) showed none of it."""
    campaign = CampaignFactory()
    client.force_login(campaign.created_by)
    codes = dict.fromkeys(
        ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical"), "3D"
    )
    library.save_entry(
        campaign,
        "template",
        {
            "name": "Spacer's kit",
            "attributes": codes,
            "gear": {"weapons": ["Blaster pistol"], "items": "2 x medpac\nhydrospanner"},
            "force": {"sensitive": True, "control": "1D", "powers": ["Control Pain"]},
        },
        actor=campaign.created_by,
    )

    response = client.get(reverse("campaigns:library", args=[campaign.pk]))

    page = response.content.decode()
    assert "hydrospanner" in page
    assert "Control Pain" in page
