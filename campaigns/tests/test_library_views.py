"""The library's pages: every member reads it, only a GM changes it; forms name the field that
is wrong and save nothing; the library file downloads and uploads."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns import library
from campaigns.models import LibraryEntry
from campaigns.tests.factories import CampaignFactory, MembershipFactory, UserFactory
from rules.traits import ATTRIBUTES

pytestmark = pytest.mark.django_db


@pytest.fixture
def campaign():
    return CampaignFactory(name="Tales of the Outer Rim")


@pytest.fixture
def gm_client(client, campaign):
    client.force_login(campaign.created_by)
    return client


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


def url(name, campaign, *args):
    return reverse(f"campaigns:{name}", args=[campaign.pk, *args])


def species_post(**changes):
    data = {
        "name": "Rodian",
        "source": "Galaxy Guide 4, p. 112",
        "move": 10,
        "max_move": 12,
        "special_abilities": "Tracking",
        "force_sensitivity": "allowed",
        "notes": "",
    }
    for a in ATTRIBUTES:
        data[f"{a}_min"] = "1D"
        data[f"{a}_max"] = "4D"
    data.update(changes)
    return data


def page(response):
    return response.content.decode()


# ---------------------------------------------------------------------------------------------
# Reading
# ---------------------------------------------------------------------------------------------
def test_a_player_sees_the_built_in_entries_with_their_numbers_but_no_gm_buttons(
    client, campaign, player
):
    client.force_login(player)
    response = client.get(url("library", campaign))
    assert response.status_code == 200
    html = page(response)
    assert "Wookiee" in html and "2D+2–6D" in html  # Wookiee Strength
    assert "Built-in" in html
    assert "3-10/30/120" in html  # the blaster pistol's ranges
    assert "Copy to edit" not in html and "Add a species" not in html


def test_an_outsider_gets_a_404(client, campaign):
    client.force_login(UserFactory())
    assert client.get(url("library", campaign)).status_code == 404


def test_the_campaign_page_links_to_the_library(client, campaign, player):
    client.force_login(player)
    assert url("library", campaign) in page(client.get(campaign.get_absolute_url()))


def test_empty_kinds_say_what_to_do(gm_client, campaign):
    html = page(gm_client.get(url("library", campaign)))
    assert "No templates yet." in html
    assert "Use “Add a template” above, or import a library file" in html


def test_the_library_page_reads_the_entries_in_few_queries(
    gm_client, campaign, django_assert_max_num_queries
):
    for name in ("Rodian", "Duros", "Bith", "Sullustan"):
        library.save_entry(
            campaign,
            "species",
            {"name": name, "attributes": None},
            actor=campaign.created_by,
        )
    with django_assert_max_num_queries(6):
        gm_client.get(url("library", campaign))


# ---------------------------------------------------------------------------------------------
# Adding, copying, editing, deleting
# ---------------------------------------------------------------------------------------------
def test_the_gm_adds_a_species_with_its_limits(gm_client, campaign):
    data = species_post(strength_min="2d", strength_max="5d+1")
    response = gm_client.post(url("library_add", campaign, "species"), data)
    assert response.status_code == 302
    entry = LibraryEntry.objects.get(campaign=campaign, kind="species")
    assert entry.name == "Rodian" and entry.source == "Galaxy Guide 4, p. 112"
    assert entry.data["attributes"]["strength"] == {"min": "2D", "max": "5D+1"}
    assert entry.data["move"] == {"normal": 10, "max": 12}
    assert entry.created_by == campaign.created_by
    html = page(gm_client.get(response.url))
    assert "Rodian" in html and "2D–5D+1" in html


def test_a_player_cannot_add_to_the_library(client, campaign, player):
    client.force_login(player)
    assert client.get(url("library_add", campaign, "species")).status_code == 403
    response = client.post(url("library_add", campaign, "species"), species_post())
    assert response.status_code == 403
    assert not LibraryEntry.objects.exists()


def test_a_bad_die_code_is_a_form_error_on_its_field_and_nothing_is_saved(gm_client, campaign):
    response = gm_client.post(
        url("library_add", campaign, "species"), species_post(strength_max="9D+7")
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert list(form.errors) == ["strength_max"]
    assert "9D+7 is not a die code" in form.errors["strength_max"][0]
    assert not LibraryEntry.objects.exists()


def test_a_maximum_above_10D_is_refused_by_the_engine_on_its_field(gm_client, campaign):
    response = gm_client.post(
        url("library_add", campaign, "species"), species_post(knowledge_max="11D")
    )
    assert response.status_code == 400
    assert "at most 10D" in response.context["form"].errors["knowledge_max"][0]


def test_a_maximum_below_the_minimum_is_refused_on_the_maximum(gm_client, campaign):
    response = gm_client.post(
        url("library_add", campaign, "species"),
        species_post(perception_min="3D", perception_max="2D"),
    )
    assert "below the minimum 3D" in response.context["form"].errors["perception_max"][0]
    assert not LibraryEntry.objects.exists()


def test_a_name_the_library_has_is_refused_on_the_name(gm_client, campaign):
    gm_client.post(url("library_add", campaign, "species"), species_post())
    response = gm_client.post(url("library_add", campaign, "species"), species_post(name="rodian"))
    assert response.status_code == 400
    assert "already has a species called “Rodian”" in response.context["form"].errors["name"][0]
    assert LibraryEntry.objects.count() == 1


def test_an_unknown_kind_is_a_404(gm_client, campaign):
    assert gm_client.get(url("library_add", campaign, "starship")).status_code == 404


def test_copy_to_edit_fills_the_form_with_the_built_in_entry(gm_client, campaign):
    response = gm_client.get(url("library_add", campaign, "species") + "?copy=Wookiee")
    assert response.status_code == 200
    form = response.context["form"]
    assert form["strength_min"].value() == "2D+2"
    assert form["max_move"].value() == 15
    assert not LibraryEntry.objects.exists()  # a GET changes nothing


def test_saving_a_copy_replaces_the_built_in_entry_in_the_library(gm_client, campaign):
    form = gm_client.get(url("library_add", campaign, "species") + "?copy=Wookiee").context["form"]
    data = {name: form[name].value() for name in form.fields}
    data = {k: v for k, v in data.items() if v is not None}
    data.update(copy_of="Wookiee", strength_max="6D+1")
    response = gm_client.post(url("library_add", campaign, "species"), data)
    assert response.status_code == 302
    entry = LibraryEntry.objects.get()
    assert entry.copied_from == "Wookiee"
    assert entry.data["attributes"]["strength"]["max"] == "6D+1"
    found = library.find(campaign, "species", "wookiee")
    assert not found.builtin
    assert "Campaign’s copy" in page(gm_client.get(url("library", campaign)))


def test_copying_an_entry_that_is_not_built_in_is_a_404(gm_client, campaign):
    response = gm_client.get(url("library_add", campaign, "species") + "?copy=Rodian")
    assert response.status_code == 404


def test_the_gm_edits_an_entry(gm_client, campaign):
    entry = library.save_entry(
        campaign, "gear", {"name": "Medpac", "cost": 100}, actor=campaign.created_by
    )
    response = gm_client.get(url("library_edit", campaign, entry.pk))
    assert response.context["form"]["cost"].value() == 100
    response = gm_client.post(
        url("library_edit", campaign, entry.pk),
        {"name": "Medpac", "cost": 120, "availability": "1", "description": "Heals."},
    )
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.data["cost"] == 120 and entry.data["description"] == "Heals."


def test_another_campaigns_entry_is_a_404(gm_client, campaign):
    other = CampaignFactory()
    entry = library.save_entry(other, "gear", {"name": "Medpac"}, actor=other.created_by)
    assert gm_client.get(url("library_edit", campaign, entry.pk)).status_code == 404
    assert (
        gm_client.post(url("library_delete", campaign, entry.pk), {"confirm": "delete"}).status_code
        == 404
    )
    assert LibraryEntry.objects.filter(pk=entry.pk).exists()


def test_deleting_asks_first_on_its_own_page(gm_client, campaign):
    entry = library.save_entry(campaign, "gear", {"name": "Medpac"}, actor=campaign.created_by)
    response = gm_client.get(url("library_delete", campaign, entry.pk))
    assert "Delete “Medpac”?" in page(response)
    assert gm_client.post(url("library_delete", campaign, entry.pk)).status_code == 400
    assert LibraryEntry.objects.filter(pk=entry.pk).exists()
    response = gm_client.post(url("library_delete", campaign, entry.pk), {"confirm": "delete"})
    assert response.status_code == 302
    assert not LibraryEntry.objects.filter(pk=entry.pk).exists()


def test_a_player_cannot_delete_an_entry(client, campaign, player):
    entry = library.save_entry(campaign, "gear", {"name": "Medpac"}, actor=campaign.created_by)
    client.force_login(player)
    response = client.post(url("library_delete", campaign, entry.pk), {"confirm": "delete"})
    assert response.status_code == 403
    assert LibraryEntry.objects.filter(pk=entry.pk).exists()


# ---------------------------------------------------------------------------------------------
# Templates and weapons
# ---------------------------------------------------------------------------------------------
def template_post(**changes):
    data = {
        "name": "Smuggler",
        "species": "Human",
        "skills": "blaster: 4D+1\n(A) medicine: 3D\nblaster pistol: 5D (specialization of blaster)"
        "\nbowcaster: 4D (Dexterity)",
        "weapons": ["Heavy blaster pistol"],
        "items": "comlink",
        "credits": 1000,
        **dict.fromkeys(ATTRIBUTES, "3D"),
    }
    data.update(changes)
    return data


def test_the_gm_adds_a_template_with_skills_written_one_a_line(gm_client, campaign):
    response = gm_client.post(url("library_add", campaign, "template"), template_post())
    assert response.status_code == 302, response.context["form"].errors
    data = LibraryEntry.objects.get().data
    assert data["skills"] == [
        {
            "name": "blaster",
            "code": "4D+1",
            "attribute": "dexterity",
            "specialization_of": None,
            "advanced": False,
        },
        {
            "name": "medicine",
            "code": "3D",
            "attribute": "technical",
            "specialization_of": None,
            "advanced": True,
        },
        {
            "name": "blaster pistol",
            "code": "5D",
            "attribute": "dexterity",
            "specialization_of": "blaster",
            "advanced": False,
        },
        {
            "name": "bowcaster",
            "code": "4D",
            "attribute": "dexterity",
            "specialization_of": None,
            "advanced": False,
        },
    ]
    assert data["gear"]["weapons"] == ["Heavy blaster pistol"]
    response = gm_client.get(url("library_edit", campaign, LibraryEntry.objects.get().pk))
    assert (
        "blaster pistol: 5D (specialization of blaster)"
        in response.context["form"]["skills"].value()
    )


def test_a_bad_skill_line_is_refused_naming_the_line(gm_client, campaign):
    response = gm_client.post(
        url("library_add", campaign, "template"), template_post(skills="blaster: 4D\ndodge 3D")
    )
    assert response.status_code == 400
    assert response.context["form"].errors["skills"][0].startswith("Line 2")
    response = gm_client.post(
        url("library_add", campaign, "template"),
        template_post(skills="blaster: 4D\n\ndodge: 9D+7"),
    )
    assert response.context["form"].errors["skills"][0].startswith("Line 3: '9D+7'")
    assert not LibraryEntry.objects.exists()


def test_a_template_offers_the_librarys_species_and_weapons(gm_client, campaign):
    library.save_entry(
        campaign,
        "weapon",
        {"name": "Bowcaster", "skill": "bowcaster", "damage": "4D"},
        actor=campaign.created_by,
    )
    form = gm_client.get(url("library_add", campaign, "template")).context["form"]
    assert ("Wookiee", "Wookiee") in form.fields["species"].choices
    assert ("Bowcaster", "Bowcaster") in form.fields["weapons"].choices
    response = gm_client.post(
        url("library_add", campaign, "template"), template_post(weapons=["Tractor beam"])
    )
    assert "weapons" in response.context["form"].errors


def test_weapon_ranges_are_written_as_printed(gm_client, campaign):
    data = {
        "name": "Hold-out blaster",
        "skill": "blaster",
        "damage": "3D",
        "ranges": "3-4/8/12",
        "scale": "character",
        "cost": 275,
    }
    response = gm_client.post(url("library_add", campaign, "weapon"), data)
    assert response.status_code == 302
    assert LibraryEntry.objects.get().data["ranges"] == {"short": [3, 4], "medium": 8, "long": 12}
    response = gm_client.post(
        url("library_add", campaign, "weapon"), {**data, "name": "Odd", "ranges": "3-10/5/20"}
    )
    assert "must not shrink" in response.context["form"].errors["ranges"][0]


# ---------------------------------------------------------------------------------------------
# The library file
# ---------------------------------------------------------------------------------------------
def upload(document, name="library.json"):
    body = document if isinstance(document, bytes) else json.dumps(document).encode()
    return SimpleUploadedFile(name, body, content_type="application/json")


def test_the_export_downloads_a_file_named_after_the_campaign(gm_client, campaign):
    library.save_entry(campaign, "gear", {"name": "Medpac"}, actor=campaign.created_by)
    response = gm_client.get(url("library_export", campaign))
    assert response["Content-Disposition"] == (
        'attachment; filename="tales-of-the-outer-rim-library.json"'
    )
    document = json.loads(response.content)
    assert document["format"] == "datapad-library"
    assert [e["entry"]["name"] for e in document["entries"]] == ["Medpac"]


def test_export_then_import_into_another_campaign_round_trips(gm_client, campaign):
    gm_client.post(url("library_add", campaign, "species"), species_post())
    gm_client.post(url("library_add", campaign, "template"), template_post())
    exported = gm_client.get(url("library_export", campaign)).content
    other = CampaignFactory(created_by=campaign.created_by)
    response = gm_client.post(url("library_import", other), {"file": upload(exported)}, follow=True)
    assert "Library file imported: 2 added, 0 replaced, 0 skipped." in page(response)
    assert gm_client.get(url("library_export", other)).content == exported


def test_a_damaged_file_is_refused_naming_the_place_and_nothing_changes(gm_client, campaign):
    gm_client.post(url("library_add", campaign, "species"), species_post())
    document = json.loads(gm_client.get(url("library_export", campaign)).content)
    document["entries"].insert(0, {"kind": "gear", "entry": {"name": "Medpac"}})
    document["entries"][1]["entry"]["attributes"]["strength"]["max"] = "9D+7"
    before = list(LibraryEntry.objects.values_list("pk", "name", "data"))
    response = gm_client.post(
        url("library_import", campaign), {"file": upload(document), "replace": "on"}
    )
    assert response.status_code == 400
    assert "entries[1].attributes.strength.max: &#x27;9D+7&#x27; is not a die code" in page(
        response
    )
    assert list(LibraryEntry.objects.values_list("pk", "name", "data")) == before


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{not json", "not valid JSON: line 1"),
        (b"\xff\xfe\x00", "not text"),
        (
            json.dumps({"format": "datapad-library", "version": 9, "entries": []}).encode(),
            "version 9",
        ),
    ],
)
def test_a_file_that_is_no_library_file_is_refused(gm_client, campaign, body, message):
    response = gm_client.post(url("library_import", campaign), {"file": upload(body)})
    assert response.status_code == 400
    assert message in page(response)
    assert not LibraryEntry.objects.exists()


def test_a_player_cannot_import(client, campaign, player):
    client.force_login(player)
    document = {
        "format": "datapad-library",
        "version": 1,
        "entries": [{"kind": "gear", "entry": {"name": "Medpac"}}],
    }
    response = client.post(url("library_import", campaign), {"file": upload(document)})
    assert response.status_code == 403
    assert not LibraryEntry.objects.exists()


# ---------------------------------------------------------------------------------------------
# Malformed input (run on PostgreSQL: scripts/test.sh --no-cov campaigns/tests/...)
# ---------------------------------------------------------------------------------------------
JUNK = [
    "",
    "abc",
    str(10**30),
    "-" + str(10**30),
    "🎲💥 \u202eevil\u202c",
    "a\x00b",
    "x" * 10_000,
    "<script>alert(1)</script>",
]


@pytest.mark.parametrize("junk", JUNK, ids=range(len(JUNK)))
@pytest.mark.parametrize("kind", ["species", "template", "weapon", "armour", "gear"])
def test_junk_in_every_field_of_an_entry_form_is_refused_without_an_error_page(
    gm_client, campaign, kind, junk
):
    form = gm_client.get(url("library_add", campaign, kind)).context["form"]
    data = dict.fromkeys(form.fields, junk)
    response = gm_client.post(url("library_add", campaign, kind), data)
    assert response.status_code == 400
    assert not LibraryEntry.objects.exists()


@pytest.mark.parametrize("junk", [*JUNK, "\ud800"], ids=range(len(JUNK) + 1))
def test_junk_in_a_library_file_is_refused_without_an_error_page(gm_client, campaign, junk):
    document = {
        "format": "datapad-library",
        "version": 1,
        "entries": [{"kind": "species", "entry": {"name": junk, "attributes": junk}}],
    }
    response = gm_client.post(url("library_import", campaign), {"file": upload(document)})
    assert response.status_code == 400
    assert not LibraryEntry.objects.exists()


def test_every_help_and_error_text_is_tied_to_its_input(gm_client, campaign):
    from tests.test_form_rendering import elements

    pages = [
        gm_client.post(url("library_add", campaign, "species"), species_post(strength_max="x")),
        gm_client.post(
            url("library_add", campaign, "template"),
            template_post(skills="dodge 3D", weapons=["Tractor beam"], control="1D"),
        ),
        gm_client.post(url("library_add", campaign, "weapon"), {"name": "", "ranges": "far"}),
        gm_client.post(url("library_add", campaign, "armour"), {"physical": "x"}),
        gm_client.post(url("library_add", campaign, "gear"), {"cost": "-1"}),
        gm_client.post(url("library_import", campaign), {}),
    ]
    for response in pages:
        assert response.status_code == 400
        page = elements(response)
        ids = {attrs["id"] for _, attrs in page if "id" in attrs}
        described = {ref for _, attrs in page for ref in attrs.get("aria-describedby", "").split()}
        assert described <= ids
        texts = {
            attrs["id"]
            for _, attrs in page
            if {"help", "errorlist"} & set(attrs.get("class", "").split()) and "id" in attrs
        }
        assert texts <= described, texts - described
