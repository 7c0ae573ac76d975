"""Reference data: attributes and skills, species, weapons, armour, and the generic loader.

Worked examples are cited by their digest ids (characters-and-advancement.md C-*, combat.md
CB-*, droids-and-equipment.md E*, injuries-and-healing.md H-*, dice-and-core.md D-*).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rules import reference
from rules.dice import DieCode
from rules.reference import (
    DATA_TABLES,
    SOURCE_TAGS,
    Armour,
    ReferenceDataError,
    Skill,
    Species,
    UnknownNameError,
    Weapon,
    armour,
    armour_by_name,
    attribute,
    attributes,
    available,
    force_skills,
    load,
    skill,
    skills,
    species,
    species_by_name,
    weapon_by_name,
    weapons,
)

STD = "2E-STD, not in sources"
OWN_TABLES = ("attributes_skills", "species", "weapons", "armour")
SIX = ("dexterity", "knowledge", "mechanical", "perception", "strength", "technical")


# ---------------------------------------------------------------------------------------------
# The loader
# ---------------------------------------------------------------------------------------------
@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point the loader at an empty folder for the duration of one test."""
    reference.clear_cache()
    monkeypatch.setattr(reference.loader, "_data_dir", lambda: tmp_path)
    yield tmp_path
    reference.clear_cache()


def test_the_four_reference_tables_ship_with_the_rules_package() -> None:
    assert set(OWN_TABLES) <= set(available())


@pytest.mark.parametrize("name", available())
def test_every_shipped_table_parses(name: str) -> None:
    assert isinstance(load(name), dict | list)


def test_load_understands_file_names_and_any_case() -> None:
    assert load("species.json") == load("Species") == load(" species ")


def test_changing_a_loaded_table_does_not_change_the_next_load() -> None:
    first = load("species")
    first["species"].clear()
    assert load("species")["species"]


def test_an_unknown_table_name_suggests_the_nearest_one() -> None:
    with pytest.raises(UnknownNameError, match="no reference table called 'starship'") as err:
        load("starship")
    assert "starships" in err.value.suggestions


@pytest.mark.parametrize("bad", ["../secrets", "droids/../x", ""])
def test_a_table_name_with_path_characters_is_refused(bad: str) -> None:
    with pytest.raises(ReferenceDataError, match="not a reference table name"):
        load(bad)


def test_a_table_name_must_be_text() -> None:
    with pytest.raises(ReferenceDataError, match="named by text"):
        load(3)  # type: ignore[arg-type]


def test_a_table_another_module_has_not_shipped_yet_says_so(data_dir: Path) -> None:
    (data_dir / "species.json").write_text('{"species": []}', encoding="utf-8")
    with pytest.raises(ReferenceDataError, match=r"'starships' table .* not installed yet"):
        load("starships")


def test_a_table_may_be_written_in_toml(data_dir: Path) -> None:
    (data_dir / "vehicles.toml").write_text("[speeder]\nmove = 35\n", encoding="utf-8")
    assert load("vehicles") == {"speeder": {"move": 35}}
    assert available() == ("vehicles",)


def test_a_malformed_table_names_its_file(data_dir: Path) -> None:
    (data_dir / "droids.json").write_text("{", encoding="utf-8")
    with pytest.raises(ReferenceDataError, match=r"rules/data/droids.json is not valid"):
        load("droids")


_REAL_ATTRIBUTES = load("attributes_skills")["attributes"]


def _write(folder: Path, table: str, doc: dict[str, Any]) -> None:
    (folder / f"{table}.json").write_text(json.dumps(doc), encoding="utf-8")


def test_a_skill_table_naming_an_unknown_prerequisite_is_refused(data_dir: Path) -> None:
    medicine = {
        "name": "medicine",
        "attribute": "technical",
        "source": STD,
        "prerequisites": [{"skill": "first aid", "minimum": "5D", "source": STD}],
    }
    _write(
        data_dir,
        "attributes_skills",
        {"attributes": _REAL_ATTRIBUTES, "skills": [medicine], "force_skills": []},
    )
    with pytest.raises(ReferenceDataError, match="'medicine' needs unknown skill 'first aid'"):
        skills()


def test_a_species_listed_twice_is_refused(data_dir: Path) -> None:
    ewok = {"name": "Ewok", "source": "RC"}
    _write(data_dir, "species", {"species": [ewok, {**ewok, "name": "EWOK"}]})
    with pytest.raises(ReferenceDataError, match="the species 'EWOK' is listed twice"):
        species()


# ---------------------------------------------------------------------------------------------
# Die codes and source tags across the four tables
# ---------------------------------------------------------------------------------------------
_DIE_KEYS = {
    "attribute_dice",
    "min",
    "max",
    "minimum",
    "damage",
    "stun_damage",
    "fire_control",
    "long_range_penalty",
    "physical",
    "energy",
    "dexterity_penalty",
}
_LOOKS_LIKE_A_CODE = re.compile(r"^[+-]?\d+\s*D", re.I)


def _die_codes(node: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k != "provenance":  # names sources, not dice
                yield from _die_codes(v, k)
    elif isinstance(node, list):
        for v in node:
            yield from _die_codes(v, key)
    elif isinstance(node, str) and (key in _DIE_KEYS or _LOOKS_LIKE_A_CODE.match(node)):
        yield key, node


@pytest.mark.parametrize("table", OWN_TABLES)
def test_every_die_code_in_the_data_parses_and_is_printed_the_standard_way(table: str) -> None:
    codes = list(_die_codes(load(table)))
    assert codes
    for key, text in codes:
        parsed = DieCode.parse(text)
        assert parsed.is_standard, f"{table}: {key} = {text}"
        assert str(parsed) == text, f"{table}: {key} = {text} is not written canonically"


def test_the_skill_table_has_die_codes_only_in_prerequisites() -> None:
    assert {k for k, _ in _die_codes(load("attributes_skills"))} == {"minimum"}


def _sources(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "source":
                yield v
            elif k == "provenance":
                yield from v.values()
            else:
                yield from _sources(v)
    elif isinstance(node, list):
        for v in node:
            yield from _sources(v)


@pytest.mark.parametrize("table", ("species", "weapons", "armour"))
def test_every_record_carries_a_source(table: str) -> None:
    records = load(table)[table]
    assert records
    assert all(record.get("source") for record in records)


def test_every_skill_and_attribute_record_carries_a_source() -> None:
    doc = load("attributes_skills")
    records = doc["attributes"] + doc["skills"] + doc["force_skills"]
    assert all(record.get("source") for record in records)


@pytest.mark.parametrize("table", OWN_TABLES)
def test_every_source_is_made_of_the_digest_tags(table: str) -> None:
    doc = load(table)
    del doc["source"]  # the table's own description
    tags = list(_sources(doc))
    assert tags
    for tag in tags:
        assert all(part in SOURCE_TAGS for part in tag.split("; ")), tag


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------
def test_there_are_six_attributes_in_sheet_order() -> None:
    assert tuple(a.name for a in attributes()) == SIX
    assert tuple(a.abbreviation for a in attributes()) == (
        "DEX",
        "KNO",
        "MEC",
        "PER",
        "STR",
        "TEC",
    )


@pytest.mark.parametrize("spelling", ["Dexterity", "dexterity", "DEX", "dex", " Dex "])
def test_an_attribute_is_found_by_name_or_abbreviation_in_any_case(spelling: str) -> None:
    assert attribute(spelling).label == "Dexterity"


def test_an_unknown_attribute_lists_the_six() -> None:
    with pytest.raises(UnknownNameError, match="Dexterity, Knowledge, Mechanical"):
        attribute("Charisma")


def test_an_attribute_record_without_a_label_is_refused() -> None:
    with pytest.raises(ReferenceDataError, match="'label' must be text"):
        reference.Attribute.from_json({"name": "luck", "abbreviation": "LCK", "source": "RC"})


# ---------------------------------------------------------------------------------------------
# Skills
# ---------------------------------------------------------------------------------------------
# characters-and-advancement.md §1.2, the standard 2E R&E list [2E-STD, not in sources].
R_AND_E_SKILLS = {
    "dexterity": "archaic guns, blaster, blaster artillery, bowcaster, brawling parry, dodge, "
    "firearms, grenade, lightsaber, melee combat, melee parry, missile weapons, pick pocket, "
    "running, thrown weapons, vehicle blasters",
    "knowledge": "alien species, bureaucracy, business, cultures, intimidation, languages, "
    "law enforcement, planetary systems, scholar, streetwise, survival, tactics, value, willpower",
    "mechanical": "archaic starship piloting, astrogation, beast riding, capital ship gunnery, "
    "capital ship piloting, capital ship shields, communications, ground vehicle operation, "
    "hover vehicle operation, jet pack operation, powersuit operation, repulsorlift operation, "
    "rocket pack operation, sensors, space transports, starfighter piloting, starship gunnery, "
    "starship shields, swoop operation, walker operation",
    "perception": "bargain, command, con, forgery, gambling, hide, investigation, persuasion, "
    "search, sneak",
    "strength": "brawling, climbing/jumping, lifting, stamina, swimming",
    "technical": "armor repair, blaster repair, capital starship repair, capital starship weapon "
    "repair, computer programming/repair, demolitions, droid programming, droid repair, first "
    "aid, ground vehicle repair, hover vehicle repair, medicine, repulsorlift repair, security, "
    "space transports repair, starfighter repair, starship weapon repair, walker repair",
}


@pytest.mark.parametrize("attr", SIX)
def test_the_skill_list_is_the_2e_re_list(attr: str) -> None:
    expected = R_AND_E_SKILLS[attr].split(", ")
    assert [s.name for s in skills() if s.attribute == attr] == expected


@pytest.mark.parametrize("edition", ["2e", "1e", "all"])
def test_every_skill_is_governed_by_one_of_the_six_attributes(edition: str) -> None:
    assert {s.attribute for s in skills(edition)} <= set(SIX)  # type: ignore[arg-type]


def test_the_force_skills_are_control_sense_and_alter_without_an_attribute() -> None:
    assert [(s.name, s.attribute) for s in force_skills()] == [
        ("control", None),
        ("sense", None),
        ("alter", None),
    ]
    assert skill("Control").is_force_skill


def test_no_skill_name_or_alias_is_listed_twice() -> None:
    names = [n.casefold() for s in skills("all") + force_skills() for n in (s.name, *s.aliases)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("name", "attr"),
    [
        # C-35 [HOUSE] NCO Leadership I: PER command, persuasion; STR stamina;
        # KNO survival, tactics, willpower.
        ("command", "perception"),
        ("persuasion", "perception"),
        ("stamina", "strength"),
        ("survival", "knowledge"),
        ("tactics", "knowledge"),
        ("willpower", "knowledge"),
        # C-27 [HOUSE] Dexterity 3D, blaster 4D.
        ("blaster", "dexterity"),
        # [RC] "Starship tactics is a specialized Knowledge skill ... From now on it is a
        # Knowledge skill."
        ("starship tactics", "knowledge"),
        # [UPG] section headings: scholar/tactics under Knowledge, jet/rocket packs under
        # Mechanical, brawling/lifting under Strength.
        ("scholar", "knowledge"),
        ("jet pack operation", "mechanical"),
        ("rocket pack operation", "mechanical"),
        ("brawling", "strength"),
        ("lifting", "strength"),
    ],
)
def test_skills_sit_under_the_attribute_the_sources_give(name: str, attr: str) -> None:
    assert skill(name).attribute == attr


def test_c27_blaster_pistol_is_an_example_specialization_of_blaster() -> None:
    assert "blaster pistol" in [x.name for x in skill("blaster").specializations]


def test_house_auto_fire_specializations_belong_to_blaster() -> None:
    found = {x.name: x.source for x in skill("blaster").specializations}
    assert {"Auto Pistol", "Auto Carbine", "Auto Rifle"} <= set(found)
    assert found["Auto Rifle"] == "HOUSE"


def test_medicine_is_an_advanced_skill_needing_first_aid_5d() -> None:
    medicine = skill("medicine")
    assert medicine.advanced
    assert [(p.skill, p.minimum, p.source) for p in medicine.prerequisites] == [
        ("first aid", DieCode(5), STD)
    ]
    assert medicine.label == "(A) Medicine"


def test_c28_cyborging_is_an_advanced_specialization_needing_medicine_3d() -> None:
    (cyborging,) = skill("(A) Medicine").specializations
    assert cyborging.name == "Cyborging"
    assert cyborging.advanced
    assert cyborging.prerequisite is not None
    assert (cyborging.prerequisite.skill, cyborging.prerequisite.minimum) == (
        "medicine",
        DieCode(3),
    )


def test_only_medicine_is_advanced_in_the_2e_list() -> None:
    assert [s.name for s in skills("all") if s.advanced] == ["medicine"]


@pytest.mark.parametrize(
    ("name", "reaction"),
    [
        # [UPG] "The game's reaction skills are dodge, melee parry, brawling parry, and
        # lightsaber"; repulsorlift operation gives a vehicle dodge; capital ship piloting,
        # space transports and starfighter piloting a starship dodge.
        ("dodge", "dodge"),
        ("melee parry", "parry"),
        ("brawling parry", "parry"),
        ("lightsaber", "parry"),
        ("repulsorlift operation", "vehicle_dodge"),
        ("capital ship piloting", "starship_dodge"),
        ("space transports", "starship_dodge"),
        ("starfighter piloting", "starship_dodge"),
        ("blaster", None),
    ],
)
def test_reaction_skills_are_marked(name: str, reaction: str | None) -> None:
    assert skill(name).reaction == reaction


def test_upg_scholar_and_tactics_carry_their_example_specializations() -> None:
    scholar = [x.name for x in skill("scholar").specializations]
    assert scholar[:5] == ["archaeology", "Jedi lore", "history", "geology", "physics"]
    assert [x.name for x in skill("tactics").specializations] == [
        "squads",
        "fleets",
        "capital ships",
        "ground assault",
    ]
    assert skill("scholar").time_taken == "One round to several days."


def test_first_edition_skills_point_to_a_2e_equivalent() -> None:
    first = skills("1e")
    assert {s.name for s in first} >= {"alien races", "technology", "starship tactics"}
    for s in first:
        assert s.edition == "1e"
        assert s.source == "RC"
        if s.equivalent is not None:
            assert skill(s.equivalent).edition == "2e"


def test_skills_all_is_both_editions() -> None:
    assert len(skills("all")) == len(skills("2e")) + len(skills("1e"))


def test_an_unknown_edition_is_refused() -> None:
    with pytest.raises(ReferenceDataError, match="edition must be"):
        skills("3e")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("BLASTER", "blaster"),
        ("Climbing / Jumping", "climbing/jumping"),
        ("(A) Medicine", "medicine"),
        ("(s) Blaster", "blaster"),
        ("Computer Programming & Repair", "computer programming/repair"),
        ("melee", "melee weapons"),
        ("Alien Races", "alien races"),
        ("  space   transports ", "space transports"),
    ],
)
def test_skill_lookup_ignores_case_spacing_and_prefixes(spelling: str, name: str) -> None:
    assert skill(spelling).name == name


def test_an_unknown_skill_suggests_close_matches() -> None:
    with pytest.raises(
        UnknownNameError, match=r"unknown skill 'blastr'; did you mean blaster"
    ) as err:
        skill("blastr")
    assert "blaster" in err.value.suggestions


def test_a_partial_skill_name_suggests_the_skills_containing_it() -> None:
    with pytest.raises(UnknownNameError) as err:
        skill("pack")
    assert set(err.value.suggestions) >= {"jet pack operation", "rocket pack operation"}


def test_a_skill_with_nothing_close_points_to_the_list() -> None:
    with pytest.raises(UnknownNameError, match=r"unknown skill 'xyzzy'; see skills\(\)"):
        skill("xyzzy")


def test_a_skill_is_looked_up_by_text() -> None:
    with pytest.raises(UnknownNameError, match="by its name"):
        skill(None)  # type: ignore[arg-type]


def test_a_skill_label_capitalises_each_word() -> None:
    assert skill("climbing/jumping").label == "Climbing/Jumping"
    assert skill("computer programming/repair").label == "Computer Programming/Repair"


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"name": "piloting", "source": "RC"}, "needs one of the six attributes"),
        ({"name": "luck", "attribute": "charm", "source": "RC"}, "unknown attribute 'charm'"),
        ({"name": "dodge", "attribute": "dex", "source": "RC", "reaction": "duck"}, "reaction"),
        ({"name": "dodge", "attribute": "dex", "source": "RC", "edition": "3e"}, "edition"),
        ({"name": "dodge", "attribute": "dex", "source": "GM"}, "unknown source tag 'GM'"),
        ({"name": "dodge", "attribute": "dex"}, "needs a 'source' tag"),
        ({"attribute": "dex", "source": "RC"}, "has no name"),
        ("dodge", "must be a JSON object"),
        (
            {"name": "x", "attribute": "dex", "source": "RC", "prerequisites": [{"minimum": "1D"}]},
            "needs a skill and a minimum",
        ),
        (
            {
                "name": "x",
                "attribute": "dex",
                "source": "RC",
                "prerequisites": [{"skill": "dodge", "minimum": "5D+3", "source": "RC"}],
            },
            "not a die code as printed",
        ),
        (
            {
                "name": "x",
                "attribute": "dex",
                "source": "RC",
                "prerequisites": [{"skill": "dodge", "minimum": "five", "source": "RC"}],
            },
            "contains",
        ),
    ],
)
def test_a_malformed_skill_record_is_refused(record: Any, message: str) -> None:
    with pytest.raises(ReferenceDataError, match=message):
        Skill.from_json(record)


def test_a_force_skill_record_may_not_name_an_attribute() -> None:
    with pytest.raises(ReferenceDataError, match="no governing attribute"):
        Skill.from_json({"name": "sense", "attribute": "perception", "source": "UPG"}, force=True)


# ---------------------------------------------------------------------------------------------
# Species
# ---------------------------------------------------------------------------------------------
def test_humans_are_2d_to_4d_in_every_attribute_with_move_10_of_12() -> None:
    human = species_by_name("Human")
    for attr in SIX:
        r = human.attribute_range(attr)
        assert (r.minimum, r.maximum) == (DieCode(2), DieCode(4))
    assert (human.move, human.max_move) == (10, 12)
    assert human.attribute_dice == DieCode(12)


def test_no_source_prints_species_numbers_so_they_are_tagged_2e_std() -> None:
    with_numbers = [s for s in species() if s.has_statistics or s.move is not None]
    assert [s.name for s in with_numbers] == ["Human", "Wookiee"]
    assert {s.source for s in with_numbers} == {STD}


def test_c23_the_human_dexterity_maximum_is_4d() -> None:
    assert species_by_name("human").attribute_range("Dexterity").maximum == DieCode(4)


def test_wookiee_strength_runs_2d_plus_2_to_6d_with_move_11_of_15() -> None:
    wookiee = species_by_name("Wookiee")
    assert str(wookiee.attribute_range("STR")) == "2D+2/6D"
    assert (wookiee.move, wookiee.max_move) == (11, 15)


@pytest.mark.parametrize("s", species(), ids=lambda s: s.name)
def test_every_species_minimum_is_at_most_its_maximum(s: Species) -> None:
    for _, r in s.attributes or ():
        assert r.minimum <= r.maximum
    if s.move is not None:
        assert s.max_move is not None and s.move <= s.max_move


@pytest.mark.parametrize(
    "name",
    [
        # every species the five texts name (RC index and examples, House rules)
        "Human",
        "Wookiee",
        "Ewok",
        "Gamorrean",
        "Ithorian",
        "Jawa",
        "Mon Calamari",
        "Quarren",
        "Sullustan",
        "Tusken Raider",
        "Twi'lek",
        "Hutt",
        "Coynite",
        "Houk",
        "Gotal",
        "Klingon",
        "Vulcan",
        "Half Betazoid",
    ],
)
def test_every_species_the_sources_name_is_listed(name: str) -> None:
    assert species_by_name(name).name == name


@pytest.mark.parametrize(
    ("name", "rule"),
    [
        # C-13 [HOUSE]: Coynites, Houk, Klingons and Wookiees cannot be Force-sensitive;
        # Gotals may be, but their cones stop working.
        ("Wookiee", "forbidden"),
        ("Coynite", "forbidden"),
        ("Houk", "forbidden"),
        ("Klingon", "forbidden"),
        ("Gotal", "loses_cones"),
        ("Human", "allowed"),
        ("Twi'lek", "allowed"),
    ],
)
def test_c13_house_force_sensitivity_by_species(name: str, rule: str) -> None:
    assert species_by_name(name).house_force_sensitivity == rule


@pytest.mark.parametrize(
    ("spelling", "name"),
    [
        ("wookiees", "Wookiee"),
        ("MON CAL", "Mon Calamari"),
        ("Sand People", "Tusken Raider"),
        ("Twi’lek", "Twi'lek"),
        ("twilek", "Twi'lek"),
        ("  HUMAN ", "Human"),
    ],
)
def test_species_lookup_takes_plurals_aliases_and_any_case(spelling: str, name: str) -> None:
    assert species_by_name(spelling).name == name


def test_an_unknown_species_suggests_the_nearest() -> None:
    with pytest.raises(UnknownNameError, match="unknown species 'Wookie'; did you mean") as err:
        species_by_name("Wookie")
    assert err.value.suggestions[0] == "Wookiee"


def test_a_species_without_printed_limits_asks_the_gm() -> None:
    ewok = species_by_name("Ewok")
    assert not ewok.has_statistics
    with pytest.raises(ReferenceDataError, match="no attribute limits for Ewoks; the GM"):
        ewok.attribute_range("strength")


def test_crossover_pc_types_are_marked_star_trek() -> None:
    assert {s.name for s in species() if s.setting == "star_trek"} == {
        "Klingon",
        "Vulcan",
        "Half Betazoid",
    }


def test_no_species_name_or_alias_is_listed_twice() -> None:
    names = [n.casefold() for s in species() for n in (s.name, *s.aliases)]
    assert len(names) == len(set(names))


@pytest.mark.parametrize(
    ("code", "inside"),
    [("2D", True), ("4D", True), ("3D+2", True), ("1D+2", False), ("4D+1", False)],
)
def test_an_attribute_range_includes_both_ends(code: str, inside: bool) -> None:
    assert (code in species_by_name("Human").attribute_range("dex")) is inside
    assert (DieCode.parse(code) in species_by_name("Human").attribute_range("dex")) is inside


def test_an_attribute_range_contains_only_die_codes() -> None:
    assert 3 not in species_by_name("Human").attribute_range("dex")


def _species(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "name": "Test",
        "source": STD,
        "attributes": {a: {"min": "1D", "max": "4D"} for a in SIX},
        "move": {"normal": 10, "max": 12},
    }
    record.update(changes)
    return record


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (
            _species(
                attributes={
                    **{a: {"min": "1D", "max": "4D"} for a in SIX},
                    "strength": {"min": "3D", "max": "2D+2"},
                }
            ),
            "maximum 2D\\+2 is below minimum 3D",
        ),
        (_species(attributes={"dexterity": {"min": "1D", "max": "4D"}}), "no limits for knowledge"),
        (_species(attributes=["1D", "4D"]), "must map names"),
        (_species(attributes={a: "1D/4D" for a in SIX}), "give a min and a max"),
        (_species(move={"normal": 12, "max": 10}), "maximum Move 10 is below its Move 12"),
        (_species(move={"normal": -1, "max": 10}), "whole number"),
        (_species(move=[10, 12]), "move must give"),
        (_species(house_force_sensitivity="sometimes"), "house_force_sensitivity"),
        (_species(attribute_dice="12"), "has no D"),
    ],
)
def test_a_malformed_species_record_is_refused(record: dict[str, Any], message: str) -> None:
    with pytest.raises(ReferenceDataError, match=message):
        Species.from_json(record)


def test_a_species_record_without_numbers_is_accepted() -> None:
    parsed = Species.from_json({"name": "Test", "source": "RC", "attributes": None, "move": None})
    assert (parsed.has_statistics, parsed.move, parsed.plural) == (False, None, "Test")


# ---------------------------------------------------------------------------------------------
# Weapons
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "damage"),
    [
        # RC "a blaster pistol does 4D of damage"; E2 / C-38 improve it from 4D.
        ("Blaster pistol", "4D"),
        # CB-18 / H-14 [HOUSE §14] "a Heavy Blaster Pistol does 5D normal and 5D stun damage".
        ("Heavy blaster pistol", "5D"),
        # D-32 / E32 [WIKI] "a blaster rifle that does 5D damage".
        ("Blaster rifle", "5D"),
        # RC Major Lariss's lajik whip "damage STR+1D"; Captain Dedelin's crude vibroaxe.
        ("Lajik whip", "STR+1D"),
        ("Crude vibroaxe", "STR+1D+2"),
        # RC Rolo's Ruffians throw rocks for STR damage.
        ("Thrown rock", "STR"),
        ("Thermal detonator", "10D/8D/5D/2D"),
        ("Crude blaster cannon", "4D+2"),
    ],
)
def test_weapon_damage_is_as_printed(name: str, damage: str) -> None:
    assert weapon_by_name(name).damage_text == damage


def test_cb18_the_heavy_blaster_pistol_stuns_with_its_own_5d() -> None:
    heavy = weapon_by_name("heavy blaster pistol")
    assert heavy.can_stun and heavy.stun_damage == DieCode(5)
    assert heavy.source_of("stun_damage") == "HOUSE"


def test_house_prices_a_blaster_pistol_at_450_and_a_heavy_one_at_750() -> None:
    assert weapon_by_name("Blaster pistol").cost == 450
    assert weapon_by_name("Heavy blaster pistol").cost == 750
    assert weapon_by_name("Blaster pistol").source_of("cost") == "HOUSE"


def test_a_blaster_pistol_reads_3_10_30_120_from_2e_std() -> None:
    pistol = weapon_by_name("BLASTER PISTOL")
    assert str(pistol.ranges) == "3-10/30/120"
    assert pistol.source_of("ranges") == STD
    assert pistol.source_of("damage") == "RC"


@pytest.mark.parametrize(
    ("name", "strength", "expected"),
    [
        # RC Major Lariss, STR 3D, lajik whip STR+1D -> 4D.
        ("Lajik whip", "3D", DieCode(4)),
        # (derived) RC Captain Dedelin, STR 2D+1, crude vibroaxe STR+1D+2 -> 3D+3 (pips kept).
        ("Crude vibroaxe", "2D+1", DieCode(3, 3)),
        ("Thrown rock", DieCode(2), DieCode(2)),
        ("Blaster pistol", None, DieCode(4)),
    ],
)
def test_strength_weapons_add_the_wielders_strength(
    name: str, strength: str | DieCode | None, expected: DieCode
) -> None:
    assert weapon_by_name(name).damage_code(strength) == expected


def test_thrown_rocks_lose_1d_at_long_range() -> None:
    rock = weapon_by_name("thrown rock")
    assert rock.long_range_penalty == DieCode(1)
    assert rock.skill == "grenade"


def test_a_strength_weapon_needs_the_wielders_strength() -> None:
    with pytest.raises(ReferenceDataError, match="does STR\\+1D: give Strength"):
        weapon_by_name("Lajik whip").damage_code()


def test_an_area_weapon_has_no_single_damage_code() -> None:
    with pytest.raises(ReferenceDataError, match="use its blast bands"):
        weapon_by_name("Grenade").damage_code()


def test_grenade_blast_bands_widen_as_damage_falls() -> None:
    bands = weapon_by_name("Grenade").blast
    assert [(b.radius, str(b.damage)) for b in bands] == [
        (2, "5D"),
        (4, "4D"),
        (6, "3D"),
        (10, "2D"),
    ]


@pytest.mark.parametrize("w", weapons(), ids=lambda w: w.name)
def test_every_weapon_is_used_with_a_known_skill(w: Weapon) -> None:
    assert skill(w.skill).name == w.skill


@pytest.mark.parametrize("w", weapons(), ids=lambda w: w.name)
def test_every_weapon_range_band_grows(w: Weapon) -> None:
    if w.ranges is not None:
        r = w.ranges
        assert 0 < r.short_min <= r.short_max < r.medium_max < r.long_max


def test_no_weapon_or_armour_is_listed_twice() -> None:
    names = [w.name.casefold() for w in weapons()] + [a.name.casefold() for a in armour()]
    assert len(names) == len(set(names))


def test_an_unknown_weapon_suggests_the_nearest() -> None:
    with pytest.raises(UnknownNameError, match="unknown weapon 'blaster pistle'; did you mean"):
        weapon_by_name("blaster pistle")


def test_a_weapon_without_damage_shows_a_dash() -> None:
    bare = Weapon.from_json({"name": "Net", "skill": "thrown weapons", "source": "RC"})
    assert bare.damage_text == "—"
    assert bare.source_of("damage") == "RC"


def _weapon(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = {"name": "Test", "skill": "blaster", "source": "RC", "damage": "4D"}
    record.update(changes)
    return record


@pytest.mark.parametrize(
    ("record", "message"),
    [
        (_weapon(skill=None), "name the skill"),
        (_weapon(skill="blasting"), "unknown skill 'blasting'"),
        (_weapon(damage="4D+3"), "not a die code as printed"),
        (_weapon(damage="4X"), "contains 'X'"),
        (_weapon(ranges={"short": [3, 10], "medium": 8, "long": 120}), "must increase"),
        (_weapon(ranges={"short": 3, "medium": 30, "long": 120}), "need short"),
        (_weapon(ranges={"short": [3, 10], "medium": 30}), "need short"),
        (_weapon(cost=-5), "whole number"),
        (_weapon(ammo=True), "whole number"),
        (
            _weapon(blast=[{"radius": 4, "damage": "4D"}, {"radius": 2, "damage": "5D"}]),
            "blast bands must widen",
        ),
        (_weapon(provenance={"damage": "a forum"}), "unknown source tag"),
    ],
)
def test_a_malformed_weapon_record_is_refused(record: dict[str, Any], message: str) -> None:
    with pytest.raises(ReferenceDataError, match=message):
        Weapon.from_json(record)


# ---------------------------------------------------------------------------------------------
# Armour
# ---------------------------------------------------------------------------------------------
def test_cb21_a_droid_with_1d_armour_plating_resists_with_strength_plus_1d() -> None:
    # CB-21 [RC] droid "STR 1D (+1D armor)" resists with 2D.
    plating = armour_by_name("Droid armor plating")
    assert DieCode(1) + plating.protection("energy") == DieCode(2)
    assert plating.dexterity_penalty == DieCode(0)


def test_stormtrooper_armour_protects_more_against_physical_than_energy() -> None:
    trooper = armour_by_name("stormtrooper armour")
    assert trooper.protection("physical") == DieCode(2)
    assert trooper.protection("energy") == DieCode(1)
    assert trooper.dexterity_penalty == DieCode(1)
    assert trooper.source_of("physical") == STD
    assert trooper.source_of("citation") == STD


def test_armour_protects_against_physical_or_energy_damage_only() -> None:
    with pytest.raises(ReferenceDataError, match="physical or energy damage, not 'sonic'"):
        armour_by_name("Stormtrooper armour").protection("sonic")  # type: ignore[arg-type]


def test_an_unknown_armour_suggests_the_nearest() -> None:
    with pytest.raises(UnknownNameError, match="did you mean Stormtrooper armour"):
        armour_by_name("Stormtroper armor")


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"name": "Vest", "physical": "1D", "source": "RC", "cost": "lots"}, "whole number"),
        ({"name": "Vest", "physical": "-1D", "source": "RC"}, "not a die code as printed"),
        ({"name": "Vest", "physical": "1D"}, "needs a 'source' tag"),
    ],
)
def test_a_malformed_armour_record_is_refused(record: dict[str, Any], message: str) -> None:
    with pytest.raises(ReferenceDataError, match=message):
        Armour.from_json(record)


def test_armour_fields_left_out_default_to_no_protection() -> None:
    vest = Armour.from_json({"name": "Vest", "physical": "1D", "source": "RC"})
    assert (vest.energy, vest.dexterity_penalty, vest.covers) == (DieCode(0), DieCode(0), ())


# ---------------------------------------------------------------------------------------------
# Table registry
# ---------------------------------------------------------------------------------------------
def test_the_registry_names_the_tables_other_modules_ship() -> None:
    assert set(DATA_TABLES) >= {"droids", "starships", "vehicles", "force_powers", *OWN_TABLES}
