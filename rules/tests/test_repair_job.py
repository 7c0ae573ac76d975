"""Repairs worked in downtime (rules.equipment.repair_job) and the droid repair table
(rules.droids.repair): droids-and-equipment.md §5, E28, E29, ambiguity 17; our readings."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules import RuleSet
from rules.dice import DieCode, FixedDice, SeededDice
from rules.difficulty import DIFFICULT, EASY, MODERATE
from rules.droids.design import DroidError
from rules.droids.repair import DROID_REPAIR_MINUTES, droid_repair_difficulty
from rules.equipment import EquipmentError
from rules.equipment.repair_job import (
    WORK_HOURS_PER_DAY,
    RepairJob,
    rolls_per_day,
    start_repair_job,
    work_day,
)

NO_WILD = RuleSet(wild_die=False)
RC = RuleSet(preparing="rc_prepare_round")


def test_a_working_day_is_eight_hours_of_rolls():
    assert WORK_HOURS_PER_DAY == 8
    assert rolls_per_day(15) == 32  # E28: a roll every 15 minutes
    assert rolls_per_day(60) == 8  # a hyperdrive: every hour
    assert rolls_per_day(7) == 68  # rushed 15 minutes: 7 (whole minutes)
    with pytest.raises(EquipmentError):
        rolls_per_day(0)


def test_E29_rushed_halves_the_interval_and_the_skill():
    job = start_repair_job(60, "6D", 15, "rushed", ruleset=NO_WILD)
    assert (job.interval, job.code) == (30, DieCode(3))
    assert job.rolls_a_day == 16


def test_prepared_doubles_the_interval_and_adds_a_die_but_not_under_the_rules_companion():
    job = start_repair_job(15, "4D+1", 15, "prepared", ruleset=NO_WILD)
    assert (job.interval, job.code) == (30, DieCode(5, 1))
    with pytest.raises(EquipmentError, match="Rules Companion"):
        start_repair_job(15, "4D+1", 15, "prepared", ruleset=RC)


@pytest.mark.parametrize(
    ("minutes", "skill", "difficulty", "pace", "reason"),
    [
        (0, "4D", 15, "normal", "minutes"),
        (15, "4D", 0, "normal", "difficulty"),
        (15, "4D", True, "normal", "difficulty"),
        (15, "4D", 15, "slowly", "pace"),
        (15, "1D", 15, "rushed", "too small"),
    ],
)
def test_bad_jobs_are_refused(minutes, skill, difficulty, pace, reason):
    with pytest.raises(EquipmentError, match=reason):
        start_repair_job(minutes, skill, difficulty, pace, ruleset=NO_WILD)


def test_a_day_rolls_until_the_first_success():
    job = start_repair_job(60, "2D", 10, ruleset=NO_WILD)
    # 1+1=2 fails, 2+3=5 fails, 6+5=11 succeeds; the rest of the day is not rolled.
    after, rolled = work_day(job, ruleset=NO_WILD, rng=FixedDice([1, 1, 2, 3, 6, 5]))
    assert [r.roll.total for r in rolled] == [2, 5, 11]
    assert [r.success for r in rolled] == [False, False, True]
    assert [r.n for r in rolled] == [1, 2, 3]
    assert after.done and after.rolls_made == 3
    assert work_day(after, ruleset=NO_WILD, rng=FixedDice([])) == (after, ())


def test_a_day_of_failures_makes_every_roll_and_the_next_day_counts_on():
    job = start_repair_job(60, "1D", 7, ruleset=NO_WILD)
    after, rolled = work_day(job, ruleset=NO_WILD, rng=FixedDice([6] * 8))
    assert len(rolled) == 8 and not after.done and after.rolls_made == 8
    again, more = work_day(after, ruleset=NO_WILD, rng=FixedDice([1, 6, 6, 6, 6, 6, 6, 6]))
    assert more[0].n == 9 and not more[0].success and more[1].success is False
    assert not again.done and again.rolls_made == 16


def test_a_job_round_trips_through_json_and_damaged_json_is_refused():
    job = start_repair_job(15, "5D+2", 15, "rushed", ruleset=RuleSet())
    after, _ = work_day(job, ruleset=RuleSet(), rng=SeededDice(3))
    assert RepairJob.from_json(after.to_json()) == after
    for bad in (
        None,
        {"code": "4D"},
        {**after.to_json(), "interval": 0},
        {**after.to_json(), "pace": "x"},
    ):
        with pytest.raises(EquipmentError):
            RepairJob.from_json(bad)


def test_seeded_days_are_the_same_whenever_they_are_rolled():
    job = start_repair_job(15, "3D", 20, ruleset=RuleSet())
    first = work_day(job, ruleset=RuleSet(), rng=SeededDice(99))
    second = work_day(job, ruleset=RuleSet(), rng=SeededDice(99))
    assert first == second


@pytest.mark.parametrize(
    ("level", "difficulty"),
    [
        ("wounded", EASY),
        ("wounded_twice", MODERATE),
        ("incapacitated", MODERATE),
        ("mortally_wounded", DIFFICULT),
    ],
)
def test_droid_repair_difficulty_by_damage_our_reading(level, difficulty):
    assert droid_repair_difficulty(level) == difficulty
    assert DROID_REPAIR_MINUTES == 60


@pytest.mark.parametrize(
    ("level", "reason"),
    [
        ("none", "not damaged"),
        ("stunned", "not damaged"),
        ("killed", "destroyed"),
        ("bent", "unknown"),
    ],
)
def test_droids_with_nothing_to_repair_are_refused(level, reason):
    with pytest.raises(DroidError, match=reason):
        droid_repair_difficulty(level)


@given(
    minutes=st.integers(min_value=1, max_value=240),
    dice=st.integers(min_value=1, max_value=6),
    difficulty=st.integers(min_value=1, max_value=60),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_day_never_rolls_more_than_it_holds_and_stops_at_the_first_success(
    minutes, dice, difficulty, seed
):
    job = start_repair_job(minutes, DieCode(dice), difficulty, ruleset=RuleSet())
    after, rolled = work_day(job, ruleset=RuleSet(), rng=SeededDice(seed))
    assert 1 <= len(rolled) <= rolls_per_day(minutes)
    assert [r.n for r in rolled] == list(range(1, len(rolled) + 1))
    assert not any(r.success for r in rolled[:-1])
    assert after.done == rolled[-1].success
    assert after.done or len(rolled) == rolls_per_day(minutes)
