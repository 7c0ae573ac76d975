"""Advancement state a downtime job stores between steps: the agreed cost of an improvement, a
training in progress and a school being attended (to_json/from_json, issue 13); and the public
surface of the advancement, Force, creation and droid rules (ruleset and rng as keywords)."""

from __future__ import annotations

import inspect
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules.advancement
import rules.creation
import rules.droids
import rules.force
from rules.advancement import (
    KINDS,
    NCO_LEADERSHIP_I,
    AdvancementError,
    AttributeRoll,
    ImprovementCost,
    School,
    SchoolEnrolment,
    Training,
    attend,
    enrol,
    improvement_cost,
    max_cp_per_roll,
    roll_kind,
    start_training,
    train,
)
from rules.dice import DieCode, FixedDice
from rules.ruleset import PRESETS, RuleSet
from rules.traits import ATTRIBUTES, ROLL_KINDS

UPG = RuleSet()
HOUSE = RuleSet.preset("house")
RULESETS = [RuleSet.preset(name) for name in PRESETS]

codes = st.builds(DieCode, st.integers(1, 12), st.integers(0, 2))


@st.composite
def costs(draw: st.DrawFn) -> ImprovementCost:
    kind = draw(st.sampled_from(KINDS))
    ruleset = draw(st.sampled_from(RULESETS))
    current: DieCode | int | None = draw(st.integers(1, 15)) if kind == "move" else draw(codes)
    try:
        cost = improvement_cost(
            kind,
            current,
            ruleset=ruleset,
            teacher=draw(st.booleans()),
            used_last_adventure=draw(st.booleans()),
        )
    except AdvancementError:
        cost = improvement_cost("skill", "3D", ruleset=UPG)
    extra = draw(st.integers(0, cost.useful_extra_cp + 2)) if cost.can_shorten else 0
    return cost.with_extra_cp(extra)


@st.composite
def trainings(draw: st.DrawFn) -> Training:
    needed = draw(st.integers(0, 400))
    roll = draw(
        st.none()
        | st.builds(
            AttributeRoll,
            st.booleans(),
            st.integers(0, 50),
            st.none() | st.integers(1, 80),
            st.none() | st.integers(1, 80),
        )
    )
    return Training(
        trait=draw(st.sampled_from(["blaster", "dexterity", "Move", "control"])),
        cost=draw(costs()),
        days_needed=needed,
        days_done=draw(st.integers(0, needed)),
        species_maximum=draw(st.none() | codes),
        outcome=draw(st.sampled_from(["training", "improved", "not_improved"])),
        refund=draw(st.integers(0, 50)),
        attribute_roll=roll,
    )


schools = st.builds(
    School,
    st.text(min_size=1, max_size=30).filter(str.strip),
    st.integers(0, 100),
    st.integers(0, 20),
    st.lists(
        st.tuples(st.sampled_from(ATTRIBUTES), st.text(min_size=1, max_size=20), st.integers(0, 6)),
        max_size=6,
    ).map(tuple),
)


@st.composite
def enrolments(draw: st.DrawFn) -> SchoolEnrolment:
    needed = draw(st.integers(0, 200))
    return SchoolEnrolment(draw(schools), needed, draw(st.integers(0, needed)))


def _round_trips(value: Any) -> None:
    kind = type(value)
    assert kind.from_json(value.to_json()) == value
    assert kind.from_json(json.loads(json.dumps(value.to_json()))) == value


@given(costs())
def test_a_stored_improvement_cost_reads_back_the_same(cost):
    _round_trips(cost)


@given(trainings())
def test_a_stored_training_reads_back_the_same(training):
    _round_trips(training)


@given(schools)
def test_a_stored_school_reads_back_the_same(school):
    _round_trips(school)


@given(enrolments())
def test_a_stored_enrolment_reads_back_the_same(enrolment):
    _round_trips(enrolment)


@pytest.mark.parametrize(
    ("kind", "data"),
    [
        pytest.param(ImprovementCost, [], id="cost-not-an-object"),
        pytest.param(ImprovementCost, {"kind": "juggling"}, id="cost-unknown-kind"),
        pytest.param(
            ImprovementCost,
            {**improvement_cost("skill", "3D", ruleset=UPG).to_json(), "current": "3X"},
            id="cost-bad-code",
        ),
        pytest.param(
            ImprovementCost,
            {**improvement_cost("skill", "3D", ruleset=UPG).to_json(), "extra_cp": -1},
            id="cost-negative-extra",
        ),
        pytest.param(
            ImprovementCost,
            {**improvement_cost("attribute", "3D", ruleset=UPG).to_json(), "extra_cp": 2},
            id="cost-shortening-what-cannot-be-shortened",
        ),
        pytest.param(Training, {"trait": "", "cost": {}}, id="training-no-trait"),
        pytest.param(
            Training,
            {
                "trait": "blaster",
                "cost": improvement_cost("skill", "3D", ruleset=UPG).to_json(),
                "days_needed": 3,
                "outcome": "abandoned",
            },
            id="training-unknown-outcome",
        ),
        pytest.param(
            Training,
            {
                "trait": "blaster",
                "cost": improvement_cost("skill", "3D", ruleset=UPG).to_json(),
                "days_needed": "three",
            },
            id="training-days-not-a-number",
        ),
        pytest.param(
            School,
            {"name": "X", "cp_cost": 1, "weeks": 1, "bonuses": [["Luck", "x", 1]]},
            id="school-bad-attribute",
        ),
        pytest.param(
            SchoolEnrolment,
            {"school": NCO_LEADERSHIP_I.to_json(), "days_needed": 2, "days_done": 3},
            id="enrolment-overdone",
        ),
        pytest.param(
            ImprovementCost,
            {**improvement_cost("skill", "3D", ruleset=UPG).to_json(), "currency": "credits"},
            id="cost-currency",
        ),
        pytest.param(
            ImprovementCost,
            {**improvement_cost("skill", "3D", ruleset=UPG).to_json(), "notes": "x"},
            id="cost-notes-not-a-list",
        ),
        pytest.param(
            ImprovementCost,
            {**improvement_cost("skill", "3D", ruleset=UPG).to_json(), "attribute_roll": 1},
            id="cost-roll-not-bool",
        ),
        pytest.param(
            ImprovementCost,
            {**improvement_cost("skill", "3D", ruleset=UPG).to_json(), "new": 2.5},
            id="cost-code-a-float",
        ),
        pytest.param(
            Training,
            {
                "trait": "x",
                "cost": improvement_cost("skill", "3D", ruleset=UPG).to_json(),
                "days_needed": 1,
                "species_maximum": 4,
            },
            id="training-maximum-not-text",
        ),
        pytest.param(
            Training,
            {
                "trait": "x",
                "cost": improvement_cost("skill", "3D", ruleset=UPG).to_json(),
                "days_needed": 1,
                "species_maximum": "4X",
            },
            id="training-maximum-not-a-code",
        ),
        pytest.param(
            Training,
            {
                "trait": "x",
                "cost": improvement_cost("skill", "3D", ruleset=UPG).to_json(),
                "days_needed": 1,
                "attribute_roll": {},
            },
            id="training-roll-without-result",
        ),
        pytest.param(
            Training,
            {
                "trait": "x",
                "cost": improvement_cost("skill", "3D", ruleset=UPG).to_json(),
                "days_needed": 1,
                "attribute_roll": {"improved": True, "character_roll": "9"},
            },
            id="training-roll-total-not-a-number",
        ),
        pytest.param(
            School, {"name": " ", "cp_cost": 1, "weeks": 1, "bonuses": []}, id="school-no-name"
        ),
        pytest.param(
            School,
            {"name": "X", "cp_cost": 1, "weeks": 1, "bonuses": {}},
            id="school-bonuses-not-a-list",
        ),
        pytest.param(
            School,
            {"name": "X", "cp_cost": 1, "weeks": 1, "bonuses": [["x", 1]]},
            id="school-bonus-short",
        ),
    ],
)
def test_bad_stored_state_is_refused_with_an_advancement_error(kind, data):
    with pytest.raises(AdvancementError):
        kind.from_json(data)


# --- Training over days ----------------------------------------------------------------------
def test_a_skill_rises_when_its_training_days_are_done():
    training = start_training("blaster", improvement_cost("skill", "4D+2", ruleset=UPG))
    assert training.days_needed == 4
    training, events = train(training, 3, ruleset=UPG, rng=FixedDice([]))
    assert (training.days_left, training.finished) == (1, False)
    assert events == ("blaster: 3 of 4 days trained",)
    training, events = train(training, 5, ruleset=UPG, rng=FixedDice([]))
    assert (training.outcome, training.days_done) == ("improved", 4)
    assert events[-1] == "blaster rises to 5D"


def test_a_finished_training_takes_no_more_days():
    cost = improvement_cost("skill", "4D", ruleset=UPG, used_last_adventure=True)
    done, _ = train(start_training("blaster", cost), 0, ruleset=UPG, rng=FixedDice([]))
    assert done.outcome == "improved"
    with pytest.raises(AdvancementError, match="already over"):
        train(done, 1, ruleset=UPG, rng=FixedDice([]))


def test_a_failed_attribute_roll_returns_half_the_points():
    cost = improvement_cost("attribute", "3D", ruleset=UPG)
    training = start_training("dexterity", cost, species_maximum="4D")
    # character 4D: 6+6+6+5 (Wild Die 5) = 23; GM 4D: 1+1+1+2 = 5
    rng = FixedDice([6, 6, 6, 5, 1, 1, 1, 2])
    training, events = train(training, cost.training_days or 0, ruleset=UPG, rng=rng)
    assert (training.outcome, training.refund) == ("not_improved", 15)
    assert "15 CP come back" in events[-1]
    assert Training.from_json(training.to_json()) == training


def test_an_attribute_training_needs_the_species_maximum_for_its_roll():
    with pytest.raises(AdvancementError, match="species maximum"):
        start_training("dexterity", improvement_cost("attribute", "3D", ruleset=UPG))


def test_a_training_without_a_time_in_the_rules_takes_the_gms_days():
    cost = improvement_cost("skill", "4D", ruleset=RuleSet.preset("rc"))
    with pytest.raises(AdvancementError, match="gamemaster gives the days"):
        start_training("blaster", cost)
    assert start_training("blaster", cost, days=10).days_needed == 10


# --- Schools -----------------------------------------------------------------------------------
def test_a_school_lasts_its_weeks_in_the_campaigns_calendar():
    enrolment = enrol(NCO_LEADERSHIP_I, 0, ruleset=HOUSE)
    assert enrolment.days_needed == 15
    enrolment, events = attend(enrolment, 20)
    assert enrolment.finished
    assert events[-1] == "NCO Leadership I is complete"


def test_enrolling_past_the_debt_limit_is_refused():
    with pytest.raises(AdvancementError, match="100 CP limit"):
        enrol(NCO_LEADERSHIP_I, 98, ruleset=HOUSE)


def test_school_bonuses_name_attributes_in_any_case():
    assert School("X", 1, 1, (("Strength", "lifting", 1),)).bonuses == (("strength", "lifting", 1),)


# --- Roll kinds ----------------------------------------------------------------------------------
@pytest.mark.parametrize("ruleset", RULESETS)
def test_every_kind_of_roll_has_a_character_point_limit(ruleset):
    for kind in ROLL_KINDS:
        limit = max_cp_per_roll(kind, ruleset=ruleset)
        assert limit is None or limit >= 0


def test_other_spellings_of_a_kind_of_roll_are_read():
    assert roll_kind("Full dodge") == "dodge"
    assert roll_kind("starship-dodge") == "vehicle_dodge"


# --- The public surface ------------------------------------------------------------------------
def _public_callables(module):
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj):
            yield name, obj
        elif inspect.isclass(obj):
            for attr, fn in vars(obj).items():
                if attr[0] != "_" and isinstance(fn, (classmethod, staticmethod)):
                    fn = fn.__func__
                if attr[0] != "_" and inspect.isfunction(fn):
                    yield f"{name}.{attr}", fn


@pytest.mark.parametrize("module", [rules.advancement, rules.force, rules.creation, rules.droids])
def test_options_and_dice_are_required_keywords(module):
    for name, fn in _public_callables(module):
        for param in inspect.signature(fn).parameters.values():
            if param.name in ("ruleset", "rng"):
                assert param.kind is param.KEYWORD_ONLY, (name, param.name)
                assert param.default is param.empty, (name, param.name)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        pytest.param(
            lambda: start_training(" ", improvement_cost("skill", "3D", ruleset=UPG)),
            "name the skill",
            id="no-trait",
        ),
        pytest.param(
            lambda: start_training("x", improvement_cost("skill", "3D", ruleset=UPG), days=-1),
            "whole number",
            id="negative-days",
        ),
        pytest.param(
            lambda: train(
                start_training("x", improvement_cost("skill", "3D", ruleset=UPG)),
                -2,
                ruleset=UPG,
                rng=FixedDice([]),
            ),
            "whole number",
            id="training-backwards",
        ),
        pytest.param(
            lambda: attend(enrol(NCO_LEADERSHIP_I, 0, ruleset=HOUSE), -1),
            "whole number",
            id="school-backwards",
        ),
        pytest.param(
            lambda: attend(SchoolEnrolment(NCO_LEADERSHIP_I, 15, 15), 1),
            "already over",
            id="school-over",
        ),
    ],
)
def test_bad_training_steps_are_refused(call, message):
    with pytest.raises(AdvancementError, match=message):
        call()


def test_a_passed_attribute_roll_raises_the_attribute():
    cost = improvement_cost("attribute", "3D", ruleset=UPG)
    training = start_training("dexterity", cost, species_maximum="4D")
    rng = FixedDice([1, 1, 1, 2, 6, 6, 6, 5])  # character 5, GM 23
    training, events = train(training, cost.training_days or 0, ruleset=UPG, rng=rng)
    assert training.outcome == "improved"
    assert training.attribute_roll is not None and training.attribute_roll.improved
    assert events[-1] == "dexterity rises to 3D+1"


def test_an_enrolment_counts_the_days_left():
    enrolment, _ = attend(enrol(NCO_LEADERSHIP_I, 0, ruleset=HOUSE), 4)
    assert enrolment.days_left == 11
