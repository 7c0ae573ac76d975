"""What a fleet-action step reports: :class:`FleetEvent` values with the numbers the log shows
and every die rolled, and :func:`recorded_dice` to replay those dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from rules._events import Scalar, check_event, event_parts_json, read_event_parts, recorded_dice
from rules._stored import Reader
from rules.dice import Roll
from rules.fleet.state import FleetError

__all__ = ["FleetEvent", "Scalar", "recorded_dice"]


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
        check_event(self.kind, self.numbers, self.rolls, FleetError)

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
            **event_parts_json(self.numbers, self.rolls),
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = Reader(data, "event", ("kind", "ship", "text", "numbers", "rolls"), FleetError)
        numbers, rolls = read_event_parts(read, FleetError)
        ship = read.data["ship"]
        return cls(
            read.text("kind"),
            None if ship is None else read.text("ship"),
            read.text("text"),
            numbers,
            rolls,
        )
