"""Importing characters from the 1Bln21 Star Wars D6 Character Generator and from Foundry VTT's
OpenD6 Space system: each sample file (built from the projects' published formats, see the
importer modules) maps to the wizard's draft data, what did not map is listed, the upload opens
the draft on the wizard's review, and a bad file is refused with a message and no draft."""

import copy
import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaigns.models import LibraryEntry
from campaigns.tests.factories import CampaignFactory, MembershipFactory
from characters.importers import (
    MAX_BYTES,
    ImportRefused,
    detect,
    import_character,
    read_document,
)
from characters.models import CreationDraft

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).parent / "samples"


def sample(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text())


@pytest.fixture
def campaign():
    return CampaignFactory()


@pytest.fixture
def gm(campaign):
    return campaign.created_by


@pytest.fixture
def player(campaign):
    return MembershipFactory(campaign=campaign).user


def imported(name: str, campaign):
    return import_character(sample(name), campaign=campaign)


def unmapped_text(result) -> str:
    return "\n".join(result.unmapped)


def skill_rows(result) -> dict[str, tuple]:
    return {
        s["name"]: (s["attribute"], s["code"], s["specialization_of"], s["advanced"])
        for s in result.data["skills"]
    }


# ---------------------------------------------------------------------------------------------
# Detection
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, fmt",
    [
        ("onebln21_smuggler.json", "1bln21"),
        ("onebln21_jedi.json", "1bln21"),
        ("foundry_od6s_smuggler.json", "foundry-opend6"),
        ("foundry_od6s_jedi.json", "foundry-opend6"),
    ],
)
def test_each_sample_is_recognised_as_its_format(name, fmt):
    assert detect(sample(name)) == fmt


# ---------------------------------------------------------------------------------------------
# The 1Bln21 generator
# ---------------------------------------------------------------------------------------------
def test_a_1bln21_smuggler_maps_attributes_from_the_human_minimums(campaign):
    result = imported("onebln21_smuggler.json", campaign)

    assert result.format == "1bln21"
    assert result.data["species"]["choice"] == "Human"
    assert result.data["attributes"] == {
        "dexterity": "3D+1",
        "knowledge": "2D+2",
        "mechanical": "3D+2",
        "perception": "3D",
        "strength": "2D+2",
        "technical": "2D+2",
    }


def test_a_1bln21_smuggler_maps_skills_and_the_specialization(campaign):
    result = imported("onebln21_smuggler.json", campaign)

    assert skill_rows(result) == {
        "blaster": ("dexterity", "5D", "", False),
        "dodge": ("dexterity", "4D+1", "", False),
        "space transports": ("mechanical", "5D", "", False),
        "astrogation": ("mechanical", "4D+2", "", False),
        "con": ("perception", "3D+1", "", False),
        "YT-1300 Transports": ("mechanical", "5D+2", "space transports", False),
    }


def test_a_1bln21_smuggler_keeps_the_points_left_after_what_the_sheet_bought(campaign):
    # 5 CP earned; one pip of astrogation bought at 4D+1 cost 4.
    result = imported("onebln21_smuggler.json", campaign)

    assert result.data["balances"] == {"cp": 1, "fp": 1, "dsp": 0}
    assert result.data["force"] == {"sensitive": False, "powers": []}


def test_a_1bln21_smuggler_maps_credits_and_gear(campaign):
    result = imported("onebln21_smuggler.json", campaign)
    gear = result.data["gear"]

    # 2,000 earned, less the sabacc deck (50) and the modified holdout blaster (350).
    assert gear["credits"] == 1600
    assert gear["weapons"] == ["Vibroblade"]
    assert gear["armour"] == []
    assert gear["items"].splitlines() == [
        "Comlink (Personal)",
        "2 x Medpac",
        "Sabacc deck (marked cards)",
        "Blast Vest",
        "DL-44 Heavy Blaster Pistol",
        "Holdout blaster (modified) (skill Blaster, damage 3D+1, ranges 3/4/8/12, ammo 6)",
    ]


def test_a_1bln21_smuggler_lists_what_did_not_map(campaign):
    notes = unmapped_text(imported("onebln21_smuggler.json", campaign))

    assert "Armour Blast Vest: not in the campaign's library" in notes
    assert "Weapon DL-44 Heavy Blaster Pistol: not in the campaign's library" in notes
    assert "Weapon Holdout blaster (modified) (skill Blaster, damage 3D+1" in notes
    assert "catalogue prices of Comlink (Personal), Medpac, Blast Vest" in notes
    assert "Loan of 5,000 credits from Drom Pell at 10% interest" in notes
    assert "Player 'Sam'" in notes


def test_a_1bln21_smuggler_keeps_name_and_background(campaign):
    background = imported("onebln21_smuggler.json", campaign).data["background"]

    assert background["name"] == "Kell Tarrow"
    assert (background["gender"], background["age"], background["height"]) == (
        "Male",
        "29",
        "1.80 m",
    )
    assert background["background"].startswith("Flew freight for the Corellian")
    assert "Occupation: Smuggler" in background["background"]
    assert "Homeworld: Corellia" in background["background"]
    assert "Notes: Owes Drom Pell 5,000 credits." in background["background"]
    assert "Quote: Never tell me the odds." in background["personality"]


def test_a_1bln21_jedi_maps_force_skills_powers_and_points(campaign):
    result = imported("onebln21_jedi.json", campaign)
    force = result.data["force"]

    assert force["sensitive"] is True
    assert (force["control"], force["sense"]) == ("1D+1", "1D")
    assert "alter" not in force
    assert force["powers"] == ["Absorb/Dissipate Energy", "Life Detection"]
    # 10 CP earned, 1 spent on control (at 1D), 2 spent outside the sheet.
    assert result.data["balances"] == {"cp": 7, "fp": 2, "dsp": 1}
    assert "Force power Lightsaber Combat: not in Datapad's list of powers" in result.unmapped


def test_a_1bln21_jedi_maps_advanced_and_own_skills(campaign):
    rows = skill_rows(imported("onebln21_jedi.json", campaign))

    assert rows["lightsaber"] == ("dexterity", "4D", "", False)
    assert rows["first aid"] == ("technical", "4D+1", "", False)
    # An (A) skill counts from 0, not from its attribute.
    assert rows["medicine"] == ("technical", "1D", "", True)
    # A skill the rules do not list keeps the attribute the file files it under.
    assert rows["Lightsaber Repair"] == ("technical", "3D+1", "", False)


def test_a_1bln21_lightsaber_becomes_the_librarys(campaign):
    result = imported("onebln21_jedi.json", campaign)

    assert result.data["gear"]["weapons"] == ["Lightsaber"]
    assert result.data["gear"]["credits"] == 800
    assert any(n.startswith("Lightsaber Tavi's lightsaber (colour Blue") for n in result.unmapped)


def test_a_1bln21_species_the_library_lacks_leaves_attributes_to_the_player(campaign):
    doc = sample("onebln21_smuggler.json")
    doc["info"]["species"] = "Rodian"

    result = import_character(doc, campaign=campaign)

    assert result.data["species"] == {
        "choice": "custom",
        "name": "Rodian",
        "limits": {},
        "move": None,
    }
    assert result.data["attributes"] == {}
    assert result.data["skills"] == []
    notes = unmapped_text(result)
    assert "Attributes: the file stores what was added to the Rodian minimums" in notes
    assert "Dexterity +1D+1" in notes
    assert "Skills above their attribute, not imported: Blaster +1D+2" in notes


def test_a_1bln21_species_from_the_campaign_library_gives_the_minimums(campaign, gm):
    LibraryEntry.objects.create(
        campaign=campaign,
        kind="species",
        name="Rodian",
        created_by=gm,
        data={
            "name": "Rodian",
            "source": "",
            "notes": "",
            "attributes": {
                a: {"min": "1D" if a == "knowledge" else "2D", "max": "4D"}
                for a in (
                    "dexterity",
                    "knowledge",
                    "mechanical",
                    "perception",
                    "strength",
                    "technical",
                )
            },
            "move": {"normal": 10, "max": 12},
            "special_abilities": "",
            "force_sensitivity": "allowed",
        },
    )
    doc = sample("onebln21_smuggler.json")
    doc["info"]["species"] = "Rodian"

    result = import_character(doc, campaign=campaign)

    assert result.data["species"]["choice"] == "Rodian"
    assert result.data["attributes"]["dexterity"] == "3D+1"
    assert result.data["attributes"]["knowledge"] == "1D+2"


def test_a_1bln21_custom_species_brings_its_limits(campaign):
    doc = sample("onebln21_smuggler.json")
    doc["info"]["species"] = "Custom"
    doc["customSpecies"] = {
        "name": "Miraluka",
        "move": 10,
        "mins": [6, 6, 6, 9, 5, 6],
        "maxs": [12, 12, 12, 14, 12, 12],
        "abilities": ["Force sight: sees through the Force", "", "", "", "", ""],
        "story": ["", "", "", ""],
    }

    result = import_character(doc, campaign=campaign)

    assert result.data["species"]["choice"] == "custom"
    assert result.data["species"]["limits"]["perception"] == ["3D", "4D+2"]
    assert result.data["species"]["move"] == 10
    assert result.data["attributes"]["perception"] == "4D"
    assert "The Miraluka species' special abilities: Force sight" in unmapped_text(result)


def test_a_1bln21_droid_is_refused_with_its_kind(campaign):
    with pytest.raises(ImportRefused, match="a droid from the 1Bln21"):
        import_character(
            {"version": 1, "kind": "droid", "info": {}, "attrs": {}}, campaign=campaign
        )


# ---------------------------------------------------------------------------------------------
# Foundry VTT, OpenD6 Space
# ---------------------------------------------------------------------------------------------
def test_a_foundry_smuggler_maps_attributes_and_skills(campaign):
    result = imported("foundry_od6s_smuggler.json", campaign)

    assert result.format == "foundry-opend6"
    assert result.data["species"]["choice"] == "Human"
    assert result.data["attributes"] == {
        "dexterity": "3D+1",
        "knowledge": "2D+1",
        "mechanical": "3D+2",
        "perception": "3D+1",
        "strength": "2D+1",
        "technical": "3D",
    }
    assert skill_rows(result) == {
        "blaster": ("dexterity", "5D", "", False),
        "dodge": ("dexterity", "4D+1", "", False),
        "streetwise": ("knowledge", "3D+1", "", False),
        "space transports": ("mechanical", "5D", "", False),
        "astrogation": ("mechanical", "4D+2", "", False),
        "con": ("perception", "4D+1", "", False),
        "YT-1300": ("mechanical", "5D+2", "space transports", False),
    }


def test_a_foundry_smuggler_maps_points_credits_and_gear(campaign):
    result = imported("foundry_od6s_smuggler.json", campaign)
    gear = result.data["gear"]

    assert result.data["balances"] == {"cp": 5, "fp": 1, "dsp": 0}
    assert gear["credits"] == 1200
    assert gear["weapons"] == ["Heavy blaster pistol"]
    assert gear["items"].splitlines() == [
        "Vibro-knife (skill Melee Combat, damage STR+1D)",
        "Blast Vest (physical +1D, energy +1)",
        "2 x Medpac",
        "Comlink",
    ]


def test_a_foundry_smuggler_lists_what_did_not_map(campaign):
    notes = imported("foundry_od6s_smuggler.json", campaign).unmapped

    assert "Foundry item 'Cybernetic arm' of type 'cybernetic'" in notes
    assert "Foundry item 'Debt to a Hutt' of type 'disadvantage'" in notes
    assert (
        "Weapon Vibro-knife (skill Melee Combat, damage STR+1D): kept as a line of equipment, "
        "not as a weapon"
    ) in notes
    assert (
        "Armour Blast Vest (physical +1D, energy +1): kept as a line of equipment, not as armour"
    ) in notes


def test_a_foundry_smuggler_keeps_the_background_as_plain_text(campaign):
    background = imported("foundry_od6s_smuggler.json", campaign).data["background"]

    assert background["name"] == "Rissa Vance"
    assert background["background"].startswith(
        "Ran spice past Imperial customs at Kessel until the run went wrong.\n\nNow she flies"
    )
    assert "Type: Smuggler" in background["background"]
    assert "Description: Tall, braided red hair" in background["background"]
    assert background["personality"] == "Wry & careful; trusts credits more than people."


def test_a_foundry_jedi_in_the_older_data_shape_maps_the_force(campaign):
    result = imported("foundry_od6s_jedi.json", campaign)
    force = result.data["force"]

    assert force["sensitive"] is True
    assert (force["control"], force["sense"]) == ("2D", "1D")
    assert "alter" not in force
    assert force["powers"] == ["Telekinesis", "Life Sense", "Dim Other's Senses"]
    assert result.data["balances"] == {"cp": 8, "fp": 2, "dsp": 1}
    assert result.data["gear"]["weapons"] == ["Lightsaber"]
    assert result.data["gear"]["credits"] == 500


def test_a_foundry_jedi_maps_specializations_and_advanced_skills(campaign):
    rows = skill_rows(imported("foundry_od6s_jedi.json", campaign))

    assert rows["Jedi lore"] == ("knowledge", "4D+2", "scholar", False)
    # od6s before isAdvancedSkill: the attribute (2D) is cancelled by a base of -1D.
    assert rows["medicine"] == ("technical", "1D", "", True)
    assert rows["sneak"] == ("perception", "4D+2", "", False)
    assert "control" not in rows


def test_a_foundry_jedi_lists_what_did_not_map(campaign):
    notes = imported("foundry_od6s_jedi.json", campaign).unmapped

    assert "Force power Lightsaber Combat: not in Datapad's list of powers" in notes
    assert "Foundry item 'Danger sense' of type 'specialability'" in notes
    assert "Active effects on the actor: Force of Will" in notes


def test_foundry_move_differing_from_the_species_is_listed(campaign):
    doc = sample("foundry_od6s_smuggler.json")
    doc["system"]["move"]["value"] = 12

    result = import_character(doc, campaign=campaign)

    assert "Move 12 (the species sets Move)" in result.unmapped


def test_a_foundry_vehicle_is_refused(campaign):
    doc = sample("foundry_od6s_smuggler.json")
    doc["type"] = "starship"

    with pytest.raises(ImportRefused, match="a starship, not a character"):
        import_character(doc, campaign=campaign)


def test_an_actor_of_another_foundry_system_is_refused_naming_it(campaign):
    doc = {
        "name": "Aragorn",
        "type": "character",
        "system": {"abilities": {"str": {"value": 16}}},
        "items": [],
        "_stats": {"systemId": "dnd5e"},
    }

    with pytest.raises(ImportRefused, match="'dnd5e' game system"):
        import_character(doc, campaign=campaign)


# ---------------------------------------------------------------------------------------------
# Reading files
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "raw, message",
    [
        (b"", "The file is empty."),
        (b"\xff\xfe\x00garbage", "not text (UTF-8)"),
        (b"{name: 'Han'}", "not JSON (line 1, column 2)"),
        (b'{"a": NaN}', "not JSON"),
        (b"[" * 100_000, "nested too deeply"),
        (b" " * (MAX_BYTES + 1), "at most 1 MB"),
    ],
)
def test_unreadable_files_are_refused_with_a_message(raw, message):
    with pytest.raises(ImportRefused, match=message.replace("(", r"\(").replace(")", r"\)")):
        read_document(raw)


@pytest.mark.parametrize(
    "doc, message",
    [
        ([1, 2], "a JSON list, not a character"),
        ("Han Solo", "a JSON text, not a character"),
        ({"name": "Han Solo"}, "not a character exported by the 1Bln21"),
        ({"info": "Han", "attrs": []}, "not a character exported by"),
    ],
)
def test_documents_of_neither_format_are_refused(campaign, doc, message):
    with pytest.raises(ImportRefused, match=message):
        import_character(doc, campaign=campaign)


def test_wrong_types_inside_a_file_are_read_as_missing(campaign):
    doc = sample("onebln21_smuggler.json")
    doc["attrs"]["dex"] = "lots"
    doc["skills"]["dex|Blaster"] = [5]
    doc["powers"] = "Telekinesis"
    doc["points"] = None
    doc["credits"] = {"earned": "a fortune"}

    result = import_character(doc, campaign=campaign)

    assert result.data["attributes"]["dexterity"] == "2D"
    assert "blaster" not in skill_rows(result)
    assert result.data["force"]["powers"] == []
    assert result.data["gear"]["credits"] == 0


def test_codes_beyond_a_sheet_are_listed_not_imported(campaign):
    doc = sample("foundry_od6s_smuggler.json")
    doc["system"]["attributes"]["agi"]["base"] = 10**40
    doc["items"][1]["system"]["base"] = 500

    result = import_character(doc, campaign=campaign)

    assert "dexterity" not in result.data["attributes"]
    assert "blaster" not in skill_rows(result)
    assert any("above 30D" in n for n in result.unmapped)


def test_nul_and_unpaired_surrogates_never_reach_the_draft(campaign):
    doc = sample("foundry_od6s_smuggler.json")
    doc["name"] = "Ris\x00sa \ud800Vance"

    result = import_character(doc, campaign=campaign)

    assert result.data["background"]["name"] == "Rissa ?Vance"
    json.dumps(result.data).encode("utf-8")


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=12), children, max_size=6)
    ),
    max_leaves=40,
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(doc=JSON)
def test_arbitrary_json_is_imported_or_refused(campaign, doc):
    try:
        import_character(doc, campaign=campaign)
    except ImportRefused as refusal:
        assert not refusal.internal, refusal.message


def _mutations(base: dict):
    """A sample with one value anywhere in it replaced by arbitrary JSON."""
    paths = []

    def walk(value, path):
        paths.append(path)
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, (*path, k))
        elif isinstance(value, list):
            for i, v in enumerate(value):
                walk(v, (*path, i))

    walk(base, ())
    paths = [p for p in paths if p]
    return st.tuples(st.sampled_from(paths), JSON)


def _replaced(base, path, value):
    doc = copy.deepcopy(base)
    target = doc
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    "name",
    [
        "onebln21_smuggler.json",
        "onebln21_jedi.json",
        "foundry_od6s_smuggler.json",
        "foundry_od6s_jedi.json",
    ],
)
def test_a_sample_with_any_value_replaced_is_imported_or_refused(campaign, name):
    base = sample(name)

    @settings(max_examples=120, deadline=None)
    @given(change=_mutations(base))
    def check(change):
        doc = _replaced(base, *change)
        try:
            result = import_character(doc, campaign=campaign)
        except ImportRefused as refusal:
            assert not refusal.internal, refusal.message
        else:
            json.dumps(result.data).encode("utf-8")

    check()


# ---------------------------------------------------------------------------------------------
# The upload
# ---------------------------------------------------------------------------------------------
def import_url(campaign):
    return reverse("characters:import_character", args=[campaign.pk])


def upload(name: str, content: bytes | None = None):
    content = (SAMPLES / name).read_bytes() if content is None else content
    return SimpleUploadedFile(name, content, content_type="application/json")


def test_a_player_imports_a_file_and_lands_on_the_review(client, campaign, player):
    client.force_login(player)

    response = client.post(import_url(campaign), {"file": upload("onebln21_smuggler.json")})

    draft = CreationDraft.objects.get(user=player)
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "characters:wizard_step", args=[campaign.pk, draft.pk, "review"]
    )
    assert draft.status == CreationDraft.Status.EDITING
    assert draft.step == "review"
    assert draft.data["start"] == {"owner": player.pk, "free_form": False}
    assert draft.data["import"]["format"] == "1bln21"
    assert draft.data["import"]["file"] == "onebln21_smuggler.json"
    assert (
        "Player 'Sam' (the character goes to the player named on the import)"
        in (draft.data["import"]["unmapped"])
    )
    assert draft.data["attributes"]["dexterity"] == "3D+1"


def test_pasted_json_is_imported_too(client, campaign, player):
    client.force_login(player)
    pasted = (SAMPLES / "foundry_od6s_jedi.json").read_text()

    response = client.post(import_url(campaign), {"text": pasted})

    assert response.status_code == 302
    draft = CreationDraft.objects.get(user=player)
    assert draft.data["import"] == {
        "format": "foundry-opend6",
        "file": "pasted text",
        "unmapped": draft.data["import"]["unmapped"],
    }
    assert draft.data["force"]["control"] == "2D"


def test_the_review_shows_what_did_not_map(client, campaign, player):
    client.force_login(player)
    response = client.post(
        import_url(campaign), {"file": upload("foundry_od6s_smuggler.json")}, follow=True
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert "Foundry item &#x27;Cybernetic arm&#x27; of type &#x27;cybernetic&#x27;" in page


def test_a_gm_imports_for_a_player(client, campaign, gm, player):
    client.force_login(gm)

    client.post(
        import_url(campaign), {"file": upload("onebln21_jedi.json"), "owner": str(player.pk)}
    )

    draft = CreationDraft.objects.get(user=gm)
    assert draft.data["start"]["owner"] == player.pk


def test_a_player_cannot_import_for_someone_else(client, campaign, gm, player):
    client.force_login(player)

    client.post(import_url(campaign), {"file": upload("onebln21_jedi.json"), "owner": gm.pk})

    assert CreationDraft.objects.get(user=player).data["start"]["owner"] == player.pk


def test_the_import_page_is_for_members_only(client, campaign):
    outsider = MembershipFactory().user
    client.force_login(outsider)

    assert client.get(import_url(campaign)).status_code == 404


@pytest.mark.parametrize(
    "post, message",
    [
        ({"file": upload("x.json", b"not json at all")}, "The file is not JSON"),
        ({"file": upload("x.json", b"\x89PNG\r\n\x1a\n\x00\x00")}, "not text (UTF-8)"),
        ({"file": upload("x.json", b'{"name": "Han"}')}, "not a character exported by"),
        ({"file": upload("x.json", b"[]")}, "a JSON list, not a character"),
        ({"file": upload("big.json", b" " * (MAX_BYTES + 1))}, "at most 1 MB"),
        ({"text": "{" * 10}, "The file is not JSON"),
        ({"text": "a\x00b"}, "Null characters are not allowed"),
        ({}, "Choose the character&#x27;s file, or paste its text."),
        (
            {"file": upload("onebln21_jedi.json"), "text": "{}"},
            "Upload a file or paste its text, not both.",
        ),
    ],
)
def test_a_bad_file_is_refused_with_its_message_and_no_draft(
    client, campaign, player, post, message
):
    client.force_login(player)

    response = client.post(import_url(campaign), post)

    assert response.status_code == 400
    assert message in response.content.decode()
    assert not CreationDraft.objects.exists()


def test_the_import_page_asks_for_a_file_or_its_text(client, campaign, player):
    client.force_login(player)

    response = client.get(import_url(campaign))

    page = response.content.decode()
    assert response.status_code == 200
    assert 'type="file"' in page and "Or paste the file&#x27;s text" in page
    assert "Player" not in page  # a player imports his own character


def test_the_import_page_needs_a_log_in(client, campaign):
    response = client.get(import_url(campaign))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


@pytest.mark.parametrize("owner", ["abc", "99999999999999999999", "-1"])
def test_a_gm_naming_no_member_as_owner_is_refused(client, campaign, gm, owner):
    client.force_login(gm)

    response = client.post(
        import_url(campaign), {"file": upload("onebln21_jedi.json"), "owner": owner}
    )

    assert response.status_code == 400
    assert not CreationDraft.objects.exists()


def test_an_imported_draft_becomes_a_character_with_the_files_balances(
    client, campaign, gm, player
):
    client.force_login(gm)
    client.post(
        import_url(campaign), {"file": upload("onebln21_jedi.json"), "owner": str(player.pk)}
    )
    draft = CreationDraft.objects.get(user=gm)

    response = client.post(
        reverse("characters:wizard_step", args=[campaign.pk, draft.pk, "review"]),
        {"action": "create-anyway", "confirm": "on"},
    )

    character = campaign.characters.get()
    assert response.status_code == 302
    assert (character.name, character.owner, character.force_sensitive) == (
        "Tavi Sunrider",
        player,
        True,
    )
    assert str(character.perception) == "3D+1"
    skills = {s.name: str(s.code) for s in character.skills.all()}
    assert skills["medicine"] == "1D" and skills["control"] == "1D+1"
    assert sorted(p.name for p in character.powers.all()) == [
        "Absorb/Dissipate Energy",
        "Life Detection",
    ]
    assert [character.balance(c) for c in ("cp", "fp", "dsp", "credits")] == [7, 2, 1, 800]


def test_the_generators_wookie_is_the_librarys_wookiee(campaign):
    doc = sample("onebln21_smuggler.json")
    doc["info"]["species"] = "Wookie"

    result = import_character(doc, campaign=campaign)

    assert result.data["species"]["choice"] == "Wookiee"


def test_a_file_listing_thousands_of_entries_is_cut_short(campaign, django_assert_max_num_queries):
    doc = sample("foundry_od6s_smuggler.json")
    weapon = doc["items"][8]
    doc["items"] = [{**weapon, "name": f"Blaster {i}"} for i in range(5000)]

    with django_assert_max_num_queries(700):
        result = import_character(doc, campaign=campaign)

    assert len(result.data["gear"]["items"].splitlines()) == 50
    assert "The file lists more than 300 skills, powers and pieces of gear" in "\n".join(
        result.unmapped
    )
