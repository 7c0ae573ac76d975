"""What the equipment modules share: the error, scales, time in minutes, credits and steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from rules._stored import Reader
from rules.difficulty import DifficultyLevel
from rules.errors import RulesError
from rules.ruleset import RuleSet
from rules.scale import Scale
from rules.time import DAYS_PER_MONTH, days_per_week


class EquipmentError(RulesError):
    """An improvement, repair or project the rules do not allow, said in the game's words."""


SCALES: tuple[str, ...] = tuple(scale.key for scale in Scale)
"""The scales an item can have, by their data spelling: ``character`` … ``death_star``."""

MINUTES_PER_DAY = 24 * 60
"""Durations of equipment work are whole minutes of game time."""

UPG_HIRED_MULTIPLIERS = (2, 3)  # [UPG] someone else's work costs "double or triple"


def check_scale(scale: str) -> None:
    if scale not in SCALES:
        raise EquipmentError(f"unknown scale {scale!r}; choose one of {', '.join(SCALES)}")


def days(amount: int, unit: str, *, ruleset: RuleSet) -> int:
    """Days in ``amount`` days, weeks (the campaign's week) or months (35 days)."""
    per = {"day": 1, "week": days_per_week(ruleset=ruleset), "month": DAYS_PER_MONTH}[unit]
    return amount * per


def percent_of(percent: int, value: int, multiplier: int = 1) -> int:
    """``percent`` % of ``value`` times ``multiplier``, rounded to the nearest credit."""
    return (percent * value * multiplier + 50) // 100


def upg_multiplier(hired_multiplier: int) -> int:
    if hired_multiplier != 1 and hired_multiplier not in UPG_HIRED_MULTIPLIERS:
        raise EquipmentError("someone else's work costs double or triple (2 or 3); own work 1")
    return hired_multiplier


def as_int(value: object, stat: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            return int(str(value).strip().rstrip("%"))
        except ValueError:
            raise EquipmentError(f"{stat} needs a whole number, not {value!r}") from None
    return value


def reader(data: object, what: str, keys: tuple[str, ...]) -> Reader:
    """Typed reads from a stored object; anything unexpected is an :class:`EquipmentError`."""
    return Reader(data, what, keys, EquipmentError)


@dataclass(frozen=True, slots=True)
class ImprovementStep:
    """One roll's worth of work: raise a stat from ``before`` to ``after`` (or repair it).

    ``ordinal`` is the step's position above stock (the [UPG] table row, or the [RC] pip of
    improvement). ``difficulty`` is None when no roll is needed. ``minutes`` is the work
    before the roll."""

    ordinal: int
    before: str
    after: str
    difficulty: DifficultyLevel | None
    credits: int
    skill_points: int
    minutes: int
    percent: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "ordinal": self.ordinal,
            "before": self.before,
            "after": self.after,
            "difficulty": None if self.difficulty is None else self.difficulty.to_json(),
            "credits": self.credits,
            "skill_points": self.skill_points,
            "minutes": self.minutes,
            "percent": self.percent,
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """A step stored by :meth:`to_json`; an :class:`EquipmentError` for anything else."""
        read = reader(data, "improvement step", _STEP_FIELDS)
        return cls(
            ordinal=read.integer("ordinal"),
            before=read.text("before"),
            after=read.text("after"),
            difficulty=read.level("difficulty"),
            credits=read.integer("credits"),
            skill_points=read.integer("skill_points"),
            minutes=read.integer("minutes"),
            percent=read.optional_integer("percent"),
        )


_STEP_FIELDS = (
    "ordinal",
    "before",
    "after",
    "difficulty",
    "credits",
    "skill_points",
    "minutes",
    "percent",
)
