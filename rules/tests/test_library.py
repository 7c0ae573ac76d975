"""The campaign library's entries: schemas, messages that name the place, the sources' built-in
entries and the shareable library file."""

import copy
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import DieCode
from rules.library import (
    KINDS,
    LibraryError,
    builtin_entries,
    check_entry,
    library_document,
    parse_library_document,
    species_limits,
)
from rules.traits import ATTRIBUTES


def species(**changes):
    data = {
        "name": "Rodian",
        "source": "Galaxy Guide 4, p. 12",
        "attributes": {a: {"min": "1D", "max": "4D"} for a in ATTRIBUTES},
        "move": {"normal": 10, "max": 12},
        "special_abilities": "Tracking: +1D to search when tracking.",
    }
    data.update(changes)
    return data


def template(**changes):
    data = {
        "name": "Smuggler",
        "species": "Human",
        "attributes": dict.fromkeys(ATTRIBUTES, "3D"),
        "skills": [
            {"name": "blaster", "code": "4D"},
            {"name": "space transports", "code": "5d+1"},
            {"name": "blaster pistol", "code": "5D", "specialization_of": "blaster"},
        ],
        "gear": {"weapons": ["Heavy blaster pistol"], "items": "comlink\n2 x medpac"},
        "credits": 1000,
    }
    data.update(changes)
    return data


def refusal(kind, data):
    with pytest.raises(LibraryError) as caught:
        check_entry(kind, data)
    return caught.value


# ---------------------------------------------------------------------------------------------
# Species
# ---------------------------------------------------------------------------------------------
def test_a_species_entry_is_normalised_with_canonical_die_codes():
    data = species(attributes={a: {"min": "1d", "max": " 3d + 2 "} for a in ATTRIBUTES})
    entry = check_entry("species", data)
    assert entry["attributes"]["strength"] == {"min": "1D", "max": "3D+2"}
    assert entry["force_sensitivity"] == "allowed"
    assert entry["notes"] == ""


def test_a_pool_code_is_refused_naming_the_attribute_and_limit():
    data = species()
    data["attributes"]["strength"]["max"] = "9D+7"
    error = refusal("species", data)
    assert error.where == "attributes.strength.max"
    assert str(error).startswith("attributes.strength.max: '9D+7' is not a die code")


def test_text_that_is_no_die_code_is_refused_naming_its_place():
    data = species()
    data["attributes"]["dexterity"]["min"] = "lots"
    assert refusal("species", data).where == "attributes.dexterity.min"


@pytest.mark.parametrize("code", ["0D", "10D+1", "30D"])
def test_species_limits_must_lie_above_0D_and_at_most_10D(code):
    data = species()
    data["attributes"]["knowledge"]["max"] = code
    assert refusal("species", data).where == "attributes.knowledge.max"


def test_a_maximum_below_its_minimum_is_refused():
    data = species()
    data["attributes"]["perception"] = {"min": "3D", "max": "2D+2"}
    error = refusal("species", data)
    assert error.where == "attributes.perception.max"
    assert "below the minimum 3D" in str(error)


def test_every_attribute_needs_limits():
    data = species()
    del data["attributes"]["technical"]
    assert refusal("species", data).where == "attributes.technical"


@pytest.mark.parametrize(
    ("move", "where"),
    [
        ({"normal": 0, "max": 10}, "move.normal"),
        ({"normal": 12, "max": 10}, "move.max"),
        ({"normal": 10, "max": 41}, "move.max"),
        ({"normal": "ten"}, "move.normal"),
    ],
)
def test_move_is_1_to_40_with_its_maximum_at_least_the_move(move, where):
    assert refusal("species", species(move=move)).where == where


def test_an_unknown_field_is_refused_by_name():
    assert refusal("species", species(strenght="4D")).where == "strenght"


def test_a_name_is_required_and_at_most_100_characters():
    assert refusal("species", species(name="  ")).where == "name"
    assert refusal("species", species(name="x" * 101)).where == "name"
    assert refusal("species", species(source="s" * 121)).where == "source"


def test_a_nul_character_is_refused_before_the_database_sees_it():
    assert refusal("species", species(notes="bad\x00")).where == "notes"


def test_a_lone_surrogate_is_refused_before_the_database_sees_it():
    assert refusal("species", species(special_abilities="bad\ud800")).where == ("special_abilities")


def test_force_sensitivity_is_allowed_forbidden_or_loses_cones():
    assert check_entry("species", species(force_sensitivity="forbidden"))["force_sensitivity"] == (
        "forbidden"
    )
    assert refusal("species", species(force_sensitivity="maybe")).where == "force_sensitivity"


def test_species_limits_for_creation_come_from_the_entry():
    limits = species_limits(check_entry("species", species()))
    assert limits.range_of("strength") == (DieCode(1), DieCode(4))
    assert limits.move == 10


def test_a_species_without_numbers_has_no_limits():
    entry = check_entry("species", species(attributes=None, move=None))
    assert species_limits(entry) is None


# ---------------------------------------------------------------------------------------------
# Templates
# ---------------------------------------------------------------------------------------------
def test_a_template_fills_each_skills_attribute_from_the_skill_list():
    entry = check_entry("template", template())
    by_name = {s["name"]: s for s in entry["skills"]}
    assert by_name["space transports"] == {
        "name": "space transports",
        "code": "5D+1",
        "attribute": "mechanical",
        "specialization_of": None,
        "advanced": False,
    }
    assert by_name["blaster pistol"]["attribute"] == "dexterity"
    assert entry["force"] == {
        "sensitive": False,
        "control": None,
        "sense": None,
        "alter": None,
        "powers": [],
    }


def test_an_unknown_skill_must_name_its_attribute():
    data = template(skills=[{"name": "bowcaster tricks", "code": "4D"}])
    assert refusal("template", data).where == "skills[0].attribute"
    data["skills"][0]["attribute"] = "Dexterity"
    assert check_entry("template", data)["skills"][0]["attribute"] == "dexterity"


def test_a_bad_skill_code_is_refused_naming_the_skill():
    data = template()
    data["skills"][2]["code"] = "9D+7"
    assert refusal("template", data).where == "skills[2].code"


def test_a_skill_listed_twice_is_refused():
    data = template(skills=[{"name": "Blaster", "code": "4D"}, {"name": "blaster", "code": "5D"}])
    assert refusal("template", data).where == "skills[1].name"


def test_force_skills_need_a_force_sensitive_template():
    data = template(force={"sensitive": False, "control": "1D"})
    assert refusal("template", data).where == "force.control"


def test_force_powers_are_checked_against_the_power_table():
    data = template(force={"sensitive": True, "sense": "1D", "powers": ["life detection"]})
    assert check_entry("template", data)["force"]["powers"] == ["Life Detection"]
    data["force"]["powers"].append("lightning bolt")
    assert refusal("template", data).where == "force.powers[1]"


def test_a_template_needs_all_six_attributes_and_credits_of_zero_or_more():
    data = template()
    del data["attributes"]["knowledge"]
    assert refusal("template", data).where == "attributes.knowledge"
    assert refusal("template", template(credits=-1)).where == "credits"


# ---------------------------------------------------------------------------------------------
# Weapons, armour, gear
# ---------------------------------------------------------------------------------------------
def test_a_weapon_skill_is_spelled_as_the_skill_list_spells_it():
    entry = check_entry(
        "weapon",
        {
            "name": "Hold-out blaster",
            "skill": "Blaster",
            "damage": "3d",
            "ranges": {"short": [3, 4], "medium": 8, "long": 12},
        },
    )
    assert entry["skill"] == "blaster"
    assert entry["damage"] == "3D"
    assert entry["ranges"] == {"short": [3, 4], "medium": 8, "long": 12}


def test_weapon_ranges_must_not_shrink():
    data = {
        "name": "Odd",
        "skill": "blaster",
        "ranges": {"short": [3, 10], "medium": 5, "long": 20},
    }
    assert refusal("weapon", data).where == "ranges.medium"


def test_armour_codes_are_checked():
    error = refusal("armour", {"name": "Blast vest", "physical": "+1D", "energy": "1D+3"})
    assert error.where == "energy"


def test_gear_cost_is_a_whole_number():
    assert refusal("gear", {"name": "Medpac", "cost": "100"}).where == "cost"
    assert check_entry("gear", {"name": "Medpac", "cost": 100})["cost"] == 100


def test_an_unknown_kind_is_refused():
    assert refusal("starship", {"name": "X-wing"}).where == "kind"


# ---------------------------------------------------------------------------------------------
# Built-in entries
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", KINDS)
def test_built_in_entries_pass_their_own_checks(kind):
    for entry in builtin_entries(kind):
        assert check_entry(kind, entry) == entry


def test_the_sources_species_ship_with_and_without_numbers():
    by_name = {e["name"]: e for e in builtin_entries("species")}
    assert by_name["Wookiee"]["attributes"]["strength"] == {"min": "2D+2", "max": "6D"}
    assert by_name["Wookiee"]["move"] == {"normal": 11, "max": 15}
    assert by_name["Wookiee"]["force_sensitivity"] == "forbidden"
    assert by_name["Ewok"]["attributes"] is None
    assert species_limits(by_name["Ewok"]) is None


def test_built_in_weapons_keep_damage_and_ranges():
    by_name = {e["name"]: e for e in builtin_entries("weapon")}
    assert by_name["Blaster pistol"]["damage"] == "4D"
    assert by_name["Blaster pistol"]["ranges"] == {"short": [3, 10], "medium": 30, "long": 120}
    assert by_name["Grenade"]["blast"][0] == {"radius": 2, "damage": "5D"}


def test_a_caller_changing_a_built_in_entry_does_not_change_the_next_one_read():
    builtin_entries("species")[0]["name"] = "Changed"
    assert builtin_entries("species")[0]["name"] != "Changed"


# ---------------------------------------------------------------------------------------------
# The library file
# ---------------------------------------------------------------------------------------------
def test_the_library_file_reads_back_what_was_written():
    pairs = [
        ("species", check_entry("species", species())),
        ("template", check_entry("template", template())),
    ]
    document = json.loads(json.dumps(library_document(pairs)))
    assert document["format"] == "datapad-library"
    assert document["version"] == 1
    assert parse_library_document(document) == pairs


def test_a_damaged_file_is_refused_naming_the_entry_and_field():
    document = library_document([("species", species()), ("species", species(name="Duros"))])
    document["entries"][1]["entry"]["attributes"]["strength"]["max"] = "9D+7"
    with pytest.raises(LibraryError) as caught:
        parse_library_document(document)
    assert caught.value.where == "entries[1].attributes.strength.max"


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(format="something else"), "format"),
        (lambda d: d["entries"][0].update(kind="ship"), "entries[0].kind"),
        (lambda d: d["entries"].append(copy.deepcopy(d["entries"][0])), "entries[1].name"),
        (lambda d: d.update(entries={}), "entries"),
    ],
)
def test_a_file_of_the_wrong_version_format_or_kind_is_refused(change, where):
    document = library_document([("species", species())])
    change(document)
    with pytest.raises(LibraryError) as caught:
        parse_library_document(document)
    assert caught.value.where == where


def test_a_file_that_is_not_an_object_is_refused():
    with pytest.raises(LibraryError):
        parse_library_document(["not", "a", "library"])


# ---------------------------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------------------------
codes = st.builds(
    lambda d, p: f"{d}{'dD'[p % 2]}" + ("" if p == 0 else f"+{p}"),
    st.integers(1, 9),
    st.integers(0, 2),
)
texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=30
)


@st.composite
def species_data(draw):
    limits = {}
    for a in ATTRIBUTES:
        low, high = sorted([DieCode.parse(draw(codes)), DieCode.parse(draw(codes))])
        limits[a] = {"min": f" {str(low).lower()} ", "max": str(high)}
    normal = draw(st.integers(1, 40))
    return {
        "name": draw(texts.filter(lambda t: t.strip())),
        "source": draw(texts),
        "notes": draw(texts),
        "attributes": draw(st.sampled_from([None, limits])),
        "move": {"normal": normal, "max": draw(st.integers(normal, 40))},
        "special_abilities": draw(texts),
        "force_sensitivity": draw(st.sampled_from(["allowed", "forbidden", "loses_cones"])),
    }


@given(species_data())
def test_checking_a_checked_species_changes_nothing(data):
    once = check_entry("species", data)
    assert check_entry("species", once) == once


@given(
    st.lists(species_data(), max_size=5, unique_by=lambda d: " ".join(d["name"].split()).casefold())
)
def test_any_library_file_reads_back_through_json(items):
    pairs = [("species", check_entry("species", d)) for d in items]
    if len({e["name"].casefold() for _, e in pairs}) < len(pairs):
        return  # names equal only once their spacing is normalised
    document = json.loads(json.dumps(library_document(pairs)))
    assert parse_library_document(document) == pairs


@given(
    st.dictionaries(
        st.sampled_from(["name", "skill", "damage", "ranges", "cost", "blast"]),
        st.one_of(st.none(), st.integers(-5, 5), texts, codes, st.lists(codes)),
    )
)
def test_any_weapon_data_is_either_checked_or_refused_as_a_library_error(data):
    try:
        once = check_entry("weapon", data)
    except LibraryError:
        return
    assert check_entry("weapon", once) == once
