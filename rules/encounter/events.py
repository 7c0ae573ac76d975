"""What a step reports: :class:`Event` values, each with the numbers a log shows and every die
rolled (as :class:`~rules.dice.Roll`), and :func:`recorded_dice` to replay those dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from rules._events import (
    Scalar,
    check_event,
    event_parts_json,
    plain_roll,
    read_event_parts,
    recorded_dice,
)
from rules._stored import Reader
from rules.dice import Roll
from rules.encounter.state import EncounterError

__all__ = ["Event", "Scalar", "plain_roll", "recorded_dice"]


@dataclass(frozen=True, slots=True)
class Event:
    """One thing that happened: its ``kind`` (``initiative``, ``attack``, ``damage`` …), who
    did it, a sentence for the log, named numbers and the named rolls, in the order their
    dice were drawn."""

    kind: str
    combatant: str | None = None
    text: str = ""
    numbers: tuple[tuple[str, Scalar], ...] = ()
    rolls: tuple[tuple[str, Roll], ...] = ()

    def __post_init__(self) -> None:
        check_event(self.kind, self.numbers, self.rolls, EncounterError)

    def number(self, key: str) -> Scalar:
        """The named number (KeyError-free: None when the event has no such number)."""
        return dict(self.numbers).get(key)

    def roll(self, key: str) -> Roll | None:
        return dict(self.rolls).get(key)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "combatant": self.combatant,
            "text": self.text,
            **event_parts_json(self.numbers, self.rolls),
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "event", ("kind", "combatant", "text", "numbers", "rolls"), EncounterError)
        numbers, rolls = read_event_parts(r, EncounterError)
        who = r.data["combatant"]
        return cls(
            r.text("kind"),
            None if who is None else r.text("combatant"),
            r.text("text"),
            numbers,
            rolls,
        )
