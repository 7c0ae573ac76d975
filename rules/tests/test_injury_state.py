"""The wound state a character carries (ladder per ruleset, expiring stuns, penalties, who can
act) and the healing state carried between days, with their stored forms."""

from __future__ import annotations

import inspect
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

import rules.injuries
from rules import RulesError
from rules.injuries import (
    CRITICAL_TABLES,
    CriticalInjury,
    Duration,
    HealingState,
    InjuryError,
    MedpacUse,
    Stun,
    StunState,
    WoundLevel,
    WoundState,
    can_act,
    cannot_act_reason,
    expire_stuns,
    injury_penalty_dice,
    medpac_locked_out,
    natural_roll_due,
    next_natural_healing_roll,
    parse_wound_level,
    record_medpac,
    take_result,
    wound_ladder,
)
from rules.ruleset import RuleSet

STD = RuleSet()
HOUSE = RuleSet.preset("house")
RC = RuleSet.preset("rc")
NONE, STUNNED, W, W2, INC, MW, KILLED = WoundLevel


# --- The wound ladder per ruleset ------------------------------------------------------------
def test_the_second_edition_ladder_has_wounded_twice():
    assert wound_ladder(ruleset=STD) == (NONE, W, W2, INC, MW, KILLED)


def test_the_house_ladder_has_wounded_twice():
    assert wound_ladder(ruleset=HOUSE) == (NONE, W, W2, INC, MW, KILLED)


def test_the_rules_companion_ladder_has_no_wounded_twice():
    assert wound_ladder(ruleset=RC) == (NONE, W, INC, MW, KILLED)


def test_stunned_is_never_on_a_wound_ladder():
    for ruleset in (STD, HOUSE, RC):
        assert STUNNED not in wound_ladder(ruleset=ruleset)


def test_a_stored_level_is_checked_against_the_campaigns_ladder():
    assert parse_wound_level("wounded_twice", ruleset=HOUSE) is W2
    with pytest.raises(InjuryError, match="no 'wounded twice'"):
        parse_wound_level("wounded_twice", ruleset=RC)
    with pytest.raises(InjuryError, match="not a wound level"):
        parse_wound_level("stunned", ruleset=STD)
    with pytest.raises(InjuryError, match="unknown wound level"):
        parse_wound_level("bruised", ruleset=STD)


# --- Taking results --------------------------------------------------------------------------
def test_a_stunned_result_adds_an_expiring_stun_and_keeps_the_level():
    state = take_result(WoundState(W), STUNNED, now_round=4, ruleset=STD)
    assert state == WoundState(W, (Stun(4),))


def test_an_rc_two_stun_result_is_two_points():
    state = take_result(WoundState(), STUNNED, now_round=1, stun_points=2, ruleset=RC)
    assert state.stuns == (Stun(1, 2),)


def test_a_second_wound_on_the_rc_ladder_incapacitates():
    once = take_result(WoundState(), W, now_round=1, ruleset=RC)
    assert take_result(once, W, now_round=2, ruleset=RC).level is INC


def test_a_second_wound_on_the_house_ladder_is_wounded_twice():
    once = take_result(WoundState(), W, now_round=1, ruleset=HOUSE)
    assert take_result(once, W, now_round=2, ruleset=HOUSE).level is W2


def test_a_stun_on_an_incapacitated_character_has_no_effect():
    state = WoundState(INC)
    assert take_result(state, STUNNED, now_round=3, ruleset=STD) == state


def test_a_wounded_twice_state_is_refused_in_a_rules_companion_campaign():
    with pytest.raises(InjuryError, match="wounded twice"):
        take_result(WoundState(W2), W, now_round=1, ruleset=RC)


# --- Penalties and who can act ---------------------------------------------------------------
def test_wound_and_stun_penalties_add_up_for_two_rounds():
    state = WoundState(W, (Stun(5),))
    got = [injury_penalty_dice(state, now_round=r, ruleset=STD) for r in (4, 5, 6, 7)]
    assert got == [1, 2, 2, 1]


def test_wounded_twice_takes_two_dice():
    assert injury_penalty_dice(WoundState(W2), now_round=0, ruleset=HOUSE) == 2


@pytest.mark.parametrize("level", [INC, MW, KILLED])
def test_from_incapacitated_on_nobody_acts(level):
    state = WoundState(level)
    assert not can_act(state, now_round=0, strength="3D", ruleset=STD)
    assert cannot_act_reason(state, now_round=0, strength="3D", ruleset=STD) == level.label.lower()


@pytest.mark.parametrize("level", [NONE, W, W2])
def test_the_lightly_hurt_can_act(level):
    assert can_act(WoundState(level), now_round=0, strength="3D", ruleset=HOUSE)


def test_stuns_reaching_strength_dice_knock_him_out():
    state = WoundState(NONE, (Stun(1), Stun(2)))
    reason = cannot_act_reason(state, now_round=2, strength="2D+2", ruleset=STD)
    assert reason == "knocked out by stuns"
    assert can_act(state, now_round=2, strength="3D", ruleset=STD)


def test_rc_stuns_count_against_stamina_and_lapse_after_two_rounds():
    state = WoundState(NONE, (Stun(1, 2),))
    assert not can_act(state, now_round=1, strength="4D", stamina="2D", ruleset=RC)
    assert can_act(state, now_round=3, strength="4D", stamina="2D", ruleset=RC)


def test_a_one_minute_rest_clears_the_stuns_affecting_him():
    state = WoundState(NONE, (Stun(1), Stun(2)), rested_through=20)
    assert can_act(state, now_round=30, strength="2D", ruleset=STD)


# --- Expiring stuns --------------------------------------------------------------------------
def test_2e_stuns_expire_after_thirty_minutes():
    state = WoundState(W, (Stun(0), Stun(100)))
    assert expire_stuns(state, 360, ruleset=STD).stuns == (Stun(100),)


def test_rc_stuns_expire_after_their_two_rounds():
    state = WoundState(NONE, (Stun(3), Stun(5)))
    assert expire_stuns(state, 5, ruleset=RC).stuns == (Stun(5),)


def test_expiring_stuns_never_changes_an_answer():
    state = WoundState(W, (Stun(0), Stun(350), Stun(359)), rested_through=None)
    for now in (359, 360, 400, 700):
        kept = expire_stuns(state, now, ruleset=STD)
        assert injury_penalty_dice(kept, now_round=now, ruleset=STD) == injury_penalty_dice(
            state, now_round=now, ruleset=STD
        )
        assert can_act(kept, now_round=now, strength="2D", ruleset=STD) == can_act(
            state, now_round=now, strength="2D", ruleset=STD
        )


# --- Healing state ---------------------------------------------------------------------------
def test_a_medpac_missed_by_more_than_ten_locks_out_for_a_day():
    state = record_medpac(HealingState(), 100, total=4, difficulty_number=15, ruleset=STD)
    assert state.medpac_lockout_until == 100 + 24 * 60
    assert medpac_locked_out(state, 200, ruleset=STD)
    assert not medpac_locked_out(state, 100 + 24 * 60, ruleset=STD)
    with pytest.raises(InjuryError, match="no more medpacs"):
        record_medpac(state, 200, total=20, difficulty_number=10, ruleset=STD)


def test_a_house_fastflesh_pack_may_be_used_during_a_lockout():
    state = record_medpac(HealingState(), 0, total=1, difficulty_number=15, ruleset=HOUSE)
    assert medpac_locked_out(state, 10, ruleset=HOUSE)
    assert not medpac_locked_out(state, 10, fastflesh=True, ruleset=HOUSE)


def test_the_rules_companion_has_no_medpac_lockout():
    state = record_medpac(HealingState(), 0, total=1, difficulty_number=15, ruleset=RC)
    assert state.medpac_lockout_until is None


def test_medpacs_within_the_day_count_for_the_next_difficulty():
    state = HealingState()
    for minute in (0, 600, 1200):
        state = record_medpac(state, minute, total=12, difficulty_number=10, ruleset=STD)
    assert state.medpacs_within_day(1300) == 3
    assert state.medpacs_within_day(24 * 60 + 1) == 2


@pytest.mark.parametrize(
    ("days", "strength", "expected_day", "mod"),
    [
        ({}, "3D", 3, 0),
        ({2: "active"}, "3D", 3, -1),
        ({d: "easy" for d in range(1, 10)}, "3D", 6, 1),
    ],
)
def test_the_healing_state_schedules_like_the_day_by_day_reference(
    days, strength, expected_day, mod
):
    state = HealingState(period_start_day=0)
    due = None
    for day in range(1, 10):
        activity = days.get(day, "rest")
        state = state.note_activity(day, activity)
        due = natural_roll_due(state, W, day, activity, strength=strength, ruleset=STD)
        if due is not None:
            break
    reference = next_natural_healing_roll(W, 0, strength, days, ruleset=STD)
    assert due == reference
    assert (due.day, due.modifier_dice) == (expected_day, mod)


def test_a_roll_restarts_the_healing_period():
    state = HealingState(period_start_day=0, period_was_active=True).restart_period(3)
    assert (state.period_start_day, state.period_was_active) == (3, False)
    assert natural_roll_due(state, W, 5, "rest", strength="3D", ruleset=STD) is None


def test_a_healthy_character_makes_no_healing_roll():
    assert natural_roll_due(HealingState(), NONE, 50, "rest", strength="3D", ruleset=STD) is None


# --- Stored forms ----------------------------------------------------------------------------
durations = st.builds(Duration, st.integers(1, 20), st.sampled_from(["rounds", "minutes", "days"]))
stuns = st.builds(Stun, st.integers(0, 10_000), st.integers(1, 3))
wound_states = st.builds(
    WoundState,
    st.sampled_from([lvl for lvl in WoundLevel if lvl.on_wound_track]),
    st.lists(stuns, max_size=6).map(tuple),
    st.none() | st.integers(0, 10_000),
)
stun_states = st.builds(
    StunState,
    st.integers(0, 10),
    st.integers(0, 10),
    st.booleans(),
    st.booleans(),
    st.none() | durations,
)
medpac_uses = st.builds(MedpacUse, st.integers(0, 100_000), st.booleans(), st.booleans())
healing_states = st.builds(
    HealingState,
    st.integers(0, 1000),
    st.booleans(),
    st.lists(medpac_uses, max_size=4).map(tuple),
    st.none() | st.integers(0, 100_000),
    st.none() | st.integers(6, 20),
    st.integers(0, 5),
)


@pytest.mark.parametrize(
    "strategy", [durations, stuns, wound_states, stun_states, medpac_uses, healing_states]
)
def test_stored_forms_round_trip(strategy):
    @given(strategy)
    def round_trip(value):
        data = value.to_json()
        assert type(value).from_json(data) == value
        assert type(value).from_json(json.loads(json.dumps(data))) == value

    round_trip()


@pytest.mark.parametrize(
    ("cls", "data"),
    [
        (WoundState, {"level": "stunned"}),
        (WoundState, {"level": "bruised"}),
        (WoundState, {"level": "wounded", "stuns": {"round": 1}}),
        (WoundState, {"level": "wounded", "extra": 1}),
        (WoundState, ["wounded"]),
        (Stun, {"round": "1"}),
        (Stun, {"round": 1, "points": 0}),
        (StunState, {"penalty_dice": -1, "affecting": 0, "knocked_out": False}),
        (Duration, {"dice": 0, "unit": "minutes"}),
        (Duration, {"dice": 2, "unit": "fortnights"}),
        (HealingState, {"period_start_day": True}),
        (HealingState, {"period_start_day": 0, "medpac_uses": [{"minute": 1}]}),
        (HealingState, {"period_start_day": 0, "cp_per_roll": -1}),
        (MedpacUse, {"minute": 1, "success": "yes"}),
    ],
)
def test_bad_stored_data_is_refused_with_an_injury_error(cls, data):
    with pytest.raises(InjuryError):
        cls.from_json(data)


def test_every_critical_injury_reads_back_from_its_stored_form():
    for table in CRITICAL_TABLES.values():
        for injury in table.values():
            data = json.loads(json.dumps(injury.to_json()))
            assert CriticalInjury.from_json(data) == injury


@pytest.mark.parametrize(
    "data",
    [{"table": "wounded", "name": "Papercut"}, {"table": "bruised", "name": "Dazed"}, {}],
)
def test_an_unknown_critical_injury_is_refused(data):
    with pytest.raises(InjuryError):
        CriticalInjury.from_json(data)


def test_an_injury_error_is_a_rules_error():
    assert issubclass(InjuryError, RulesError)


# --- The public surface ----------------------------------------------------------------------
def test_options_and_dice_are_required_keywords_on_the_injuries_surface():
    for name in rules.injuries.__all__:
        obj = getattr(rules.injuries, name)
        funcs = [obj] if inspect.isfunction(obj) else []
        if inspect.isclass(obj):
            funcs = [f for n, f in vars(obj).items() if inspect.isfunction(f) and n[0] != "_"]
        for fn in funcs:
            for param in inspect.signature(fn).parameters.values():
                if param.name in ("ruleset", "rng"):
                    assert param.kind is param.KEYWORD_ONLY, (name, fn.__name__, param.name)
                    assert param.default is param.empty, (name, fn.__name__, param.name)
