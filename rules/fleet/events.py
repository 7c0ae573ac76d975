"""What a fleet-action step reports: :class:`FleetEvent` values with the numbers the log shows
and every die rolled, and :func:`recorded_dice` to replay those dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from rules._stored import Reader
from rules.dice import DiceError, Roll
from rules.fleet.state import FleetError

__all__ = ["FleetEvent", "Scalar", "recorded_dice"]

Scalar = int | str | bool | None


@dataclass(frozen=True, slots=True)
class FleetEvent:
    """One thing that happened: its ``kind`` (``evasion``, ``attack``, ``damage`` …), the ship
    it happened to, a sentence for the log, named numbers and the named rolls in drawing
    order."""

    kind: str
    ship: str | None = None
    text: str = ""
    numbers: tuple[tuple[str, Scalar], ...] = ()
    rolls: tuple[tuple[str, Roll], ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.kind, str) or not self.kind:
            raise FleetError("an event has a kind")
        for key, value in self.numbers:
            if not isinstance(key, str) or not isinstance(value, int | str | bool | None):
                raise FleetError(f"an event's number {key!r} is not a JSON scalar")
        if not all(isinstance(k, str) and isinstance(r, Roll) for k, r in self.rolls):
            raise FleetError("an event's rolls are (name, Roll) pairs")

    def number(self, key: str) -> Scalar:
        """The named number, or None when the event has none by that name."""
        return dict(self.numbers).get(key)

    def roll(self, key: str) -> Roll | None:
        return dict(self.rolls).get(key)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "ship": self.ship,
            "text": self.text,
            "numbers": dict(self.numbers),
            "rolls": [[name, r.to_json()] for name, r in self.rolls],
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = Reader(data, "event", ("kind", "ship", "text", "numbers", "rolls"), FleetError)
        numbers = read.data["numbers"]
        if not isinstance(numbers, dict):
            raise read.refuse("numbers", "an object")
        rolls = []
        for item in read.items("rolls"):
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
                raise FleetError("event: each roll is stored as [name, roll]")
            try:
                rolls.append((item[0], Roll.from_json(item[1])))
            except DiceError as exc:
                raise FleetError(f"event: roll {item[0]!r}: {exc}") from None
        ship = read.data["ship"]
        return cls(
            read.text("kind"),
            None if ship is None else read.text("ship"),
            read.text("text"),
            tuple(numbers.items()),
            tuple(rolls),
        )


def recorded_dice(events: list[FleetEvent] | tuple[FleetEvent, ...]) -> list[int]:
    """Every face the events' rolls drew, in drawing order: ``FixedDice(recorded_dice(events))``
    replays the same steps to the same state."""
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
