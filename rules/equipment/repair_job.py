"""A repair worked in downtime, one game day at a time (droids-and-equipment.md §5; issue 19).

The sources give the repair roll, the cost and the work before the first roll (15 minutes;
one hour for a hyperdrive or a mechanical failure, E28 and §5.3); the time between further
rolls comes from skill descriptions that are not in the sources (ambiguity 17). Our reading,
for a repair left to run in downtime:

* the worker spends :data:`WORK_HOURS_PER_DAY` hours of each game day on the job;
* the first roll comes after the repair's interval of work (15 or 60 minutes), and after a
  failure another roll after the same interval again (ambiguity 17's suggestion);
* rushing halves the interval and the skill, preparing doubles it and adds +1D, refused under
  the Rules Companion (E29; :func:`rules.equipment.work_pace`);
* so a job rolls up to ``floor(8 * 60 / interval)`` times a day (32 at 15 minutes, 8 at an
  hour) and stops at the first success; minutes left over at the end of a day are not carried
  to the next (each day starts the interval afresh);
* wound penalties and Character Points are not part of a job's rolls: the code is fixed when
  the job starts (the app refuses a worker who cannot act then).

:func:`start_repair_job` makes the state, :func:`work_day` runs one day of it: a pure state
machine, ``work_day(state, *, ruleset, rng) -> (state, events)``; the app stores the state's
JSON and the dice of every roll (the events), and draws each day's dice from the job's own
seed and the day, so a catch-up of N days rolls what N one-day advances roll.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal, cast

from rules.dice import DiceSource, DieCode, Roll, roll
from rules.equipment._common import EquipmentError
from rules.equipment.repairs import work_pace
from rules.ruleset import RuleSet

__all__ = [
    "WORK_HOURS_PER_DAY",
    "WORK_MINUTES_PER_DAY",
    "RepairJob",
    "RepairRolled",
    "rolls_per_day",
    "start_repair_job",
    "work_day",
]

WORK_HOURS_PER_DAY = 8
"""Our reading: the hours of a game day the worker spends on the job."""
WORK_MINUTES_PER_DAY = WORK_HOURS_PER_DAY * 60
MAX_DIFFICULTY = 1000
Pace = Literal["normal", "prepared", "rushed"]
PACES: tuple[Pace, ...] = ("normal", "prepared", "rushed")


def rolls_per_day(interval: int) -> int:
    """How many rolls a working day holds at ``interval`` minutes a roll."""
    if isinstance(interval, bool) or not isinstance(interval, int) or interval < 1:
        raise EquipmentError("a roll's interval is a whole number of minutes, 1 or more")
    return WORK_MINUTES_PER_DAY // interval


@dataclass(frozen=True, slots=True)
class RepairJob:
    """A repair under way: the code rolled (after the pace), the number to reach, the minutes
    of work before each roll (after the pace), how many rolls were made and whether it is done."""

    code: DieCode
    difficulty: int
    interval: int
    pace: Pace = "normal"
    rolls_made: int = 0
    done: bool = False

    @property
    def rolls_a_day(self) -> int:
        return rolls_per_day(self.interval)

    def to_json(self) -> dict[str, object]:
        return {
            "code": str(self.code),
            "difficulty": self.difficulty,
            "interval": self.interval,
            "pace": self.pace,
            "rolls_made": self.rolls_made,
            "done": self.done,
        }

    @classmethod
    def from_json(cls, data: object) -> RepairJob:
        if not isinstance(data, dict):
            raise EquipmentError("a stored repair job is a JSON object")
        try:
            code = DieCode.parse(str(data["code"]))
            difficulty = data["difficulty"]
            interval = data["interval"]
            pace = data.get("pace", "normal")
            made = data.get("rolls_made", 0)
            done = data.get("done", False)
        except (KeyError, ValueError) as exc:
            raise EquipmentError(f"a stored repair job is damaged: {exc}") from None
        for name, value in (("difficulty", difficulty), ("interval", interval), ("rolls", made)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise EquipmentError(f"a stored repair job's {name} is not a whole number")
        if pace not in PACES or not isinstance(done, bool):
            raise EquipmentError("a stored repair job's pace or state is damaged")
        rolls_per_day(interval)
        return cls(code, difficulty, interval, cast(Pace, pace), made, done)


@dataclass(frozen=True, slots=True)
class RepairRolled:
    """One roll of the job: its number in the job (1, 2…), the dice, success or not."""

    n: int
    roll: Roll
    difficulty: int

    @property
    def success(self) -> bool:
        return self.roll.total >= self.difficulty

    def to_json(self) -> dict[str, object]:
        return {
            "n": self.n,
            "total": self.roll.total,
            "difficulty": self.difficulty,
            "success": self.success,
            "dice": self.roll.to_json(),
        }


def start_repair_job(
    minutes: int,
    skill: DieCode | str,
    difficulty: int,
    pace: str = "normal",
    *,
    ruleset: RuleSet,
) -> RepairJob:
    """A job for a repair with ``minutes`` of work before its first roll (15, or 60 for a
    hyperdrive), rolled with ``skill`` against ``difficulty`` at ``pace`` (E29: rushed, half
    the time and half the skill; prepared, twice the time and +1D, not under the Rules
    Companion). :class:`EquipmentError` says why not."""
    if pace not in PACES:
        raise EquipmentError("pace is 'normal', 'prepared' or 'rushed'")
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes < 1:
        raise EquipmentError("the work before a roll is a whole number of minutes, 1 or more")
    if (
        isinstance(difficulty, bool)
        or not isinstance(difficulty, int)
        or not 1 <= difficulty <= MAX_DIFFICULTY
    ):
        raise EquipmentError(f"the difficulty is a whole number from 1 to {MAX_DIFFICULTY}")
    checked = pace
    interval, code = work_pace(minutes, skill, checked, ruleset=ruleset)
    interval = max(interval, 1)
    if rolls_per_day(interval) < 1:
        raise EquipmentError(
            f"a roll needs {interval} minutes of work, more than a working day of "
            f"{WORK_HOURS_PER_DAY} hours"
        )
    if code.dice < 1:
        raise EquipmentError(f"{code} is too small a code to roll")
    return RepairJob(code=code, difficulty=difficulty, interval=interval, pace=checked)


def work_day(
    state: RepairJob, *, ruleset: RuleSet, rng: DiceSource
) -> tuple[RepairJob, tuple[RepairRolled, ...]]:
    """One game day of work: a roll after every interval of the day's working hours until one
    succeeds. Returns the new state and the day's rolls (none for a job that is done)."""
    if state.done:
        return state, ()
    rolled: list[RepairRolled] = []
    for _ in range(state.rolls_a_day):
        result = roll(state.code, ruleset=ruleset, rng=rng)
        rolled.append(RepairRolled(state.rolls_made + len(rolled) + 1, result, state.difficulty))
        if rolled[-1].success:
            break
    done = bool(rolled) and rolled[-1].success
    return replace(state, rolls_made=state.rolls_made + len(rolled), done=done), tuple(rolled)
