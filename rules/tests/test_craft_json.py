"""Stored stat blocks (CraftStats.to_json/from_json) and the rolls of crew stations."""

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.craft import (
    CraftError,
    CraftStats,
    CraftWeapon,
    combined_code,
    load_craft,
    piloting_skill,
    station_roll,
)
from rules.dice import DieCode
from rules.scale import Scale

CATALOGUE = load_craft("starships") + load_craft("vehicles")

FREIGHTER = CraftStats(
    name="Light freighter",
    kind="starship",
    scale=Scale.STARFIGHTER,
    craft_type="YT-1300 transport",
    crew=2,
    crew_skill="space transports 4D",
    passengers=6,
    cargo="100 metric tons",
    consumables="2 months",
    hyperdrive=2.0,
    backup_hyperdrive=12.0,
    nav_computer=True,
    maneuverability=DieCode(1, 0),
    space=4,
    atmosphere_move=280,
    atmosphere_kmh=800,
    hull=DieCode(4, 0),
    shields=DieCode(0, 2),
    sensors="Passive 10/0D, scan 25/1D",
    piloting_skill="space transports",
    weapons=(
        CraftWeapon(
            "Double laser cannon",
            fire_control=DieCode(2, 0),
            damage=DieCode(4, 0),
            arc="turret",
            crew=1,
            range_text="1-3/12/25",
        ),
    ),
)


@pytest.mark.parametrize("craft", [*CATALOGUE, FREIGHTER], ids=lambda c: c.name)
def test_stat_block_round_trips_through_json(craft):
    assert CraftStats.from_json(craft.to_json()) == craft
    assert CraftStats.from_json(json.loads(json.dumps(craft.to_json()))) == craft


codes = st.builds(DieCode, st.integers(0, 12), st.integers(0, 2))
weapons = st.builds(
    CraftWeapon,
    name=st.text(min_size=1, max_size=20).filter(str.strip),
    fire_control=codes,
    damage=st.none() | codes,
    arc=st.none() | st.sampled_from(["front", "turret", "rear"]),
    crew=st.none() | st.integers(0, 10),
    range_text=st.text(max_size=20),
)


@given(
    name=st.text(min_size=1, max_size=30).filter(str.strip),
    hull=st.none() | codes,
    crew=st.none() | st.integers(0, 10_000),
    hyperdrive=st.none() | st.sampled_from([0.5, 1.0, 2.0, 3.0]),
    weapons=st.lists(weapons, max_size=3).map(tuple),
    cargo=st.text(max_size=30),
)
def test_any_stat_block_round_trips(name, hull, crew, hyperdrive, weapons, cargo):
    craft = CraftStats(
        name,
        "starship",
        Scale.STARFIGHTER,
        hull=hull,
        crew=crew,
        hyperdrive=hyperdrive,
        weapons=weapons,
        cargo=cargo,
    )
    assert CraftStats.from_json(json.loads(json.dumps(craft.to_json()))) == craft


@pytest.mark.parametrize(
    "data",
    [
        None,
        [],
        {"name": "X"},
        {"name": "X", "kind": "starship", "scale": "huge"},
        {"name": "X", "kind": "starship", "scale": "starfighter", "hull": "lots"},
        {"name": "X", "kind": "starship", "scale": "starfighter", "weapons": [{}]},
        {"name": "X", "kind": "starship", "scale": "starfighter", "colour": "red"},
    ],
)
def test_bad_stored_stat_block_is_a_craft_error(data):
    with pytest.raises(CraftError):
        CraftStats.from_json(data)


@pytest.mark.parametrize("field", ["hull", "shields", "maneuverability"])
def test_a_negative_code_is_refused(field):
    with pytest.raises(CraftError, match="cannot be negative"):
        CraftStats("X", "starship", Scale.STARFIGHTER, **{field: DieCode(-1, 0)})


def test_a_negative_crew_is_refused():
    with pytest.raises(CraftError, match="crew cannot be negative"):
        CraftStats("X", "starship", Scale.STARFIGHTER, crew=-1)


def test_pips_do_not_carry_into_dice_when_skill_and_craft_code_combine():
    assert str(combined_code(DieCode(4, 1), DieCode(1, 2))) == "5D+3"
    assert combined_code(DieCode(3, 0), None) == DieCode(3, 0)


@pytest.mark.parametrize(
    ("role", "index", "skill", "code"),
    [
        ("pilot", None, "space transports", "1D"),
        ("copilot", None, "space transports", "1D"),
        ("gunner", 0, "starship gunnery", "2D"),
        ("shields", None, "starship shields", "0D+2"),
    ],
)
def test_each_station_rolls_its_skill_plus_the_craft_code(role, index, skill, code):
    roll = station_roll(FREIGHTER, role, index)
    assert (roll.skill, str(roll.craft_code)) == (skill, code)


def test_sensors_and_engineer_stations_have_no_craft_roll():
    assert station_roll(FREIGHTER, "sensors") is None
    assert station_roll(FREIGHTER, "engineer") is None


@pytest.mark.parametrize(
    ("role", "index"), [("gunner", 1), ("gunner", None), ("gunner", -1), ("cook", None)]
)
def test_a_station_that_does_not_exist_is_refused(role, index):
    with pytest.raises(CraftError):
        station_roll(FREIGHTER, role, index)


@pytest.mark.parametrize(
    ("kind", "scale", "skill"),
    [
        ("capital", Scale.CAPITAL, "capital ship piloting"),
        ("starship", Scale.STARFIGHTER, "starfighter piloting"),
        ("vehicle", Scale.WALKER, "walker operation"),
        ("vehicle", Scale.SPEEDER, "repulsorlift operation"),
    ],
)
def test_piloting_skill_follows_kind_and_scale(kind, scale, skill):
    assert piloting_skill(CraftStats("X", kind, scale)) == skill
