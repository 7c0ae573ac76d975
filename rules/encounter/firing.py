"""[HOUSE §13, §16] automatic and suppression fire, the stored side: the :class:`FireState`
the encounter keeps for the round (:attr:`rules.encounter.EncounterState.fire`), a
:class:`Suppression` in it, and the :class:`Suppress` step. What they do is
:mod:`rules.encounter.auto`.

A value module the encounter's state stores: it imports nothing else of the encounter."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rules._stored import Reader
from rules.encounter.errors import EncounterError

__all__ = ["FIRE_MODES", "FireState", "Suppress", "Suppression"]

FIRE_MODES = ("single", "burst", "full_auto")
"""``single``: one shot; ``burst``: a short burst, treated like any other shot; ``full_auto``: a
long burst concentrated on one target (one roll decides how many shots hit)."""


def _whole(value: object, what: str, least: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise EncounterError(f"{what} is a whole number of {least} or more, not {value!r}")
    return value


def _name(value: object, what: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\x00" in value or len(value) > 100:
        raise EncounterError(f"{what} is a name of 1 to 100 characters")
    return value


@dataclass(frozen=True, slots=True)
class Suppression:
    """One combatant's suppressive shots in one pass of the round (the ``phase``: his
    ``phase``-th action, CA-17): the GM's Difficult number, every to-hit total in the order
    rolled, how many succeeded (+1 each to the difficulty of opponents returning fire at his
    side in that pass) and how many of those opponents fumbled and took the blaze of fire."""

    shooter: str
    side: str
    phase: int
    difficulty: int
    rolls: tuple[int, ...]
    successes: int
    fumbles: int = 0

    def __post_init__(self) -> None:
        _name(self.shooter, "the suppressing shooter")
        _name(self.side, "the suppressing side")
        _whole(self.phase, "the suppression's pass", 1)
        _whole(self.difficulty, "the suppression's difficulty")
        if not isinstance(self.rolls, tuple) or not self.rolls:
            raise EncounterError("a suppression keeps the to-hit totals of its shots")
        for total in self.rolls:
            _whole(total, "a suppressive shot's total")
        if _whole(self.successes, "the successful suppressive shots") > len(self.rolls):
            raise EncounterError("more successful suppressive shots than shots")
        _whole(self.fumbles, "the fumbles against a suppression")

    def to_json(self) -> dict[str, Any]:
        return {
            "shooter": self.shooter,
            "side": self.side,
            "phase": self.phase,
            "difficulty": self.difficulty,
            "rolls": list(self.rolls),
            "successes": self.successes,
            "fumbles": self.fumbles,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("shooter", "side", "phase", "difficulty", "rolls", "successes", "fumbles")
        r = Reader(data, "suppression", keys, EncounterError)
        rolls = r.items("rolls")
        return cls(
            r.text("shooter"),
            r.text("side"),
            r.integer("phase"),
            r.integer("difficulty"),
            tuple(rolls),  # type: ignore[arg-type]  # checked in __post_init__
            r.integer("successes"),
            r.integer("fumbles"),
        )


@dataclass(frozen=True, slots=True)
class FireState:
    """The round's [HOUSE] automatic and suppression fire: the fire mode and shots of the
    attack announced and waiting (``single``/1 when none is), the full-auto bursts each
    combatant has fired this round (``(id, bursts)``), who has made any other attack this
    round (a full-auto shooter makes no other), and the suppressions standing."""

    mode: str = "single"
    shots: int = 1
    bursts: tuple[tuple[str, int], ...] = ()
    other_attacks: tuple[str, ...] = ()
    suppression: tuple[Suppression, ...] = ()

    def __post_init__(self) -> None:
        if self.mode not in FIRE_MODES:
            raise EncounterError(f"a fire mode is one of {', '.join(FIRE_MODES)}")
        _whole(self.shots, "the shots of the announced attack")
        ok = isinstance(self.bursts, tuple) and all(
            isinstance(b, tuple) and len(b) == 2 and isinstance(b[0], str) for b in self.bursts
        )
        if not ok:
            raise EncounterError("the full-auto bursts are (combatant id, bursts) pairs")
        for _, bursts in self.bursts:
            _whole(bursts, "full-auto bursts", 1)
        if not all(isinstance(x, str) for x in self.other_attacks):
            raise EncounterError("who made other attacks is a list of combatant ids")
        if not all(isinstance(s, Suppression) for s in self.suppression):
            raise EncounterError("the suppressions are Suppression values")

    def bursts_of(self, combatant: str) -> int:
        """The full-auto bursts he has fired this round."""
        return dict(self.bursts).get(combatant, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "shots": self.shots,
            "bursts": [[cid, n] for cid, n in self.bursts],
            "other_attacks": list(self.other_attacks),
            "suppression": [s.to_json() for s in self.suppression],
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        keys = ("mode", "shots", "bursts", "other_attacks", "suppression")
        r = Reader(data, "fire state", keys, EncounterError)
        bursts = []
        for item in r.items("bursts"):
            if not isinstance(item, list) or len(item) != 2:
                raise EncounterError("fire state: each burst count is stored as [id, bursts]")
            bursts.append((item[0], item[1]))
        return cls(
            r.choice("mode", FIRE_MODES),
            r.integer("shots"),
            tuple(bursts),
            r.texts("other_attacks"),
            tuple(Suppression.from_json(s) for s in r.items("suppression")),
        )


@dataclass(frozen=True, slots=True)
class Suppress:
    """[HOUSE §16] suppression fire: ``shooter`` fires ``shots`` suppressive shots, each one of
    his declared actions, each rolled against the GM's Difficult ``difficulty``. Each success
    adds +1 to the difficulty of opponents returning fire at his side in this pass; an
    opponent who fumbles that return fire is hit by the blaze of fire
    (:mod:`rules.encounter.auto`)."""

    shooter: str
    shots: int = 1
    difficulty: int | None = None
    type: ClassVar[str] = "suppress"

    def __post_init__(self) -> None:
        _name(self.shooter, "the suppressing shooter")
        _whole(self.shots, "the number of suppressive shots", 1)
        if self.difficulty is not None:
            _whole(self.difficulty, "a difficulty number")

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "shooter": self.shooter,
            "shots": self.shots,
            "difficulty": self.difficulty,
        }

    @classmethod
    def from_json(cls, data: Any) -> Self:
        r = Reader(
            data, "suppress step", ("type", "shooter", "shots", "difficulty"), EncounterError
        )
        if r.data["type"] != cls.type:
            raise r.refuse("type", repr(cls.type))
        return cls(r.text("shooter"), r.integer("shots"), r.optional_integer("difficulty"))
