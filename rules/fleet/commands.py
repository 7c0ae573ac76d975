"""The steps of a fleet action, each stored as ``{"type": ..., ...}`` by ``to_json`` and read
back by :func:`command_from_json` (which refuses anything else with a :class:`FleetError`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from rules._stored import Reader
from rules.craft import ADVANCED_TARGETING, FACINGS, OFFICERS, CapitalState
from rules.fleet.state import FleetError, FleetShip

__all__ = [
    "COMMANDS",
    "DAMAGE_ROWS",
    "AddShip",
    "AdjustDamage",
    "ChangeFacing",
    "Evade",
    "FireBattery",
    "FleetCommand",
    "GiveOrders",
    "NextRound",
    "RaiseShields",
    "Ram",
    "RemoveShip",
    "RerouteShields",
    "command_from_json",
]

_MAX = 10_000


def _whole(read: Reader, key: str, least: int = 0) -> int:
    value = read.integer(key, least=least)
    if value > _MAX:
        raise read.refuse(key, f"at most {_MAX}")
    return value


def _optional_text(read: Reader, key: str) -> str | None:
    return None if read.data[key] is None else read.text(key)


class FleetCommand:
    """A step; subclasses are frozen dataclasses with a ``type``."""

    type: ClassVar[str]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            if isinstance(value, FleetShip):
                value = value.to_json()
            elif isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            data[f.name] = value
        return data

    @classmethod
    def _reader(cls, data: object) -> Reader:
        """A reader of the step's fields; a field with a default may be left out."""
        found = dataclasses.fields(cls)  # type: ignore[arg-type]
        if isinstance(data, dict):
            defaults = {
                f.name: list(f.default) if isinstance(f.default, tuple) else f.default
                for f in found
                if f.default is not dataclasses.MISSING
            }
            data = {**defaults, **data}
        return Reader(data, f"{cls.type} step", ("type", *(f.name for f in found)), FleetError)


@dataclass(frozen=True, slots=True)
class AddShip(FleetCommand):
    """A capital ship joins the battle (its template as built from the craft's stat block)."""

    type: ClassVar[str] = "add_ship"
    ship: FleetShip

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = cls._reader(data)
        return cls(FleetShip.from_json(read.data["ship"]))


@dataclass(frozen=True, slots=True)
class RemoveShip(FleetCommand):
    """A ship leaves the battle (jumps out, or was added by mistake)."""

    type: ClassVar[str] = "remove_ship"
    ship: str

    @classmethod
    def from_json(cls, data: object) -> Self:
        return cls(cls._reader(data).text("ship"))


@dataclass(frozen=True, slots=True)
class GiveOrders(FleetCommand):
    """The captain's round: haste orders, coordination and bonus actions cost a die of command
    each, then each major officer in ``officers`` order takes 1D (capital-ships.md §9)."""

    type: ClassVar[str] = "orders"
    ship: str
    haste_orders: int = 0
    coordinations: int = 0
    bonuses: int = 0
    officers: tuple[str, ...] = OFFICERS

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = cls._reader(data)
        return cls(
            read.text("ship"),
            _whole(read, "haste_orders"),
            _whole(read, "coordinations"),
            _whole(read, "bonuses"),
            read.texts("officers"),
        )


@dataclass(frozen=True, slots=True)
class Evade(FleetCommand):
    """Roll this round's evasion: maneuver code + crew code (§6)."""

    type: ClassVar[str] = "evade"
    ship: str

    @classmethod
    def from_json(cls, data: object) -> Self:
        return cls(cls._reader(data).text("ship"))


@dataclass(frozen=True, slots=True)
class RaiseShields(FleetCommand):
    """The shielding reaction: crew code + the shields of the facing shown to the enemy; the
    shield number is the evasion number plus this roll (§7.1)."""

    type: ClassVar[str] = "shields"
    ship: str

    @classmethod
    def from_json(cls, data: object) -> Self:
        return cls(cls._reader(data).text("ship"))


@dataclass(frozen=True, slots=True)
class RerouteShields(FleetCommand):
    """Increase power to one facing's shields with a Difficult shields roll (§7.2);
    ``difficulty`` None: the top of the Difficult span."""

    type: ClassVar[str] = "reroute"
    ship: str
    donor: str
    receiver: str
    difficulty: int | None = None

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = cls._reader(data)
        difficulty = None if read.data["difficulty"] is None else _whole(read, "difficulty")
        return cls(read.text("ship"), read.text("donor"), read.text("receiver"), difficulty)


@dataclass(frozen=True, slots=True)
class ChangeFacing(FleetCommand):
    """Turn to show the enemy another facing, paid with speed actions reserved through a
    maneuver (adjacent 1, opposite 2: §3, §4)."""

    type: ClassVar[str] = "facing"
    ship: str
    facing: str
    reserved_actions: int = 0

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = cls._reader(data)
        return cls(read.text("ship"), read.text("facing"), _whole(read, "reserved_actions"))


@dataclass(frozen=True, slots=True)
class FireBattery(FleetCommand):
    """``guns`` guns of one battery fire at ``target``, at a part of it (``aim``, the Advanced
    Targeting Chart) and ``vital_locations`` times at a vital location. Counter-battery fire
    (``aim`` a weapon) names the target's battery and how many of its guns are targeted.
    ``coordinate`` lists (ship, battery, guns) of the other ships whose attacks this one is
    coordinated with (§9.4); ``facing`` is the target's facing hit (default: the one it
    shows)."""

    type: ClassVar[str] = "fire"
    ship: str
    battery: int
    guns: int
    target: str
    aim: str = "hull"
    vital_locations: int = 0
    target_battery: int | None = None
    target_guns: int | None = None
    coordinate: tuple[tuple[str, int, int], ...] = ()
    facing: str | None = None

    def __post_init__(self) -> None:
        if self.aim not in ADVANCED_TARGETING:
            raise FleetError(
                f"unknown aim {self.aim!r}; choose one of {', '.join(ADVANCED_TARGETING)}"
            )
        if self.facing is not None and self.facing not in FACINGS:
            raise FleetError(f"unknown facing {self.facing!r}")

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = cls._reader(data)
        coordinate = []
        for item in read.items("coordinate"):
            if not (
                isinstance(item, list)
                and len(item) == 3
                and isinstance(item[0], str)
                and all(isinstance(n, int) and not isinstance(n, bool) for n in item[1:])
            ):
                raise FleetError("each coordinated attack is [ship, battery, guns]")
            coordinate.append((item[0], int(item[1]), int(item[2])))
        return cls(
            ship=read.text("ship"),
            battery=_whole(read, "battery"),
            guns=_whole(read, "guns", least=1),
            target=read.text("target"),
            aim=read.text("aim"),
            vital_locations=_whole(read, "vital_locations"),
            target_battery=None
            if read.data["target_battery"] is None
            else _whole(read, "target_battery"),
            target_guns=None
            if read.data["target_guns"] is None
            else _whole(read, "target_guns", 1),
            coordinate=tuple(coordinate),
            facing=_optional_text(read, "facing"),
        )


@dataclass(frozen=True, slots=True)
class Ram(FleetCommand):
    """Ram ``target``: the pilot's roll must beat its evasion; each ship then rolls its hull
    plus 1D per speed action against the other's hull and shielding (§11.1)."""

    type: ClassVar[str] = "ram"
    ship: str
    target: str
    speed_actions: int = 1
    target_speed_actions: int = 0

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = cls._reader(data)
        return cls(
            read.text("ship"),
            read.text("target"),
            _whole(read, "speed_actions"),
            _whole(read, "target_speed_actions"),
        )


DAMAGE_ROWS = tuple(CapitalState.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class AdjustDamage(FleetCommand):
    """The GM sets one of a ship's damage rows (``ship_damage``, ``shield_pips_lost``,
    ``sublight``, ``maneuver``, ``fire_control``, ``command``, ``ionization``) to ``pips``:
    damage taken before the battle, or a correction."""

    type: ClassVar[str] = "adjust"
    ship: str
    row: str
    pips: int

    def __post_init__(self) -> None:
        if self.row not in DAMAGE_ROWS:
            raise FleetError(
                f"unknown damage row {self.row!r}; choose one of {', '.join(DAMAGE_ROWS)}"
            )
        if (
            isinstance(self.pips, bool)
            or not isinstance(self.pips, int)
            or not 0 <= self.pips <= 99
        ):
            raise FleetError("damage pips are 0 to 99")

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = cls._reader(data)
        return cls(read.text("ship"), read.text("row"), _whole(read, "pips"))


@dataclass(frozen=True, slots=True)
class NextRound(FleetCommand):
    """End the round: this round's rolls are cleared and the ionization taken this round
    comes into force for the next one (ambiguity 6)."""

    type: ClassVar[str] = "end_round"

    @classmethod
    def from_json(cls, data: object) -> Self:
        cls._reader(data)
        return cls()


COMMANDS: dict[str, type[Any]] = {
    c.type: c
    for c in (
        AddShip,
        RemoveShip,
        GiveOrders,
        Evade,
        RaiseShields,
        RerouteShields,
        ChangeFacing,
        FireBattery,
        Ram,
        AdjustDamage,
        NextRound,
    )
}


def command_from_json(data: object) -> FleetCommand:
    """The step stored by its ``to_json``; anything else is a :class:`FleetError`."""
    kind = data.get("type") if isinstance(data, dict) else None
    if not isinstance(kind, str) or kind not in COMMANDS:
        raise FleetError(f"unknown fleet step {kind!r}; known: {', '.join(COMMANDS)}")
    command: FleetCommand = COMMANDS[kind].from_json(data)
    return command
