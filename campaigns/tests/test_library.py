"""The campaign library's services: built-in entries beside the campaign's, shadowing, name
clashes, copies, and the library file's import (all or nothing) and export."""

import pytest

from campaigns import library
from campaigns.models import LibraryEntry
from campaigns.tests.factories import CampaignFactory
from rules.library import library_document
from rules.traits import ATTRIBUTES

pytestmark = pytest.mark.django_db


def rodian(**changes):
    data = {
        "name": "Rodian",
        "source": "Galaxy Guide 4",
        "attributes": {a: {"min": "1D", "max": "4D"} for a in ATTRIBUTES},
        "move": {"normal": 10, "max": 12},
    }
    data.update(changes)
    return data


@pytest.fixture
def campaign():
    return CampaignFactory()


@pytest.fixture
def gm(campaign):
    return campaign.created_by


def test_the_library_lists_the_built_in_species_before_any_are_added(campaign):
    names = [e.name for e in library.entries(campaign, "species")]
    assert "Human" in names and "Wookiee" in names
    assert names == sorted(names, key=str.casefold)
    assert all(e.builtin for e in library.entries(campaign, "species"))


def test_a_campaign_entry_shadows_the_built_in_one_of_the_same_name(campaign, gm):
    library.save_entry(campaign, "species", rodian(name="wookiee"), actor=gm)
    wookiees = [e for e in library.entries(campaign, "species") if e.name.casefold() == "wookiee"]
    assert len(wookiees) == 1
    assert not wookiees[0].builtin
    assert library.find(campaign, "species", "WOOKIEE").data["move"] == {"normal": 10, "max": 12}


def test_listing_a_kind_is_one_query(campaign, gm, django_assert_num_queries):
    for name in ("Rodian", "Duros", "Bith"):
        library.save_entry(campaign, "species", rodian(name=name), actor=gm)
    with django_assert_num_queries(1):
        assert len(library.entries(campaign, "species")) == 21
    with django_assert_num_queries(1):
        library.all_entries(campaign)


def test_find_falls_back_to_the_built_in_entry(campaign):
    found = library.find(campaign, "weapon", "blaster PISTOL")
    assert found.builtin and found.data["damage"] == "4D"
    assert library.find(campaign, "weapon", "lightsabre pike") is None


def test_another_campaigns_entries_are_not_listed(campaign, gm):
    other = CampaignFactory()
    library.save_entry(other, "gear", {"name": "Medpac"}, actor=other.created_by)
    assert library.entries(campaign, "gear") == []
    assert library.find(campaign, "gear", "Medpac") is None


def test_a_second_entry_of_the_same_kind_and_name_is_refused(campaign, gm):
    library.save_entry(campaign, "species", rodian(), actor=gm)
    with pytest.raises(library.LibraryRefused) as caught:
        library.save_entry(campaign, "species", rodian(name="RODIAN"), actor=gm)
    assert "already has a species called “Rodian”" in str(caught.value)
    assert LibraryEntry.objects.filter(campaign=campaign).count() == 1


def test_the_same_name_in_another_kind_is_allowed(campaign, gm):
    library.save_entry(campaign, "species", rodian(name="Trandoshan"), actor=gm)
    library.save_entry(campaign, "template", _template(name="Trandoshan"), actor=gm)
    assert LibraryEntry.objects.filter(campaign=campaign).count() == 2


def test_renaming_an_entry_onto_another_ones_name_is_refused(campaign, gm):
    library.save_entry(campaign, "species", rodian(), actor=gm)
    duros = library.save_entry(campaign, "species", rodian(name="Duros"), actor=gm)
    with pytest.raises(library.LibraryRefused):
        library.save_entry(campaign, "species", rodian(name="rodian"), actor=gm, entry=duros)
    duros.refresh_from_db()
    assert duros.name == "Duros"


def test_editing_an_entry_keeps_its_row_and_stores_the_checked_data(campaign, gm):
    entry = library.save_entry(campaign, "species", rodian(), actor=gm)
    changed = rodian(name="Rodian ", move={"normal": 11, "max": 13})
    library.save_entry(campaign, "species", changed, actor=gm, entry=entry)
    entry.refresh_from_db()
    assert entry.name == "Rodian"
    assert entry.data["move"] == {"normal": 11, "max": 13}
    assert entry.created_by == gm


def test_bad_data_is_refused_naming_the_place(campaign, gm):
    data = rodian()
    data["attributes"]["strength"]["max"] = "9D+7"
    with pytest.raises(library.LibraryRefused) as caught:
        library.save_entry(campaign, "species", data, actor=gm)
    assert caught.value.where == "attributes.strength.max"
    assert not LibraryEntry.objects.exists()


def test_copying_a_built_in_entry_makes_the_campaigns_own(campaign, gm):
    copy = library.copy_builtin(campaign, "species", "ewok", actor=gm)
    assert copy.name == "Ewok" and copy.copied_from == "Ewok"
    ewoks = [e for e in library.entries(campaign, "species") if e.name == "Ewok"]
    assert [e.builtin for e in ewoks] == [False]
    with pytest.raises(library.LibraryRefused):
        library.copy_builtin(campaign, "species", "Ewok", actor=gm)


def test_deleting_a_copy_brings_the_built_in_entry_back(campaign, gm):
    copy = library.copy_builtin(campaign, "weapon", "Blaster pistol", actor=gm)
    library.delete_entry(campaign, copy, actor=gm)
    assert library.find(campaign, "weapon", "Blaster pistol").builtin


def test_deleting_another_campaigns_entry_is_refused(campaign, gm):
    other = CampaignFactory()
    entry = library.save_entry(other, "gear", {"name": "Medpac"}, actor=other.created_by)
    with pytest.raises(library.LibraryRefused):
        library.delete_entry(campaign, entry.pk, actor=gm)
    assert LibraryEntry.objects.filter(pk=entry.pk).exists()


def _template(**changes):
    data = {
        "name": "Smuggler",
        "species": "Human",
        "attributes": dict.fromkeys(ATTRIBUTES, "3D"),
        "skills": [{"name": "blaster", "code": "4D"}],
    }
    data.update(changes)
    return data


# ---------------------------------------------------------------------------------------------
# The library file
# ---------------------------------------------------------------------------------------------
def test_export_then_import_into_another_campaign_gives_the_same_file(campaign, gm):
    library.save_entry(campaign, "species", rodian(), actor=gm)
    library.save_entry(campaign, "template", _template(), actor=gm)
    library.copy_builtin(campaign, "armour", "Stormtrooper armour", actor=gm)
    exported = library.export_document(campaign)
    other = CampaignFactory()
    report = library.import_document(other, exported, actor=other.created_by)
    assert sorted(report.added) == ["Rodian", "Smuggler", "Stormtrooper armour"]
    assert library.export_document(other) == exported


def test_the_export_holds_only_the_campaigns_own_entries(campaign):
    assert library.export_document(campaign)["entries"] == []


def test_an_import_skips_entries_the_library_has_unless_told_to_replace(campaign, gm):
    library.save_entry(campaign, "species", rodian(), actor=gm)
    document = library_document(
        [("species", rodian(move={"normal": 12, "max": 14})), ("gear", {"name": "Medpac"})]
    )
    report = library.import_document(campaign, document, actor=gm)
    assert (report.added, report.replaced, report.skipped) == (["Medpac"], [], ["Rodian"])
    assert library.find(campaign, "species", "Rodian").data["move"]["normal"] == 10
    report = library.import_document(campaign, document, actor=gm, replace=True)
    assert (report.replaced, report.unchanged, report.skipped) == (["Rodian"], ["Medpac"], [])
    assert library.find(campaign, "species", "Rodian").data["move"]["normal"] == 12


def test_a_damaged_file_changes_nothing_and_names_the_place(campaign, gm):
    library.save_entry(campaign, "species", rodian(), actor=gm)
    document = library_document([("gear", {"name": "Medpac"}), ("species", rodian(name="Duros"))])
    document["entries"][1]["entry"]["attributes"]["strength"]["max"] = "9D+7"
    before = list(LibraryEntry.objects.values_list("pk", "name", "data"))
    with pytest.raises(library.LibraryRefused) as caught:
        library.import_document(campaign, document, actor=gm, replace=True)
    assert str(caught.value).startswith("entries[1].attributes.strength.max: '9D+7'")
    assert list(LibraryEntry.objects.values_list("pk", "name", "data")) == before


@pytest.mark.parametrize(
    "document",
    [
        {"format": "datapad-library", "version": 2, "entries": []},
        {"format": "datapad-campaign", "version": 1, "entries": []},
        {"format": "datapad-library", "version": 1, "entries": [{"kind": "ship", "entry": {}}]},
        "not a library",
    ],
)
def test_a_file_of_another_format_or_version_is_refused(campaign, gm, document):
    with pytest.raises(library.LibraryRefused):
        library.import_document(campaign, document, actor=gm)
    assert not LibraryEntry.objects.exists()


def test_text_with_a_nul_character_is_refused_before_the_database(campaign, gm):
    """PostgreSQL refuses NUL in text and JSON; the engine says so first."""
    document = library_document([("gear", {"name": "Medpac"})])
    document["entries"][0]["entry"]["description"] = "bad\x00byte"
    with pytest.raises(library.LibraryRefused) as caught:
        library.import_document(campaign, document, actor=gm)
    assert caught.value.where == "entries[0].description"
    assert not LibraryEntry.objects.exists()


def test_names_and_sources_longer_than_their_columns_are_refused(campaign, gm):
    with pytest.raises(library.LibraryRefused) as caught:
        library.save_entry(campaign, "gear", {"name": "x" * 101}, actor=gm)
    assert caught.value.where == "name"
    with pytest.raises(library.LibraryRefused) as caught:
        library.save_entry(campaign, "gear", {"name": "Medpac", "source": "s" * 121}, actor=gm)
    assert caught.value.where == "source"
    assert not LibraryEntry.objects.exists()


def test_finding_a_name_with_a_nul_character_finds_nothing(campaign):
    assert library.find(campaign, "species", "Hu\x00man") is None
