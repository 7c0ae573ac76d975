"""A fleet action's state: the capital ships in the battle, each with the codes of its template
(crew, officers, hull, maneuver, sublight, shields, weapon batteries) and its damage rows
(:class:`rules.craft.CapitalState`), plus what this round has rolled so far (evasion and
shield numbers, batteries fired, rerouted power, the commander's orders). Stored between
steps with ``to_json``/``from_json`` (capital-ships.md §2, §13).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Self

from rules._stored import Reader
from rules.craft import FACINGS, OFFICERS, CapitalState, CraftError, CraftStats, reduce_by_pips
from rules.dice import DieCode
from rules.errors import RulesError

__all__ = [
    "MAX_SHIPS",
    "Battery",
    "FleetError",
    "FleetShip",
    "FleetState",
    "ship_from_stats",
]

MAX_SHIPS = 60
"""Ships one fleet action holds (a page of templates; more is a sign of a wrong form)."""
_NO_BATTERY_KINDS = ("tractor", "gravity_well")


class FleetError(RulesError):
    """A fleet-action step the rules refuse, or a stored fleet action that is damaged."""


def _code(read: Reader, key: str) -> DieCode:
    code = read.code(key)
    if code.dice < 0 or code.pips < 0:
        raise FleetError(f"{read.what}: {key} cannot be negative")
    return code


@dataclass(frozen=True, slots=True)
class Battery:
    """One weapon type of a ship: ``guns`` guns sharing fire control and damage. ``points``
    holds each gun's counter-battery damage points (1 wounded, 2 incapacitated, 3 destroyed,
    accumulating: ambiguity 9)."""

    name: str
    guns: int
    fire_control: DieCode
    damage: DieCode
    ion: bool = False
    missile: bool = False
    points: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise FleetError("a battery needs a name")
        if isinstance(self.guns, bool) or not isinstance(self.guns, int) or self.guns < 1:
            raise FleetError(f"{self.name}: a battery has at least one gun")
        if self.guns > 10_000:
            raise FleetError(f"{self.name}: at most 10,000 guns in one battery")
        if self.points and len(self.points) != self.guns:
            raise FleetError(f"{self.name}: one damage count per gun")
        if any(p < 0 or p > 3 for p in self.points):
            raise FleetError(f"{self.name}: a gun's damage points are 0 to 3")
        if not any(self.points):  # one spelling for undamaged guns: equal values compare equal
            object.__setattr__(self, "points", ())

    @property
    def gun_points(self) -> tuple[int, ...]:
        return self.points or (0,) * self.guns

    @property
    def usable(self) -> int:
        """Guns that can fire: neither incapacitated nor destroyed."""
        return sum(1 for p in self.gun_points if p < 2)

    def count(self, points: int) -> int:
        return sum(1 for p in self.gun_points if p == points)

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "guns": self.guns,
            "fire_control": str(self.fire_control),
            "damage": str(self.damage),
            "ion": self.ion,
            "missile": self.missile,
            "points": list(self.points),
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        keys = ("name", "guns", "fire_control", "damage", "ion", "missile", "points")
        read = Reader(data, "battery", keys, FleetError)
        points = read.items("points")
        if not all(isinstance(p, int) and not isinstance(p, bool) for p in points):
            raise read.refuse("points", "a list of whole numbers")
        return cls(
            name=read.text("name"),
            guns=read.integer("guns", least=1),
            fire_control=_code(read, "fire_control"),
            damage=_code(read, "damage"),
            ion=read.flag("ion"),
            missile=read.flag("missile"),
            points=tuple(p for p in points if isinstance(p, int)),
        )


_SHIP_KEYS = (
    "id",
    "name",
    "side",
    "crew",
    "command",
    "pilot",
    "shields_officer",
    "hull",
    "maneuver",
    "sublight",
    "shields",
    "batteries",
    "damage",
    "facing",
    "burnt",
    "boosted",
    "shield_penalty",
    "evasion",
    "shield_roll",
    "fired",
    "ionized",
    "uncommanded",
)


@dataclass(frozen=True, slots=True)
class FleetShip:
    """A capital ship's template in the battle. ``crew`` is the crew code (to hit, evasion,
    shielding); ``command``, ``pilot`` and ``shields_officer`` are the captain's command and
    the officers' skills (ramming rolls the pilot, rerouting power the shields officer).
    ``facing`` is the facing the ship shows the enemy; ``burnt`` the shield facings shut down.
    This round: ``evasion`` and ``shield_roll`` (None until rolled), ``fired`` (batteries
    fired), ``boosted`` (the facing power was rerouted to) with ``shield_penalty`` dice off
    other shielding rolls, ``uncommanded`` (officers without a die of command; None: no orders
    given). ``ionized`` is the ionization in force this round; ``damage.ionization`` is what
    this round's hits leave for the next."""

    id: str
    name: str
    side: str
    crew: DieCode
    command: DieCode
    pilot: DieCode
    shields_officer: DieCode
    hull: DieCode
    maneuver: DieCode
    sublight: DieCode
    shields: DieCode
    batteries: tuple[Battery, ...]
    damage: CapitalState = field(default_factory=CapitalState)
    facing: str = "forward"
    burnt: tuple[str, ...] = ()
    boosted: str | None = None
    shield_penalty: int = 0
    evasion: int | None = None
    shield_roll: int | None = None
    fired: tuple[int, ...] = ()
    ionized: int = 0
    uncommanded: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if not self.id or len(self.id) > 40:
            raise FleetError("a ship's id is 1 to 40 characters")
        if not self.name.strip() or len(self.name) > 100:
            raise FleetError("a ship's name is 1 to 100 characters")
        if not self.side.strip() or len(self.side) > 40:
            raise FleetError(f"{self.name}: a side is 1 to 40 characters")
        if len(self.batteries) > 40:
            raise FleetError(f"{self.name}: at most 40 batteries")
        for facing in (self.facing, *self.burnt, *([self.boosted] if self.boosted else [])):
            if facing not in FACINGS:
                raise FleetError(f"unknown facing {facing!r}; choose one of {', '.join(FACINGS)}")
        if self.uncommanded is not None and not set(self.uncommanded) <= set(OFFICERS):
            raise FleetError(f"officers are {', '.join(OFFICERS)}")
        if any(not 0 <= b < len(self.batteries) for b in self.fired):
            raise FleetError(f"{self.name}: a fired battery must be one of its batteries")
        if min(self.shield_penalty, self.ionized) < 0:
            raise FleetError(f"{self.name}: penalties cannot be negative")

    # --- derived ---------------------------------------------------------------------------------
    @property
    def destroyed(self) -> bool:
        return self.damage.destroyed

    @property
    def shields_left(self) -> DieCode:
        """The shield code still standing (shield pips lost come off the one code: ambiguity
        5)."""
        return DieCode.from_pips(max(0, self.shields.total_pips - self.damage.shield_pips_lost))

    def facing_shields(self, facing: str) -> DieCode:
        """The shields a facing has now: none once burnt out, doubled while power is rerouted
        to it."""
        if facing in self.burnt:
            return DieCode()
        code = self.shields_left
        return code.doubled() if facing == self.boosted else code

    def shields_by_facing(self) -> dict[str, DieCode | None]:
        return {f: None if f in self.burnt else self.shields_left for f in FACINGS}

    def fire_control(self, battery: Battery) -> DieCode:
        """A battery's fire control less the fire-control row's pips."""
        return reduce_by_pips(battery.fire_control, self.damage.fire_control)

    def battery(self, index: int) -> Battery:
        if isinstance(index, bool) or not isinstance(index, int):
            raise FleetError("name a battery by its number")
        if not 0 <= index < len(self.batteries):
            raise FleetError(f"{self.name} has no battery {index + 1}")
        return self.batteries[index]

    def with_battery(self, index: int, battery: Battery) -> FleetShip:
        batteries = list(self.batteries)
        batteries[index] = battery
        return replace(self, batteries=tuple(batteries))

    # --- storage ---------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "side": self.side,
            "crew": str(self.crew),
            "command": str(self.command),
            "pilot": str(self.pilot),
            "shields_officer": str(self.shields_officer),
            "hull": str(self.hull),
            "maneuver": str(self.maneuver),
            "sublight": str(self.sublight),
            "shields": str(self.shields),
            "batteries": [b.to_json() for b in self.batteries],
            "damage": self.damage.to_json(),
            "facing": self.facing,
            "burnt": list(self.burnt),
            "boosted": self.boosted,
            "shield_penalty": self.shield_penalty,
            "evasion": self.evasion,
            "shield_roll": self.shield_roll,
            "fired": list(self.fired),
            "ionized": self.ionized,
            "uncommanded": None if self.uncommanded is None else list(self.uncommanded),
        }

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = Reader(data, "ship", _SHIP_KEYS, FleetError)
        try:
            damage = CapitalState.from_json(read.data["damage"])
        except CraftError as exc:
            raise FleetError(f"ship: {exc}") from None
        fired = read.items("fired")
        if not all(isinstance(b, int) and not isinstance(b, bool) for b in fired):
            raise read.refuse("fired", "a list of battery numbers")
        boosted = read.data["boosted"]
        if boosted is not None and not isinstance(boosted, str):
            raise read.refuse("boosted", "a facing or null")
        return cls(
            id=read.text("id"),
            name=read.text("name"),
            side=read.text("side"),
            crew=_code(read, "crew"),
            command=_code(read, "command"),
            pilot=_code(read, "pilot"),
            shields_officer=_code(read, "shields_officer"),
            hull=_code(read, "hull"),
            maneuver=_code(read, "maneuver"),
            sublight=_code(read, "sublight"),
            shields=_code(read, "shields"),
            batteries=tuple(Battery.from_json(b) for b in read.items("batteries")),
            damage=damage,
            facing=read.text("facing"),
            burnt=read.texts("burnt"),
            boosted=boosted,
            shield_penalty=read.integer("shield_penalty", least=0),
            evasion=read.optional_integer("evasion"),
            shield_roll=read.optional_integer("shield_roll"),
            fired=tuple(b for b in fired if isinstance(b, int)),
            ionized=read.integer("ionized", least=0),
            uncommanded=None if read.data["uncommanded"] is None else read.texts("uncommanded"),
        )


def ship_from_stats(
    stats: CraftStats,
    *,
    ship_id: str,
    side: str,
    crew: DieCode,
    name: str | None = None,
    command: DieCode | None = None,
    pilot: DieCode | None = None,
    shields_officer: DieCode | None = None,
) -> FleetShip:
    """A capital ship's template from its stat block: every weapon with a damage code becomes
    a battery (tractor beams and gravity wells are not guns); the officers default to the crew
    code. A craft that is not capital scale is refused."""
    if stats.kind != "capital" and stats.scale.key != "capital":
        raise FleetError(f"{stats.name} is not a capital ship; fleet actions are between those")
    if stats.hull is None:
        raise FleetError(f"{stats.name} has no hull code")
    batteries = tuple(
        Battery(
            name=w.code or w.name,
            guns=w.count,
            fire_control=w.fire_control,
            damage=w.damage,
            ion=w.kind == "ion",
            missile=w.kind in ("missile", "torpedo"),
        )
        for w in stats.weapons
        if w.damage is not None and w.kind not in _NO_BATTERY_KINDS
    )
    return FleetShip(
        id=ship_id,
        name=(name or stats.name).strip(),
        side=side.strip(),
        crew=crew,
        command=command or crew,
        pilot=pilot or crew,
        shields_officer=shields_officer or crew,
        hull=stats.hull,
        maneuver=stats.maneuverability or DieCode(),
        sublight=stats.sublight or DieCode(),
        shields=stats.shields or DieCode(),
        batteries=batteries,
    )


@dataclass(frozen=True, slots=True)
class FleetState:
    """The battle: its round and its ships, in the order they joined."""

    round: int = 1
    ships: tuple[FleetShip, ...] = ()

    def __post_init__(self) -> None:
        if self.round < 1:
            raise FleetError("rounds are counted from 1")
        ids = [s.id for s in self.ships]
        if len(set(ids)) != len(ids):
            raise FleetError("two ships share an id")
        if len(ids) > MAX_SHIPS:
            raise FleetError(f"a fleet action holds at most {MAX_SHIPS} ships")

    def ship(self, ship_id: object) -> FleetShip:
        for ship in self.ships:
            if ship.id == ship_id:
                return ship
        raise FleetError(f"there is no ship {ship_id!r} in this fleet action")

    def with_ship(self, ship: FleetShip) -> FleetState:
        return replace(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    def to_json(self) -> dict[str, Any]:
        return {"round": self.round, "ships": [s.to_json() for s in self.ships]}

    @classmethod
    def from_json(cls, data: object) -> Self:
        read = Reader(data, "fleet action", ("round", "ships"), FleetError)
        return cls(
            round=read.integer("round", least=1),
            ships=tuple(FleetShip.from_json(s) for s in read.items("ships")),
        )
