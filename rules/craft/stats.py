"""Vehicle and starship statistics: stat blocks and their weapons, the reference craft in
``rules/data``, the Rules Companion's weapon ranges and the Star Warriors export
(vehicles-and-starships.md §1, §2, §9).

Source tags: [UPG] Rules Upgrade, [WIKI] basic rules, [HOUSE] House Rules, [RC] Rules
Companion, [2E-STD] a standard Second Edition value the five sources do not print.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from importlib import resources
from typing import Any, Literal

from rules.craft._common import CraftError, CraftKind
from rules.dice import DieCode
from rules.errors import RulesError
from rules.scale import Scale

__all__ = [
    "RC_WEAPON_RANGES",
    "SWR_LONG_SHOT_OFFSETS",
    "SWR_SPEED",
    "SWR_SPEED_FIELDS",
    "CraftStats",
    "CraftWeapon",
    "RangeBands",
    "load_craft",
    "rc_weapon_ranges",
    "star_warriors_speed",
    "weapon_class",
]

ZERO = DieCode()


# ---------------------------------------------------------------------------------------------
# Stat blocks
# ---------------------------------------------------------------------------------------------
WeaponKind = Literal[
    "blaster",
    "laser",
    "turbolaser",
    "ion",
    "missile",
    "torpedo",
    "tractor",
    "gravity_well",
    "other",
]
Band = Literal["short", "medium", "long"]


@dataclass(frozen=True, slots=True)
class RangeBands:
    """Short / medium / long ranges in metres, as (from, to) pairs; ``long`` may be absent."""

    short: tuple[int, int]
    medium: tuple[int, int] | None = None
    long: tuple[int, int] | None = None
    needs_review: bool = False

    def band(self, metres: float) -> Band | None:
        """The band a distance falls in, or None outside the printed bands."""
        if metres < 0:
            raise CraftError("a distance cannot be negative")
        bands: tuple[Band, ...] = ("short", "medium", "long")
        for name in bands:
            bounds = getattr(self, name)
            if bounds is not None and bounds[0] <= metres <= bounds[1]:
                return name
        return None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"short": list(self.short)}
        data["medium"] = list(self.medium) if self.medium else None
        data["long"] = list(self.long) if self.long else None
        if self.needs_review:
            data["needs_review"] = True
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RangeBands:
        def pair(value: Any) -> tuple[int, int] | None:
            return None if value is None else (int(value[0]), int(value[1]))

        short = pair(data["short"])
        assert short is not None
        return cls(
            short, pair(data.get("medium")), pair(data.get("long")), data.get("needs_review", False)
        )


def _code(value: Any) -> DieCode | None:
    return None if value is None else DieCode.parse(value)


def _code_text(value: DieCode | None) -> str | None:
    return None if value is None else str(value)


@dataclass(frozen=True, slots=True)
class CraftWeapon:
    """One weapon entry: ``count`` guns of one type sharing fire control and damage.

    ``damage`` is None for a weapon without a damage code (an Interdictor's gravity well);
    ``scale`` is None when the weapon has its mount's scale; ``code`` keeps the [RC]
    abbreviation (TL, QLC …)."""

    name: str
    fire_control: DieCode = ZERO
    damage: DieCode | None = None
    count: int = 1
    kind: WeaponKind = "other"
    scale: Scale | None = None
    arc: str | None = None
    ranges: RangeBands | None = None
    code: str | None = None
    needs_review: bool = False
    crew: int | None = None
    range_text: str = ""

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise CraftError("a weapon needs a name")
        if self.crew is not None and (
            isinstance(self.crew, bool) or not isinstance(self.crew, int) or self.crew < 0
        ):
            raise CraftError(f"{self.name}: the weapon's crew cannot be negative")
        if isinstance(self.count, bool) or not isinstance(self.count, int) or self.count < 1:
            raise CraftError(f"{self.name}: the number of guns must be 1 or more")

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "code": self.code,
            "count": self.count,
            "kind": self.kind,
            "fire_control": str(self.fire_control),
            "damage": _code_text(self.damage),
            "scale": self.scale.key if self.scale is not None else None,
            "arc": self.arc,
            "ranges": self.ranges.to_dict() if self.ranges else None,
            "needs_review": self.needs_review,
            "crew": self.crew,
            "range_text": self.range_text,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CraftWeapon:
        return cls(
            name=data["name"],
            fire_control=DieCode.parse(data.get("fire_control") or "0D"),
            damage=_code(data.get("damage")),
            count=data.get("count", 1),
            kind=data.get("kind", "other"),
            scale=Scale.parse(data["scale"]) if data.get("scale") else None,
            arc=data.get("arc"),
            ranges=RangeBands.from_dict(data["ranges"]) if data.get("ranges") else None,
            code=data.get("code"),
            needs_review=data.get("needs_review", False),
            crew=data.get("crew"),
            range_text=data.get("range_text") or "",
        )


@dataclass(frozen=True, slots=True)
class CraftStats:
    """A vehicle's or starship's printed statistics. ``hull`` is the body strength of a
    vehicle. None means the source does not print the value (or the craft lacks it:
    ``hyperdrive`` None = no hyperdrive, ``shields`` None = no shields). ``sublight`` and
    ``speed_code`` are [RC] First Edition codes; ``move``/``kmh``/``space`` are Second
    Edition values. ``source`` is the digest tag (RC, UPG …), ``source_ref`` the place in the
    source text."""

    name: str
    kind: CraftKind
    scale: Scale
    maneuverability: DieCode | None = None
    hull: DieCode | None = None
    shields: DieCode | None = None
    move: int | None = None
    kmh: int | None = None
    space: int | None = None
    sublight: DieCode | None = None
    speed_code: DieCode | None = None
    atmosphere_maneuverability: DieCode | None = None
    hyperdrive: float | None = None
    nav_computer: bool | None = None
    crew_code: DieCode | None = None
    weapons: tuple[CraftWeapon, ...] = ()
    source: str = ""
    source_ref: str = ""
    notes: str = ""
    needs_review: bool = False
    # Display fields: common stat-block entries no rule in the sources reads (§2).
    craft_type: str = ""
    crew: int | None = None
    crew_skill: str = ""
    passengers: int | None = None
    cargo: str = ""
    consumables: str = ""
    backup_hyperdrive: float | None = None
    sensors: str = ""
    atmosphere_move: int | None = None
    atmosphere_kmh: int | None = None
    piloting_skill: str = ""

    _CODES = (
        "maneuverability",
        "hull",
        "shields",
        "sublight",
        "speed_code",
        "atmosphere_maneuverability",
        "crew_code",
    )

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise CraftError("a craft needs a name")
        if self.kind not in ("vehicle", "starship", "capital"):
            raise CraftError(f"{self.name}: kind must be vehicle, starship or capital")
        for name in ("move", "kmh", "space", "crew", "passengers", "atmosphere_move"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or value < 0):
                raise CraftError(f"{self.name}: {name.replace('_', ' ')} cannot be negative")
        if self.atmosphere_kmh is not None and self.atmosphere_kmh < 0:
            raise CraftError(f"{self.name}: atmosphere km/h cannot be negative")
        for name in ("hyperdrive", "backup_hyperdrive"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise CraftError(f"{self.name}: a hyperdrive multiplier must be above 0")
        for name in self._CODES:
            code = getattr(self, name)
            if code is not None and (code.dice < 0 or code.pips < 0):
                raise CraftError(f"{self.name}: {name.replace('_', ' ')} cannot be negative")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "scale": self.scale.key}
        for f in dataclasses.fields(self):
            if f.name in data or f.name.startswith("_"):
                continue
            value = getattr(self, f.name)
            if f.name in self._CODES:
                value = _code_text(value)
            elif f.name == "weapons":
                value = [w.to_dict() for w in value]
            data[f.name] = value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CraftStats:
        known = {f.name for f in dataclasses.fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise CraftError(f"unknown craft field(s): {', '.join(sorted(unknown))}")
        values = dict(data)
        values["scale"] = Scale.parse(data["scale"])
        for name in cls._CODES:
            values[name] = _code(data.get(name))
        values["weapons"] = tuple(CraftWeapon.from_dict(w) for w in data.get("weapons", ()))
        return cls(**values)

    def to_json(self) -> dict[str, Any]:
        """The stat block as stored by the app (JSON-safe; :meth:`from_json` reads it)."""
        return self.to_dict()

    @classmethod
    def from_json(cls, data: object) -> CraftStats:
        """A stat block stored by :meth:`to_json`; a :class:`CraftError` for anything else."""
        if not isinstance(data, dict):
            raise CraftError("a stored stat block must be an object")
        try:
            return cls.from_dict(data)
        except CraftError:
            raise
        except RulesError as exc:
            raise CraftError(f"bad stored stat block: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
            raise CraftError(f"bad stored stat block: {exc!r}") from None


def load_craft(file: Literal["starships", "vehicles"]) -> tuple[CraftStats, ...]:
    """The reference craft in ``rules/data/<file>.json``."""
    if file not in ("starships", "vehicles"):
        raise CraftError("reference craft are in 'starships' or 'vehicles'")
    text = resources.files("rules").joinpath("data", f"{file}.json").read_text(encoding="utf-8")
    document = json.loads(text)
    return tuple(CraftStats.from_dict(entry) for entry in document["craft"])


# ---------------------------------------------------------------------------------------------
# Weapon ranges [RC] "Additional Weapons Chart" (000 l.1268-1301)
# ---------------------------------------------------------------------------------------------
def _bands(
    short: tuple[int, int],
    medium: tuple[int, int] | None = None,
    long: tuple[int, int] | None = None,
    review: bool = False,
) -> RangeBands:
    return RangeBands(short, medium, long, review)


RC_WEAPON_RANGES: dict[tuple[str, str], RangeBands] = {
    ("speeder", "light"): _bands((50, 300), (301, 500), (501, 1000)),
    ("speeder", "medium"): _bands((50, 300), (301, 800), (801, 1500)),
    ("speeder", "heavy"): _bands((50, 400), (401, 900), (901, 2000)),
    ("artillery", "light"): _bands((10, 500), (501, 2000), (2001, 10000)),
    ("artillery", "medium"): _bands((20, 600), (601, 3000), (3001, 16000)),
    ("artillery", "heavy"): _bands((50, 600), (601, 5000), (5001, 25000)),
    ("starfighter", "blaster"): _bands((200, 10000), (10001, 20000), (20001, 35000)),
    # printed "2504,000" (ambiguity 13)
    ("starfighter", "missile"): _bands((250, 4000), (4001, 17000), (17001, 30000), True),
    ("starfighter", "laser"): _bands((200, 5000), (5001, 25000), (25001, 50000)),
    # printed "5-5,000"; long 75,000 looks too long (ambiguity 13)
    ("starfighter", "ion"): _bands((5, 5000), (5001, 15000), (15001, 75000), True),
    # only one band printed: the whole usable range
    ("starfighter", "torpedo"): _bands((500, 15000), None, None, True),
    # medium printed "25,001-60,500" against long "60,001-"
    ("capital", "missile"): _bands((3000, 25000), (25001, 60500), (60001, 125000), True),
    ("capital", "turbolaser"): _bands((5000, 30000), (30001, 70000), (70001, 150000)),
    ("capital", "ion"): _bands((2000, 20000), (20001, 50000), (50001, 100000)),
    ("capital", "tractor"): _bands((1000, 10000), (10001, 30000), (30001, 60000)),
}


def weapon_class(damage: DieCode) -> Literal["light", "medium", "heavy"]:
    """Speeder-mounted and artillery weapons are classed by damage: 1D-2D+ light, 3D-4D+
    medium, 5D+ heavy [RC] (V21: a 1D+2 cloud car cannon is light)."""
    if damage.dice >= 5:
        return "heavy"
    return "medium" if damage.dice >= 3 else "light"


def rc_weapon_ranges(mount: str, weapon: str | DieCode) -> RangeBands:
    """Ranges for a mount (speeder, artillery, starfighter, capital) and a weapon type, or for
    speeder and artillery weapons their damage code."""
    kind = weapon_class(weapon) if isinstance(weapon, DieCode) else weapon
    try:
        return RC_WEAPON_RANGES[(mount, kind)]
    except KeyError:
        raise CraftError(f"the Rules Companion prints no ranges for a {mount} {kind}") from None


# ---------------------------------------------------------------------------------------------
# Star Warriors export [RC] (000 l.1808-1905)
# ---------------------------------------------------------------------------------------------
SWR_SPEED_FIELDS = (
    "speed_max",
    "overspeed",
    "accelerate",
    "over_accelerate",
    "decelerate",
    "over_decelerate",
)
#: Sublight code (1D … 10D, by pips from 3) -> Star Warriors speed values; None = unreadable.
SWR_SPEED: dict[int, tuple[int | None, ...]] = {
    3: (2, 8, 5, 12, 5, 14),
    4: (2, 7, 4, 11, 5, 13),
    5: (3, 7, 4, 11, 5, 13),
    6: (3, 7, 4, 10, 4, 12),
    7: (4, 6, 4, 10, 4, 12),
    8: (4, 6, 3, 9, 4, 11),
    9: (5, 6, 3, 9, 4, 10),
    10: (5, 5, 3, 8, 3, 10),
    11: (6, 5, 3, 8, 3, 9),
    12: (6, 5, 2, 7, 3, 9),
    13: (7, 4, 2, 7, 3, 8),
    14: (7, 4, 2, 6, 2, 8),
    15: (8, 4, 2, 6, 2, 7),
    16: (8, 3, 1, 5, 2, 6),
    17: (None, 3, 1, 5, 2, 6),
    18: (9, 3, 1, 4, 1, 5),
    19: (9, 2, 1, 4, 1, 5),
    20: (10, 2, 1, 3, 1, 4),
    21: (10, 2, 1, 3, 1, 3),
    22: (11, 1, 1, 2, 1, 3),
    23: (11, 1, 1, 2, 1, 2),
    24: (12, 1, 1, 1, 1, 2),
    25: (12, 1, 1, 1, 1, 1),
    26: (13, 1, 1, 1, 1, 1),
    27: (13, 1, 1, 1, 1, 1),
    28: (14, 1, 1, 1, 1, 1),
    29: (14, 1, 1, 1, 1, 1),
    30: (15, 1, 1, 1, 1, 1),
}
#: Long Shot offsets, the only ones the OCR keeps (000 l.1845-1856).
SWR_LONG_SHOT_OFFSETS = (2, 2, 2, -1, 4, 4)


def star_warriors_speed(
    sublight: DieCode, offsets: tuple[int, ...] = (0, 0, 0, 0, 0, 0)
) -> dict[str, int | None]:
    """Star Warriors speed values for a sublight code, plus a ship's offsets (V18: 4D+1 ->
    7/4/2/7/3/8; V19: the Long Shot at 3D+2 -> 8/7/5/7/7/13)."""
    if sublight.total_pips not in SWR_SPEED or not sublight.is_standard:
        raise CraftError("the Star Warriors speed chart covers sublight 1D to 10D")
    if len(offsets) != len(SWR_SPEED_FIELDS):
        raise CraftError("give one offset for each of the six speed values")
    base = SWR_SPEED[sublight.total_pips]
    return {
        name: None if value is None else value + offset
        for name, value, offset in zip(SWR_SPEED_FIELDS, base, offsets, strict=True)
    }
