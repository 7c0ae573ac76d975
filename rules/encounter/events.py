"""What a step reports: :class:`Event` values, each with the numbers a log shows and every die
rolled (as :class:`~rules.dice.Roll`), and :func:`recorded_dice` to replay those dice."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Self

from rules._stored import Reader
from rules.dice import DiceError, DieCode, Roll
from rules.encounter.state import EncounterError

__all__ = ["Event", "Scalar", "plain_roll", "recorded_dice"]

Scalar = int | str | bool | None


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
        if not isinstance(self.kind, str) or not self.kind:
            raise EncounterError("an event has a kind")
        for key, value in self.numbers:
            if not isinstance(key, str) or not isinstance(value, int | str | bool | None):
                raise EncounterError(f"an event's number {key!r} is not a JSON scalar")
        if not all(isinstance(k, str) and isinstance(r, Roll) for k, r in self.rolls):
            raise EncounterError("an event's rolls are (name, Roll) pairs")

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
            "numbers": dict(self.numbers),
            "rolls": [[name, r.to_json()] for name, r in self.rolls],
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(data, "event", ("kind", "combatant", "text", "numbers", "rolls"), EncounterError)
        numbers = r.data["numbers"]
        if not isinstance(numbers, dict):
            raise r.refuse("numbers", "an object")
        rolls = []
        for item in r.items("rolls"):
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
                raise EncounterError("event: each roll is stored as [name, roll]")
            try:
                rolls.append((item[0], Roll.from_json(item[1])))
            except DiceError as exc:
                raise EncounterError(f"event: roll {item[0]!r}: {exc}") from None
        who = r.data["combatant"]
        return cls(
            r.text("kind"),
            None if who is None else r.text("combatant"),
            r.text("text"),
            tuple(numbers.items()),
            tuple(rolls),
        )


def plain_roll(faces: tuple[int, ...] | list[int], pips: int = 0) -> Roll:
    """Dice rolled without a Wild Die (death rolls, dice added to a difficulty), kept as a
    :class:`Roll` so that every event stores its dice one way."""
    faces = tuple(faces)
    code = DieCode(len(faces), pips)
    return Roll(code=code, pool=code, normal=faces, total=max(0, sum(faces) + pips))


def recorded_dice(events: list[Event] | tuple[Event, ...]) -> list[int]:
    """Every face the events' rolls drew, in drawing order (ordinary dice, the Wild Die chain,
    the [HOUSE] complication roll, then Character Point dice): ``FixedDice(recorded_dice(
    events))`` replays the same steps to the same state."""
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
