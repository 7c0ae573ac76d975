"""Improvement and repair projects as values an app can store between job steps: what the
player asked for (:class:`ProjectRequest`), each roll made (:class:`LogEntry`) and the
project's state between two moments of game time (:class:`ProjectState`), each with
``to_json``/``from_json`` (droids-and-equipment.md §9). Moving a project forward is
:mod:`rules.equipment.progress`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal, Self, get_args

from rules._stored import Reader
from rules.dice import DieCode, DieCodeError
from rules.difficulty import DifficultyLevel
from rules.equipment._common import EquipmentError, ImprovementStep, reader

__all__ = [
    "LogEntry",
    "ProjectKind",
    "ProjectRequest",
    "ProjectState",
    "ProjectStatus",
    "StatValue",
]

_STANDARD_SPECIALIST = DieCode(4)  # [RC] "standard specialists have 4D in their specialty"
_NO_BONUS = DieCode()
ProjectKind = Literal["repair", "improve", "add_weapon", "droid_skill"]
ProjectStatus = Literal["in_progress", "awaiting_roll", "awaiting_gm", "completed", "abandoned"]
ProjectSystem = Literal["upg", "rc", "upg_repair", "house_repair", "gm"]
Labour = Literal["self", "hired"]
Pace = Literal["normal", "prepared", "rushed"]
RollMode = Literal["auto", "player", "gm"]
ChargeCredits = Literal["each_attempt", "on_success"]
InstallMethod = Literal["fee", "skill_points"]
StatValue = DieCode | Fraction | int | float | str | None
"""A stat's value in a request: a die code, Move, Space, range %, a hyperdrive multiplier
(``"x1/2"`` or ``Fraction(1, 2)``), a weapon's damage state or dice lost."""


@dataclass(frozen=True, slots=True)
class ProjectRequest:
    """What a player asks for. Which fields matter depends on ``kind``:

    * ``repair``: ``stat`` is the system (see :data:`REPAIR_SYSTEMS`), ``damage`` what was lost;
    * ``improve``: ``stat`` and ``stock``/``current``/``target`` values (die codes, Move,
      Space, range %, or hyperdrive multipliers); rules per ``ruleset.equipment_improvement``;
    * ``add_weapon``: [RC] ``scale`` and optionally ``purchased_price``/``install_method``;
    * ``droid_skill``: ``stat`` is the skill name, ``current`` its code (None: new skill),
      ``target`` the goal, ``attribute`` the governing attribute's code.

    ``skill`` is the worker's roll (repair skill, or technology for [RC]) before ``bonus``
    (a combined-action bonus, computed once). ``difficulty_numbers`` pins a number for a
    level; other levels are rolled with the [WIKI] random-difficulty dice."""

    kind: ProjectKind
    stat: str
    stock: StatValue = None
    current: StatValue = None
    target: StatValue = None
    damage: StatValue = None
    scale: str = "character"
    item_value: int | None = None
    labour: Labour = "self"
    hired_multiplier: int = 2
    skill: DieCode = _STANDARD_SPECIALIST
    bonus: DieCode = _NO_BONUS
    pace: Pace = "normal"
    roll_mode: RollMode = "auto"
    charge_credits: ChargeCredits = "each_attempt"
    first_roll_immediate: bool = False
    retry_minutes: int | None = None
    step_minutes: int | None = None
    difficulty_numbers: tuple[tuple[DifficultyLevel, int], ...] = ()
    additive: bool | None = None
    attribute: DieCode | None = None
    purchased_price: int | None = None
    install_method: InstallMethod | None = None

    def to_json(self) -> dict[str, Any]:
        """The request as JSON-safe data; stat values keep their type (``{"die_code": "4D"}``,
        ``{"fraction": "1/2"}``, numbers and text as they are)."""
        return {
            "kind": self.kind,
            "stat": self.stat,
            "stock": _value_to_json(self.stock),
            "current": _value_to_json(self.current),
            "target": _value_to_json(self.target),
            "damage": _value_to_json(self.damage),
            "scale": self.scale,
            "item_value": self.item_value,
            "labour": self.labour,
            "hired_multiplier": self.hired_multiplier,
            "skill": str(self.skill),
            "bonus": str(self.bonus),
            "pace": self.pace,
            "roll_mode": self.roll_mode,
            "charge_credits": self.charge_credits,
            "first_roll_immediate": self.first_roll_immediate,
            "retry_minutes": self.retry_minutes,
            "step_minutes": self.step_minutes,
            "difficulty_numbers": [
                [level.to_json(), number] for level, number in self.difficulty_numbers
            ],
            "additive": self.additive,
            "attribute": None if self.attribute is None else str(self.attribute),
            "purchased_price": self.purchased_price,
            "install_method": self.install_method,
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """A request stored by :meth:`to_json`; an :class:`EquipmentError` for anything else."""
        read = reader(data, "project request", _REQUEST_FIELDS)
        pinned = []
        for pair in read.items("difficulty_numbers"):
            if not isinstance(pair, list) or len(pair) != 2:
                raise read.refuse("difficulty_numbers", "a list of [level, number] pairs")
            entry = reader(dict(zip(("level", "number"), pair, strict=True)), "pin", _PIN)
            level = entry.level("level")
            if level is None:
                raise read.refuse("difficulty_numbers", "a list of [level, number] pairs")
            pinned.append((level, entry.integer("number")))
        additive = read.data["additive"]
        if additive is not None and not isinstance(additive, bool):
            raise read.refuse("additive", "true, false or null")
        install = read.data["install_method"]
        return cls(
            kind=read.choice("kind", get_args(ProjectKind)),
            stat=read.text("stat"),
            stock=_value_from_json(read, "stock"),
            current=_value_from_json(read, "current"),
            target=_value_from_json(read, "target"),
            damage=_value_from_json(read, "damage"),
            scale=read.text("scale"),
            item_value=read.optional_integer("item_value"),
            labour=read.choice("labour", get_args(Labour)),
            hired_multiplier=read.integer("hired_multiplier"),
            skill=read.code("skill"),
            bonus=read.code("bonus"),
            pace=read.choice("pace", get_args(Pace)),
            roll_mode=read.choice("roll_mode", get_args(RollMode)),
            charge_credits=read.choice("charge_credits", get_args(ChargeCredits)),
            first_roll_immediate=read.flag("first_roll_immediate"),
            retry_minutes=read.optional_integer("retry_minutes"),
            step_minutes=read.optional_integer("step_minutes"),
            difficulty_numbers=tuple(pinned),
            additive=additive,
            attribute=None if read.data["attribute"] is None else read.code("attribute"),
            purchased_price=read.optional_integer("purchased_price"),
            install_method=(
                None if install is None else read.choice("install_method", get_args(InstallMethod))
            ),
        )


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One roll (or automatic step) of a project."""

    at_minutes: int
    step: int
    difficulty: DifficultyLevel | None
    number: int | None
    total: int | None
    success: bool
    credits: int
    skill_points: int
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "at_minutes": self.at_minutes,
            "step": self.step,
            "difficulty": None if self.difficulty is None else self.difficulty.to_json(),
            "number": self.number,
            "total": self.total,
            "success": self.success,
            "credits": self.credits,
            "skill_points": self.skill_points,
            "note": self.note,
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """An entry stored by :meth:`to_json`; an :class:`EquipmentError` for anything else."""
        read = reader(data, "project log entry", _LOG_FIELDS)
        return cls(
            at_minutes=read.integer("at_minutes"),
            step=read.integer("step"),
            difficulty=read.level("difficulty"),
            number=read.optional_integer("number"),
            total=read.optional_integer("total"),
            success=read.flag("success"),
            credits=read.integer("credits"),
            skill_points=read.integer("skill_points"),
            note=read.text("note"),
        )


@dataclass(frozen=True, slots=True)
class ProjectState:
    """An improvement or repair project between two moments of game time. Never mutated:
    every function returns a new state."""

    request: ProjectRequest
    system: ProjectSystem
    steps: tuple[ImprovementStep, ...]
    step_index: int = 0
    attempt: int = 0
    """Failed attempts on the current step (0 = its first attempt)."""
    status: ProjectStatus = "in_progress"
    minutes_worked: int = 0
    """Work done towards the current step's next roll."""
    elapsed_minutes: int = 0
    credits_spent: int = 0
    skill_points_spent: int = 0
    rolls_made: int = 0
    paid: bool = False
    """The current attempt has been charged (set while a roll is awaited)."""
    log: tuple[LogEntry, ...] = ()
    warnings: tuple[str, ...] = ()

    @property
    def current_step(self) -> ImprovementStep | None:
        return self.steps[self.step_index] if self.step_index < len(self.steps) else None

    @property
    def value(self) -> str | None:
        """The stat's value now (the last step completed)."""
        if self.step_index == 0:
            return None if self.request.current is None else str(self.request.current)
        return self.steps[self.step_index - 1].after

    @property
    def credits_planned(self) -> int:
        return sum(s.credits for s in self.steps)

    @property
    def skill_points_planned(self) -> int:
        return sum(s.skill_points for s in self.steps)

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-safe data, for a job to store between steps."""
        return {
            "request": self.request.to_json(),
            "system": self.system,
            "steps": [step.to_json() for step in self.steps],
            "step_index": self.step_index,
            "attempt": self.attempt,
            "status": self.status,
            "minutes_worked": self.minutes_worked,
            "elapsed_minutes": self.elapsed_minutes,
            "credits_spent": self.credits_spent,
            "skill_points_spent": self.skill_points_spent,
            "rolls_made": self.rolls_made,
            "paid": self.paid,
            "log": [entry.to_json() for entry in self.log],
            "warnings": list(self.warnings),
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        """A state stored by :meth:`to_json`; an :class:`EquipmentError` for anything else
        (unknown fields, wrong types, a step index past the last step, negative counts)."""
        read = reader(data, "project state", _STATE_FIELDS)
        steps = tuple(ImprovementStep.from_json(step) for step in read.items("steps"))
        counts = {name: read.integer(name, least=0) for name in _COUNTS}
        if counts["step_index"] > len(steps):
            raise read.refuse("step_index", f"at most the number of steps ({len(steps)})")
        return cls(
            request=ProjectRequest.from_json(read.data["request"]),
            system=read.choice("system", get_args(ProjectSystem)),
            steps=steps,
            status=read.choice("status", get_args(ProjectStatus)),
            paid=read.flag("paid"),
            log=tuple(LogEntry.from_json(entry) for entry in read.items("log")),
            warnings=read.texts("warnings"),
            **counts,
        )


_REQUEST_FIELDS = tuple(ProjectRequest.__dataclass_fields__)
_PIN = ("level", "number")
_LOG_FIELDS = tuple(LogEntry.__dataclass_fields__)
_STATE_FIELDS = tuple(ProjectState.__dataclass_fields__)
_COUNTS = (
    "step_index",
    "attempt",
    "minutes_worked",
    "elapsed_minutes",
    "credits_spent",
    "skill_points_spent",
    "rolls_made",
)


def _value_to_json(value: StatValue) -> object:
    if isinstance(value, DieCode):
        return {"die_code": str(value)}
    if isinstance(value, Fraction):
        return {"fraction": str(value)}
    if value is None or (isinstance(value, int | str) and not isinstance(value, bool)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    raise EquipmentError(f"a stat value is a die code, number or text, not {value!r}")


def _value_from_json(read: Reader, key: str) -> StatValue:
    value = read.data[key]
    if value is None or (isinstance(value, int | str) and not isinstance(value, bool)):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, dict) and len(value) == 1:
        ((tag, text),) = value.items()
        try:
            if tag == "die_code" and isinstance(text, str):
                return DieCode.parse(text)
            if tag == "fraction" and isinstance(text, str):
                return Fraction(text)
        except (DieCodeError, ValueError, ZeroDivisionError):
            pass
    raise read.refuse(key, 'a number, text, {"die_code": ...} or {"fraction": ...}')
