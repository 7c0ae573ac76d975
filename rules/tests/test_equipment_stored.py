"""Improvement projects as stored values: a job keeps a project's state between steps as JSON
and gets back exactly the state it stored; anything else is refused with an EquipmentError."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.dice import DieCode, FixedDice
from rules.difficulty import EASY, MODERATE, DifficultyLevel
from rules.equipment import (
    EquipmentError,
    ImprovementStep,
    LogEntry,
    ProjectRequest,
    ProjectState,
    advance_project,
    validate_project,
)
from rules.errors import RulesError
from rules.ruleset import RuleSet

UPG = RuleSet()
RC = RuleSet.preset("rc")

levels = st.integers(0, 8).map(DifficultyLevel)
codes = st.builds(DieCode, st.integers(0, 12), st.integers(0, 2))
fractions = st.fractions(min_value=0, max_value=10, max_denominator=8)
stat_values = st.one_of(
    st.none(),
    codes,
    fractions,
    st.integers(-1000, 10**9),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=12),
)
small = st.integers(0, 10**9)
maybe_small = st.none() | small

steps = st.builds(
    ImprovementStep,
    ordinal=st.integers(0, 30),
    before=st.text(max_size=20),
    after=st.text(max_size=20),
    difficulty=st.none() | levels,
    credits=small,
    skill_points=st.integers(0, 200),
    minutes=small,
    percent=st.none() | st.integers(0, 100),
)
requests = st.builds(
    ProjectRequest,
    kind=st.sampled_from(["repair", "improve", "add_weapon", "droid_skill"]),
    stat=st.text(max_size=20),
    stock=stat_values,
    current=stat_values,
    target=stat_values,
    damage=stat_values,
    scale=st.sampled_from(["character", "speeder", "starfighter", "capital"]),
    item_value=maybe_small,
    labour=st.sampled_from(["self", "hired"]),
    hired_multiplier=st.integers(1, 3),
    skill=codes,
    bonus=codes,
    pace=st.sampled_from(["normal", "prepared", "rushed"]),
    roll_mode=st.sampled_from(["auto", "player", "gm"]),
    charge_credits=st.sampled_from(["each_attempt", "on_success"]),
    first_roll_immediate=st.booleans(),
    retry_minutes=maybe_small,
    step_minutes=maybe_small,
    difficulty_numbers=st.lists(st.tuples(levels, st.integers(1, 60)), max_size=3).map(tuple),
    additive=st.none() | st.booleans(),
    attribute=st.none() | codes,
    purchased_price=maybe_small,
    install_method=st.sampled_from([None, "fee", "skill_points"]),
)
log_entries = st.builds(
    LogEntry,
    at_minutes=small,
    step=st.integers(0, 30),
    difficulty=st.none() | levels,
    number=st.none() | st.integers(1, 60),
    total=st.none() | st.integers(0, 100),
    success=st.booleans(),
    credits=small,
    skill_points=st.integers(0, 200),
    note=st.text(max_size=30),
)


@st.composite
def states(draw: st.DrawFn) -> ProjectState:
    planned = tuple(draw(st.lists(steps, max_size=5)))
    return ProjectState(
        request=draw(requests),
        system=draw(st.sampled_from(["upg", "rc", "upg_repair", "house_repair", "gm"])),
        steps=planned,
        step_index=draw(st.integers(0, len(planned))),
        attempt=draw(st.integers(0, 20)),
        status=draw(
            st.sampled_from(
                ["in_progress", "awaiting_roll", "awaiting_gm", "completed", "abandoned"]
            )
        ),
        minutes_worked=draw(small),
        elapsed_minutes=draw(small),
        credits_spent=draw(small),
        skill_points_spent=draw(st.integers(0, 10_000)),
        rolls_made=draw(st.integers(0, 500)),
        paid=draw(st.booleans()),
        log=tuple(draw(st.lists(log_entries, max_size=4))),
        warnings=tuple(draw(st.lists(st.text(max_size=30), max_size=3))),
    )


# --- Round trips -----------------------------------------------------------------------------
@given(states())
def test_a_stored_project_state_comes_back_unchanged(state):
    assert ProjectState.from_json(state.to_json()) == state


@given(states())
def test_a_project_state_survives_a_trip_through_json_text(state):
    text = json.dumps(state.to_json(), allow_nan=False)
    assert ProjectState.from_json(json.loads(text)) == state


@given(requests)
def test_a_stored_request_keeps_the_type_of_each_stat_value(request):
    back = ProjectRequest.from_json(json.loads(json.dumps(request.to_json())))
    assert back == request
    assert [type(v) for v in (back.stock, back.current, back.target, back.damage)] == [
        type(v) for v in (request.stock, request.current, request.target, request.damage)
    ]


@given(steps)
def test_a_stored_step_comes_back_unchanged(step):
    assert ImprovementStep.from_json(json.loads(json.dumps(step.to_json()))) == step


@given(log_entries)
def test_a_stored_log_entry_comes_back_unchanged(entry):
    assert LogEntry.from_json(json.loads(json.dumps(entry.to_json()))) == entry


def _maneuver_project(**changes):
    request = ProjectRequest(
        kind="improve",
        stat="maneuverability",
        stock=DieCode.parse("1D"),
        current=DieCode.parse("1D"),
        target=DieCode.parse("1D+2"),
        item_value=100_000,
        **changes,
    )
    return validate_project(request, ruleset=UPG)


@given(st.integers(0, 2**32), st.lists(st.integers(0, 60), min_size=1, max_size=5))
def test_a_job_that_stores_and_reloads_between_steps_ends_where_an_unbroken_one_does(
    seed, day_steps
):
    """A downtime job stores the state after every step and reloads it for the next: the
    project ends exactly where one kept in memory does (same seed, same days)."""
    kept = stored = _maneuver_project()
    for days in day_steps:
        kept = advance_project(kept, days, ruleset=UPG, rng=seed)
        reloaded = ProjectState.from_json(json.loads(json.dumps(stored.to_json())))
        stored = advance_project(reloaded, days, ruleset=UPG, rng=seed)
    assert stored == kept


def test_a_project_waiting_for_a_roll_is_stored_with_its_log_and_charges():
    state = _maneuver_project(roll_mode="player", difficulty_numbers=((EASY, 8),))
    waiting = advance_project(state, 35, ruleset=UPG, rng=FixedDice([]))
    assert waiting.status == "awaiting_roll" and waiting.paid
    data = json.loads(json.dumps(waiting.to_json()))
    assert data["status"] == "awaiting_roll"
    assert data["request"]["difficulty_numbers"] == [[{"level": "Easy"}, 8]]
    assert data["steps"][0]["difficulty"] == {"level": "Easy"}
    assert ProjectState.from_json(data) == waiting


def test_an_rc_hyperdrive_project_keeps_its_multipliers_exact():
    request = ProjectRequest(
        kind="improve", stat="hyperdrive", current="x2", target=Fraction(1, 2), scale="starfighter"
    )
    state = validate_project(request, ruleset=RC)
    data = state.to_json()
    assert data["request"]["target"] == {"fraction": "1/2"}
    assert ProjectState.from_json(json.loads(json.dumps(data))) == state


# --- Refusals --------------------------------------------------------------------------------
def _stored() -> dict:
    return json.loads(json.dumps(_maneuver_project().to_json()))


def _changed(path: tuple, value: object) -> dict:
    data = _stored()
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def _without(path: tuple) -> dict:
    data = _stored()
    target = data
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    return data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        pytest.param([], "is an object", id="not-an-object"),
        pytest.param(_without(("status",)), "missing status", id="missing-field"),
        pytest.param(_changed(("colour",), "red"), "unknown colour", id="unknown-field"),
        pytest.param(_changed(("status",), "paused"), "status must be one of", id="bad-status"),
        pytest.param(_changed(("system",), "wod"), "system must be one of", id="bad-system"),
        pytest.param(_changed(("attempt",), -1), "attempt must be 0 or more", id="negative"),
        pytest.param(_changed(("attempt",), "2"), "attempt must be a whole number", id="text"),
        pytest.param(_changed(("paid",), 1), "paid must be true or false", id="not-bool"),
        pytest.param(_changed(("step_index",), 9), "at most the number of steps", id="index"),
        pytest.param(_changed(("warnings",), [3]), "a list of texts", id="warnings"),
        pytest.param(_changed(("steps",), {}), "steps must be a list", id="steps"),
        pytest.param(
            _changed(("steps", 0, "difficulty"), {"level": "Tricky"}),
            "not a difficulty level",
            id="bad-level",
        ),
        pytest.param(
            _changed(("steps", 0, "difficulty"), "Easy"), "difficulty level", id="bare-level"
        ),
        pytest.param(_changed(("request", "skill"), "4X"), "skill", id="bad-die-code"),
        pytest.param(_changed(("request", "kind"), "steal"), "kind must be", id="bad-kind"),
        pytest.param(
            _changed(("request", "target"), {"die_code": 4}), "target must be", id="bad-value"
        ),
        pytest.param(
            _changed(("request", "target"), {"fraction": "1/0"}),
            "target must be",
            id="zero-denominator",
        ),
        pytest.param(
            _changed(("request", "difficulty_numbers"), [["Easy", 8]]),
            "difficulty level",
            id="bare-pinned-level",
        ),
        pytest.param(
            _changed(("request", "difficulty_numbers"), [[{"level": "Easy"}]]),
            "pairs",
            id="pinned-half-pair",
        ),
        pytest.param(_changed(("log",), [{"step": 1}]), "log entry", id="bad-log"),
    ],
)
def test_bad_stored_project_data_is_refused_with_a_reason(data, message):
    with pytest.raises(EquipmentError, match=message):
        ProjectState.from_json(data)


def test_a_refusal_from_storage_is_a_rules_error():
    with pytest.raises(RulesError):
        ProjectState.from_json({"status": "completed"})


def test_a_request_with_a_value_that_cannot_be_stored_is_refused():
    request = ProjectRequest(kind="repair", stat="shields", damage=object())  # type: ignore[arg-type]
    with pytest.raises(EquipmentError, match="die code, number or text"):
        request.to_json()


def test_a_moderate_pin_is_stored_by_name():
    request = ProjectRequest(kind="repair", stat="shields", difficulty_numbers=((MODERATE, 12),))
    assert request.to_json()["difficulty_numbers"] == [[{"level": "Moderate"}, 12]]
