"""What the step machines (the encounter, the fleet action) share about the events a step
reports: the checks on an event's numbers and rolls, their JSON both ways, dice rolled without
a Wild Die as a :class:`~rules.dice.Roll`, and :func:`recorded_dice`, every face the events'
rolls drew in drawing order (``FixedDice(recorded_dice(events))`` replays the same steps to
the same state)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from rules._stored import Reader
from rules.dice import DiceError, DieCode, Roll
from rules.errors import RulesError

__all__ = [
    "Scalar",
    "check_event",
    "event_parts_json",
    "plain_roll",
    "read_event_parts",
    "recorded_dice",
]

Scalar = int | str | bool | None
Numbers = tuple[tuple[str, Scalar], ...]
Rolls = tuple[tuple[str, Roll], ...]


class _HasRolls(Protocol):
    @property
    def rolls(self) -> Rolls: ...


def check_event(kind: object, numbers: Numbers, rolls: Rolls, error: type[RulesError]) -> None:
    """An event has a kind, JSON scalar numbers and (name, Roll) rolls; ``error`` otherwise."""
    if not isinstance(kind, str) or not kind:
        raise error("an event has a kind")
    for key, value in numbers:
        if not isinstance(key, str) or not isinstance(value, int | str | bool | None):
            raise error(f"an event's number {key!r} is not a JSON scalar")
    if not all(isinstance(k, str) and isinstance(r, Roll) for k, r in rolls):
        raise error("an event's rolls are (name, Roll) pairs")


def event_parts_json(numbers: Numbers, rolls: Rolls) -> dict[str, Any]:
    return {"numbers": dict(numbers), "rolls": [[name, r.to_json()] for name, r in rolls]}


def read_event_parts(r: Reader, error: type[RulesError]) -> tuple[Numbers, Rolls]:
    """The numbers and rolls of a stored event (its reader checks the keys)."""
    numbers = r.data["numbers"]
    if not isinstance(numbers, dict):
        raise r.refuse("numbers", "an object")
    rolls = []
    for item in r.items("rolls"):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise error("event: each roll is stored as [name, roll]")
        try:
            rolls.append((item[0], Roll.from_json(item[1])))
        except DiceError as exc:
            raise error(f"event: roll {item[0]!r}: {exc}") from None
    return tuple(numbers.items()), tuple(rolls)


def plain_roll(faces: tuple[int, ...] | list[int], pips: int = 0) -> Roll:
    """Dice rolled without a Wild Die (death rolls, dice added to a difficulty, a damage
    table's 1D), kept as a :class:`Roll` so that every event stores its dice one way."""
    faces = tuple(faces)
    code = DieCode(len(faces), pips)
    return Roll(code=code, pool=code, normal=faces, total=max(0, sum(faces) + pips))


def recorded_dice(events: Iterable[_HasRolls]) -> list[int]:
    """Every face the events' rolls drew, in drawing order (ordinary dice, the Wild Die chain,
    the [HOUSE] complication roll, then Character Point dice)."""
    faces: list[int] = []
    for event in events:
        for _, r in event.rolls:
            faces.extend(r.normal)
            faces.extend(r.wild)
            if r.house_table is not None:
                faces.append(r.house_table)
            for chain in r.cp:
                faces.extend(chain)
    return faces
